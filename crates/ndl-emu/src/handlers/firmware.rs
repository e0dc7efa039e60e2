//! Firmware commands (`ndl-std` family `firmware`): POWER_PROFILE and METRICS_CTRL.
//! POST_METRIC and THROTTLING_NOTIFICATIONS need the device firmware the model lacks
//! ([`crate::hardware_only`]).

use ndl_abi::PowerProfile;
use ndl_abi::limits::POWER_PROFILE_CTRL_SET;
use ndl_std::ENOTSUPP;

use super::{Answer, DONE};
use crate::state::{Call, DeviceState};

/// POWER_PROFILE: "only ctrl=0 (set) supported, otherwise -ENOTSUPP". The model keeps the
/// profile set (GET_PERFORMANCE_PROFILE reports it from 2.27.4.0); it changes nothing else.
pub(crate) fn power_profile(d: &mut DeviceState, _: &Call<'_>, a: &mut PowerProfile) -> Answer {
    if a.ctrl != POWER_PROFILE_CTRL_SET {
        return Err(ENOTSUPP);
    }
    d.perf_profile = a.profile;
    DONE
}
