//! Handlers of the device chain (`ncdev_ioctl`): privileged fds only.

use core::ffi::c_int;

use zerocopy::FromZeros;

#[allow(clippy::wildcard_imports)]
use ndl_abi::*;
use ndl_abi::{
    BarRw, Crwl, DeviceBdf, DeviceInfo, DeviceReady, DeviceReset, DmaAckCompleted,
    DmaCopyDescriptors, DmaCopyDescriptors64, DmaDescriptorCopyout, DmaEngGetState, DmaEngInit,
    DmaEngSetState, DmaEngState, DmaQueueCopyStart, DmaQueueGetState, DmaQueueInit,
    DmaQueueInitBatch, DmaQueueRelease, DmaQueueState, Event, H2tDmaAllocQueues, H2tDmaFreeQueues,
    HbmScrubStart, HbmScrubWait, HostDeviceId, MemAlloc, MemAllocV2, MemAllocV2MemType,
    MemAllocV2MemType64, MemBufCopy, MemBufCopy64, MemBufCopy64zc, MemBufCopy64zcBatches, MemCopy,
    MemCopy64, MemFree, MemGetExtendedInfo, MemGetMcMmapInfo, MemGetMcMmapInfoV2, MemcpyBatch,
    Memset, Memset64, NotificationsInitV2, NotificationsInitWithReallocV2, PowerProfile,
    ProgramEngineNc, ProgramEngineNc64, ResourceMmapInfo, Semaphore, TensorBatchOp,
};
use ndl_std::Errno;
use ndl_std::MemLocation;
use udma_desc::DESC_BYTES as DESC_SIZE;

use khal::regs::queue::Dir;
use khal::udma::{RingConfig, UdmaState};
use neuron_emu::RegionKind;
use udma_desc::{QUEUES_PER_ENGINE, QueueId};

use super::ENOTSUPP;
use super::state::ObjectKind;
use udma_desc::{RING_MAX_SIZE, RING_MIN_SIZE, RING_SIZE_MULTIPLE};

/// Engine ids the DMA ioctls accept on every arch (`reference/dma-path.md` step 1).
const MAX_ENG_ID: u32 = 132;
use super::arch::{EngineAnswer, EngineOp};
use super::resource;
use super::state::{Backing, Call, DeviceState, Lifespan, Object, QueueRec, RingRec, State};
use super::user::UserMemory;

fn dev<'a>(st: &'a mut State, call: &Call) -> Result<&'a mut DeviceState, Errno> {
    st.device_mut(call.device).ok_or(Errno::NODEV)
}

fn len(v: u64) -> Result<usize, Errno> {
    usize::try_from(v).map_err(|_| Errno::INVAL)
}

/// Runs a khal engine operation on the call's device.
fn engine(d: &DeviceState, eng_id: u32, op: EngineOp) -> Result<EngineAnswer, Errno> {
    super::arch::engine(d.facts.generation, &d.emu, eng_id, op)
}

/// The queue id of a request (EINVAL past the 16 queues of an engine).
fn queue_id(qid: u32) -> Result<QueueId, Errno> {
    QueueId::new(qid).map_err(|_| Errno::INVAL)
}

/// The driver's `enum udma_state` value of a state (DISABLE 0, IDLE 1, NORMAL 2, ABORT 3).
fn state_value(s: UdmaState) -> u32 {
    s as u32
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

/// Handlers matched by exact cmd.
pub(super) fn exact(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    let mem = call.mem;
    let tgid = call.tgid;
    // matched command names, at the address the caller vouched for; user addresses inside
    // it are the caller's too.
    if c == DEVICE_RESET.code() || c == DEVICE_INIT.code() || c == DEVICE_RELEASE.code() {
        return Ok(0);
    }
    if c == DEVICE_READY.code() || c == DEVICE_RESET_STATUS.code() {
        mem.copy_out(arg, &1u8)?;
        return Ok(0);
    }
    if c == DEVICE_APP_PID.code() {
        let pid = dev(st, call)?.first_attached().map_or(-1, |p| p as i32);
        mem.copy_out(arg, &pid)?;
        return Ok(0);
    }
    if c == DEVICE_INFO.code() {
        let d = dev(st, call)?;
        let mut info = DeviceInfo::new_zeroed();
        info.architecture = d.facts.generation.number().into();
        info.revision = d.config.revision;
        // Entry 1 is "the unused AXI BAR and [is] 0 on V2 and later" (bar-README.md).
        info.bar_size = [d.bar0_size, 0];
        info.bar_address = [super::bar_rw::bar0_kva(call.device), 0];
        mem.copy_out(arg, &info)?;
        return Ok(0);
    }
    if c == BAR_READ.code() {
        let a: BarRw = mem.copy_in(arg)?;
        super::bar_rw::bar_read(mem, dev(st, call)?, call.device, &a)?;
        return Ok(0);
    }
    if c == BAR_WRITE.code() {
        let a: BarRw = mem.copy_in(arg)?;
        super::bar_rw::bar_write(mem, dev(st, call)?, call.device, &a)?;
        return Ok(0);
    }
    if c == H2T_DMA_ALLOC_QUEUES.code() {
        let mut a: H2tDmaAllocQueues = mem.copy_in(arg)?;
        super::h2t::alloc(dev(st, call)?, &mut a, tgid)?;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == H2T_DMA_FREE_QUEUES.code() {
        let a: H2tDmaFreeQueues = mem.copy_in(arg)?;
        super::h2t::free(dev(st, call)?, &a)?;
        return Ok(0);
    }
    if c == DEVICE_BDF.code() {
        let d = dev(st, call)?;
        let mut bdf = DeviceBdf::new_zeroed();
        bdf.bus_number = d.config.bus;
        bdf.slot = d.config.slot;
        bdf.func = d.config.func;
        mem.copy_out(arg, &bdf)?;
        return Ok(0);
    }
    if c == HOST_DEVICE_ID.code() {
        let id = dev(st, call)?.config.host_device_id;
        mem.copy_out(arg, &HostDeviceId { host_device_id: id })?;
        return Ok(0);
    }
    if c == MEM_ALLOC.code() {
        let a: MemAlloc = mem.copy_in(arg)?;
        let at = location(a.host_memory, a.dram_channel, a.dram_region);
        alloc_with(
            mem,
            dev(st, call)?,
            a.size,
            0,
            at,
            tgid,
            a.mem_handle.addr(),
        )?;
        return Ok(0);
    }
    if c == MEM_FREE.code() {
        let a: MemFree = mem.copy_in(arg)?;
        dev(st, call)?.free(a.mem_handle)?;
        return Ok(0);
    }
    if c == MEM_GET_EXTENDED_INFO.code() {
        let mut a: MemGetExtendedInfo = mem.copy_in(arg)?;
        let d_window = dev(st, call)?.facts.scalars.pci_host_base;
        let Ok(m) = dev(st, call)?.mem(a.mem_handle) else {
            // The driver returns +EINVAL here, not -EINVAL.
            return Ok(Errno::INVAL.raw_os_error());
        };
        a.host_memory = u32::from(m.host());
        a.mmap_offset = m.cookie;
        // Host chunks: the coherent-DMA address with the arch's host window OR-ed in
        // (what descriptors carry), as the 2.26.5.0 driver reports it.
        a.pa = if m.host() { m.pa | d_window } else { m.pa };
        a.pid = u64::from(m.pid);
        a.size = m.size;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == DMA_ENG_INIT.code() {
        // "deprecated no-op; returns 0 (after the attach check)" (`ioctl-commands.tsv` row
        // DMA_ENG_INIT; dma-path.md step 4 "DMA_ENG_INIT does nothing"): the attach check
        // is the dispatcher's, the struct is still copied in, no engine is touched.
        let _: DmaEngInit = mem.copy_in(arg)?;
        return Ok(0);
    }
    if c == DMA_ENG_SET_STATE.code() {
        // Returns 0 whenever the copy-in succeeded and eng_id < 132, whatever the state
        // (`ioctl-commands.tsv` row DMA_ENG_SET_STATE).
        let a: DmaEngSetState = mem.copy_in(arg)?;
        if a.eng_id >= MAX_ENG_ID {
            return Err(Errno::INVAL);
        }
        if let Some(state) = settable_state(a.state) {
            // An engine the driver never initialised has no register mapping on hardware;
            // the model has no such engine, and the emulator refuses it with EINVAL
            // (emulator's choice: the reference does not state an answer).
            engine(dev(st, call)?, a.eng_id, EngineOp::SetState(state))?;
        }
        return Ok(0);
    }
    if c == DMA_ENG_GET_STATE.code() {
        let a: DmaEngGetState = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        let EngineAnswer::State { tx, rx } = engine(d, a.eng_id, EngineOp::State)? else {
            return Err(Errno::INVAL);
        };
        let num_queues = d.queues.keys().filter(|(e, _)| *e == a.eng_id).count();
        let out = DmaEngState {
            revision_id: d.facts.udma_revision.into(),
            max_queues: QUEUES_PER_ENGINE.into(),
            num_queues: u32::try_from(num_queues).map_err(|_| Errno::INVAL)?,
            tx_state: state_value(tx),
            rx_state: state_value(rx),
        };
        mem.write(a.state.addr(), zerocopy::IntoBytes::as_bytes(&out))?;
        return Ok(0);
    }
    if c == DMA_QUEUE_INIT.code() {
        let a: DmaQueueInit = mem.copy_in(arg)?;
        queue_init(dev(st, call)?, &a)?;
        return Ok(0);
    }
    if c == DMA_QUEUE_INIT_BATCH.code() {
        // The driver copies the whole 12 KiB struct; a failed copy-in answers EACCES.
        let mut a = Box::new(DmaQueueInitBatch::new_zeroed());
        mem.read(arg, zerocopy::IntoBytes::as_mut_bytes(&mut *a))
            .map_err(|_| Errno::ACCESS)?;
        // "`count` >= 256 -> -E2BIG" (dma-path.md step 4).
        if a.count >= 256 {
            return Err(Errno::TOOBIG);
        }
        let d = dev(st, call)?;
        for e in a.entries.iter().take(a.count as usize) {
            queue_init(d, e)?;
        }
        return Ok(0);
    }
    if c == DMA_QUEUE_RELEASE.code() {
        // The driver only traces the call: the queue stays programmed until it is
        // initialised again or the process exits.
        let _: DmaQueueRelease = mem.copy_in(arg)?;
        return Ok(0);
    }
    if c == DMA_QUEUE_COPY_START.code() {
        let a: DmaQueueCopyStart = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        if a.eng_id >= MAX_ENG_ID {
            return Err(Errno::INVAL);
        }
        let qid = QueueId::new(a.qid).map_err(|_| Errno::PERM)?;
        let q = *d.queues.get(&(a.eng_id, a.qid)).ok_or(Errno::INVAL)?;
        // Neither count above its ring's size; an RX count of 0 is refused (2.26.5.0).
        let fits =
            |ring: Option<RingRec>, count: u32| count == 0 || ring.is_some_and(|r| count <= r.size);
        if a.rx_desc_count == 0 || !fits(q.tx, a.tx_desc_count) || !fits(q.rx, a.rx_desc_count) {
            return Err(Errno::PERM);
        }
        let op = EngineOp::Doorbell(qid, a.tx_desc_count, a.rx_desc_count);
        engine(d, a.eng_id, op)?;
        return Ok(0);
    }
    if c == DMA_ACK_COMPLETED.code() {
        let a: DmaAckCompleted = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        if a.eng_id >= MAX_ENG_ID || a.qid >= u32::from(QUEUES_PER_ENGINE) {
            return Err(Errno::INVAL);
        }
        let q = *d.queues.get(&(a.eng_id, a.qid)).ok_or(Errno::INVAL)?;
        let (dir, ring) = completion_ring(&q)?;
        // Software bookkeeping only (no register is written): the RX ring's index, then
        // the TX ring's. A ring whose size is not a power of two is refused with -1
        // (2.26.5.0), and "a failing rx ack leaves tx unacked" (ioctl-commands.tsv row
        // DMA_ACK_COMPLETED). DMA_QUEUE_INIT accepts such rings, so this is where they are
        // refused. The emulator keeps one index, the completion ring's.
        if !ring.size.is_power_of_two() {
            return Err(Errno::PERM);
        }
        if let Some(q) = d.queues.get_mut(&(a.eng_id, a.qid)) {
            q.acked = q.acked.wrapping_add(a.count) & (ring.size - 1);
        }
        if dir == Dir::Rx && q.tx.is_some_and(|t| !t.size.is_power_of_two()) {
            return Err(Errno::PERM);
        }
        return Ok(0);
    }
    if c == DMA_QUEUE_GET_STATE.code() {
        let a: DmaQueueGetState = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        let q = *d.queues.get(&(a.eng_id, a.qid)).ok_or(Errno::INVAL)?;
        let qid = queue_id(a.qid)?;
        let completion = d.allocs.get(&q.rxc_handle).map_or(0, |m| m.addr);
        let state = |dir: Dir, ring: Option<RingRec>| -> Result<DmaQueueState, Errno> {
            let mut s = DmaQueueState::new_zeroed();
            let Some(ring) = ring else {
                return Ok(s);
            };
            let EngineAnswer::Pointers { head, tail, .. } =
                engine(d, a.eng_id, EngineOp::Pointers(dir, qid))?
            else {
                return Err(Errno::INVAL);
            };
            s.hw_status = 1;
            s.sw_status = 1;
            s.base_addr = ring.addr;
            s.length = ring.size;
            s.head_pointer = head.offset();
            s.tail_pointer = tail.offset();
            s.completion_base_addr = completion;
            s.completion_head = q.acked;
            Ok(s)
        };
        let (tx, rx) = (state(Dir::Tx, q.tx)?, state(Dir::Rx, q.rx)?);
        mem.write(a.tx.addr(), zerocopy::IntoBytes::as_bytes(&tx))?;
        mem.write(a.rx.addr(), zerocopy::IntoBytes::as_bytes(&rx))?;
        return Ok(0);
    }
    if c == DMA_DESCRIPTOR_COPYOUT.code() {
        let a: DmaDescriptorCopyout = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        let q = d.queues.get(&(a.eng_id, a.qid)).ok_or(Errno::INVAL)?;
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
        // dma-path.md step 8: "`start_index` + `count` must fit the ring length read from
        // hardware, else -EFBIG; count 0 -> -EINVAL". Which of the two a call breaking both
        // gets is not stated: the emulator checks the length first (emulator's choice).
        if u64::from(a.start_index) + u64::from(a.count) > u64::from(hw_len) {
            return Err(Errno::FBIG);
        }
        if a.count == 0 {
            return Err(Errno::INVAL);
        }
        let at = ring.addr + u64::from(a.start_index) * DESC_SIZE as u64;
        let bytes = d.read(at, a.count as usize * DESC_SIZE)?;
        mem.write(a.buffer.addr(), &bytes)?;
        return Ok(0);
    }
    if c == DMA_QUIESCE_QUEUES.code() {
        // -ENOIOCTLCMD, which the VFS turns into ENOTTY.
        return Err(Errno::NOTTY);
    }
    if c == SEMAPHORE_INCREMENT.code()
        || c == SEMAPHORE_DECREMENT.code()
        || c == SEMAPHORE_READ.code()
        || c == SEMAPHORE_WRITE.code()
    {
        let mut a: Semaphore = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        d.check_nc(a.nc_id)?;
        if a.semaphore_index >= u32::from(d.facts.scalars.semaphore_count) {
            return Err(Errno::INVAL);
        }
        let v = d
            .semaphores
            .entry((a.nc_id, a.semaphore_index))
            .or_default();
        match c {
            _ if c == SEMAPHORE_INCREMENT.code() => *v = v.wrapping_add(a.value),
            _ if c == SEMAPHORE_DECREMENT.code() => *v = v.wrapping_sub(a.value),
            _ if c == SEMAPHORE_WRITE.code() => *v = a.value,
            _ => {
                a.value = *v;
                mem.copy_out(arg, &a)?;
            }
        }
        return Ok(0);
    }
    if c == EVENT_SET.code() || c == EVENT_GET.code() {
        let mut a: Event = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        d.check_nc(a.nc_id)?;
        if a.event_index >= u32::from(d.facts.scalars.event_count) {
            return Err(Errno::INVAL);
        }
        let v = d.events.entry((a.nc_id, a.event_index)).or_default();
        if c == EVENT_SET.code() {
            *v = a.value;
        } else {
            a.value = *v;
            mem.copy_out(arg, &a)?;
        }
        return Ok(0);
    }
    if c == NOTIFICATIONS_INIT_V2.code() {
        let mut a: NotificationsInitV2 = mem.copy_in(arg)?;
        let key = (a.nq_dev_id, a.nq_type, a.engine_index);
        let at = location(a.on_host_memory, a.dram_channel, a.dram_region);
        let (cookie, h) = notif_init(dev(st, call)?, key, a.size, at, false, tgid)?;
        a.mmap_offset = cookie;
        a.mem_handle = h;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == NOTIFICATIONS_INIT_WITH_REALLOC_V2.code() {
        let mut a: NotificationsInitWithReallocV2 = mem.copy_in(arg)?;
        let key = (a.nq_dev_id, a.nq_type, a.engine_index);
        let force = a.force_alloc_mem != 0;
        let at = location(a.on_host_memory, a.dram_channel, a.dram_region);
        let (cookie, h) = notif_init(dev(st, call)?, key, a.size, at, force, tgid)?;
        a.mmap_offset = cookie;
        a.mem_handle = h;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == NOTIFICATIONS_DESTROY_V1.code() {
        return Ok(0);
    }
    if c == NOTIFICATIONS_QUEUE_INFO.code() {
        // The stub returns -1, which user space sees as EPERM.
        return Err(Errno::PERM);
    }
    if c == CRWL_READER_ENTER.code()
        || c == CRWL_READER_EXIT.code()
        || c == CRWL_WRITER_ENTER.code()
        || c == CRWL_WRITER_DOWNGRADE.code()
    {
        let a: Crwl = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        d.check_nc(a.nc_id)?;
        let l = d.locks.entry(a.nc_id).or_default();
        match c {
            _ if c == CRWL_READER_ENTER.code() => {
                if l.writer.is_some_and(|w| w != tgid) {
                    return Err(Errno::BUSY);
                }
                l.readers += 1;
            }
            _ if c == CRWL_READER_EXIT.code() => {
                l.readers = l.readers.checked_sub(1).ok_or(Errno::INVAL)?;
            }
            _ if c == CRWL_WRITER_ENTER.code() => {
                if l.readers > 0 || l.writer.is_some() {
                    return Err(Errno::BUSY);
                }
                l.writer = Some(tgid);
            }
            _ => {
                if l.writer != Some(tgid) {
                    return Err(Errno::INVAL);
                }
                l.writer = None;
                l.readers += 1;
            }
        }
        return Ok(0);
    }
    if c == NC_RESET.code() {
        let mut a: DeviceReset = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        let all = 1u32
            .checked_shl(d.nc_count())
            .map_or(u32::MAX, |b| b.wrapping_sub(1));
        if a.nc_map & !all != 0 {
            return Err(Errno::INVAL);
        }
        let hit = |nc: u32| a.nc_map & (1 << nc) != 0;
        d.semaphores.retain(|(nc, _), _| !hit(*nc));
        d.events.retain(|(nc, _), _| !hit(*nc));
        a.request_id = tgid;
        d.resets.insert(tgid);
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == NC_RESET_READY.code() {
        let mut a: DeviceReady = mem.copy_in(arg)?;
        if !dev(st, call)?.resets.remove(&a.request_id) {
            return Err(Errno::INVAL);
        }
        a.result = 0;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == RESOURCE_MMAP_INFO.code() {
        let mut a: ResourceMmapInfo = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        let key = (a.block, a.block_id, a.resource);
        // The arch's special-resource table first, as the driver answers it; mmap
        // serves the entry for exactly this (offset, size).
        if let Some(sp) =
            super::mmap_special::lookup(d.facts.generation, a.block, a.block_id, a.resource)
        {
            a.offset = sp.offset;
            a.size = sp.size;
            mem.copy_out(arg, &a)?;
            return Ok(0);
        }
        let object = resource_object(d, key)?;
        let cookie = match d.resources.get(&key) {
            Some(c) => *c,
            None => {
                let c = d.new_cookie(object);
                d.resources.insert(key, c);
                c
            }
        };
        a.offset = cookie;
        a.size = object.len;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == HBM_SCRUB_START.code() {
        let a: HbmScrubStart = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        d.check_nc(a.nc_id)?;
        let channel = u8::try_from(a.hbm_index).map_err(|_| Errno::INVAL)?;
        let kind = RegionKind::Device { channel };
        if d.emu.with_memory(|m| m.find(kind)).is_none() {
            return Err(Errno::INVAL);
        }
        if !d.scrubs.insert((a.nc_id, a.hbm_index)) {
            return Err(Errno::BUSY);
        }
        // Free memory is zeroed again at allocation; scrubbing the live blocks of the
        // channel is what software can observe.
        let byte = a.init_val.to_le_bytes()[0];
        for m in d.allocs.values().filter(|m| m.kind == kind) {
            d.emu.with_memory(|mem| {
                mem.fill(m.addr, len(m.size)?, byte)
                    .map_err(|_| Errno::FAULT)
            })?;
        }
        return Ok(0);
    }
    if c == HBM_SCRUB_WAIT.code() {
        let a: HbmScrubWait = mem.copy_in(arg)?;
        if !dev(st, call)?.scrubs.remove(&(a.nc_id, a.hbm_index)) {
            return Err(Errno::INVAL);
        }
        return Ok(0);
    }
    if c == MEM_BUF_ZEROCOPY64_BATCHES.code() {
        let a: MemBufCopy64zcBatches = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        for i in 0..u64::from(a.num_batches) {
            // Overflow-checked element addresses: an array wrapping past the top of the
            // address space is a failed copy (EFAULT), not an arithmetic overflow.
            let b: MemcpyBatch = mem.copy_in_at(a.batches_ptr.addr(), i)?;
            let m = *d.mem(b.mem_handle)?;
            for j in 0..u64::from(b.num_ops) {
                let op: TensorBatchOp = mem.copy_in_at(b.ops_ptr.addr(), j)?;
                let at = b
                    .mem_handle_offset
                    .checked_add(op.offset)
                    .ok_or(Errno::INVAL)?;
                buf_copy(
                    mem,
                    d,
                    &m,
                    at,
                    op.buffer.addr(),
                    op.size,
                    a.is_copy_to_device != 0,
                )?;
            }
        }
        return Ok(0);
    }
    if c == POWER_PROFILE.code() {
        let a: PowerProfile = mem.copy_in(arg)?;
        return if a.ctrl == 0 { Ok(0) } else { Err(ENOTSUPP) };
    }
    if c == METRICS_CTRL.code() {
        return Ok(0);
    }
    super::device_services::exact(st, call)
}

/// The memory a `(host_memory, dram_channel, dram_region)` triple names.
pub(super) fn location(host_memory: u32, dram_channel: u32, dram_region: u32) -> MemLocation {
    if host_memory != 0 {
        MemLocation::Host
    } else {
        MemLocation::Device {
            channel: dram_channel,
            region: dram_region,
        }
    }
}

/// What an emulator-only resource key maps (see [`resource`]): served by a privileged
/// kernel only; EINVAL for anything else, as for a key the driver's table lacks.
fn resource_object(d: &DeviceState, key: (u32, u32, u32)) -> Result<Object, Errno> {
    if !d.config.privileged {
        return Err(Errno::INVAL);
    }
    match key {
        (resource::BLOCK_BAR0, 0, 0) => Ok(Object {
            backing: Backing::Registers { base: 0 },
            len: d.bar0_size,
            kind: ObjectKind::EmulatorRegisters,
        }),
        (resource::BLOCK_UDMA, engine, 0) => {
            let base = usize::try_from(engine)
                .ok()
                .and_then(|e| d.emu.unit_base(e))
                .ok_or(Errno::INVAL)?;
            Ok(Object {
                backing: Backing::Registers { base },
                len: khal::regs::unit::UNIT_SIZE as u64,
                kind: ObjectKind::EmulatorRegisters,
            })
        }
        _ => Err(Errno::INVAL),
    }
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
    eng_id: u32,
    qid: QueueId,
    dir: Dir,
    handle: u64,
    count: u32,
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

/// DMA_QUEUE_INIT (dma-path.md step 4): TX first and RX second, each checked then
/// programmed, so "a TX success followed by an RX failure leaves TX programmed".
fn queue_init(d: &mut DeviceState, a: &DmaQueueInit) -> Result<(), Errno> {
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
    // No completion ring for a user queue: a valid handle fails the init with -1. The
    // reference does not say whether this comes before or after TX is programmed; the
    // emulator refuses before programming either ring (emulator's choice).
    if a.rxc_handle != 0 && d.mem(a.rxc_handle).is_ok() {
        return Err(Errno::PERM);
    }
    let tx = init_dir(d, a.eng_id, qid, Dir::Tx, a.tx_handle, a.tx_desc_count)?;
    let rx = match init_dir(d, a.eng_id, qid, Dir::Rx, a.rx_handle, a.rx_desc_count) {
        Ok(rx) => rx,
        Err(e) => {
            // TX stays programmed; the RX queue's registers are untouched, so the record
            // keeps whatever RX ring it had (none for a queue never initialised).
            let rec = d.queues.entry((a.eng_id, a.qid)).or_default();
            rec.tx = tx;
            rec.rxc_handle = a.rxc_handle;
            return Err(e);
        }
    };
    d.queues.insert(
        (a.eng_id, a.qid),
        QueueRec {
            tx,
            rx,
            rxc_handle: a.rxc_handle,
            acked: 0,
        },
    );
    Ok(())
}

pub(super) fn notif_init(
    d: &mut DeviceState,
    key: (u32, u32, u32),
    size: u32,
    at: MemLocation,
    force: bool,
    tgid: u32,
) -> Result<(u64, u64), Errno> {
    if size == 0 || !size.is_power_of_two() {
        return Err(Errno::INVAL);
    }
    if !force {
        if let Some(h) = d.notif_queues.get(&key) {
            if let Ok(m) = d.mem(*h) {
                if m.size == u64::from(size) {
                    return Ok((m.cookie, *h));
                }
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

/// Copies between a user buffer and an allocation, straight between the user's bytes and
/// the model's (the driver's `copy_from_user`/`copy_to_user` into the chunk): no buffer of
/// the copy's size is made, so a MEM_BUF_COPY of N bytes costs the process no N-byte
/// temporary. Like `copy_from_user`, a user fault may leave the chunk partly written.
fn buf_copy(
    mem: &dyn UserMemory,
    d: &DeviceState,
    m: &super::state::Alloc,
    offset: u64,
    buffer: u64,
    size: u64,
    to_device: bool,
) -> Result<(), Errno> {
    let at = m.span(offset, size)?;
    let n = len(size)?;
    d.emu.with_memory(|space| {
        if to_device {
            let chunk = space.slice_mut(at, n).map_err(|_| Errno::FAULT)?;
            mem.read(buffer, chunk)
        } else {
            let chunk = space.slice(at, n).map_err(|_| Errno::FAULT)?;
            mem.write(buffer, chunk)
        }
    })
}

pub(super) fn mem_copy(
    d: &DeviceState,
    src: u64,
    src_off: u64,
    dst: u64,
    dst_off: u64,
    size: u64,
) -> Result<(), Errno> {
    let from = d.mem(src)?.span(src_off, size)?;
    let to = d.mem(dst)?.span(dst_off, size)?;
    let n = len(size)?;
    d.emu
        .with_memory(|m| m.copy(from, to, n))
        .map_err(|_| Errno::FAULT)
}

fn memset(d: &DeviceState, handle: u64, offset: u64, value: u32, size: u64) -> Result<(), Errno> {
    let at = d.mem(handle)?.span(offset, size)?;
    let byte = value.to_le_bytes()[0];
    d.emu
        .with_memory(|m| m.fill(at, len(size)?, byte).map_err(|_| Errno::FAULT))
}

fn alloc_with(
    mem: &dyn UserMemory,
    d: &mut DeviceState,
    size: u64,
    align: u64,
    at: MemLocation,
    tgid: u32,
    out: u64,
) -> Result<(), Errno> {
    // Host memory takes no alignment (EINVAL); device memory honours it.
    if at == MemLocation::Host && align != 0 {
        return Err(Errno::INVAL);
    }
    let h = d.alloc(size, align, at, tgid, Lifespan::Process)?;
    if let Err(e) = mem.write(out, &h.to_ne_bytes()) {
        d.free(h)?;
        return Err(e);
    }
    Ok(())
}

fn program(
    mem: &dyn UserMemory,
    d: &DeviceState,
    nc_id: u32,
    dst: u64,
    offset: u64,
    buffer: u64,
    size: u64,
) -> Result<(), Errno> {
    d.check_nc(nc_id)?;
    program_at(mem, d, dst, offset, buffer, size)
}

/// PROGRAM_ENGINE's work without a core: writes the user buffer at `dst + offset` after the
/// region check (the address must lie in one allocation).
pub(super) fn program_at(
    mem: &dyn UserMemory,
    d: &DeviceState,
    dst: u64,
    offset: u64,
    buffer: u64,
    size: u64,
) -> Result<(), Errno> {
    let at = dst.checked_add(offset).ok_or(Errno::INVAL)?;
    let (_, m) = d.by_pa(at)?;
    let bare = if m.host() {
        at & !d.facts.scalars.pci_host_base
    } else {
        at
    };
    let at = m.span(bare - m.pa, size)?;
    let bytes = mem.copy_in_bytes(buffer, len(size)?)?;
    d.write(at, &bytes)
}

/// Handlers matched by `_IOC_NR`: each family picks its layout by exact cmd or by size.
pub(super) fn by_nr(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    let mem = call.mem;
    let tgid = call.tgid;
    let d = dev(st, call)?;
    match nr_of(c) {
        102 if c == MEM_ALLOC_V2.code() => {
            let a: MemAllocV2 = mem.copy_in(arg)?;
            let at = location(a.host_memory, a.dram_channel, a.dram_region);
            alloc_with(mem, d, a.size, a.align, at, tgid, a.mem_handle.addr())?;
        }
        102 if c == MEM_ALLOC_V2MT.code() => {
            let a: MemAllocV2MemType = mem.copy_in(arg)?;
            let at = location(a.host_memory, a.dram_channel, a.dram_region);
            alloc_with(mem, d, a.size, a.align, at, tgid, a.mem_handle.addr())?;
        }
        102 if c == MEM_ALLOC_V2MT64.code() => {
            let a: MemAllocV2MemType64 = mem.copy_in(arg)?;
            let at = location(a.host_memory, a.dram_channel, a.dram_region);
            alloc_with(mem, d, a.size, a.align, at, tgid, a.mem_handle.addr())?;
        }
        23 if c == MEM_COPY.code() => {
            let a: MemCopy = mem.copy_in(arg)?;
            let (s, so, t, to) = (
                a.src_mem_handle,
                a.src_offset.into(),
                a.dst_mem_handle,
                a.dst_offset.into(),
            );
            mem_copy(d, s, so, t, to, a.size.into())?;
        }
        23 if c == MEM_COPY64.code() => {
            let a: MemCopy64 = mem.copy_in(arg)?;
            mem_copy(
                d,
                a.src_mem_handle,
                a.src_offset,
                a.dst_mem_handle,
                a.dst_offset,
                a.size,
            )?;
        }
        24 if c == MEM_BUF_COPY.code() => {
            let a: MemBufCopy = mem.copy_in(arg)?;
            let m = *d.mem(a.mem_handle)?;
            buf_copy(
                mem,
                d,
                &m,
                a.offset.into(),
                a.buffer.addr(),
                a.size.into(),
                a.copy_to_mem_handle != 0,
            )?;
        }
        24 if c == MEM_BUF_COPY64.code() => {
            let a: MemBufCopy64 = mem.copy_in(arg)?;
            let m = *d.mem(a.mem_handle)?;
            buf_copy(
                mem,
                d,
                &m,
                a.offset,
                a.buffer.addr(),
                a.size,
                a.copy_to_mem_handle != 0,
            )?;
        }
        124 if c == MEM_BUF_ZEROCOPY64.code() => {
            let a: MemBufCopy64zc = mem.copy_in(arg)?;
            let m = *d.mem(a.mem_handle)?;
            buf_copy(
                mem,
                d,
                &m,
                a.offset,
                a.buffer.addr(),
                a.size,
                a.is_copy_to_device != 0,
            )?;
        }
        28 if c == MEMSET.code() => {
            let a: Memset = mem.copy_in(arg)?;
            memset(d, a.mem_handle, a.offset, a.value, a.size.into())?;
        }
        28 if c == MEMSET64.code() => {
            let a: Memset64 = mem.copy_in(arg)?;
            memset(d, a.mem_handle, a.offset, a.value, a.size)?;
        }
        38 if c == DMA_COPY_DESCRIPTORS.code() => {
            let a: DmaCopyDescriptors = mem.copy_in(arg)?;
            copy_descs(
                mem,
                d,
                a.mem_handle,
                a.offset.into(),
                a.queue_type,
                a.buffer.addr(),
                a.num_descs,
            )?;
        }
        38 if c == DMA_COPY_DESCRIPTORS64.code() => {
            let a: DmaCopyDescriptors64 = mem.copy_in(arg)?;
            copy_descs(
                mem,
                d,
                a.mem_handle,
                a.offset,
                a.queue_type,
                a.buffer.addr(),
                a.num_descs,
            )?;
        }
        105 if c == PROGRAM_ENGINE_NC.code() => {
            let a: ProgramEngineNc = mem.copy_in(arg)?;
            program(
                mem,
                d,
                a.nc_id,
                a.dst,
                a.offset.into(),
                a.buffer.addr(),
                a.size.into(),
            )?;
        }
        105 if c == PROGRAM_ENGINE_NC64.code() => {
            let a: ProgramEngineNc64 = mem.copy_in(arg)?;
            program(mem, d, a.nc_id, a.dst, a.offset, a.buffer.addr(), a.size)?;
        }
        // MC_GET_INFO switches on `_IOC_SIZE` alone (any dir reaches it).
        111 if size_of_code(c) as usize == size_of::<MemGetMcMmapInfo>() => {
            let mut a: MemGetMcMmapInfo = mem.copy_in(arg)?;
            let (_, m) = d.by_pa(a.pa)?;
            a.mmap_offset = m.cookie;
            a.size = m.size;
            mem.copy_out(arg, &a)?;
        }
        111 if size_of_code(c) as usize == size_of::<MemGetMcMmapInfoV2>() => {
            let mut a: MemGetMcMmapInfoV2 = mem.copy_in(arg)?;
            let (h, m) = d.by_pa(a.pa)?;
            a.mmap_offset = m.cookie;
            a.size = m.size;
            a.mem_handle = h;
            mem.copy_out(arg, &a)?;
        }
        108 if c == MEM_COPY_ASYNC.code() || c == MEM_COPY_ASYNC64.code() => {
            return super::device_services::mem_copy_async(d, call);
        }
        _ => return Err(Errno::INVAL),
    }
    Ok(0)
}

/// Copies `num` descriptors from a user buffer into ring memory.
fn copy_descs(
    mem: &dyn UserMemory,
    d: &DeviceState,
    handle: u64,
    offset: u64,
    queue_type: u32,
    buffer: u64,
    num: u32,
) -> Result<(), Errno> {
    if queue_type > 1 {
        return Err(Errno::PERM);
    }
    let n = num as usize * DESC_SIZE;
    let at = d.mem(handle)?.span(offset, n as u64)?;
    let bytes = mem.copy_in_bytes(buffer, n)?;
    // TX descriptors carry the source, RX the destination at bytes 8-15: an address in the
    // host window must start inside a host chunk (of this device, here), else EINVAL;
    // device addresses are not checked.
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
    d.write(at, &bytes)
}
