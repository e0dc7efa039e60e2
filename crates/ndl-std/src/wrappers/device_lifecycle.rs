//! Deprecated device lifecycle commands and the attached-process queries (device lane).
//!
//! The driver keeps them for old runtimes: DEVICE_INIT and DEVICE_RELEASE are no-ops,
//! DEVICE_RESET still starts a whole-device reset, DEVICE_READY waits for the caller's reset,
//! DEVICE_RESET_STATUS always answers 1 (reference `ioctl-commands.tsv` handler notes).

use zerocopy::{FromZeros, IntoBytes};

use crate::error::{Error, Result};
use crate::gateway::{Device, ioctl};
use crate::kernel::Kernel;
use ndl_abi::{AppInfo, DeviceInit, GetAppsInfo};
use ndl_abi::{
    DEVICE_APP_PID, DEVICE_GET_ALL_APPS_INFO, DEVICE_INIT, DEVICE_READY, DEVICE_RELEASE,
    DEVICE_RESET, DEVICE_RESET_STATUS,
};

/// DEVICE_GET_ALL_APPS_INFO's answer: the header flags and one record per attached app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppsInfo {
    /// `apps_info_flags` as the driver left it.
    pub flags: u16,
    /// The records the driver wrote (`size` of them).
    pub apps: Vec<AppInfo>,
}

impl<K: Kernel> Device<'_, K> {
    /// DEVICE_RESET: tears down the DMA rings and starts a whole-device reset (deprecated).
    pub fn device_reset(&self) -> Result<()> {
        ioctl!(self, DEVICE_RESET, &mut ())
    }

    /// DEVICE_READY: waits for the caller's own reset; `true` when the device came up
    /// (the driver writes 1 for ok, 0 for failure).
    pub fn device_ready(&self) -> Result<bool> {
        let mut ready = 0u8;
        ioctl!(self, DEVICE_READY, &mut ready)?;
        Ok(ready == 1)
    }

    /// DEVICE_RESET_STATUS: the deprecated status byte (the driver always writes 1).
    pub fn device_reset_status(&self) -> Result<u8> {
        let mut status = 0u8;
        ioctl!(self, DEVICE_RESET_STATUS, &mut status)?;
        Ok(status)
    }

    /// DEVICE_INIT: deprecated no-op (the driver ignores `mem_regions`).
    pub fn device_init(&self, mem_regions: u32) -> Result<()> {
        let mut arg = DeviceInit { mem_regions };
        ioctl!(self, DEVICE_INIT, &mut arg)
    }

    /// DEVICE_RELEASE: deprecated no-op.
    pub fn device_release(&self) -> Result<()> {
        ioctl!(self, DEVICE_RELEASE, &mut ())
    }

    /// DEVICE_APP_PID: the pid held in the device's attached-process slot 0 (deprecated).
    pub fn device_app_pid(&self) -> Result<i32> {
        let mut pid = 0i32;
        ioctl!(self, DEVICE_APP_PID, &mut pid)?;
        Ok(pid)
    }

    /// DEVICE_GET_ALL_APPS_INFO: up to `capacity` records of the processes attached to the
    /// device. The header and the `capacity` 152-byte records travel in one buffer, as the
    /// driver copies them (header, then `size` entries).
    pub fn device_get_all_apps_info(&self, capacity: u32) -> Result<AppsInfo> {
        let cmd = DEVICE_GET_ALL_APPS_INFO.name();
        let entries = usize::try_from(capacity).map_err(|_| Error::OutOfRange {
            cmd,
            what: "capacity",
            value: capacity.into(),
        })?;
        let bytes = size_of::<GetAppsInfo>() + entries * size_of::<AppInfo>();
        let mut buf = vec![0u64; bytes.div_ceil(8)];
        let mut head = GetAppsInfo::new_zeroed();
        head.capacity = capacity;
        write_prefix(&mut buf, head.as_bytes());
        // SAFETY: `buf` holds the header plus `capacity` records, the most the driver writes.
        unsafe {
            self.call_with_tail::<{ DEVICE_GET_ALL_APPS_INFO.code() }, _>(
                &DEVICE_GET_ALL_APPS_INFO,
                &mut buf,
            )
        }?;
        let bytes = buf.as_bytes();
        let (head, rest) = zerocopy::FromBytes::read_from_prefix(bytes)
            .map(|(h, r): (GetAppsInfo, &[u8])| (h, r))
            .map_err(|_| Error::OutOfRange {
                cmd,
                what: "buffer bytes",
                value: bytes.len() as u64,
            })?;
        if head.size > capacity {
            return Err(Error::OutOfRange {
                cmd,
                what: "size",
                value: head.size.into(),
            });
        }
        let apps = rest
            .chunks_exact(size_of::<AppInfo>())
            .take(head.size as usize)
            .filter_map(|c| zerocopy::FromBytes::read_from_bytes(c).ok())
            .collect();
        Ok(AppsInfo {
            flags: head.apps_info_flags,
            apps,
        })
    }
}

/// Copies `bytes` to the start of an 8-byte-aligned buffer (a C header before its tail).
fn write_prefix(buf: &mut [u64], bytes: &[u8]) {
    for (dst, src) in buf.as_mut_bytes().iter_mut().zip(bytes) {
        *dst = *src;
    }
}
