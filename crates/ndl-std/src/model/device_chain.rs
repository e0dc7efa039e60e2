//! Handlers of the device chain (`ncdev_ioctl`): privileged fds only.

use core::ffi::c_int;

use zerocopy::FromZeros;

#[allow(clippy::wildcard_imports)]
use crate::ioctl_codes::*;
use crate::ioctl_structs::{
    Crwl, DeviceBdf, DeviceInfo, DeviceReady, DeviceReset, DmaAckCompleted, DmaCopyDescriptors,
    DmaCopyDescriptors64, DmaDescriptorCopyout, DmaEngGetState, DmaEngSetState, DmaEngState,
    DmaQueueCopyStart, DmaQueueGetState, DmaQueueInit, DmaQueueInitBatch, DmaQueueRelease,
    DmaQueueState, Event, HbmScrubStart, HbmScrubWait, HostDeviceId, MemAlloc, MemAllocV2,
    MemAllocV2MemType, MemAllocV2MemType64, MemBufCopy, MemBufCopy64, MemBufCopy64zc,
    MemBufCopy64zcBatches, MemCopy, MemCopy64, MemFree, MemGetExtendedInfo, MemGetMcMmapInfo,
    MemGetMcMmapInfoV2, MemcpyBatch, Memset, Memset64, NotificationsInitV2,
    NotificationsInitWithReallocV2, PowerProfile, ProgramEngineNc, ProgramEngineNc64,
    ResourceMmapInfo, Semaphore, TensorBatchOp,
};
use crate::kernel::Errno;
use crate::wrappers::DESC_SIZE;

use super::ENOTSUPP;
use super::state::{
    Call, DMA_ENGINES, DMA_QUEUES, DeviceState, EVENTS, HBM_COUNT, Queue, Ring, SEMAPHORES, State,
};
use super::user::{read_arg, read_user, read_user_value, write_arg, write_user};

/// Resource space the model exposes through RESOURCE_MMAP_INFO: every
/// (block < 4, block_id < 8, resource < 4) is a 4 KiB register block.
const RESOURCE_LIMITS: (u32, u32, u32) = (4, 8, 4);
const RESOURCE_SIZE: usize = 4096;

fn dev<'a>(st: &'a mut State, call: &Call) -> Result<&'a mut DeviceState, Errno> {
    st.device_mut(call.device).ok_or(Errno::NODEV)
}

fn len(v: u64) -> Result<usize, Errno> {
    usize::try_from(v).map_err(|_| Errno::INVAL)
}

/// Handlers matched by exact cmd.
///
/// # Safety
/// `call.arg` and the user addresses in it satisfy the `Kernel::ioctl` contract.
pub(super) unsafe fn exact(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    let tgid = call.tgid;
    // SAFETY: (whole body) every `read_arg::<T>` / `write_arg` copies exactly the struct the
    // matched command names, at the address the caller vouched for; user addresses inside
    // it are the caller's too.
    unsafe {
        if c == DEVICE_RESET.code() || c == DEVICE_INIT.code() || c == DEVICE_RELEASE.code() {
            return Ok(0);
        }
        if c == DEVICE_READY.code() || c == DEVICE_RESET_STATUS.code() {
            write_arg(arg, &1u8)?;
            return Ok(0);
        }
        if c == DEVICE_APP_PID.code() {
            let pid = dev(st, call)?.first_attached().map_or(-1, |p| p as i32);
            write_arg(arg, &pid)?;
            return Ok(0);
        }
        if c == DEVICE_INFO.code() {
            let d = dev(st, call)?;
            let mut info = DeviceInfo::new_zeroed();
            info.architecture = d.config.architecture;
            info.revision = d.config.revision;
            info.bar_size = d.config.bar_size;
            info.bar_address = [0xC000_0000 + u64::from(call.device) * 0x1_0000_0000, 0];
            write_arg(arg, &info)?;
            return Ok(0);
        }
        if c == DEVICE_BDF.code() {
            let d = dev(st, call)?;
            let mut bdf = DeviceBdf::new_zeroed();
            bdf.bus_number = d.config.bus;
            bdf.slot = d.config.slot;
            bdf.func = d.config.func;
            write_arg(arg, &bdf)?;
            return Ok(0);
        }
        if c == HOST_DEVICE_ID.code() {
            let id = dev(st, call)?.config.host_device_id;
            write_arg(arg, &HostDeviceId { host_device_id: id })?;
            return Ok(0);
        }
        if c == MEM_ALLOC.code() {
            let a: MemAlloc = read_arg(arg)?;
            let h = dev(st, call)?.alloc(a.size, 0, a.host_memory != 0, tgid)?;
            write_user(a.mem_handle.addr(), &h.to_ne_bytes())?;
            return Ok(0);
        }
        if c == MEM_FREE.code() {
            let a: MemFree = read_arg(arg)?;
            dev(st, call)?.free(a.mem_handle)?;
            return Ok(0);
        }
        if c == MEM_GET_EXTENDED_INFO.code() {
            let mut a: MemGetExtendedInfo = read_arg(arg)?;
            let Ok(m) = dev(st, call)?.mem(a.mem_handle) else {
                // The driver returns +EINVAL here, not -EINVAL.
                return Ok(Errno::INVAL.raw_os_error());
            };
            a.host_memory = u32::from(m.host);
            a.mmap_offset = m.cookie;
            a.pa = m.pa;
            a.pid = u64::from(m.pid);
            a.size = m.size;
            write_arg(arg, &a)?;
            return Ok(0);
        }
        if c == DMA_ENG_INIT.code() {
            return Ok(0);
        }
        if c == DMA_ENG_SET_STATE.code() {
            let a: DmaEngSetState = read_arg(arg)?;
            if a.eng_id >= DMA_ENGINES {
                return Err(Errno::INVAL);
            }
            dev(st, call)?.engines.insert(a.eng_id, a.state);
            return Ok(0);
        }
        if c == DMA_ENG_GET_STATE.code() {
            let a: DmaEngGetState = read_arg(arg)?;
            if a.eng_id >= DMA_ENGINES {
                return Err(Errno::INVAL);
            }
            let d = dev(st, call)?;
            let state = d.engines.get(&a.eng_id).copied().unwrap_or(0);
            let num_queues = d.queues.keys().filter(|(e, _)| *e == a.eng_id).count() as u32;
            let out = DmaEngState {
                revision_id: d.config.revision,
                max_queues: DMA_QUEUES,
                num_queues,
                tx_state: state,
                rx_state: state,
            };
            write_user(a.state.addr(), zerocopy::IntoBytes::as_bytes(&out))?;
            return Ok(0);
        }
        if c == DMA_QUEUE_INIT.code() {
            let a: DmaQueueInit = read_arg(arg)?;
            queue_init(dev(st, call)?, &a)?;
            return Ok(0);
        }
        if c == DMA_QUEUE_INIT_BATCH.code() {
            // The driver copies the whole 12 KiB struct; a failed copy-in answers EACCES.
            let a: Box<DmaQueueInitBatch> = {
                if arg.is_null() {
                    return Err(Errno::ACCESS);
                }
                let mut b = Box::new(DmaQueueInitBatch::new_zeroed());
                core::ptr::copy_nonoverlapping(
                    arg.cast::<u8>(),
                    zerocopy::IntoBytes::as_mut_bytes(&mut *b).as_mut_ptr(),
                    size_of::<DmaQueueInitBatch>(),
                );
                b
            };
            if a.count >= 256 {
                return Err(Errno::INVAL);
            }
            let d = dev(st, call)?;
            for e in a.entries.iter().take(a.count as usize) {
                queue_init(d, e)?;
            }
            return Ok(0);
        }
        if c == DMA_QUEUE_RELEASE.code() {
            let a: DmaQueueRelease = read_arg(arg)?;
            dev(st, call)?
                .queues
                .remove(&(a.eng_id, a.qid))
                .ok_or(Errno::INVAL)?;
            return Ok(0);
        }
        if c == DMA_QUEUE_COPY_START.code() {
            let a: DmaQueueCopyStart = read_arg(arg)?;
            let q = dev(st, call)?
                .queues
                .get_mut(&(a.eng_id, a.qid))
                .ok_or(Errno::INVAL)?;
            if a.tx_desc_count >= q.tx.len.max(1) || a.rx_desc_count >= q.rx.len.max(1) {
                return Err(Errno::INVAL);
            }
            q.tx.tail = (q.tx.tail + a.tx_desc_count) % q.tx.len.max(1);
            q.rx.tail = (q.rx.tail + a.rx_desc_count) % q.rx.len.max(1);
            // The model's engine completes a transfer as soon as it starts.
            q.completed += a.rx_desc_count.max(a.tx_desc_count);
            return Ok(0);
        }
        if c == DMA_ACK_COMPLETED.code() {
            let a: DmaAckCompleted = read_arg(arg)?;
            let q = dev(st, call)?
                .queues
                .get_mut(&(a.eng_id, a.qid))
                .ok_or(Errno::INVAL)?;
            if a.count > q.completed - q.acked {
                return Err(Errno::INVAL);
            }
            q.acked += a.count;
            q.tx.head = (q.tx.head + a.count) % q.tx.len.max(1);
            q.rx.head = (q.rx.head + a.count) % q.rx.len.max(1);
            return Ok(0);
        }
        if c == DMA_QUEUE_GET_STATE.code() {
            let a: DmaQueueGetState = read_arg(arg)?;
            let d = dev(st, call)?;
            let q = *d.queues.get(&(a.eng_id, a.qid)).ok_or(Errno::INVAL)?;
            let completion = d.allocs.get(&q.rxc_handle).map_or(0, |m| m.pa);
            let state = |r: Ring| {
                let mut s = DmaQueueState::new_zeroed();
                s.hw_status = 1;
                s.sw_status = 1;
                s.base_addr = d.allocs.get(&r.handle).map_or(0, |m| m.pa);
                s.length = r.len;
                s.head_pointer = r.head;
                s.tail_pointer = r.tail;
                s.completion_base_addr = completion;
                s.completion_head = q.acked;
                s
            };
            write_user(a.tx.addr(), zerocopy::IntoBytes::as_bytes(&state(q.tx)))?;
            write_user(a.rx.addr(), zerocopy::IntoBytes::as_bytes(&state(q.rx)))?;
            return Ok(0);
        }
        if c == DMA_DESCRIPTOR_COPYOUT.code() {
            let a: DmaDescriptorCopyout = read_arg(arg)?;
            let d = dev(st, call)?;
            let q = d.queues.get(&(a.eng_id, a.qid)).ok_or(Errno::INVAL)?;
            let ring = ring_of(q, a.r#type)?;
            let end = a.start_index.checked_add(a.count).ok_or(Errno::INVAL)?;
            if end > ring.len {
                return Err(Errno::INVAL);
            }
            let mut bytes = vec![0u8; a.count as usize * DESC_SIZE];
            d.mem(ring.handle)?
                .region
                .read(u64::from(a.start_index) * DESC_SIZE as u64, &mut bytes)?;
            write_user(a.buffer.addr(), &bytes)?;
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
            let mut a: Semaphore = read_arg(arg)?;
            let d = dev(st, call)?;
            d.check_nc(a.nc_id)?;
            if a.semaphore_index >= SEMAPHORES {
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
                    write_arg(arg, &a)?;
                }
            }
            return Ok(0);
        }
        if c == EVENT_SET.code() || c == EVENT_GET.code() {
            let mut a: Event = read_arg(arg)?;
            let d = dev(st, call)?;
            d.check_nc(a.nc_id)?;
            if a.event_index >= EVENTS {
                return Err(Errno::INVAL);
            }
            let v = d.events.entry((a.nc_id, a.event_index)).or_default();
            if c == EVENT_SET.code() {
                *v = a.value;
            } else {
                a.value = *v;
                write_arg(arg, &a)?;
            }
            return Ok(0);
        }
        if c == NOTIFICATIONS_INIT_V2.code() {
            let mut a: NotificationsInitV2 = read_arg(arg)?;
            let key = (a.nq_dev_id, a.nq_type, a.engine_index);
            let (cookie, h) = notif_init(
                dev(st, call)?,
                key,
                a.size,
                a.on_host_memory != 0,
                false,
                tgid,
            )?;
            a.mmap_offset = cookie;
            a.mem_handle = h;
            write_arg(arg, &a)?;
            return Ok(0);
        }
        if c == NOTIFICATIONS_INIT_WITH_REALLOC_V2.code() {
            let mut a: NotificationsInitWithReallocV2 = read_arg(arg)?;
            let key = (a.nq_dev_id, a.nq_type, a.engine_index);
            let force = a.force_alloc_mem != 0;
            let (cookie, h) = notif_init(
                dev(st, call)?,
                key,
                a.size,
                a.on_host_memory != 0,
                force,
                tgid,
            )?;
            a.mmap_offset = cookie;
            a.mem_handle = h;
            write_arg(arg, &a)?;
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
            let a: Crwl = read_arg(arg)?;
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
            let mut a: DeviceReset = read_arg(arg)?;
            let d = dev(st, call)?;
            let all = if d.config.nc_count >= 32 {
                u32::MAX
            } else {
                (1 << d.config.nc_count) - 1
            };
            if a.nc_map & !all != 0 {
                return Err(Errno::INVAL);
            }
            let hit = |nc: u32| a.nc_map & (1 << nc) != 0;
            d.semaphores.retain(|(nc, _), _| !hit(*nc));
            d.events.retain(|(nc, _), _| !hit(*nc));
            a.request_id = tgid;
            d.resets.insert(tgid);
            write_arg(arg, &a)?;
            return Ok(0);
        }
        if c == NC_RESET_READY.code() {
            let mut a: DeviceReady = read_arg(arg)?;
            if !dev(st, call)?.resets.remove(&a.request_id) {
                return Err(Errno::INVAL);
            }
            a.result = 0;
            write_arg(arg, &a)?;
            return Ok(0);
        }
        if c == RESOURCE_MMAP_INFO.code() {
            let mut a: ResourceMmapInfo = read_arg(arg)?;
            let (b, i, r) = RESOURCE_LIMITS;
            if a.block >= b || a.block_id >= i || a.resource >= r {
                return Err(Errno::INVAL);
            }
            let d = dev(st, call)?;
            let key = (a.block, a.block_id, a.resource);
            let cookie = match d.resources.get(&key) {
                Some(c) => *c,
                None => {
                    let region = std::sync::Arc::new(super::region::Region::new(RESOURCE_SIZE)?);
                    let c = d.new_cookie(region);
                    d.resources.insert(key, c);
                    c
                }
            };
            a.offset = cookie;
            a.size = RESOURCE_SIZE as u64;
            write_arg(arg, &a)?;
            return Ok(0);
        }
        if c == HBM_SCRUB_START.code() {
            let a: HbmScrubStart = read_arg(arg)?;
            let d = dev(st, call)?;
            d.check_nc(a.nc_id)?;
            if a.hbm_index >= HBM_COUNT {
                return Err(Errno::INVAL);
            }
            if !d.scrubs.insert((a.nc_id, a.hbm_index)) {
                return Err(Errno::BUSY);
            }
            let byte = a.init_val.to_le_bytes()[0];
            for m in d.allocs.values().filter(|m| !m.host) {
                m.region.fill(0, m.region.len(), byte)?;
            }
            return Ok(0);
        }
        if c == HBM_SCRUB_WAIT.code() {
            let a: HbmScrubWait = read_arg(arg)?;
            if !dev(st, call)?.scrubs.remove(&(a.nc_id, a.hbm_index)) {
                return Err(Errno::INVAL);
            }
            return Ok(0);
        }
        if c == MEM_BUF_ZEROCOPY64_BATCHES.code() {
            let a: MemBufCopy64zcBatches = read_arg(arg)?;
            let d = dev(st, call)?;
            for i in 0..u64::from(a.num_batches) {
                let b: MemcpyBatch =
                    read_user_value(a.batches_ptr.addr() + i * size_of::<MemcpyBatch>() as u64)?;
                let m = d.mem(b.mem_handle)?;
                for j in 0..u64::from(b.num_ops) {
                    let op: TensorBatchOp =
                        read_user_value(b.ops_ptr.addr() + j * size_of::<TensorBatchOp>() as u64)?;
                    let at = b
                        .mem_handle_offset
                        .checked_add(op.offset)
                        .ok_or(Errno::INVAL)?;
                    buf_copy(m, at, op.buffer.addr(), op.size, a.is_copy_to_device != 0)?;
                }
            }
            return Ok(0);
        }
        if c == POWER_PROFILE.code() {
            let a: PowerProfile = read_arg(arg)?;
            return if a.ctrl == 0 { Ok(0) } else { Err(ENOTSUPP) };
        }
        if c == METRICS_CTRL.code() {
            return Ok(0);
        }
    }
    // Commands the model does not implement yet (BAR access, metrics, datastores, H2T
    // queues, async copies, ...).
    Err(Errno::NOSYS)
}

fn ring_of(q: &Queue, ty: u32) -> Result<Ring, Errno> {
    match ty {
        0 => Ok(q.tx),
        1 => Ok(q.rx),
        _ => Err(Errno::INVAL),
    }
}

fn queue_init(d: &mut DeviceState, a: &DmaQueueInit) -> Result<(), Errno> {
    if a.eng_id >= DMA_ENGINES || a.qid >= DMA_QUEUES {
        return Err(Errno::INVAL);
    }
    let fits = |handle: u64, count: u32| -> Result<(), Errno> {
        if count == 0 && handle == 0 {
            return Ok(());
        }
        let m = d.mem(handle)?;
        if u64::from(count) * DESC_SIZE as u64 > m.size {
            Err(Errno::INVAL)
        } else {
            Ok(())
        }
    };
    fits(a.tx_handle, a.tx_desc_count)?;
    fits(a.rx_handle, a.rx_desc_count)?;
    if a.rxc_handle != 0 {
        d.mem(a.rxc_handle)?;
    }
    let q = Queue {
        tx: Ring {
            handle: a.tx_handle,
            len: a.tx_desc_count,
            head: 0,
            tail: 0,
        },
        rx: Ring {
            handle: a.rx_handle,
            len: a.rx_desc_count,
            head: 0,
            tail: 0,
        },
        rxc_handle: a.rxc_handle,
        completed: 0,
        acked: 0,
    };
    d.queues.insert((a.eng_id, a.qid), q);
    Ok(())
}

fn notif_init(
    d: &mut DeviceState,
    key: (u32, u32, u32),
    size: u32,
    host: bool,
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
    let h = d.alloc(u64::from(size), 0, host, tgid)?;
    d.notif_queues.insert(key, h);
    Ok((d.mem(h)?.cookie, h))
}

/// Copies between a user buffer and an allocation.
///
/// # Safety
/// `buffer` is valid for `size` bytes in the direction `to_device` says.
unsafe fn buf_copy(
    m: &super::state::Alloc,
    offset: u64,
    buffer: u64,
    size: u64,
    to_device: bool,
) -> Result<(), Errno> {
    let n = len(size)?;
    if offset.checked_add(size).is_none_or(|end| end > m.size) {
        return Err(Errno::INVAL);
    }
    if to_device {
        // SAFETY: forwarded.
        let bytes = unsafe { read_user(buffer, n) }?;
        m.region.write(offset, &bytes)
    } else {
        let mut bytes = vec![0u8; n];
        m.region.read(offset, &mut bytes)?;
        // SAFETY: forwarded.
        unsafe { write_user(buffer, &bytes) }
    }
}

fn mem_copy(
    d: &DeviceState,
    src: u64,
    src_off: u64,
    dst: u64,
    dst_off: u64,
    size: u64,
) -> Result<(), Errno> {
    let (s, t) = (d.mem(src)?, d.mem(dst)?);
    let n = len(size)?;
    let mut bytes = vec![0u8; n];
    s.region.read(src_off, &mut bytes)?;
    t.region.write(dst_off, &bytes)
}

fn alloc_with(
    d: &mut DeviceState,
    size: u64,
    align: u64,
    host: u32,
    tgid: u32,
    out: u64,
) -> Result<(), Errno> {
    let h = d.alloc(size, align, host != 0, tgid)?;
    // SAFETY: `out` is the struct's `mem_handle` output address, vouched for by the caller.
    if let Err(e) = unsafe { write_user(out, &h.to_ne_bytes()) } {
        d.free(h)?;
        return Err(e);
    }
    Ok(())
}

fn program(
    d: &DeviceState,
    nc_id: u32,
    dst: u64,
    offset: u64,
    buffer: u64,
    size: u64,
) -> Result<(), Errno> {
    d.check_nc(nc_id)?;
    let at = dst.checked_add(offset).ok_or(Errno::INVAL)?;
    let (_, m) = d.by_pa(at)?;
    // SAFETY: `buffer` is the command's input buffer of `size` bytes, vouched for by the caller.
    let bytes = unsafe { read_user(buffer, len(size)?) }?;
    m.region.write(at - m.pa, &bytes)
}

/// Handlers matched by `_IOC_NR`: each family picks its layout by exact cmd or by size.
///
/// # Safety
/// As for [`exact`].
pub(super) unsafe fn by_nr(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    let tgid = call.tgid;
    let d = dev(st, call)?;
    // SAFETY: (whole body) each branch copies the struct of the exact cmd it matched.
    unsafe {
        match nr_of(c) {
            102 if c == MEM_ALLOC_V2.code() => {
                let a: MemAllocV2 = read_arg(arg)?;
                alloc_with(d, a.size, a.align, a.host_memory, tgid, a.mem_handle.addr())?;
            }
            102 if c == MEM_ALLOC_V2MT.code() => {
                let a: MemAllocV2MemType = read_arg(arg)?;
                alloc_with(d, a.size, a.align, a.host_memory, tgid, a.mem_handle.addr())?;
            }
            102 if c == MEM_ALLOC_V2MT64.code() => {
                let a: MemAllocV2MemType64 = read_arg(arg)?;
                alloc_with(d, a.size, a.align, a.host_memory, tgid, a.mem_handle.addr())?;
            }
            23 if c == MEM_COPY.code() => {
                let a: MemCopy = read_arg(arg)?;
                let (s, so, t, to) = (
                    a.src_mem_handle,
                    a.src_offset.into(),
                    a.dst_mem_handle,
                    a.dst_offset.into(),
                );
                mem_copy(d, s, so, t, to, a.size.into())?;
            }
            23 if c == MEM_COPY64.code() => {
                let a: MemCopy64 = read_arg(arg)?;
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
                let a: MemBufCopy = read_arg(arg)?;
                let m = d.mem(a.mem_handle)?;
                buf_copy(
                    m,
                    a.offset.into(),
                    a.buffer.addr(),
                    a.size.into(),
                    a.copy_to_mem_handle != 0,
                )?;
            }
            24 if c == MEM_BUF_COPY64.code() => {
                let a: MemBufCopy64 = read_arg(arg)?;
                let m = d.mem(a.mem_handle)?;
                buf_copy(
                    m,
                    a.offset,
                    a.buffer.addr(),
                    a.size,
                    a.copy_to_mem_handle != 0,
                )?;
            }
            124 if c == MEM_BUF_ZEROCOPY64.code() => {
                let a: MemBufCopy64zc = read_arg(arg)?;
                let m = d.mem(a.mem_handle)?;
                buf_copy(
                    m,
                    a.offset,
                    a.buffer.addr(),
                    a.size,
                    a.is_copy_to_device != 0,
                )?;
            }
            28 if c == MEMSET.code() => {
                let a: Memset = read_arg(arg)?;
                let byte = a.value.to_le_bytes()[0];
                d.mem(a.mem_handle)?
                    .region
                    .fill(a.offset, len(a.size.into())?, byte)?;
            }
            28 if c == MEMSET64.code() => {
                let a: Memset64 = read_arg(arg)?;
                let byte = a.value.to_le_bytes()[0];
                d.mem(a.mem_handle)?
                    .region
                    .fill(a.offset, len(a.size)?, byte)?;
            }
            38 if c == DMA_COPY_DESCRIPTORS.code() => {
                let a: DmaCopyDescriptors = read_arg(arg)?;
                copy_descs(
                    d,
                    a.mem_handle,
                    a.offset.into(),
                    a.queue_type,
                    a.buffer.addr(),
                    a.num_descs,
                )?;
            }
            38 if c == DMA_COPY_DESCRIPTORS64.code() => {
                let a: DmaCopyDescriptors64 = read_arg(arg)?;
                copy_descs(
                    d,
                    a.mem_handle,
                    a.offset,
                    a.queue_type,
                    a.buffer.addr(),
                    a.num_descs,
                )?;
            }
            105 if c == PROGRAM_ENGINE_NC.code() => {
                let a: ProgramEngineNc = read_arg(arg)?;
                program(
                    d,
                    a.nc_id,
                    a.dst,
                    a.offset.into(),
                    a.buffer.addr(),
                    a.size.into(),
                )?;
            }
            105 if c == PROGRAM_ENGINE_NC64.code() => {
                let a: ProgramEngineNc64 = read_arg(arg)?;
                program(d, a.nc_id, a.dst, a.offset, a.buffer.addr(), a.size)?;
            }
            // MC_GET_INFO switches on `_IOC_SIZE` alone (any dir reaches it).
            111 if size_of_code(c) as usize == size_of::<MemGetMcMmapInfo>() => {
                let mut a: MemGetMcMmapInfo = read_arg(arg)?;
                let (_, m) = d.by_pa(a.pa)?;
                a.mmap_offset = m.cookie;
                a.size = m.size;
                write_arg(arg, &a)?;
            }
            111 if size_of_code(c) as usize == size_of::<MemGetMcMmapInfoV2>() => {
                let mut a: MemGetMcMmapInfoV2 = read_arg(arg)?;
                let (h, m) = d.by_pa(a.pa)?;
                a.mmap_offset = m.cookie;
                a.size = m.size;
                a.mem_handle = h;
                write_arg(arg, &a)?;
            }
            // The async copies are not modelled yet; every other size is unknown.
            108 if c == MEM_COPY_ASYNC.code() || c == MEM_COPY_ASYNC64.code() => {
                return Err(Errno::NOSYS);
            }
            _ => return Err(Errno::INVAL),
        }
    }
    Ok(0)
}

/// Copies `num` descriptors from a user buffer into ring memory.
///
/// # Safety
/// `buffer` is valid for reading `num * 16` bytes.
unsafe fn copy_descs(
    d: &DeviceState,
    handle: u64,
    offset: u64,
    queue_type: u32,
    buffer: u64,
    num: u32,
) -> Result<(), Errno> {
    if queue_type > 1 {
        return Err(Errno::INVAL);
    }
    let m = d.mem(handle)?;
    let n = num as usize * DESC_SIZE;
    if offset.checked_add(n as u64).is_none_or(|end| end > m.size) {
        return Err(Errno::INVAL);
    }
    // SAFETY: forwarded.
    let bytes = unsafe { read_user(buffer, n) }?;
    m.region.write(offset, &bytes)
}
