//! NeuronCore services (`ndl-std` family `nc`): semaphores and events, notification queues,
//! the core reader/writer locks, core init state, started-model counts, core reset, and HBM
//! scrubbing.

use khal::Generation;
use ndl_abi::{
    CinitSet, Crwl, DeviceReady, DeviceReset, Event, HbmScrubStart, HbmScrubWait,
    NcModelStartedCount, NotificationsInitV1, NotificationsInitV2, NotificationsInitWithReallocV2,
    Semaphore,
};
use ndl_std::{Errno, MemLocation};
use neuron_emu::RegionKind;

use super::{Answer, DONE, len, location};
use crate::state::{Call, CoreLock, DeviceState, Lifespan};

/// The semaphore `a` names (EINVAL for a core or index out of range).
fn semaphore<'d>(d: &'d mut DeviceState, a: &Semaphore) -> Result<&'d mut u32, Errno> {
    d.check_nc(a.nc_id)?;
    if a.semaphore_index >= u32::from(d.facts.scalars.semaphore_count) {
        return Err(Errno::INVAL);
    }
    Ok(d.semaphores
        .entry((a.nc_id, a.semaphore_index))
        .or_default())
}

/// SEMAPHORE_INCREMENT.
pub(crate) fn sem_increment(d: &mut DeviceState, _: &Call<'_>, a: &mut Semaphore) -> Answer {
    let v = semaphore(d, a)?;
    *v = v.wrapping_add(a.value);
    DONE
}

/// SEMAPHORE_DECREMENT.
pub(crate) fn sem_decrement(d: &mut DeviceState, _: &Call<'_>, a: &mut Semaphore) -> Answer {
    let v = semaphore(d, a)?;
    *v = v.wrapping_sub(a.value);
    DONE
}

/// SEMAPHORE_WRITE.
pub(crate) fn sem_write(d: &mut DeviceState, _: &Call<'_>, a: &mut Semaphore) -> Answer {
    *semaphore(d, a)? = a.value;
    DONE
}

/// SEMAPHORE_READ: the value goes back in the struct.
pub(crate) fn sem_read(d: &mut DeviceState, _: &Call<'_>, a: &mut Semaphore) -> Answer {
    a.value = *semaphore(d, a)?;
    DONE
}

/// The event `a` names (EINVAL for a core or index out of range).
fn event<'d>(d: &'d mut DeviceState, a: &Event) -> Result<&'d mut u32, Errno> {
    d.check_nc(a.nc_id)?;
    if a.event_index >= u32::from(d.facts.scalars.event_count) {
        return Err(Errno::INVAL);
    }
    Ok(d.events.entry((a.nc_id, a.event_index)).or_default())
}

/// EVENT_SET.
pub(crate) fn event_set(d: &mut DeviceState, _: &Call<'_>, a: &mut Event) -> Answer {
    *event(d, a)? = a.value;
    DONE
}

/// EVENT_GET: the value goes back in the struct.
pub(crate) fn event_get(d: &mut DeviceState, _: &Call<'_>, a: &mut Event) -> Answer {
    a.value = *event(d, a)?;
    DONE
}

/// Queues per notification-queue type, every arch (`address-map.tsv`: `V2_MAX_NQ_QUEUES`,
/// `V3_MAX_NQ_QUEUES` 0x10; nq id = type * 16 + index).
const MAX_NQ_QUEUES: u32 = 16;

/// Notification-queue types of generation `g` (`address-map.tsv`: `V2_MAX_NQ_TYPE` 6,
/// `V3_MAX_NQ_TYPE` 5; V4 runs V3's code). Exhaustive: a new generation states its own.
const fn max_nq_type(g: Generation) -> u32 {
    match g {
        Generation::V2 => 6,
        Generation::V3 | Generation::V4 => 5,
    }
}

/// Refuses a notification-queue key naming no queue of the device (EINVAL): the type and
/// index must give an nq id below the arch's `MAX_NQ_SUPPORTED`, and the queue's device (a
/// core or a TOP_SP) must exist. The reference gives the limits but not where the driver
/// checks them: refusing here is the model's reading, so that a caller cannot make the
/// device keep rings under made-up keys (issue 25 item 2).
fn check_nq_key(d: &DeviceState, (dev_id, nq_type, index): (u32, u32, u32)) -> Result<(), Errno> {
    let devices = d.nc_count().max(u32::from(d.facts.scalars.ts_per_device));
    if dev_id >= devices || nq_type >= max_nq_type(d.facts.generation) || index >= MAX_NQ_QUEUES {
        return Err(Errno::INVAL);
    }
    Ok(())
}

/// Finds or allocates the notification ring of `key` (the same size again finds the ring
/// it has unless `force`); answers its mmap cookie and handle.
pub(crate) fn notif_init(
    d: &mut DeviceState,
    key: (u32, u32, u32),
    (size, at): (u32, MemLocation),
    force: bool,
    tgid: u32,
) -> Result<(u64, u64), Errno> {
    if size == 0 || !size.is_power_of_two() {
        return Err(Errno::INVAL);
    }
    check_nq_key(d, key)?;
    if !force {
        if let Some(m) = d
            .notif_queues
            .get(&key)
            .and_then(|h| d.mem(*h).ok().map(|m| (*h, m)))
        {
            if m.1.size == u64::from(size) {
                return Ok((m.1.cookie, m.0));
            }
        }
    }
    // A device-lifespan chunk (mmap-README.md): writable by every process that maps it, not
    // freed with the process. The ring it replaces (a forced re-allocation, or another size)
    // is freed here (emulator's choice: the reference does not say what becomes of it).
    let h = d.alloc(u64::from(size), 0, at, tgid, Lifespan::Device)?;
    if let Some(old) = d.notif_queues.insert(key, h) {
        // A ring a process already freed with MEM_FREE is gone: nothing more to free.
        let _ = d.free(old);
    }
    Ok((d.mem(h)?.cookie, h))
}

/// NOTIFICATIONS_INIT_V1: V1 carries no location; the model places the queue in host
/// memory.
pub(crate) fn notifications_init_v1(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut NotificationsInitV1,
) -> Answer {
    d.check_nc(a.nc_id)?;
    let key = (a.nc_id, a.nq_type, a.engine_index);
    let (cookie, _) = notif_init(d, key, (a.size, MemLocation::Host), false, call.tgid)?;
    a.mmap_offset = cookie;
    DONE
}

/// NOTIFICATIONS_INIT_V2: "allocates NQ; mmap offset and handle written back".
pub(crate) fn notifications_init_v2(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut NotificationsInitV2,
) -> Answer {
    let key = (a.nq_dev_id, a.nq_type, a.engine_index);
    let at = location(a.on_host_memory, a.dram_channel, a.dram_region);
    let (cookie, h) = notif_init(d, key, (a.size, at), false, call.tgid)?;
    a.mmap_offset = cookie;
    a.mem_handle = h;
    DONE
}

/// NOTIFICATIONS_INIT_WITH_REALLOC_V2: as V2, re-allocating when `force_alloc_mem` is set.
pub(crate) fn notifications_init_with_realloc(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut NotificationsInitWithReallocV2,
) -> Answer {
    let key = (a.nq_dev_id, a.nq_type, a.engine_index);
    let at = location(a.on_host_memory, a.dram_channel, a.dram_region);
    let force = a.force_alloc_mem != 0;
    let (cookie, h) = notif_init(d, key, (a.size, at), force, call.tgid)?;
    a.mmap_offset = cookie;
    a.mem_handle = h;
    DONE
}

/// NOTIFICATIONS_QUEUE_INFO: the driver's stub returns -1, which user space sees as EPERM.
pub(crate) fn notifications_queue_info<T>(_: &mut DeviceState, _: &Call<'_>, _: &mut T) -> Answer {
    Err(Errno::PERM)
}

/// The lock of core `a.nc_id`.
fn core_lock<'d>(d: &'d mut DeviceState, a: &Crwl) -> Result<&'d mut CoreLock, Errno> {
    d.check_nc(a.nc_id)?;
    Ok(d.locks.entry(a.nc_id).or_default())
}

/// CRWL_READER_ENTER: EBUSY while another process holds the write lock.
pub(crate) fn reader_enter(d: &mut DeviceState, call: &Call<'_>, a: &mut Crwl) -> Answer {
    let l = core_lock(d, a)?;
    if l.writer.is_some_and(|w| w != call.tgid) {
        return Err(Errno::BUSY);
    }
    l.readers = l.readers.checked_add(1).ok_or(Errno::BUSY)?;
    DONE
}

/// CRWL_READER_EXIT: EINVAL without a reader.
pub(crate) fn reader_exit(d: &mut DeviceState, _: &Call<'_>, a: &mut Crwl) -> Answer {
    let l = core_lock(d, a)?;
    l.readers = l.readers.checked_sub(1).ok_or(Errno::INVAL)?;
    DONE
}

/// CRWL_WRITER_ENTER: EBUSY while anyone holds the lock.
pub(crate) fn writer_enter(d: &mut DeviceState, call: &Call<'_>, a: &mut Crwl) -> Answer {
    let l = core_lock(d, a)?;
    if l.readers > 0 || l.writer.is_some() {
        return Err(Errno::BUSY);
    }
    l.writer = Some(call.tgid);
    DONE
}

/// CRWL_WRITER_DOWNGRADE: the caller's write lock becomes a read lock (EINVAL when it holds
/// none).
pub(crate) fn writer_downgrade(d: &mut DeviceState, call: &Call<'_>, a: &mut Crwl) -> Answer {
    let l = core_lock(d, a)?;
    if l.writer != Some(call.tgid) {
        return Err(Errno::INVAL);
    }
    l.writer = None;
    l.readers = l.readers.checked_add(1).ok_or(Errno::BUSY)?;
    DONE
}

/// CINIT_SET_STATE: the state is kept per core and answered as the new state.
pub(crate) fn cinit_set_state(d: &mut DeviceState, _: &Call<'_>, a: &mut CinitSet) -> Answer {
    d.check_nc(a.nc_id)?;
    d.cinit.insert(a.nc_id, a.state);
    a.new_state = a.state;
    DONE
}

/// NC_MODEL_STARTED_COUNT: the model runs no models on its cores, so the count stays 0.
pub(crate) fn model_started_count(
    d: &mut DeviceState,
    _: &Call<'_>,
    a: &mut NcModelStartedCount,
) -> Answer {
    d.check_nc(a.nc_id)?;
    a.started_count = 0;
    DONE
}

/// NC_RESET: the cores of `nc_map` lose their semaphores and events at once; the request id
/// (the caller's pid) is kept for NC_RESET_READY.
pub(crate) fn nc_reset(d: &mut DeviceState, call: &Call<'_>, a: &mut DeviceReset) -> Answer {
    let all = 1u32
        .checked_shl(d.nc_count())
        .map_or(u32::MAX, |b| b.wrapping_sub(1));
    if a.nc_map & !all != 0 {
        return Err(Errno::INVAL);
    }
    let hit = |nc: u32| a.nc_map & (1 << nc) != 0;
    d.semaphores.retain(|(nc, _), _| !hit(*nc));
    d.events.retain(|(nc, _), _| !hit(*nc));
    a.request_id = call.tgid;
    d.resets.insert(call.tgid);
    DONE
}

/// NC_RESET_READY: the reset of `request_id` is complete (EINVAL for an unknown one).
pub(crate) fn nc_reset_ready(d: &mut DeviceState, _: &Call<'_>, a: &mut DeviceReady) -> Answer {
    if !d.resets.remove(&a.request_id) {
        return Err(Errno::INVAL);
    }
    a.result = 0;
    DONE
}

/// HBM_SCRUB_START: EBUSY while the same core scrubs the same channel. Free memory is
/// zeroed again at allocation; scrubbing the live blocks of the channel is what software
/// can observe.
pub(crate) fn hbm_scrub_start(d: &mut DeviceState, _: &Call<'_>, a: &mut HbmScrubStart) -> Answer {
    d.check_nc(a.nc_id)?;
    let channel = u8::try_from(a.hbm_index).map_err(|_| Errno::INVAL)?;
    let kind = RegionKind::Device { channel };
    if d.emu.with_memory(|m| m.find(kind)).is_none() {
        return Err(Errno::INVAL);
    }
    if !d.scrubs.insert((a.nc_id, a.hbm_index)) {
        return Err(Errno::BUSY);
    }
    let byte = a.init_val.to_le_bytes()[0];
    for m in d.allocs.values().filter(|m| m.kind == kind) {
        d.emu.with_memory(|mem| {
            mem.fill(m.addr, len(m.size)?, byte)
                .map_err(|_| Errno::FAULT)
        })?;
    }
    DONE
}

/// HBM_SCRUB_WAIT: EINVAL for a scrub that was not started.
pub(crate) fn hbm_scrub_wait(d: &mut DeviceState, _: &Call<'_>, a: &mut HbmScrubWait) -> Answer {
    if !d.scrubs.remove(&(a.nc_id, a.hbm_index)) {
        return Err(Errno::INVAL);
    }
    DONE
}
