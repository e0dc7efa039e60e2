//! Driver-global queries on the misc (free-access) gateway.

use zerocopy::FromZeros;

use crate::error::{Error, Result};
use crate::gateway::{Misc, ioctl, ioctl_ptr};
use crate::kernel::{Kernel, RawFd};
use crate::wrappers::types::NcRangeMark;
use ndl_abi::limits::{NC_MAP_MAX_ENTRIES, PRINTK_MAX};
use ndl_abi::{
    COMPATIBLE_VERSION, CRWL_NC_RANGE_MARK, CRWL_NC_RANGE_MARK_EXT0, CRWL_NC_RANGE_UNMARK,
    CRWL_NC_RANGE_UNMARK_EXT0, DEVICE_BASIC_INFO, DEVICE_BDF_EXT, DMABUF_FD, DRIVER_INFO_GET,
    DRIVER_INFO_SET, GET_LOGICAL_TO_PHYSICAL_NC_MAP, GET_VA_PLACEMENT, HOST_DEVICE_ID_TO_RID_MAP,
    NC_PID_STATE_DUMP, PRINTK,
};
use ndl_abi::{
    CompatibleVersion, CrwlNcMap, CrwlNcMapExt, DeviceBasicInfo, DeviceBdfExt, DeviceDriverInfo,
    DmabufFd, GetLogicalToPhysicalNcMap, GetVaPlacement, HostDeviceIdToRidMap, NcMapEntry,
    NcPidStateDump, Printk, UserPtr,
};

/// GET_VA_PLACEMENT's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VaPlacement {
    /// The device whose memory holds the address.
    pub device_index: u32,
    /// The HBM channel whose range holds the chunk's device address.
    pub hbm_index: u32,
}

impl<K: Kernel> Misc<'_, K> {
    /// COMPATIBLE_VERSION: the `(min, max)` runtime interface versions the driver accepts.
    pub fn compatible_version(&self) -> Result<(u32, u32)> {
        let mut arg = CompatibleVersion::new_zeroed();
        ioctl!(self, COMPATIBLE_VERSION, &mut arg)?;
        Ok((arg.min, arg.max))
    }

    /// DEVICE_BASIC_INFO: architecture and revision of the device behind the misc fd.
    pub fn device_basic_info(&self) -> Result<DeviceBasicInfo> {
        let mut arg = DeviceBasicInfo::new_zeroed();
        ioctl!(self, DEVICE_BASIC_INFO, &mut arg)?;
        Ok(arg)
    }

    /// DEVICE_BDF_EXT: domain/bus/slot/function of device `nd_index` (relative to the node
    /// the misc fd is open on).
    pub fn device_bdf_ext(&self, nd_index: u32) -> Result<DeviceBdfExt> {
        let mut arg = DeviceBdfExt::new_zeroed();
        arg.nd_index = nd_index;
        ioctl!(self, DEVICE_BDF_EXT, &mut arg)?;
        Ok(arg)
    }

    /// DRIVER_INFO_GET: driver architecture, revision, version and feature flags.
    pub fn driver_info_get(&self) -> Result<DeviceDriverInfo> {
        let mut arg = DeviceDriverInfo::new_zeroed();
        ioctl!(self, DRIVER_INFO_GET, &mut arg)?;
        Ok(arg)
    }

    /// DRIVER_INFO_SET: the driver refuses it (ENOTSUPP); wrapped for completeness.
    pub fn driver_info_set(&self, info: &DeviceDriverInfo) -> Result<()> {
        let mut arg = *info;
        ioctl!(self, DRIVER_INFO_SET, &mut arg)
    }

    /// HOST_DEVICE_ID_TO_RID_MAP: the routing id of every host device id, in order.
    pub fn host_device_id_to_rid_map(&self) -> Result<Vec<u32>> {
        let mut arg = HostDeviceIdToRidMap::new_zeroed();
        ioctl!(self, HOST_DEVICE_ID_TO_RID_MAP, &mut arg)?;
        let cmd = HOST_DEVICE_ID_TO_RID_MAP.name();
        let map = usize::try_from(arg.count)
            .ok()
            .and_then(|n| arg.host_did_to_rid_map.get(..n))
            .ok_or(Error::OutOfRange {
                cmd,
                what: "count",
                value: u64::from(arg.count),
            })?;
        Ok(map.to_vec())
    }

    /// GET_LOGICAL_TO_PHYSICAL_NC_MAP: `(mapping_version, entries)`, at most `max_entries`
    /// (<= 128) of them.
    pub fn get_logical_to_physical_nc_map(
        &self,
        max_entries: u32,
    ) -> Result<(u32, Vec<NcMapEntry>)> {
        let cmd = GET_LOGICAL_TO_PHYSICAL_NC_MAP.name();
        if max_entries > NC_MAP_MAX_ENTRIES {
            return Err(Error::OutOfRange {
                cmd,
                what: "max_entries",
                value: max_entries.into(),
            });
        }
        // `struct neuron_ioctl_nc_map` is a u32 count followed by 8-byte entries: one u32
        // buffer (4-byte aligned, like the struct) holds the header and the entries.
        let words = 1 + 2 * max_entries as usize;
        let mut buf = vec![0u32; words];
        let mut arg = GetLogicalToPhysicalNcMap::new_zeroed();
        arg.map = UserPtr::output_slice(&mut buf).cast();
        arg.max_map_entries = max_entries;
        // SAFETY: `map` points to `buf`, writable for the header plus `max_entries` entries,
        // and `buf` outlives the call.
        unsafe { ioctl_ptr!(self, GET_LOGICAL_TO_PHYSICAL_NC_MAP, &mut arg) }?;
        let n = buf.first().copied().unwrap_or(0);
        if n > max_entries {
            return Err(Error::OutOfRange {
                cmd,
                what: "num_entries",
                value: n.into(),
            });
        }
        let entries = buf
            .get(1..1 + 2 * n as usize)
            .unwrap_or_default()
            .chunks_exact(2)
            .map(|c| NcMapEntry {
                device_id: c.first().copied().unwrap_or(0),
                device_nc_idx: c.get(1).copied().unwrap_or(0),
            })
            .collect();
        Ok((arg.mapping_version, entries))
    }

    /// PRINTK: logs `msg` through the driver (at most 511 bytes plus the NUL it appends).
    pub fn printk(&self, msg: &str, action: u32) -> Result<()> {
        let mut text = Vec::with_capacity(msg.len() + 1);
        text.extend_from_slice(msg.as_bytes());
        text.push(0);
        if text.len() > PRINTK_MAX {
            let cmd = PRINTK.name();
            return Err(Error::OutOfRange {
                cmd,
                what: "message length",
                value: msg.len() as u64,
            });
        }
        let mut arg = Printk::new_zeroed();
        arg.buffer = UserPtr::input_slice(&text);
        arg.size = text.len() as u32; // <= 512 checked above
        arg.action = action;
        // SAFETY: `buffer` points to `size` readable bytes of `text`, alive across the call.
        unsafe { ioctl_ptr!(self, PRINTK, &mut arg) }
    }

    /// DMABUF_FD: exports `size` bytes of device memory mapped at user address `va` as a
    /// dma-buf; returns the new fd, which the caller owns.
    pub fn dmabuf_fd(&self, va: u64, size: u64) -> Result<RawFd> {
        let mut fd: i32 = -1;
        let mut arg = DmabufFd::new_zeroed();
        arg.va = va;
        arg.size = size;
        arg.fd = UserPtr::output(&mut fd);
        // SAFETY: `fd` is writable for the call; `va` is only an address the driver checks.
        unsafe { ioctl_ptr!(self, DMABUF_FD, &mut arg) }?;
        Ok(fd)
    }

    /// NC_PID_STATE_DUMP: asks the driver to log the state of the process owning core
    /// `nc_id`. `size` is passed as given: the header marks it an input and the reference
    /// does not say what the handler expects in it.
    pub fn nc_pid_state_dump(
        &self,
        size: u32,
        nc_id: u32,
        filter_log_owner: u32,
        log_dump_limit: u32,
    ) -> Result<()> {
        let mut arg = NcPidStateDump {
            size,
            nc_id,
            filter_log_owner,
            log_dump_limit,
        };
        ioctl!(self, NC_PID_STATE_DUMP, &mut arg)
    }

    /// GET_VA_PLACEMENT (2.26.5.0): which device and HBM channel hold the device-memory
    /// chunk mapped at user address `va` in this process (a [`crate::Mapping`]'s address).
    /// Not found is ENXIO. `va` is only a lookup key: the driver never dereferences it.
    pub fn get_va_placement(&self, va: u64) -> Result<VaPlacement> {
        let mut arg = GetVaPlacement::new_zeroed();
        arg.va = va;
        // SAFETY: no user addresses the driver accesses.
        unsafe { ioctl_ptr!(self, GET_VA_PLACEMENT, &mut arg) }?;
        let cmd = GET_VA_PLACEMENT.name();
        let index = |what, v: i32| {
            u32::try_from(v).map_err(|_| Error::OutOfRange {
                cmd,
                what,
                value: v as u64,
            })
        };
        Ok(VaPlacement {
            device_index: index("device_index", arg.device_index)?,
            hbm_index: index("hbm_index", arg.hbm_index)?,
        })
    }

    /// CRWL_NC_RANGE_MARK (legacy 24-byte form): marks `nc_count` cores in
    /// `start..=end` for the caller; bitmap covers cores 0..64.
    pub fn crwl_nc_range_mark(&self, nc_count: u32, start: u32, end: u32) -> Result<NcRangeMark> {
        let mut arg = CrwlNcMap::new_zeroed();
        arg.nc_count = nc_count;
        arg.start_nc_index = start;
        arg.end_nc_index = end;
        ioctl!(self, CRWL_NC_RANGE_MARK, &mut arg)?;
        let mut bitmap = [0; 8];
        bitmap[0] = arg.bitmap;
        Ok(NcRangeMark {
            max_nc_available: arg.max_nc_available,
            bitmap,
        })
    }

    /// CRWL_NC_RANGE_MARK_EXT0: as [`Misc::crwl_nc_range_mark`] with a 512-core bitmap.
    pub fn crwl_nc_range_mark_ext(
        &self,
        nc_count: u32,
        start: u32,
        end: u32,
    ) -> Result<NcRangeMark> {
        let mut arg = CrwlNcMapExt::new_zeroed();
        arg.nc_count = nc_count;
        arg.start_nc_index = start;
        arg.end_nc_index = end;
        ioctl!(self, CRWL_NC_RANGE_MARK_EXT0, &mut arg)?;
        Ok(NcRangeMark {
            max_nc_available: arg.max_nc_available,
            bitmap: arg.bitmap,
        })
    }

    /// CRWL_NC_RANGE_UNMARK (legacy form): releases the cores in `bitmap` (cores 0..64).
    pub fn crwl_nc_range_unmark(&self, bitmap: u64) -> Result<()> {
        let mut arg = CrwlNcMap::new_zeroed();
        arg.bitmap = bitmap;
        arg.nc_count = bitmap.count_ones();
        ioctl!(self, CRWL_NC_RANGE_UNMARK, &mut arg)
    }

    /// CRWL_NC_RANGE_UNMARK_EXT0: releases the cores in a 512-core `bitmap`.
    pub fn crwl_nc_range_unmark_ext(&self, bitmap: &[u64; 8]) -> Result<()> {
        let mut arg = CrwlNcMapExt::new_zeroed();
        arg.bitmap = *bitmap;
        arg.nc_count = bitmap.iter().map(|w| w.count_ones()).sum();
        ioctl!(self, CRWL_NC_RANGE_UNMARK_EXT0, &mut arg)
    }
}
