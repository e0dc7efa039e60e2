//! Device lifecycle (`ndl-std` family `device_lifecycle`): the deprecated reset, ready and
//! init commands, the pid in attached slot 0, and the attached-app list.

use zerocopy::FromZeros;

use ndl_abi::{AppInfo, GetAppsInfo};
use ndl_std::Errno;

use super::{Answer, DONE};
use crate::state::{Call, DeviceState};

/// Attached processes an app list can name: the driver's 16 attach slots.
const MAX_APPS: usize = crate::state::MAX_ATTACHED;

/// DEVICE_READY and DEVICE_RESET_STATUS: the byte 1 ("ok"; the model's resets complete at
/// once).
pub(crate) fn ready(_: &mut DeviceState, _: &Call<'_>, ok: &mut u8) -> Answer {
    *ok = 1;
    DONE
}

/// DEVICE_APP_PID: the pid in attached-process slot 0, or -1.
pub(crate) fn app_pid(d: &mut DeviceState, _: &Call<'_>, pid: &mut i32) -> Answer {
    *pid = d
        .first_attached()
        .and_then(|p| i32::try_from(p).ok())
        .unwrap_or(-1);
    DONE
}

/// DEVICE_GET_ALL_APPS_INFO: "reads the 16-byte header, writes header plus size entries of
/// 152 bytes (buffer must hold capacity entries)" — the entries right after the header, at
/// most `capacity` of them, then the header with their count.
pub(crate) fn all_apps_info(
    d: &mut DeviceState,
    call: &Call<'_>,
    head: &mut GetAppsInfo,
) -> Answer {
    let wanted = usize::try_from(head.capacity).unwrap_or(usize::MAX);
    let mut apps = [AppInfo::new_zeroed(); MAX_APPS];
    let mut n = 0;
    for (slot, pid) in apps.iter_mut().zip(d.attached_pids()).take(wanted) {
        *slot = app_info(d, pid);
        n += 1;
    }
    let apps = apps.get(..n).unwrap_or_default();
    head.size = u32::try_from(n).map_err(|_| Errno::INVAL)?;
    let entries = call
        .arg
        .checked_add(size_of::<GetAppsInfo>() as u64)
        .ok_or(Errno::FAULT)?;
    call.mem.copy_out(entries, apps)?;
    DONE
}

/// The neuron_app_info record of attached process `pid`: its pid, the cores whose lock it
/// holds as writer, and the bytes it holds in host and device memory.
fn app_info(d: &DeviceState, pid: u32) -> AppInfo {
    let mut info = AppInfo::new_zeroed();
    info.pid = i32::try_from(pid).unwrap_or(-1);
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
