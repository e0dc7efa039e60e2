//! Performance profiles (driver 2.27.4.0, device lane): which profile the device runs and
//! which it offers. POWER_PROFILE, the setter that 2.25.4.0 added, is in `firmware.rs`.

use zerocopy::FromZeros;

use crate::error::Result;
use crate::gateway::{Device, ioctl};
use crate::kernel::Kernel;
use ndl_abi::PowerProfile;
use ndl_abi::limits::PERF_PROFILE_CTRL_GET;
use ndl_abi::v2_27_4_0::{AVAILABLE_PERF_PROFILES, AvailablePerfProfiles, GET_PERFORMANCE_PROFILE};

/// AVAILABLE_PERF_PROFILES' answer, as the driver writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PerfProfiles {
    /// How many profiles the arch offers for the requested feature (V2 reports 0).
    pub count: u8,
    /// The 256-bit bitmap of available profiles, as the 32 bytes of `bitmap[32]`. The tables
    /// do not say which bit of which byte names which profile, so it is not decoded here.
    pub bitmap: [u8; 32],
}

impl<K: Kernel> Device<'_, K> {
    /// GET_PERFORMANCE_PROFILE (2.27.4.0): the profile the arch reports as current. An older
    /// driver does not know the command (EINVAL).
    pub fn get_performance_profile(&self) -> Result<u32> {
        let mut arg = PowerProfile::new_zeroed();
        // "sz must be 8 (else -ENXIO)": the struct's own size.
        arg.sz = size_of::<PowerProfile>() as u16;
        arg.ctrl = PERF_PROFILE_CTRL_GET;
        ioctl!(self, GET_PERFORMANCE_PROFILE, &mut arg)?;
        Ok(arg.profile)
    }

    /// AVAILABLE_PERF_PROFILES (2.27.4.0): the profiles the arch offers for
    /// `requested_feature`.
    pub fn available_perf_profiles(&self, requested_feature: u16) -> Result<PerfProfiles> {
        let mut arg = AvailablePerfProfiles::new_zeroed();
        arg.requested_feature = requested_feature;
        ioctl!(self, AVAILABLE_PERF_PROFILES, &mut arg)?;
        Ok(PerfProfiles {
            count: arg.num_profiles,
            bitmap: arg.bitmap,
        })
    }
}
