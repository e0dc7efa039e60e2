//! DMA (`ndl-std` family `dma`): engine state, queue init and release, COPY_START, the
//! completion ack, queue state, descriptor copy-in and copy-out, as `reference/dma-path.md`
//! states the 2.26.5.0 driver's rules. Engine and queue registers are programmed with khal's
//! own sequences on the model's BAR0 (`crate::arch`).

use zerocopy::{FromZeros, IntoBytes};

use khal::regs::queue::Dir;
use khal::udma::{RingConfig, UdmaState};
use ndl_abi::{
    DmaAckCompleted, DmaCopyDescriptors, DmaCopyDescriptors64, DmaDescriptorCopyout,
    DmaEngGetState, DmaEngSetState, DmaEngState, DmaQueueCopyStart, DmaQueueGetState, DmaQueueInit,
    DmaQueueInitBatch, DmaQueueState,
};
use ndl_std::Errno;
use udma_desc::DESC_BYTES as DESC_SIZE;
use udma_desc::{QUEUES_PER_ENGINE, QueueId, RING_MAX_SIZE, RING_MIN_SIZE, RING_SIZE_MULTIPLE};

use super::{Answer, DONE};
use crate::arch::{EngineAnswer, EngineOp};
use crate::state::{Call, DeviceState, QueueRec, RingRec};

/// Engine ids the DMA ioctls accept on every arch (`reference/dma-path.md` step 1).
const MAX_ENG_ID: u32 = 132;

/// Runs a khal engine operation on the device.
fn engine(d: &DeviceState, eng_id: u32, op: EngineOp) -> Result<EngineAnswer, Errno> {
    crate::arch::engine(d.facts.generation, &d.emu, eng_id, op)
}

/// The queue id of a request (EINVAL past the 16 queues of an engine).
fn queue_id(qid: u32) -> Result<QueueId, Errno> {
    QueueId::new(qid).map_err(|_| Errno::INVAL)
}

/// The state DMA_ENG_SET_STATE writes for a driver enum value: DISABLE 0, NORMAL 2, ABORT 3.
/// IDLE (1) and RESET (4) are ignored by the setter (`ioctl-commands.tsv` row
/// DMA_ENG_SET_STATE; dma-path.md step 4); any other value is not named by the reference,
/// and the emulator ignores it too (emulator's choice), so the call still returns 0.
fn settable_state(v: u32) -> Option<UdmaState> {
    match v {
        0 => Some(UdmaState::Disable),
        2 => Some(UdmaState::Normal),
        3 => Some(UdmaState::Abort),
        _ => None,
    }
}

/// DMA_ENG_SET_STATE: returns 0 whenever the copy-in succeeded and eng_id < 132, whatever
/// the state (`ioctl-commands.tsv`). An engine the device lacks answers EINVAL (emulator's
/// choice: on hardware it has no register mapping; the reference states no answer).
pub(crate) fn eng_set_state(d: &mut DeviceState, _: &Call<'_>, a: &mut DmaEngSetState) -> Answer {
    if a.eng_id >= MAX_ENG_ID {
        return Err(Errno::INVAL);
    }
    if let Some(state) = settable_state(a.state) {
        engine(d, a.eng_id, EngineOp::SetState(state))?;
    }
    DONE
}

/// DMA_ENG_GET_STATE: the driver's `enum udma_state` values (DISABLE 0, IDLE 1, NORMAL 2,
/// ABORT 3) of both directions, through the user pointer.
pub(crate) fn eng_get_state(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut DmaEngGetState,
) -> Answer {
    let EngineAnswer::State { tx, rx } = engine(d, a.eng_id, EngineOp::State)? else {
        return Err(Errno::INVAL);
    };
    let num_queues = d.queues.keys().filter(|(e, _)| *e == a.eng_id).count();
    let out = DmaEngState {
        revision_id: d.facts.udma_revision.into(),
        max_queues: QUEUES_PER_ENGINE.into(),
        num_queues: u32::try_from(num_queues).map_err(|_| Errno::INVAL)?,
        tx_state: tx as u32,
        rx_state: rx as u32,
    };
    call.mem.write(a.state.addr(), out.as_bytes())?;
    DONE
}

/// DMA_QUEUE_INIT.
pub(crate) fn queue_init(d: &mut DeviceState, _: &Call<'_>, a: &mut DmaQueueInit) -> Answer {
    init_queue(d, a)?;
    DONE
}

/// DMA_QUEUE_INIT_BATCH: "`count` >= 256 -> -E2BIG" (dma-path.md step 4), then each entry in
/// order (a failed copy-in answers EACCES: the table entry's copy rule).
pub(crate) fn queue_init_batch(
    d: &mut DeviceState,
    _: &Call<'_>,
    a: &mut DmaQueueInitBatch,
) -> Answer {
    let count = usize::try_from(a.count).map_err(|_| Errno::TOOBIG)?;
    if count > ndl_abi::limits::QUEUE_INIT_BATCH_MAX {
        return Err(Errno::TOOBIG);
    }
    for e in a.entries.iter().take(count) {
        init_queue(d, e)?;
    }
    DONE
}

/// DMA_QUEUE_COPY_START: neither count above its ring's size; an RX count of 0 is refused
/// (2.26.5.0 returns -1); then the doorbells.
pub(crate) fn copy_start(d: &mut DeviceState, _: &Call<'_>, a: &mut DmaQueueCopyStart) -> Answer {
    if a.eng_id >= MAX_ENG_ID {
        return Err(Errno::INVAL);
    }
    let qid = QueueId::new(a.qid).map_err(|_| Errno::PERM)?;
    let q = queue_rec(d, a.eng_id, a.qid)?;
    let fits =
        |ring: Option<RingRec>, count: u32| count == 0 || ring.is_some_and(|r| count <= r.size);
    if a.rx_desc_count == 0 || !fits(q.tx, a.tx_desc_count) || !fits(q.rx, a.rx_desc_count) {
        return Err(Errno::PERM);
    }
    let op = EngineOp::Doorbell(qid, a.tx_desc_count, a.rx_desc_count);
    engine(d, a.eng_id, op)?;
    DONE
}

/// DMA_ACK_COMPLETED: software bookkeeping only (no register is written): the RX ring's
/// index, then the TX ring's. A ring whose size is not a power of two is refused with -1
/// (2.26.5.0), and "a failing rx ack leaves tx unacked" (ioctl-commands.tsv).
/// DMA_QUEUE_INIT accepts such rings, so this is where they are refused. The emulator keeps
/// one index, the completion ring's.
pub(crate) fn ack_completed(d: &mut DeviceState, _: &Call<'_>, a: &mut DmaAckCompleted) -> Answer {
    if a.eng_id >= MAX_ENG_ID || a.qid >= u32::from(QUEUES_PER_ENGINE) {
        return Err(Errno::INVAL);
    }
    let q = queue_rec(d, a.eng_id, a.qid)?;
    let (dir, ring) = completion_ring(&q)?;
    if !ring.size.is_power_of_two() {
        return Err(Errno::PERM);
    }
    if let Some(q) = d.queues.get_mut(&(a.eng_id, a.qid)) {
        q.acked = q.acked.wrapping_add(a.count) & (ring.size - 1);
    }
    if dir == Dir::Rx && q.tx.is_some_and(|t| !t.size.is_power_of_two()) {
        return Err(Errno::PERM);
    }
    DONE
}

/// DMA_QUEUE_GET_STATE: both directions' state records, through the two user pointers.
pub(crate) fn queue_get_state(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut DmaQueueGetState,
) -> Answer {
    let q = queue_rec(d, a.eng_id, a.qid)?;
    let qid = queue_id(a.qid)?;
    let tx = queue_state(d, &q, (a.eng_id, qid), Dir::Tx)?;
    let rx = queue_state(d, &q, (a.eng_id, qid), Dir::Rx)?;
    call.mem.write(a.tx.addr(), tx.as_bytes())?;
    call.mem.write(a.rx.addr(), rx.as_bytes())?;
    DONE
}

/// One direction's state: zeroed for a direction without a ring.
fn queue_state(
    d: &DeviceState,
    q: &QueueRec,
    (eng_id, qid): (u32, QueueId),
    dir: Dir,
) -> Result<DmaQueueState, Errno> {
    let mut s = DmaQueueState::new_zeroed();
    let Some(ring) = (if dir == Dir::Tx { q.tx } else { q.rx }) else {
        return Ok(s);
    };
    let EngineAnswer::Pointers { head, tail, .. } =
        engine(d, eng_id, EngineOp::Pointers(dir, qid))?
    else {
        return Err(Errno::INVAL);
    };
    s.hw_status = 1;
    s.sw_status = 1;
    s.base_addr = ring.addr;
    s.length = ring.size;
    s.head_pointer = head.offset();
    s.tail_pointer = tail.offset();
    s.completion_base_addr = d.allocs.get(&q.rxc_handle).map_or(0, |m| m.addr);
    s.completion_head = q.acked;
    Ok(s)
}

/// DMA_DESCRIPTOR_COPYOUT: dma-path.md step 8, "`start_index` + `count` must fit the ring
/// length read from hardware, else -EFBIG; count 0 -> -EINVAL". Which of the two a call
/// breaking both gets is not stated: the emulator checks the length first (its choice).
pub(crate) fn descriptor_copyout(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut DmaDescriptorCopyout,
) -> Answer {
    let q = queue_rec(d, a.eng_id, a.qid)?;
    let ring = match a.r#type {
        0 => q.tx,
        1 => q.rx,
        _ => None,
    }
    .ok_or(Errno::INVAL)?;
    let dir = if a.r#type == 0 { Dir::Tx } else { Dir::Rx };
    let EngineAnswer::Pointers { len: hw_len, .. } =
        engine(d, a.eng_id, EngineOp::Pointers(dir, queue_id(a.qid)?))?
    else {
        return Err(Errno::INVAL);
    };
    if u64::from(a.start_index) + u64::from(a.count) > u64::from(hw_len) {
        return Err(Errno::FBIG);
    }
    if a.count == 0 {
        return Err(Errno::INVAL);
    }
    let at = ring.addr + u64::from(a.start_index) * DESC_SIZE as u64;
    let bytes = d.read(at, a.count as usize * DESC_SIZE)?;
    call.mem.write(a.buffer.addr(), &bytes)?;
    DONE
}

/// DMA_QUIESCE_QUEUES: -ENOIOCTLCMD, which the VFS turns into ENOTTY.
pub(crate) fn quiesce(
    _: &mut DeviceState,
    _: &Call<'_>,
    _: &mut ndl_abi::DmaQuiesceQueues,
) -> Answer {
    Err(Errno::NOTTY)
}

/// DMA_COPY_DESCRIPTORS (32-bit offset).
pub(crate) fn copy_descriptors(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut DmaCopyDescriptors,
) -> Answer {
    let to = (a.mem_handle, a.offset.into());
    copy_descs(d, call, to, a.queue_type, (a.buffer.addr(), a.num_descs))
}

/// DMA_COPY_DESCRIPTORS64.
pub(crate) fn copy_descriptors64(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut DmaCopyDescriptors64,
) -> Answer {
    let to = (a.mem_handle, a.offset);
    copy_descs(d, call, to, a.queue_type, (a.buffer.addr(), a.num_descs))
}

/// Copies `num` descriptors from a user buffer into ring memory. TX descriptors carry the
/// source, RX the destination at bytes 8-15: an address in the host window must start
/// inside a host chunk (of this device, here), else EINVAL; device addresses are not
/// checked.
fn copy_descs(
    d: &DeviceState,
    call: &Call<'_>,
    (handle, offset): (u64, u64),
    queue_type: u32,
    (buffer, num): (u64, u32),
) -> Answer {
    if queue_type > 1 {
        return Err(Errno::PERM);
    }
    let n = num as usize * DESC_SIZE;
    let at = d.mem(handle)?.span(offset, n as u64)?;
    let bytes = call.mem.copy_in_bytes(buffer, n)?;
    let window = d.facts.scalars.pci_host_base;
    for desc in bytes.chunks_exact(DESC_SIZE) {
        let mut w = [0u8; 8];
        w.copy_from_slice(desc.get(8..16).ok_or(Errno::INVAL)?);
        let addr = u64::from_le_bytes(w);
        if addr & window != 0 {
            let bare = addr & !window;
            let inside = d
                .allocs
                .values()
                .any(|m| m.host() && bare >= m.pa && bare - m.pa < m.size);
            if !inside {
                return Err(Errno::INVAL);
            }
        }
    }
    d.write(at, &bytes)?;
    DONE
}

/// The ring whose progress counts as completion: RX (the destination is written), or TX
/// for a TX-only queue.
fn completion_ring(q: &QueueRec) -> Result<(Dir, RingRec), Errno> {
    q.rx.map(|r| (Dir::Rx, r))
        .or(q.tx.map(|r| (Dir::Tx, r)))
        .ok_or(Errno::INVAL)
}

/// One direction of DMA_QUEUE_INIT: no ring (the handle does not resolve), or a ring of
/// `count` descriptors at the start of the handle's chunk, checked by the driver's rules
/// (dma-path.md step 2): start and end 256-byte aligned (-1), entry count a multiple of 16
/// (-1), then 32..=2^24-16 (EINVAL). A power of two is not required here (DMA_ACK_COMPLETED
/// refuses one that is not). The chunk size is not checked against the count (the driver's
/// check is commented out).
fn ring_of(d: &DeviceState, handle: u64, count: u32) -> Result<Option<RingRec>, Errno> {
    // A handle of 0, or one that does not resolve, is "no ring" to the driver.
    let Ok(m) = d.mem(handle) else {
        return Ok(None);
    };
    let align = khal::udma::RING_ALIGN;
    let end = u64::from(count)
        .checked_mul(DESC_SIZE as u64)
        .and_then(|n| m.addr.checked_add(n))
        .ok_or(Errno::PERM)?;
    if m.addr % align != 0 || end % align != 0 || count % RING_SIZE_MULTIPLE != 0 {
        return Err(Errno::PERM);
    }
    if !(RING_MIN_SIZE..=RING_MAX_SIZE).contains(&count) {
        return Err(Errno::INVAL);
    }
    Ok(Some(RingRec {
        addr: m.addr,
        size: count,
    }))
}

/// Checks one direction's ring and programs it (khal's hardware-rules queue init).
fn init_dir(
    d: &DeviceState,
    (eng_id, qid): (u32, QueueId),
    dir: Dir,
    (handle, count): (u64, u32),
) -> Result<Option<RingRec>, Errno> {
    let ring = ring_of(d, handle, count)?;
    if let Some(r) = ring {
        let c = RingConfig {
            bus_addr: r.addr,
            size: r.size,
        };
        engine(d, eng_id, EngineOp::InitQueue(dir, qid, c))?;
    }
    Ok(ring)
}

/// The driver's record of queue (`eng`, `qid`): EINVAL for a queue never initialised, and
/// with strict isolation for one another process initialised (as an unknown queue).
fn queue_rec(d: &DeviceState, eng: u32, qid: u32) -> Result<QueueRec, Errno> {
    d.queues
        .get(&(eng, qid))
        .filter(|q| !d.foreign(q.owner))
        .copied()
        .ok_or(Errno::INVAL)
}

/// DMA_QUEUE_INIT (dma-path.md step 4): TX first and RX second, each checked then
/// programmed, so "a TX success followed by an RX failure leaves TX programmed".
fn init_queue(d: &mut DeviceState, a: &DmaQueueInit) -> Result<(), Errno> {
    if a.eng_id >= MAX_ENG_ID {
        return Err(Errno::INVAL);
    }
    let qid = queue_id(a.qid)?;
    // An engine the driver has not initialised reports 0 queues: EINVAL.
    if a.eng_id >= d.engine_count() {
        return Err(Errno::INVAL);
    }
    if super::h2t::driver_owned(d, a.eng_id, a.qid) {
        return Err(Errno::ALREADY);
    }
    // Strict isolation: a queue another live (attached) process initialised is not the
    // caller's to re-program (EBUSY, the model's choice); one whose owner is gone is free.
    let held = d.queues.get(&(a.eng_id, a.qid)).map(|q| q.owner);
    if held.is_some_and(|o| d.foreign(o) && d.is_attached(o)) {
        return Err(Errno::BUSY);
    }
    let owner = d.caller;
    // No completion ring for a user queue: a valid handle fails the init with -1. The
    // reference does not say whether this comes before or after TX is programmed; the
    // emulator refuses before programming either ring (emulator's choice).
    if a.rxc_handle != 0 && d.mem(a.rxc_handle).is_ok() {
        return Err(Errno::PERM);
    }
    let at = (a.eng_id, qid);
    let tx = init_dir(d, at, Dir::Tx, (a.tx_handle, a.tx_desc_count))?;
    let rx = match init_dir(d, at, Dir::Rx, (a.rx_handle, a.rx_desc_count)) {
        Ok(rx) => rx,
        Err(e) => {
            // TX stays programmed; the RX queue's registers are untouched, so the record
            // keeps whatever RX ring it had (none for a queue never initialised).
            let rec = d.queues.entry((a.eng_id, a.qid)).or_default();
            rec.tx = tx;
            rec.rxc_handle = a.rxc_handle;
            rec.owner = owner;
            return Err(e);
        }
    };
    let rec = QueueRec {
        tx,
        rx,
        rxc_handle: a.rxc_handle,
        acked: 0,
        owner,
    };
    d.queues.insert((a.eng_id, a.qid), rec);
    Ok(())
}
