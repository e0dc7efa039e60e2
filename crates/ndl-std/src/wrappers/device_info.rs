//! Device identity: info, BDF, host device id (device lane).

use zerocopy::FromZeros;

use crate::error::Result;
use crate::gateway::{Device, ioctl};
use crate::kernel::Kernel;
use ndl_abi::{DEVICE_BDF, DEVICE_INFO, HOST_DEVICE_ID};
use ndl_abi::{DeviceBdf, DeviceInfo, HostDeviceId};

impl<K: Kernel> Device<'_, K> {
    /// DEVICE_INFO: architecture, revision, connected devices, BAR addresses and sizes.
    pub fn device_info(&self) -> Result<DeviceInfo> {
        let mut arg = DeviceInfo::new_zeroed();
        ioctl!(self, DEVICE_INFO, &mut arg)?;
        Ok(arg)
    }

    /// DEVICE_BDF: PCI bus, slot and function of this device.
    pub fn device_bdf(&self) -> Result<DeviceBdf> {
        let mut arg = DeviceBdf::new_zeroed();
        ioctl!(self, DEVICE_BDF, &mut arg)?;
        Ok(arg)
    }

    /// HOST_DEVICE_ID: this device's index as the host numbers it.
    pub fn host_device_id(&self) -> Result<u32> {
        let mut arg = HostDeviceId::new_zeroed();
        ioctl!(self, HOST_DEVICE_ID, &mut arg)?;
        Ok(arg.host_device_id)
    }
}
