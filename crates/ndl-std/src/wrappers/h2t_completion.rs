//! H2T completion queues (driver 2.27.4.0): GET_ASYNC_H2T_DMA_COMPL_QUEUES tells where each
//! queue's region is in the device's mmap space, and the caller maps it. A region is the
//! 16-byte `neuron_h2d_dma_compl_queue` header (capacity, head, tail) followed by `capacity`
//! 24-byte `neuron_h2d_dma_compl_queue_entry` records (`abi/README.md`, 2.26.5.0 -> 2.27.4.0).
//!
//! The tables give the layout, not the protocol: which side moves `head` and `tail` is not
//! stated, so [`ComplQueue`] only reads.

use core::mem::offset_of;

use zerocopy::{FromBytes, FromZeros};

use crate::error::{Error, Result};
use crate::gateway::{Device, DeviceHandle, ioctl};
use crate::kernel::Kernel;
use crate::mapping::Mapping;
use ndl_abi::v2_27_4_0::{
    ComplQueueInfo, GET_ASYNC_H2T_DMA_COMPL_QUEUES, GetAsyncH2tDmaComplQueues, H2dDmaComplQueue,
    H2dDmaComplQueueEntry,
};

/// Where one H2T completion queue can be mapped (GET_ASYNC_H2T_DMA_COMPL_QUEUES' answer for
/// one queue id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComplQueueRegion {
    /// The H2T queue id.
    pub qid: u8,
    /// The mmap cookie of the region.
    pub mmap_offset: u64,
    /// The region's size: the header plus `capacity` entries.
    pub mmap_size: u32,
}

/// A queue's header, as last read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComplQueueHeader {
    /// Entries the region holds.
    pub capacity: u32,
    /// The header's `head` word.
    pub head: u32,
    /// The header's `tail` word.
    pub tail: u32,
}

/// One completion record: the sequence number of the transfer, its result, and the caller's
/// context pointer (returned as the address it was).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Completion {
    /// `sequence_num`.
    pub sequence_num: u64,
    /// `compl_ret`.
    pub compl_ret: i64,
    /// `context`, as an address.
    pub context: u64,
}

/// A mapped H2T completion queue, read through the mapping (never by reference).
#[derive(Debug)]
pub struct ComplQueue<'a, K: Kernel> {
    map: Mapping<'a, K>,
    qid: u8,
}

const ENTRY_BYTES: usize = size_of::<H2dDmaComplQueueEntry>();
const FIRST_ENTRY: usize = offset_of!(H2dDmaComplQueue, entries);

impl<K: Kernel> Device<'_, K> {
    /// GET_ASYNC_H2T_DMA_COMPL_QUEUES (2.27.4.0): the region of every completion queue whose
    /// bit is set in `qid_bitmap` on core `nc_id`'s H2T engine, in queue order. The driver
    /// answers EINVAL for a core it does not have or a queue without a completion queue.
    pub fn get_async_h2t_dma_compl_queues(
        &self,
        nc_id: u32,
        qid_bitmap: u32,
    ) -> Result<Vec<ComplQueueRegion>> {
        let mut arg = GetAsyncH2tDmaComplQueues::new_zeroed();
        let queues = arg.compl_queue_info.len();
        if qid_bitmap.checked_shr(queues as u32).unwrap_or(0) != 0 {
            return Err(Error::OutOfRange {
                cmd: GET_ASYNC_H2T_DMA_COMPL_QUEUES.name(),
                what: "qid_bitmap (one entry per queue below 16)",
                value: qid_bitmap.into(),
            });
        }
        arg.nc_id = nc_id;
        arg.qid_bitmap = qid_bitmap;
        ioctl!(self, GET_ASYNC_H2T_DMA_COMPL_QUEUES, &mut arg)?;
        let region = |(qid, info): (usize, &ComplQueueInfo)| ComplQueueRegion {
            qid: qid as u8, // below 16, the array's length
            mmap_offset: info.mmap_offset,
            mmap_size: info.mmap_size,
        };
        Ok(arg
            .compl_queue_info
            .iter()
            .enumerate()
            .filter(|(qid, _)| qid_bitmap & (1 << qid) != 0)
            .map(region)
            .collect())
    }
}

impl<'a, K: Kernel> DeviceHandle<'a, K> {
    /// Maps the completion queue at `region` (from
    /// [`Device::get_async_h2t_dma_compl_queues`]).
    pub fn map_compl_queue(&self, region: ComplQueueRegion) -> Result<ComplQueue<'a, K>> {
        let map = self.map(region.mmap_offset, region.mmap_size.into())?;
        let queue = ComplQueue {
            map,
            qid: region.qid,
        };
        // The region must hold its header and the entries the header announces.
        let header = queue.header()?;
        queue.entry_offset(header.capacity.saturating_sub(1), header.capacity)?;
        Ok(queue)
    }
}

impl<K: Kernel> ComplQueue<'_, K> {
    /// The H2T queue id.
    pub fn qid(&self) -> u8 {
        self.qid
    }

    /// Reads the header.
    pub fn header(&self) -> Result<ComplQueueHeader> {
        let mut bytes = [0u8; size_of::<H2dDmaComplQueue>()];
        self.map.read_bytes(0, &mut bytes)?;
        let h = H2dDmaComplQueue::read_from_bytes(&bytes).map_err(|_| self.short(0))?;
        Ok(ComplQueueHeader {
            capacity: h.capacity,
            head: h.head,
            tail: h.tail,
        })
    }

    /// Reads entry `index` (below the header's capacity).
    pub fn entry(&self, index: u32) -> Result<Completion> {
        let at = self.entry_offset(index, self.header()?.capacity)?;
        let mut bytes = [0u8; ENTRY_BYTES];
        self.map.read_bytes(at, &mut bytes)?;
        let e = H2dDmaComplQueueEntry::read_from_bytes(&bytes).map_err(|_| self.short(at))?;
        Ok(Completion {
            sequence_num: e.sequence_num,
            compl_ret: e.compl_ret,
            context: e.context.addr(),
        })
    }

    /// Byte offset of entry `index` of a queue of `capacity` entries, inside the mapping.
    fn entry_offset(&self, index: u32, capacity: u32) -> Result<usize> {
        let out = |what, value| Error::OutOfRange {
            cmd: GET_ASYNC_H2T_DMA_COMPL_QUEUES.name(),
            what,
            value,
        };
        if capacity == 0 {
            return Ok(FIRST_ENTRY);
        }
        if index >= capacity {
            return Err(out("completion entry index", index.into()));
        }
        let at = usize::try_from(index)
            .ok()
            .and_then(|i| i.checked_mul(ENTRY_BYTES))
            .and_then(|o| o.checked_add(FIRST_ENTRY))
            .filter(|o| o.saturating_add(ENTRY_BYTES) <= self.map.len())
            .ok_or(out("completion queue capacity", capacity.into()))?;
        Ok(at)
    }

    fn short(&self, at: usize) -> Error {
        Error::OutOfRange {
            cmd: GET_ASYNC_H2T_DMA_COMPL_QUEUES.name(),
            what: "completion queue offset",
            value: at as u64,
        }
    }
}
