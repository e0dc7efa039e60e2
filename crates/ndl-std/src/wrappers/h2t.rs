//! Host-to-device (H2T) DMA queue allocation (device lane).

use zerocopy::FromZeros;

use crate::error::Result;
use crate::gateway::{Device, ioctl};
use crate::ioctl_codes::{H2T_DMA_ALLOC_QUEUES, H2T_DMA_FREE_QUEUES};
use crate::ioctl_structs::{H2tDmaAllocQueues, H2tDmaFreeQueues};
use crate::kernel::Kernel;

/// H2T_DMA_ALLOC_QUEUES's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct H2tQueues {
    /// Bitmap of the copy queues granted.
    pub copy_queue_bmap: u32,
    /// Bitmap of the service queues granted.
    pub service_queue_bmap: u32,
    /// The default copy queue.
    pub copy_default_queue: u32,
}

impl<K: Kernel> Device<'_, K> {
    /// H2T_DMA_ALLOC_QUEUES: asks for `copy_queue_cnt` copy and `service_queue_cnt` service
    /// queues for core `nc_id`. `sz` is set to the struct size (20), the header's convention
    /// for its versioned `sz` fields.
    pub fn h2t_dma_alloc_queues(
        &self,
        nc_id: u16,
        copy_queue_cnt: u16,
        service_queue_cnt: u16,
    ) -> Result<H2tQueues> {
        let mut arg = H2tDmaAllocQueues::new_zeroed();
        arg.sz = size_of::<H2tDmaAllocQueues>() as u16; // 20
        arg.nc_id = nc_id;
        arg.copy_queue_cnt = copy_queue_cnt;
        arg.service_queue_cnt = service_queue_cnt;
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, H2T_DMA_ALLOC_QUEUES, &mut arg) }?;
        Ok(H2tQueues {
            copy_queue_bmap: arg.copy_queue_bmap,
            service_queue_bmap: arg.service_queue_bmap,
            copy_default_queue: arg.copy_default_queue,
        })
    }

    /// H2T_DMA_FREE_QUEUES: frees the queues in `queue_bmap` of core `nc_id`.
    pub fn h2t_dma_free_queues(&self, nc_id: u8, queue_bmap: u32) -> Result<()> {
        let mut arg = H2tDmaFreeQueues::new_zeroed();
        arg.sz = size_of::<H2tDmaFreeQueues>() as u16; // 8
        arg.nc_id = nc_id;
        arg.queue_bmap = queue_bmap;
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, H2T_DMA_FREE_QUEUES, &mut arg) }
    }
}
