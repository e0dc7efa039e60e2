//! Kernel side: what a driver release says about itself — the runtime-compatible version
//! window it reports per arch (COMPATIBLE_VERSION, `abi/compat.tsv`) and its version strings
//! (`abi/driver-version.tsv`).

use crate::request::spelled;

/// A chip generation as the driver's DHALs name them (`abi/compat.tsv` column `arch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DriverArch {
    /// V1 (inf1).
    V1,
    /// V2 (trn1, inf2).
    V2,
    /// V3 (trn2).
    V3,
    /// V4 (trn3), present from 2.25.4.0.
    V4,
}

spelled!(DriverArch, "arch", { V1 => "v1", V2 => "v2", V3 => "v3", V4 => "v4" });

impl DriverArch {
    /// Every arch, oldest first.
    pub const ALL: [DriverArch; 4] = [Self::V1, Self::V2, Self::V3, Self::V4];

    /// The generation number (1..=4).
    pub const fn number(self) -> u8 {
        match self {
            Self::V1 => 1,
            Self::V2 => 2,
            Self::V3 => 3,
            Self::V4 => 4,
        }
    }

    /// The arch of generation number `n`.
    pub const fn from_number(n: u8) -> Option<Self> {
        match n {
            1 => Some(Self::V1),
            2 => Some(Self::V2),
            3 => Some(Self::V3),
            4 => Some(Self::V4),
            _ => None,
        }
    }
}

/// The runtime-compatible version window one arch reports through COMPATIBLE_VERSION: a
/// runtime whose compatibility version lies in `min..=max` may use the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompatWindow {
    /// The arch.
    pub arch: DriverArch,
    /// Oldest accepted runtime compatibility version.
    pub min: u32,
    /// Newest accepted runtime compatibility version.
    pub max: u32,
}

impl CompatWindow {
    /// True when a runtime of compatibility version `version` is inside the window.
    pub const fn accepts(&self, version: u32) -> bool {
        self.min <= version && version <= self.max
    }
}

/// A release's version strings (`abi/driver-version.tsv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DriverVersion {
    /// The module version (`MODULE_VERSION`).
    pub module_version: &'static str,
    /// The `driver_version` string.
    pub driver_version: &'static str,
    /// The build revision string.
    pub driver_revision: &'static str,
}
