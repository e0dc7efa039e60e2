//! Performance profiles (`ndl-std` family `perf_profile`; driver 2.27.4.0 and newer):
//! GET_PERFORMANCE_PROFILE and AVAILABLE_PERF_PROFILES, as their handler notes in
//! `abi/2.27.4.0/ioctl-commands.tsv` state them.

use ndl_abi::PowerProfile;
use ndl_abi::limits::PERF_PROFILE_CTRL_GET;
use ndl_abi::v2_27_4_0::AvailablePerfProfiles;
use ndl_std::{ENOTSUPP, Errno};

use super::{Answer, DONE};
use crate::state::{Call, DeviceState};

/// GET_PERFORMANCE_PROFILE: "sz must be 8 (else -ENXIO) and ctrl must be 1 = get (else
/// -ENOTSUPP); the arch reports the current profile into profile and the struct is written
/// back". Which profile an arch reports is not stated: the model reports the one
/// POWER_PROFILE last set (0 before any), its own choice.
pub(crate) fn get(d: &mut DeviceState, _: &Call<'_>, a: &mut PowerProfile) -> Answer {
    if usize::from(a.sz) != size_of::<PowerProfile>() {
        return Err(Errno::NXIO);
    }
    if a.ctrl != PERF_PROFILE_CTRL_GET {
        return Err(ENOTSUPP);
    }
    a.profile = d.perf_profile;
    DONE
}

/// AVAILABLE_PERF_PROFILES: "for requested_feature the arch fills num_profiles and the
/// 256-bit bitmap of available profiles ...; V2 reports 0 profiles". V3/V4's profiles are
/// not stated: the model, which has no power management, reports 0 on every arch (its
/// choice).
pub(crate) fn available(
    _: &mut DeviceState,
    _: &Call<'_>,
    a: &mut AvailablePerfProfiles,
) -> Answer {
    a.num_profiles = 0;
    a.bitmap = [0; 32];
    DONE
}
