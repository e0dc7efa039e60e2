//! H2T queues (`ndl-std` family `h2t`): ownership as the driver keeps it (`reference/dma-path.md` step 1): the default
//! queue of each core on its H2T engine and the copy queues from H2T_DMA_ALLOC_QUEUES are
//! the driver's (DMA_QUEUE_INIT answers EALREADY on them); service queues are handed to the
//! allocating process.

use ndl_abi::{H2tDmaAllocQueues, H2tDmaFreeQueues};
use ndl_std::Errno;
use udma_desc::QUEUES_PER_ENGINE;

use super::{Answer, DONE};
use crate::state::{Call, DeviceState, H2tOwner};

/// The H2T engine of core `nc`.
pub(crate) fn engine_of(d: &DeviceState, nc: u32) -> Option<u32> {
    d.facts.scalars.h2t_engine_id(nc).ok().map(u32::from)
}

/// Queues of H2T engine `eng` the driver's own copies use: the default queue of every core
/// sharing it (V2 queue 0; V3/V4 queues 0 and 1).
pub(crate) fn default_queues(d: &DeviceState, eng: u32) -> impl Iterator<Item = u32> + '_ {
    (0..d.nc_count())
        .filter(move |&nc| engine_of(d, nc) == Some(eng))
        .filter_map(|nc| d.facts.scalars.h2t_default_queue(nc).ok())
}

/// Whether DMA_QUEUE_INIT on (`eng`, `qid`) meets a ring the driver uses for its own host
/// copies (EALREADY).
pub(crate) fn driver_owned(d: &DeviceState, eng: u32, qid: u32) -> bool {
    default_queues(d, eng).any(|q| q == qid) || d.h2t_owned.get(&(eng, qid)).is_some_and(|o| o.copy)
}

/// H2T_DMA_ALLOC_QUEUES: E2BIG for a core out of range or 16 queues or more; -1 (EPERM)
/// when the engine has fewer free queues than asked; lowest free ids first, copy queues
/// before service queues.
pub(crate) fn alloc(d: &mut DeviceState, call: &Call<'_>, a: &mut H2tDmaAllocQueues) -> Answer {
    let tgid = call.tgid;
    let nc = u32::from(a.nc_id);
    let total = u32::from(a.copy_queue_cnt) + u32::from(a.service_queue_cnt);
    if nc >= d.nc_count() || total >= u32::from(QUEUES_PER_ENGINE) {
        return Err(Errno::TOOBIG);
    }
    let eng = engine_of(d, nc).ok_or(Errno::TOOBIG)?;
    let free: Vec<u32> = (0..u32::from(QUEUES_PER_ENGINE))
        .filter(|&q| !default_queues(d, eng).any(|dq| dq == q))
        .filter(|q| !d.h2t_owned.contains_key(&(eng, *q)))
        .collect();
    let take = usize::try_from(total).map_err(|_| Errno::TOOBIG)?;
    if free.len() < take {
        return Err(Errno::PERM);
    }
    let (mut copy_bmap, mut service_bmap) = (0u32, 0u32);
    for (i, &q) in free.iter().take(take).enumerate() {
        let copy = i < usize::from(a.copy_queue_cnt);
        d.h2t_owned.insert((eng, q), H2tOwner { tgid, copy });
        if copy {
            copy_bmap |= 1 << q;
        } else {
            service_bmap |= 1 << q;
        }
    }
    a.copy_queue_bmap = copy_bmap;
    a.service_queue_bmap = service_bmap;
    a.copy_default_queue = d
        .facts
        .scalars
        .h2t_default_queue(nc)
        .map_err(|_| Errno::TOOBIG)?;
    DONE
}

/// H2T_DMA_FREE_QUEUES: gives back the queues of `queue_bmap` on the core's engine. (The
/// reference states no refusal; a core out of range answers EINVAL here; with strict
/// isolation another process's queues stay held.)
pub(crate) fn free(d: &mut DeviceState, _: &Call<'_>, a: &mut H2tDmaFreeQueues) -> Answer {
    let eng = engine_of(d, a.nc_id.into()).ok_or(Errno::INVAL)?;
    for q in 0..u32::from(QUEUES_PER_ENGINE) {
        let held_by_other = d
            .h2t_owned
            .get(&(eng, q))
            .is_some_and(|o| d.foreign(o.tgid));
        // Isolated, another process's queue is one the caller does not hold: left alone.
        if a.queue_bmap & (1 << q) != 0 && !held_by_other {
            d.h2t_owned.remove(&(eng, q));
        }
    }
    DONE
}
