//! The rest of the device chain: deprecated memory queries and engine programming, the
//! attached-app list, datastores, core init state, started-model counts, the allocator's
//! chunk dump and the asynchronous copies. Handlers reach user memory only through the
//! call's [`crate::UserMemory`].

use core::ffi::c_int;

use zerocopy::FromZeros;

#[allow(clippy::wildcard_imports)]
use ndl_abi::*;
use ndl_abi::{
    AppInfo, CinitSet, DumpMemChunks, GetAppsInfo, MemChunkInfo, MemCopyAsync, MemCopyAsync64,
    MemCopyAsyncWait, MemGetInfo, MemGetPa, NcModelStartedCount, NeuronDsInfo, NotificationsInitV1,
    ProgramEngine,
};
use ndl_std::Errno;
use ndl_std::MemLocation;
use neuron_emu::RegionKind;

use super::device_chain::{mem_copy, notif_init, program_at};
use super::state::{Call, DeviceState, Lifespan, PAGE, State};

/// Size of a datastore the model hands out: one page. The reference does not give the
/// driver's size; callers read it from the answer.
pub const DATASTORE_BYTES: u64 = PAGE;

fn dev<'a>(st: &'a mut State, call: &Call<'_>) -> Result<&'a mut DeviceState, Errno> {
    st.device_mut(call.device).ok_or(Errno::NODEV)
}

/// Exact-cmd handlers of the device chain not in [`super::device_chain::exact`]; anything
/// else that reaches the device chain falls through to the misc handler, which refuses it.
pub(super) fn exact(st: &mut State, call: &Call<'_>) -> Result<c_int, Errno> {
    let (c, arg, mem, tgid) = (call.code, call.arg, call.mem, call.tgid);
    if c == DEVICE_GET_ALL_APPS_INFO.code() {
        let mut head: GetAppsInfo = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        let apps: Vec<AppInfo> = d
            .attached_pids()
            .take(head.capacity as usize)
            .map(|pid| app_info(d, pid))
            .collect();
        head.size = u32::try_from(apps.len()).map_err(|_| Errno::INVAL)?;
        let entries = arg
            .checked_add(size_of::<GetAppsInfo>() as u64)
            .ok_or(Errno::FAULT)?;
        mem.copy_out(entries, apps.as_slice())?;
        mem.copy_out(arg, &head)?;
        return Ok(0);
    }
    if c == MEM_GET_PA.code() {
        let a: MemGetPa = mem.copy_in(arg)?;
        let pa = dev(st, call)?.mem(a.mem_handle)?.pa;
        mem.copy_out(a.pa.addr(), &pa)?;
        return Ok(0);
    }
    if c == MEM_GET_INFO.code() {
        let a: MemGetInfo = mem.copy_in(arg)?;
        let m = *dev(st, call)?.mem(a.mem_handle)?;
        mem.copy_out(a.pa.addr(), &m.pa)?;
        // The mmap offset is optional: written only when the pointer is given.
        if !a.mmap_offset.is_null() {
            mem.copy_out(a.mmap_offset.addr(), &m.cookie)?;
        }
        return Ok(0);
    }
    if c == PROGRAM_ENGINE.code() {
        let a: ProgramEngine = mem.copy_in(arg)?;
        let (buffer, size) = (a.buffer.addr(), u64::from(a.size));
        program_at(mem, dev(st, call)?, a.dst, a.offset.into(), buffer, size)?;
        return Ok(0);
    }
    if c == NOTIFICATIONS_INIT_V1.code() {
        let mut a: NotificationsInitV1 = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        d.check_nc(a.nc_id)?;
        // V1 carries no location; the model places the queue in host memory.
        let key = (a.nc_id, a.nq_type, a.engine_index);
        let (cookie, _) = notif_init(d, key, a.size, MemLocation::Host, false, tgid)?;
        a.mmap_offset = cookie;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == ACQUIRE_NEURON_DS.code() {
        let mut a: NeuronDsInfo = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        // pid 0 means a new datastore for the caller.
        let owner = if a.pid == 0 {
            tgid
        } else {
            u32::try_from(a.pid).map_err(|_| Errno::INVAL)?
        };
        let handle = match d.datastores.get(&owner) {
            Some(h) => *h,
            None if a.pid == 0 => {
                // A device-lifespan chunk (mmap-README.md): writable by every process
                // that maps it.
                let h = d.alloc(
                    DATASTORE_BYTES,
                    0,
                    MemLocation::Host,
                    tgid,
                    Lifespan::Device,
                )?;
                d.datastores.insert(owner, h);
                h
            }
            None => return Err(Errno::INVAL),
        };
        let m = d.mem(handle)?;
        a.mmap_offset = m.cookie;
        a.size = u32::try_from(m.size).map_err(|_| Errno::INVAL)?;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == RELEASE_NEURON_DS.code() {
        let a: NeuronDsInfo = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        // The handler returns 0 whether or not the pid had one.
        if let Some(h) = u32::try_from(a.pid)
            .ok()
            .and_then(|pid| d.datastores.remove(&pid))
        {
            d.free(h)?;
        }
        return Ok(0);
    }
    if c == CINIT_SET_STATE.code() {
        let mut a: CinitSet = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        d.check_nc(a.nc_id)?;
        d.cinit.insert(a.nc_id, a.state);
        a.new_state = a.state;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == NC_MODEL_STARTED_COUNT.code() {
        let mut a: NcModelStartedCount = mem.copy_in(arg)?;
        dev(st, call)?.check_nc(a.nc_id)?;
        // The model runs no models on its cores: the count stays 0.
        a.started_count = 0;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == MEM_COPY_ASYNC_WAIT.code() {
        let a: MemCopyAsyncWait = mem.copy_in(arg)?;
        if a.pwait_handle != 1 && a.pwait_handle != 2 {
            return Err(Errno::INVAL);
        }
        let d = dev(st, call)?;
        d.mem(a.src_mem_handle)?;
        d.mem(a.dst_mem_handle)?;
        // The model's async copies complete before MEM_COPY_ASYNC returns.
        return Ok(0);
    }
    if c == DUMP_MEM_CHUNKS.code() {
        let mut a: DumpMemChunks = mem.copy_in(arg)?;
        let d = dev(st, call)?;
        let channel = u8::try_from(a.hbm_index).map_err(|_| Errno::INVAL)?;
        let kind = RegionKind::Device { channel };
        let chunks: Vec<MemChunkInfo> = d
            .allocs
            .values()
            .filter(|m| m.kind == kind)
            .map(|m| {
                let mut e = MemChunkInfo::new_zeroed();
                e.pa = m.pa;
                e.size = m.size;
                e
            })
            .collect();
        a.num_entries_out = u32::try_from(chunks.len()).map_err(|_| Errno::INVAL)?;
        if chunks.len() > a.num_entries_in as usize {
            // Too small: the need goes back in num_entries_out.
            mem.copy_out(arg, &a)?;
            return Err(Errno::AGAIN);
        }
        mem.copy_out(a.data.addr(), chunks.as_slice())?;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    // Not a device-chain command after all: the misc handler refuses it.
    Err(Errno::INVAL)
}

/// The neuron_app_info record of attached process `pid`: its pid, the cores whose lock it
/// holds as writer, and the bytes it holds in host and device memory.
fn app_info(d: &DeviceState, pid: u32) -> AppInfo {
    let mut info = AppInfo::new_zeroed();
    info.pid = pid as i32;
    info.nc_lock_map = d
        .locks
        .iter()
        .filter(|(nc, l)| l.writer == Some(pid) && **nc < 8)
        .fold(0u8, |m, (nc, _)| m | (1 << nc));
    for m in d.allocs.values().filter(|m| m.pid == pid) {
        if m.host() {
            info.host_mem_size += m.size;
        } else {
            info.device_mem_size += m.size;
        }
    }
    info
}

/// MEM_COPY_ASYNC and MEM_COPY_ASYNC64: the model copies at once and hands out the next of
/// the two wait slots (1, 2) for MEM_COPY_ASYNC_WAIT.
pub(super) fn mem_copy_async(d: &mut DeviceState, call: &Call<'_>) -> Result<c_int, Errno> {
    let (c, arg, mem) = (call.code, call.arg, call.mem);
    let slot = d.next_wait_slot;
    if c == MEM_COPY_ASYNC.code() {
        let mut a: MemCopyAsync = mem.copy_in(arg)?;
        let (so, to) = (a.src_offset.into(), a.dst_offset.into());
        mem_copy(d, a.src_mem_handle, so, a.dst_mem_handle, to, a.size.into())?;
        a.wait_handle = slot;
        mem.copy_out(arg, &a)?;
    } else {
        let mut a: MemCopyAsync64 = mem.copy_in(arg)?;
        let (s, t) = (a.src_mem_handle, a.dst_mem_handle);
        mem_copy(d, s, a.src_offset, t, a.dst_offset, a.size)?;
        a.wait_handle = slot;
        mem.copy_out(arg, &a)?;
    }
    d.next_wait_slot = 3 - slot;
    Ok(0)
}
