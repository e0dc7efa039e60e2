//! Handlers of the misc chain (`ncdev_misc_ioctl`): every fd reaches them.

use core::ffi::c_int;

use zerocopy::FromZeros;

use ndl_std::Errno;
#[allow(clippy::wildcard_imports)]
use ndl_std::ioctl_codes::*;
use ndl_std::ioctl_structs::{
    CompatibleVersion, CrwlNcMap, CrwlNcMapExt, DeviceBasicInfo, DeviceBdfExt, DeviceDriverInfo,
    DmabufFd, GetLogicalToPhysicalNcMap, HostDeviceIdToRidMap, NcMapEntry, NcPidStateDump, PodCtrl,
    PodCtrlV2, PodInfo, PodStatus, PodStatusV2, Printk,
};
use ndl_std::{NC_MAP_MAX_ENTRIES, PRINTK_MAX};

use super::ENOTSUPP;
use super::state::{Call, FileKind, OpenFile, State};
use super::user::{read_arg, read_user, write_arg, write_user};

/// Interface versions the model's driver accepts (COMPATIBLE_VERSION).
pub const COMPATIBLE: (u32, u32) = (5, 9);
/// Driver version the model reports (DRIVER_INFO).
pub const DRIVER_VERSION: u32 = 0x0002_1904;

/// Handlers matched by exact cmd.
///
/// # Safety
/// `call.arg` and the user addresses in it satisfy the `Kernel::ioctl` contract.
pub(super) unsafe fn exact(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    // SAFETY: (whole body) each branch copies the struct its matched command names.
    unsafe {
        if c == COMPATIBLE_VERSION.code() {
            write_arg(
                arg,
                &CompatibleVersion {
                    max: COMPATIBLE.1,
                    min: COMPATIBLE.0,
                },
            )?;
            return Ok(0);
        }
        if c == DEVICE_BASIC_INFO.code() {
            let d = st.device(call.device).ok_or(Errno::NODEV)?;
            let info = DeviceBasicInfo {
                architecture: d.facts.generation.number().into(),
                revision: d.config.revision,
            };
            write_arg(arg, &info)?;
            return Ok(0);
        }
        if c == DEVICE_BDF_EXT.code() {
            let mut a: DeviceBdfExt = read_arg(arg)?;
            // nd_index counts from the device the fd is open on.
            let target = call.device.checked_add(a.nd_index).ok_or(Errno::INVAL)?;
            let d = st.device(target).ok_or(Errno::INVAL)?;
            a.domain = d.config.domain;
            a.bus_number = d.config.bus;
            a.slot = d.config.slot;
            a.func = d.config.func;
            write_arg(arg, &a)?;
            return Ok(0);
        }
        if c == PRINTK.code() {
            let a: Printk = read_arg(arg)?;
            let n = a.size as usize;
            if n > PRINTK_MAX {
                return Err(Errno::FAULT);
            }
            let bytes = read_user(a.buffer.addr(), n)?;
            let Some((0, text)) = bytes.split_last() else {
                return Err(Errno::BADMSG);
            };
            st.printk.push(String::from_utf8_lossy(text).into_owned());
            return Ok(0);
        }
        if c == DMABUF_FD.code() {
            let a: DmabufFd = read_arg(arg)?;
            let (va, size) = (a.va, a.size);
            // The range must lie inside one live mapping of this device.
            let d = st.device(call.device).ok_or(Errno::NODEV)?;
            let inside = d.maps.iter().any(|(base, m)| {
                va >= *base
                    && size != 0
                    && va.checked_add(size).is_some_and(|end| end <= base + m.len)
            });
            if !inside {
                return Err(Errno::INVAL);
            }
            let file = OpenFile {
                device: call.device,
                kind: FileKind::Dmabuf,
                tgid: call.tgid,
            };
            let fd = st.new_fd(file);
            if let Err(e) = write_user(a.fd.addr(), &fd.to_ne_bytes()) {
                st.close(fd);
                return Err(e);
            }
            return Ok(0);
        }
        if c == CRWL_NC_RANGE_MARK.code() || c == CRWL_NC_RANGE_MARK_EXT0.code() {
            // `_IOC_SIZE` 8 means the 24-byte legacy struct, 80 the ext layout.
            let (nc_count, start, end) = if size_of_code(c) == 8 {
                let a: CrwlNcMap = read_arg(arg)?;
                (a.nc_count, a.start_nc_index, a.end_nc_index)
            } else {
                let a: CrwlNcMapExt = read_arg(arg)?;
                (a.nc_count, a.start_nc_index, a.end_nc_index)
            };
            let words = if size_of_code(c) == 8 { 1 } else { 8 };
            let limit = st.total_cores().min(64 * words);
            if start > end || end >= limit {
                return Err(Errno::INVAL);
            }
            let free: Vec<u32> = (start..=end)
                .filter(|nc| !st.marks.contains_key(nc))
                .collect();
            let available = free.len() as u32;
            let mut bitmap = [0u64; 8];
            if nc_count <= available {
                for nc in free.iter().take(nc_count as usize) {
                    st.marks.insert(*nc, call.tgid);
                    if let Some(w) = bitmap.get_mut((nc / 64) as usize) {
                        *w |= 1 << (nc % 64);
                    }
                }
            }
            if size_of_code(c) == 8 {
                let mut a: CrwlNcMap = read_arg(arg)?;
                a.max_nc_available = available;
                a.bitmap = bitmap[0];
                write_arg(arg, &a)?;
            } else {
                let mut a: CrwlNcMapExt = read_arg(arg)?;
                a.max_nc_available = available;
                a.bitmap = bitmap;
                write_arg(arg, &a)?;
            }
            return if nc_count <= available {
                Ok(0)
            } else {
                Err(Errno::BUSY)
            };
        }
        if c == CRWL_NC_RANGE_UNMARK.code() || c == CRWL_NC_RANGE_UNMARK_EXT0.code() {
            let bitmap = if size_of_code(c) == 8 {
                let a: CrwlNcMap = read_arg(arg)?;
                let mut b = [0u64; 8];
                b[0] = a.bitmap;
                b
            } else {
                read_arg::<CrwlNcMapExt>(arg)?.bitmap
            };
            for (w, word) in bitmap.iter().enumerate() {
                for bit in 0..64u32 {
                    if word & (1 << bit) != 0 {
                        let nc = w as u32 * 64 + bit;
                        if st.marks.get(&nc) == Some(&call.tgid) {
                            st.marks.remove(&nc);
                        }
                    }
                }
            }
            return Ok(0);
        }
        if c == NC_PID_STATE_DUMP.code() {
            let a: NcPidStateDump = read_arg(arg)?;
            return if a.nc_id < st.total_cores() {
                Ok(0)
            } else {
                Err(Errno::INVAL)
            };
        }
        if c == GET_LOGICAL_TO_PHYSICAL_NC_MAP.code() {
            let mut a: GetLogicalToPhysicalNcMap = read_arg(arg)?;
            if a.max_map_entries > NC_MAP_MAX_ENTRIES {
                return Err(Errno::INVAL);
            }
            let d = st.device(call.device).ok_or(Errno::NODEV)?;
            let map = d.config.nc_map.as_ref().ok_or(ENOTSUPP)?;
            let n = map.len().min(a.max_map_entries as usize);
            let mut bytes = (n as u32).to_ne_bytes().to_vec();
            for phys in map.iter().take(n) {
                let e = NcMapEntry {
                    device_id: call.device,
                    device_nc_idx: *phys,
                };
                bytes.extend_from_slice(zerocopy::IntoBytes::as_bytes(&e));
            }
            write_user(a.map.addr(), &bytes)?;
            a.mapping_version = 1;
            write_arg(arg, &a)?;
            return Ok(0);
        }
    }
    Err(Errno::INVAL)
}

/// Handlers matched by `_IOC_NR`.
///
/// # Safety
/// As for [`exact`].
pub(super) unsafe fn by_nr(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    let size = usize::from(size_of_code(c));
    // SAFETY: (whole body) each branch copies the struct its cmd/size check selected.
    unsafe {
        match nr_of(c) {
            // DRIVER_INFO checks dir and size: R with at least 24 bytes gets 24 bytes.
            110 => match Dir::of(c) {
                Dir::Read if size >= size_of::<DeviceDriverInfo>() => {
                    let d = st.device(call.device).ok_or(Errno::NODEV)?;
                    let info = DeviceDriverInfo {
                        architecture: d.facts.generation.number().into(),
                        revision: d.config.revision,
                        version: DRIVER_VERSION,
                        size: size_of::<DeviceDriverInfo>() as u32,
                        feature_flags1: 0b11,
                    };
                    write_arg(arg, &info)?;
                }
                Dir::Write => return Err(ENOTSUPP),
                _ => return Err(Errno::INVAL),
            },
            115 if size == size_of::<HostDeviceIdToRidMap>() => {
                let mut m = HostDeviceIdToRidMap::new_zeroed();
                m.count = st.devices.len() as u32;
                for (slot, d) in m.host_did_to_rid_map.iter_mut().zip(&st.devices) {
                    *slot = d.config.routing_id;
                }
                write_arg(arg, &m)?;
            }
            121 if c == POD_INFO.code() => {
                let mut a: PodInfo = read_arg(arg)?;
                if usize::from(a.sz) != size_of::<PodInfo>() {
                    return Err(Errno::INVAL);
                }
                a.pod_type = 0;
                a.pod_sz = st.devices.len() as u8;
                a.pod_id = [0; 256];
                write_arg(arg, &a)?;
            }
            122 if c == POD_STATUS.code() || c == POD_STATUS_V2.code() => {
                let d = st.device(call.device).ok_or(Errno::NODEV)?;
                let mut v1 = PodStatus::new_zeroed();
                let v2 = c == POD_STATUS_V2.code();
                let sz = if v2 {
                    size_of::<PodStatusV2>()
                } else {
                    size_of::<PodStatus>()
                };
                v1.sz = read_arg::<u16>(arg)?;
                if usize::from(v1.sz) != sz {
                    return Err(Errno::INVAL);
                }
                v1.state = d.pod_state;
                v1.pod_sz = st.devices.len() as u8;
                v1.node_id = -1;
                if v2 {
                    let out = PodStatusV2 {
                        v1,
                        mode: d.pod_mode,
                        modes_supported: 0b11,
                    };
                    write_arg(arg, &out)?;
                } else {
                    write_arg(arg, &v1)?;
                }
            }
            123 if c == POD_CTRL.code() || c == POD_CTRL_V2.code() => {
                let d = st.device_mut(call.device).ok_or(Errno::NODEV)?;
                if c == POD_CTRL.code() {
                    let mut a: PodCtrl = read_arg(arg)?;
                    if usize::from(a.sz) != size_of::<PodCtrl>() {
                        return Err(Errno::INVAL);
                    }
                    d.pod_state = a.ctrl;
                    a.state = d.pod_state;
                    write_arg(arg, &a)?;
                } else {
                    let mut a: PodCtrlV2 = read_arg(arg)?;
                    if usize::from(a.v1.sz) != size_of::<PodCtrlV2>() {
                        return Err(Errno::INVAL);
                    }
                    d.pod_state = a.v1.ctrl;
                    d.pod_mode = a.mode;
                    a.v1.state = d.pod_state;
                    write_arg(arg, &a)?;
                }
            }
            _ => return Err(Errno::INVAL),
        }
    }
    Ok(0)
}
