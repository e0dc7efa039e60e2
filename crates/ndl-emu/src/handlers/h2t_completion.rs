//! H2T completion queues (`ndl-std` family `h2t_completion`; driver 2.27.4.0 and newer):
//! GET_ASYNC_H2T_DMA_COMPL_QUEUES answers where each queue's region is in the device's mmap
//! space. A region is the 16-byte `neuron_h2d_dma_compl_queue` header (capacity, head, tail)
//! and `capacity` 24-byte entries (`abi/README.md`, 2.26.5.0 -> 2.27.4.0).
//!
//! The handler note states the checks (core in range; "the H2T engine of that core must
//! have a completion queue for qid (else -EINVAL)") but not which queues have one, nor their
//! capacity. **The model's choice**: the queues the driver uses for its own host copies —
//! the core's default H2T queue and the copy queues H2T_DMA_ALLOC_QUEUES handed out — each
//! get one, allocated at the first query as a device-lifespan host chunk of one page
//! ([`CAPACITY`] entries), kept for the device's lifetime (at most 16 per H2T engine). The
//! model completes its copies before the ioctl returns and posts no entries: head and tail
//! stay 0.

use zerocopy::{FromZeros, IntoBytes};

use ndl_abi::v2_27_4_0::{GetAsyncH2tDmaComplQueues, H2dDmaComplQueue, H2dDmaComplQueueEntry};
use ndl_std::{Errno, MemLocation};

use super::{Answer, DONE};
use crate::state::{Call, DeviceState, Lifespan, PAGE};

/// Entries of a completion queue: the model's choice, what fills one page after the header
/// (16 + 170 x 24 = 4096 bytes).
pub(crate) const CAPACITY: u32 = 170;

const REGION_BYTES: u64 = size_of::<H2dDmaComplQueue>() as u64
    + CAPACITY as u64 * size_of::<H2dDmaComplQueueEntry>() as u64;
const _: () = assert!(REGION_BYTES == PAGE);

/// Whether queue `qid` of H2T engine `eng` has a completion queue for core `nc` (the
/// model's choice, see the module docs).
fn has_queue(d: &DeviceState, nc: u32, eng: u32, qid: u32) -> bool {
    d.facts.scalars.h2t_default_queue(nc) == Ok(qid)
        || d.h2t_owned.get(&(eng, qid)).is_some_and(|o| o.copy)
}

/// The region of (`eng`, `qid`): its mmap cookie, allocated and its header written at the
/// first call.
fn region(d: &mut DeviceState, (eng, qid): (u32, u32), tgid: u32) -> Result<u64, Errno> {
    if let Some(m) = d.compl_queues.get(&(eng, qid)).and_then(|h| d.mem(*h).ok()) {
        return Ok(m.cookie);
    }
    let h = d.alloc(REGION_BYTES, 0, MemLocation::Host, tgid, Lifespan::Device)?;
    let mut header = H2dDmaComplQueue::new_zeroed();
    header.capacity = CAPACITY;
    let m = *d.mem(h)?;
    d.write(m.addr, header.as_bytes())?;
    d.compl_queues.insert((eng, qid), h);
    Ok(m.cookie)
}

/// GET_ASYNC_H2T_DMA_COMPL_QUEUES: EINVAL for a core the device lacks or a set bit whose
/// queue has no completion queue (bits 16 and up name no queue: EINVAL too, the model's
/// reading of "qid (< 16)"); else each set bit's entry gets the region's offset and size.
pub(crate) fn get_queues(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut GetAsyncH2tDmaComplQueues,
) -> Answer {
    let nc = a.nc_id;
    d.check_nc(nc)?;
    let eng = super::h2t::engine_of(d, nc).ok_or(Errno::INVAL)?;
    let wanted = (0..u32::BITS).filter(|q| a.qid_bitmap & (1 << q) != 0);
    for qid in wanted.clone() {
        let listed = usize::try_from(qid).is_ok_and(|q| q < a.compl_queue_info.len());
        if !listed || !has_queue(d, nc, eng, qid) {
            return Err(Errno::INVAL);
        }
    }
    for qid in wanted {
        let cookie = region(d, (eng, qid), call.tgid)?;
        let info = a
            .compl_queue_info
            .get_mut(usize::try_from(qid).map_err(|_| Errno::INVAL)?)
            .ok_or(Errno::INVAL)?;
        info.mmap_offset = cookie;
        info.mmap_size = REGION_BYTES as u32;
    }
    DONE
}
