//! The misc handler's commands (`ndl-std` family `misc_info`): versions and identity, the
//! logical core map, PRINTK, DMABUF_FD, the core-range marks, NC_PID_STATE_DUMP and
//! GET_VA_PLACEMENT. Every fd reaches them (the free-access lane, and the device chain's
//! fall-back).

use zerocopy::IntoBytes;

use ndl_abi::limits::{NC_MAP_MAX_ENTRIES, PRINTK_MAX};
use ndl_abi::{
    CompatibleVersion, CrwlNcMap, CrwlNcMapExt, DeviceBasicInfo, DeviceBdfExt, DeviceDriverInfo,
    Dir, DmabufFd, DriverArch, GetLogicalToPhysicalNcMap, GetVaPlacement, HostDeviceIdToRidMap,
    NcMapEntry, NcPidStateDump, Printk, size_of_code,
};
use ndl_std::{ENOTSUPP, Errno};
use neuron_emu::RegionKind;

use super::{Answer, DONE, Reply};
use crate::state::{Backing, Call, FileKind, ObjectKind, OpenFile, State};

/// Driver version the model reports (DRIVER_INFO): the model's own value; the reference
/// gives neither the driver's number nor its encoding, and no test pins it.
pub(crate) const DRIVER_VERSION: u32 = 0x0002_1904;

/// DRIVER_INFO `feature_flags1` the model reports: its own choice (both low bits set).
pub(crate) const DRIVER_FEATURE_FLAGS1: u64 = 0b11;

/// COMPATIBLE_VERSION: the window the emulated release reports for the device's arch
/// (`abi/compat.tsv`; 2.26.5.0: V2 5..7, V3/V4 10..11, as `arch-scalars.tsv` says).
pub(crate) fn compatible_version(
    st: &mut State,
    call: &Call<'_>,
    v: &mut CompatibleVersion,
) -> Answer {
    let d = st.device(call.device).ok_or(Errno::NODEV)?;
    let arch = DriverArch::from_number(d.facts.generation.number()).ok_or(Errno::NODEV)?;
    let w = st.release.abi().compat(arch).ok_or(Errno::NODEV)?;
    (v.max, v.min) = (w.max, w.min);
    DONE
}

/// DEVICE_BASIC_INFO.
pub(crate) fn basic_info(st: &mut State, call: &Call<'_>, info: &mut DeviceBasicInfo) -> Answer {
    let d = st.device(call.device).ok_or(Errno::NODEV)?;
    info.architecture = d.facts.generation.number().into();
    info.revision = d.config.revision;
    DONE
}

/// DEVICE_BDF_EXT: `nd_index` counts from the device the fd is open on.
pub(crate) fn bdf_ext(st: &mut State, call: &Call<'_>, a: &mut DeviceBdfExt) -> Answer {
    let target = call.device.checked_add(a.nd_index).ok_or(Errno::INVAL)?;
    let d = st.device(target).ok_or(Errno::INVAL)?;
    a.domain = d.config.domain;
    a.bus_number = d.config.bus;
    a.slot = d.config.slot;
    a.func = d.config.func;
    DONE
}

/// DRIVER_INFO (nr 110, any code): "dir R with size >= 24 succeeds (24 bytes)"; dir W is
/// always ENOTSUPP; anything else EINVAL.
pub(crate) fn driver_info(st: &mut State, call: &Call<'_>, info: &mut DeviceDriverInfo) -> Answer {
    match Dir::of(call.code) {
        Dir::Read if usize::from(size_of_code(call.code)) >= size_of::<DeviceDriverInfo>() => {}
        Dir::Write => return Err(ENOTSUPP),
        _ => return Err(Errno::INVAL),
    }
    let d = st.device(call.device).ok_or(Errno::NODEV)?;
    *info = DeviceDriverInfo {
        architecture: d.facts.generation.number().into(),
        revision: d.config.revision,
        version: DRIVER_VERSION,
        size: size_of::<DeviceDriverInfo>() as u32,
        feature_flags1: DRIVER_FEATURE_FLAGS1,
    };
    DONE
}

/// HOST_DEVICE_ID_TO_RID_MAP (nr 115, `_IOC_SIZE` 260): every device's routing id.
pub(crate) fn rid_map(st: &mut State, _: &Call<'_>, m: &mut HostDeviceIdToRidMap) -> Answer {
    m.count = u32::try_from(st.devices.len()).map_err(|_| Errno::INVAL)?;
    for (slot, d) in m.host_did_to_rid_map.iter_mut().zip(&st.devices) {
        *slot = d.config.routing_id;
    }
    DONE
}

/// GET_LOGICAL_TO_PHYSICAL_NC_MAP: arch-callbacks.tsv `ncdev_logical_to_physical_nc_map`:
/// the arch answers (V2 has no map: ENOTSUPP), only mapping type 0 (`mapping_version`;
/// else EINVAL), min(max_entries, 128) entries copied to the user's map; the argument
/// itself is not written back.
pub(crate) fn nc_map(st: &mut State, call: &Call<'_>, a: &mut GetLogicalToPhysicalNcMap) -> Answer {
    if a.max_map_entries > NC_MAP_MAX_ENTRIES {
        return Err(Errno::INVAL);
    }
    let d = st.device(call.device).ok_or(Errno::NODEV)?;
    let n = u16::try_from(a.max_map_entries.min(u32::from(khal::NC_MAP_ENTRIES)))
        .map_err(|_| Errno::INVAL)?;
    let mut bytes = u32::from(n).to_ne_bytes().to_vec();
    for entry in 0..n {
        let loc = match crate::arch::nc_map_entry(d.facts.generation, a.mapping_version, entry) {
            Some(Ok(loc)) => loc,
            Some(Err(khal::ArchError::NcMapUnsupported)) => return Err(ENOTSUPP),
            Some(Err(_)) | None => return Err(Errno::INVAL),
        };
        let e = NcMapEntry {
            device_id: loc.device.into(),
            device_nc_idx: loc.core.into(),
        };
        bytes.extend_from_slice(e.as_bytes());
    }
    call.mem.write(a.map.addr(), &bytes)?;
    DONE
}

/// PRINTK: "size must be <= 512 incl. terminating NUL (-EFAULT / -EBADMSG otherwise)".
pub(crate) fn printk(st: &mut State, call: &Call<'_>, a: &mut Printk) -> Answer {
    let n = a.size as usize;
    if n > PRINTK_MAX {
        return Err(Errno::FAULT);
    }
    let bytes = call.mem.copy_in_bytes(a.buffer.addr(), n)?;
    let Some((0, text)) = bytes.split_last() else {
        return Err(Errno::BADMSG);
    };
    st.printk.push(String::from_utf8_lossy(text).into_owned());
    DONE
}

/// DMABUF_FD: the range must lie inside one live mapping of this device; the new fd goes
/// through the user pointer (closed again when that store fails).
pub(crate) fn dmabuf_fd(st: &mut State, call: &Call<'_>, a: &mut DmabufFd) -> Answer {
    let (va, size) = (a.va, a.size);
    let d = st.device(call.device).ok_or(Errno::NODEV)?;
    let inside = d.maps.iter().any(|(base, m)| {
        va >= *base
            && size != 0
            && va
                .checked_add(size)
                .is_some_and(|end| base.checked_add(m.len).is_some_and(|top| end <= top))
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
    if let Err(e) = call.mem.write(a.fd.addr(), &fd.to_ne_bytes()) {
        st.close(fd);
        return Err(e);
    }
    DONE
}

/// What a core-range mark found: the cores free in the range and, when there were enough,
/// the ones now marked for the caller.
struct Marked {
    available: u32,
    bitmap: [u64; 8],
}

impl Marked {
    /// EBUSY (after the write-back) when fewer cores were free than asked.
    fn answer(&self, wanted: u32) -> Answer {
        if wanted <= self.available {
            DONE
        } else {
            Ok(Reply::FailAfterWrite(Errno::BUSY))
        }
    }
}

/// Marks `nc_count` free cores of `start..=end` for `tgid` when that many are free; `words`
/// bitmap words bound the core indices (the legacy struct has one).
fn mark(
    st: &mut State,
    tgid: u32,
    (nc_count, start, end): (u32, u32, u32),
    words: u32,
) -> Result<Marked, Errno> {
    let limit = st.total_cores().min(64 * words);
    if start > end || end >= limit {
        return Err(Errno::INVAL);
    }
    let free: Vec<u32> = (start..=end)
        .filter(|nc| !st.marks.contains_key(nc))
        .collect();
    let available = u32::try_from(free.len()).map_err(|_| Errno::INVAL)?;
    let mut bitmap = [0u64; 8];
    if nc_count <= available {
        for &nc in free.iter().take(nc_count as usize) {
            st.marks.insert(nc, tgid);
            if let Some(w) = bitmap.get_mut((nc / 64) as usize) {
                *w |= 1 << (nc % 64);
            }
        }
    }
    Ok(Marked { available, bitmap })
}

/// CRWL_NC_RANGE_MARK (`_IOC_SIZE` 8: the 24-byte legacy struct).
pub(crate) fn range_mark(st: &mut State, call: &Call<'_>, a: &mut CrwlNcMap) -> Answer {
    let m = mark(
        st,
        call.tgid,
        (a.nc_count, a.start_nc_index, a.end_nc_index),
        1,
    )?;
    a.max_nc_available = m.available;
    a.bitmap = m.bitmap[0];
    m.answer(a.nc_count)
}

/// CRWL_NC_RANGE_MARK_EXT0 (`_IOC_SIZE` 80: the ext layout, 8 bitmap words).
pub(crate) fn range_mark_ext(st: &mut State, call: &Call<'_>, a: &mut CrwlNcMapExt) -> Answer {
    let m = mark(
        st,
        call.tgid,
        (a.nc_count, a.start_nc_index, a.end_nc_index),
        8,
    )?;
    a.max_nc_available = m.available;
    a.bitmap = m.bitmap;
    m.answer(a.nc_count)
}

/// Drops the caller's marks on the cores of `bitmap`.
fn unmark(st: &mut State, tgid: u32, bitmap: &[u64]) {
    for (w, word) in (0u32..).zip(bitmap) {
        for bit in (0..64u32).filter(|b| word & (1 << b) != 0) {
            let nc = w * 64 + bit;
            if st.marks.get(&nc) == Some(&tgid) {
                st.marks.remove(&nc);
            }
        }
    }
}

/// CRWL_NC_RANGE_UNMARK (legacy struct): returns 0.
pub(crate) fn range_unmark(st: &mut State, call: &Call<'_>, a: &mut CrwlNcMap) -> Answer {
    unmark(st, call.tgid, &[a.bitmap]);
    DONE
}

/// CRWL_NC_RANGE_UNMARK_EXT0: returns 0.
pub(crate) fn range_unmark_ext(st: &mut State, call: &Call<'_>, a: &mut CrwlNcMapExt) -> Answer {
    unmark(st, call.tgid, &a.bitmap);
    DONE
}

/// NC_PID_STATE_DUMP: logs nothing in the model; EINVAL for a core index past every device.
pub(crate) fn nc_pid_state_dump(st: &mut State, _: &Call<'_>, a: &mut NcPidStateDump) -> Answer {
    if a.nc_id < st.total_cores() {
        DONE
    } else {
        Err(Errno::INVAL)
    }
}

/// GET_VA_PLACEMENT: looks `va` up in the caller's mappings on every device it is attached
/// to; only device-memory chunk mappings resolve, to the device and the HBM channel whose
/// range holds the chunk's device address. The struct is written back whatever the result
/// (-1, -1 with ENXIO when not found; the copy-out's result is ignored: the entry's rule).
pub(crate) fn va_placement(st: &mut State, call: &Call<'_>, a: &mut GetVaPlacement) -> Answer {
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
    let Some((device, hbm)) = found else {
        (a.device_index, a.hbm_index) = (-1, -1);
        return Ok(Reply::FailAfterWrite(Errno::NXIO));
    };
    a.device_index = i32::try_from(device).map_err(|_| Errno::INVAL)?;
    a.hbm_index = i32::try_from(hbm).map_err(|_| Errno::INVAL)?;
    DONE
}
