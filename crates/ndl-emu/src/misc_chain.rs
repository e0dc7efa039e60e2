//! Handlers of the misc chain (`ncdev_misc_ioctl`): every fd reaches them.

use core::ffi::c_int;

use zerocopy::FromZeros;

use ndl_abi::limits::{NC_MAP_MAX_ENTRIES, PRINTK_MAX};
#[allow(clippy::wildcard_imports)]
use ndl_abi::*;
use ndl_abi::{
    CompatibleVersion, CrwlNcMap, CrwlNcMapExt, DeviceBasicInfo, DeviceBdfExt, DeviceDriverInfo,
    DmabufFd, GetLogicalToPhysicalNcMap, GetVaPlacement, HostDeviceIdToRidMap, NcMapEntry,
    NcPidStateDump, PodCtrl, PodCtrlV2, PodInfo, PodStatus, PodStatusV2, Printk,
};
use ndl_std::Errno;

use super::ENOTSUPP;
use super::state::{Backing, Call, FileKind, ObjectKind, OpenFile, State};
use neuron_emu::RegionKind;

/// Driver version the model reports (DRIVER_INFO): the model's own value; the reference
/// gives neither the driver's number nor its encoding, and no test pins it.
pub const DRIVER_VERSION: u32 = 0x0002_1904;

/// DRIVER_INFO `feature_flags1` the model reports: its own choice (both low bits set); the
/// reference names the field (out) but gives neither its bits nor the driver's value.
pub const DRIVER_FEATURE_FLAGS1: u64 = 0b11;

/// POD_STATUS `node_id` of a device outside any pod: the model's choice (-1, "no node");
/// the reference gives the field (`__s8`, out) but not the driver's value here.
pub const POD_NODE_ID_NONE: i8 = -1;

/// POD_STATUS_V2 `modes_supported`: the model's choice (two low bits set);
/// the reference gives the field (out), not its bits.
pub const POD_MODES_SUPPORTED: u32 = 0b11;

/// Handlers matched by exact cmd.
pub(super) fn exact(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    let mem = call.mem;
    if c == COMPATIBLE_VERSION.code() {
        // The arch's ncdev_compatible_version window (arch-scalars.tsv "runtime compatible
        // version": V2 min 5 max 7, V3/V4 min 10 max 11), which khal's arch crates carry.
        let d = st.device(call.device).ok_or(Errno::NODEV)?;
        let w = d.facts.scalars.compatible_version;
        mem.copy_out(
            arg,
            &CompatibleVersion {
                max: w.max,
                min: w.min,
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
        mem.copy_out(arg, &info)?;
        return Ok(0);
    }
    if c == DEVICE_BDF_EXT.code() {
        let mut a: DeviceBdfExt = mem.copy_in(arg)?;
        // nd_index counts from the device the fd is open on.
        let target = call.device.checked_add(a.nd_index).ok_or(Errno::INVAL)?;
        let d = st.device(target).ok_or(Errno::INVAL)?;
        a.domain = d.config.domain;
        a.bus_number = d.config.bus;
        a.slot = d.config.slot;
        a.func = d.config.func;
        mem.copy_out(arg, &a)?;
        return Ok(0);
    }
    if c == PRINTK.code() {
        let a: Printk = mem.copy_in(arg)?;
        let n = a.size as usize;
        if n > PRINTK_MAX {
            return Err(Errno::FAULT);
        }
        let bytes = mem.copy_in_bytes(a.buffer.addr(), n)?;
        let Some((0, text)) = bytes.split_last() else {
            return Err(Errno::BADMSG);
        };
        st.printk.push(String::from_utf8_lossy(text).into_owned());
        return Ok(0);
    }
    if c == DMABUF_FD.code() {
        let a: DmabufFd = mem.copy_in(arg)?;
        let (va, size) = (a.va, a.size);
        // The range must lie inside one live mapping of this device.
        let d = st.device(call.device).ok_or(Errno::NODEV)?;
        let inside = d.maps.iter().any(|(base, m)| {
            va >= *base && size != 0 && va.checked_add(size).is_some_and(|end| end <= base + m.len)
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
        if let Err(e) = mem.write(a.fd.addr(), &fd.to_ne_bytes()) {
            st.close(fd);
            return Err(e);
        }
        return Ok(0);
    }
    if c == CRWL_NC_RANGE_MARK.code() || c == CRWL_NC_RANGE_MARK_EXT0.code() {
        // `_IOC_SIZE` 8 means the 24-byte legacy struct, 80 the ext layout.
        let (nc_count, start, end) = if size_of_code(c) == 8 {
            let a: CrwlNcMap = mem.copy_in(arg)?;
            (a.nc_count, a.start_nc_index, a.end_nc_index)
        } else {
            let a: CrwlNcMapExt = mem.copy_in(arg)?;
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
            let mut a: CrwlNcMap = mem.copy_in(arg)?;
            a.max_nc_available = available;
            a.bitmap = bitmap[0];
            mem.copy_out(arg, &a)?;
        } else {
            let mut a: CrwlNcMapExt = mem.copy_in(arg)?;
            a.max_nc_available = available;
            a.bitmap = bitmap;
            mem.copy_out(arg, &a)?;
        }
        return if nc_count <= available {
            Ok(0)
        } else {
            Err(Errno::BUSY)
        };
    }
    if c == CRWL_NC_RANGE_UNMARK.code() || c == CRWL_NC_RANGE_UNMARK_EXT0.code() {
        let bitmap = if size_of_code(c) == 8 {
            let a: CrwlNcMap = mem.copy_in(arg)?;
            let mut b = [0u64; 8];
            b[0] = a.bitmap;
            b
        } else {
            mem.copy_in::<CrwlNcMapExt>(arg)?.bitmap
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
        let a: NcPidStateDump = mem.copy_in(arg)?;
        return if a.nc_id < st.total_cores() {
            Ok(0)
        } else {
            Err(Errno::INVAL)
        };
    }
    if c == GET_LOGICAL_TO_PHYSICAL_NC_MAP.code() {
        // arch-callbacks.tsv `ncdev_logical_to_physical_nc_map`: the arch answers (V2 has no
        // map: ENOTSUPP), only mapping type 0 (`mapping_version` is that input; else EINVAL),
        // min(max_entries, 128) entries copied to the user's map; the argument itself is
        // not written back.
        let a: GetLogicalToPhysicalNcMap = mem.copy_in(arg)?;
        if a.max_map_entries > NC_MAP_MAX_ENTRIES {
            return Err(Errno::INVAL);
        }
        let d = st.device(call.device).ok_or(Errno::NODEV)?;
        let n = u16::try_from(a.max_map_entries.min(u32::from(khal::NC_MAP_ENTRIES)))
            .map_err(|_| Errno::INVAL)?;
        let mut bytes = u32::from(n).to_ne_bytes().to_vec();
        for entry in 0..n {
            let loc = match crate::arch::nc_map_entry(d.facts.generation, a.mapping_version, entry)
            {
                Some(Ok(loc)) => loc,
                Some(Err(khal::ArchError::NcMapUnsupported)) => return Err(ENOTSUPP),
                Some(Err(_)) | None => return Err(Errno::INVAL),
            };
            let e = NcMapEntry {
                device_id: loc.device.into(),
                device_nc_idx: loc.core.into(),
            };
            bytes.extend_from_slice(zerocopy::IntoBytes::as_bytes(&e));
        }
        mem.write(a.map.addr(), &bytes)?;
        return Ok(0);
    }
    Err(Errno::INVAL)
}

/// Handlers matched by `_IOC_NR`.
pub(super) fn by_nr(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let c = call.code;
    let arg = call.arg;
    let mem = call.mem;
    let size = usize::from(size_of_code(c));
    match nr_of(c) {
        // GET_VA_PLACEMENT checks neither size nor dir: always 16 bytes each way.
        131 => return va_placement(st, call),
        // DRIVER_INFO checks dir and size: R with at least 24 bytes gets 24 bytes.
        110 => match Dir::of(c) {
            Dir::Read if size >= size_of::<DeviceDriverInfo>() => {
                let d = st.device(call.device).ok_or(Errno::NODEV)?;
                let info = DeviceDriverInfo {
                    architecture: d.facts.generation.number().into(),
                    revision: d.config.revision,
                    version: DRIVER_VERSION,
                    size: size_of::<DeviceDriverInfo>() as u32,
                    feature_flags1: DRIVER_FEATURE_FLAGS1,
                };
                mem.copy_out(arg, &info)?;
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
            mem.copy_out(arg, &m)?;
        }
        121 if c == POD_INFO.code() => {
            let mut a: PodInfo = mem.copy_in(arg)?;
            if usize::from(a.sz) != size_of::<PodInfo>() {
                return Err(Errno::INVAL);
            }
            a.pod_type = 0;
            a.pod_sz = st.devices.len() as u8;
            a.pod_id = [0; 256];
            mem.copy_out(arg, &a)?;
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
            v1.sz = mem.copy_in::<u16>(arg)?;
            if usize::from(v1.sz) != sz {
                return Err(Errno::INVAL);
            }
            v1.state = d.pod_state;
            v1.pod_sz = st.devices.len() as u8;
            v1.node_id = POD_NODE_ID_NONE;
            if v2 {
                let out = PodStatusV2 {
                    v1,
                    mode: d.pod_mode,
                    modes_supported: POD_MODES_SUPPORTED,
                };
                mem.copy_out(arg, &out)?;
            } else {
                mem.copy_out(arg, &v1)?;
            }
        }
        123 if c == POD_CTRL.code() || c == POD_CTRL_V2.code() => {
            let d = st.device_mut(call.device).ok_or(Errno::NODEV)?;
            if c == POD_CTRL.code() {
                let mut a: PodCtrl = mem.copy_in(arg)?;
                if usize::from(a.sz) != size_of::<PodCtrl>() {
                    return Err(Errno::INVAL);
                }
                d.pod_state = a.ctrl;
                a.state = d.pod_state;
                mem.copy_out(arg, &a)?;
            } else {
                let mut a: PodCtrlV2 = mem.copy_in(arg)?;
                if usize::from(a.v1.sz) != size_of::<PodCtrlV2>() {
                    return Err(Errno::INVAL);
                }
                d.pod_state = a.v1.ctrl;
                d.pod_mode = a.mode;
                a.v1.state = d.pod_state;
                mem.copy_out(arg, &a)?;
            }
        }
        _ => return Err(Errno::INVAL),
    }
    Ok(0)
}

/// GET_VA_PLACEMENT: looks `va` up in the caller's mappings on every device it is attached
/// to; only device-memory chunk mappings resolve, to the device and the HBM channel whose
/// range holds the chunk's device address. The struct is written back whatever the result
/// (-1, -1 with ENXIO when not found), after a successful copy-in.
fn va_placement(st: &mut State, call: &Call) -> Result<c_int, Errno> {
    let mut a: GetVaPlacement = call.mem.copy_in(call.arg)?;
    let found = (0u32..).zip(&st.devices).find_map(|(index, d)| {
        if !d.is_attached(call.tgid) {
            return None;
        }
        let (base, rec) = d.maps.range(..=a.va).next_back()?;
        let inside = a.va - base < rec.len && rec.tgid == call.tgid;
        let addr = match (rec.object.kind, rec.object.backing) {
            (ObjectKind::Chunk { .. }, Backing::Memory { addr }) if inside => addr,
            _ => return None,
        };
        let channel = d.emu.with_memory(|m| {
            m.regions().iter().find_map(|r| match r.kind() {
                RegionKind::Device { channel }
                    if (r.base()..r.base() + r.size()).contains(&addr) =>
                {
                    Some(channel)
                }
                _ => None,
            })
        })?;
        Some((index, u32::from(channel)))
    });
    let result = match found {
        Some((device, hbm)) => {
            a.device_index = i32::try_from(device).map_err(|_| Errno::INVAL)?;
            a.hbm_index = i32::try_from(hbm).map_err(|_| Errno::INVAL)?;
            Ok(0)
        }
        None => {
            a.device_index = -1;
            a.hbm_index = -1;
            Err(Errno::NXIO)
        }
    };
    // The driver ignores the copy-out's result.
    let _ = call.mem.copy_out(call.arg, &a);
    result
}
