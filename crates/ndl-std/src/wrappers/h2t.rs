//! H2T service and copy queues (device lane): the only DMA queues the driver hands out and
//! tracks per process (`reference/dma-path.md` step 1).

use zerocopy::FromZeros;

use crate::error::Result;
use crate::gateway::{Device, ioctl};
use crate::kernel::Kernel;
use ndl_abi::{H2T_DMA_ALLOC_QUEUES, H2T_DMA_FREE_QUEUES};
use ndl_abi::{H2tDmaAllocQueues, H2tDmaFreeQueues};

/// What H2T_DMA_ALLOC_QUEUES handed out: one bit per queue id of the core's H2T engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct H2tQueues {
    /// Copy queues allocated.
    pub copy_bmap: u32,
    /// Service queues allocated.
    pub service_bmap: u32,
    /// The queue the driver's own copies for this core use.
    pub copy_default_queue: u32,
}

/// The `sz` field: the driver checks it against the struct it expects.
const fn sz<T>() -> u16 {
    // Both H2T structs are at most 20 bytes.
    size_of::<T>() as u16
}

impl<K: Kernel> Device<'_, K> {
    /// H2T_DMA_ALLOC_QUEUES: `copy` copy queues and `service` service queues of core
    /// `nc_id`'s H2T engine, owned by this process until [`Device::h2t_dma_free_queues`] (the
    /// driver does not give them back at exit; only a reset of the core does). E2BIG when
    /// `nc_id` is not a core or the total reaches 16.
    pub fn h2t_dma_alloc_queues(&self, nc_id: u32, copy: u16, service: u16) -> Result<H2tQueues> {
        let cmd = H2T_DMA_ALLOC_QUEUES.name();
        let mut arg = H2tDmaAllocQueues::new_zeroed();
        arg.sz = sz::<H2tDmaAllocQueues>();
        arg.nc_id = u16::try_from(nc_id).map_err(|_| crate::Error::OutOfRange {
            cmd,
            what: "nc_id",
            value: nc_id.into(),
        })?;
        arg.copy_queue_cnt = copy;
        arg.service_queue_cnt = service;
        ioctl!(self, H2T_DMA_ALLOC_QUEUES, &mut arg)?;
        Ok(H2tQueues {
            copy_bmap: arg.copy_queue_bmap,
            service_bmap: arg.service_queue_bmap,
            copy_default_queue: arg.copy_default_queue,
        })
    }

    /// H2T_DMA_FREE_QUEUES: gives back the queues of `queue_bmap` on core `nc_id`'s H2T
    /// engine.
    pub fn h2t_dma_free_queues(&self, nc_id: u32, queue_bmap: u32) -> Result<()> {
        let cmd = H2T_DMA_FREE_QUEUES.name();
        let mut arg = H2tDmaFreeQueues::new_zeroed();
        arg.sz = sz::<H2tDmaFreeQueues>();
        // The struct carries the core as a byte.
        arg.nc_id = u8::try_from(nc_id).map_err(|_| crate::Error::OutOfRange {
            cmd,
            what: "nc_id",
            value: nc_id.into(),
        })?;
        arg.queue_bmap = queue_bmap;
        ioctl!(self, H2T_DMA_FREE_QUEUES, &mut arg)
    }
}
