//! Device identity (`ndl-std` family `device_info`): DEVICE_INFO, DEVICE_BDF and
//! HOST_DEVICE_ID, from the device's [`DeviceConfig`](crate::DeviceConfig).

use ndl_abi::{DeviceBdf, DeviceInfo, HostDeviceId};

use super::{Answer, DONE};
use crate::state::{Call, DeviceState};

/// DEVICE_INFO: arch, revision and the BAR0 mapping BAR_READ/BAR_WRITE addresses live in.
/// Entry 1 is "the unused AXI BAR and [is] 0 on V2 and later" (bar-README.md).
pub(crate) fn info(d: &mut DeviceState, call: &Call<'_>, info: &mut DeviceInfo) -> Answer {
    info.architecture = d.facts.generation.number().into();
    info.revision = d.config.revision;
    info.bar_size = [d.bar0_size, 0];
    info.bar_address = [super::registers::bar0_kva(call.device), 0];
    DONE
}

/// DEVICE_BDF: bus, slot and function.
pub(crate) fn bdf(d: &mut DeviceState, _: &Call<'_>, bdf: &mut DeviceBdf) -> Answer {
    bdf.bus_number = d.config.bus;
    bdf.slot = d.config.slot;
    bdf.func = d.config.func;
    DONE
}

/// HOST_DEVICE_ID.
pub(crate) fn host_device_id(d: &mut DeviceState, _: &Call<'_>, id: &mut HostDeviceId) -> Answer {
    id.host_device_id = d.config.host_device_id;
    DONE
}
