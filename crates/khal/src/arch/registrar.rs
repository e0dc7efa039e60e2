//! The per-arch registrar: what the vendor's boot-time "fill the vtable" step decides, as a
//! pure function of the probe inputs.
//!
//! Layering is ordinary function composition: V3's registrar is the common one plus V3
//! platform detection; V4's calls V3's with `?` and then applies its own rules. A failing
//! lower layer therefore fails the whole registration (the vendor V4 path overwrites the V3
//! return code), and nothing here starts threads, so the vendor's "V3 starts pod election,
//! V4 then rewrites the platform and nobody stops it" double-init cannot happen.

use core::fmt;

use super::{Arch, Generation, Product};

/// Host platform class (selects pod-election behaviour and routing-id tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Platform {
    /// Standard single-node host.
    Std = 0,
    /// Ultraserver (pod of P2P-connected nodes).
    Ultraserver = 1,
    /// PDS (switch-connected pod).
    Pds = 2,
    /// The host's product name could not be read.
    Invalid = 3,
}

/// What a probe knows when it registers the HAL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegistrarInput<'a> {
    /// PCI device id of the probed device.
    pub pci_device_id: u16,
    /// The host's DMI product (instance) name; `None` when unreadable.
    pub instance_name: Option<&'a str>,
    /// Usable-core bitmap override (module parameter); `None` = the arch default.
    pub dev_nc_map: Option<u32>,
    /// Force the ultraserver platform (V3 only; V4 ignores it).
    pub force_userver: bool,
}

impl<'a> RegistrarInput<'a> {
    /// Input for device `pci_device_id` with every option at its default.
    pub const fn new(pci_device_id: u16) -> Self {
        Self {
            pci_device_id,
            instance_name: None,
            dev_nc_map: None,
            force_userver: false,
        }
    }
}

/// The outcome of a successful registration: the host-wide HAL state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Registration {
    /// Generation registered.
    pub generation: Generation,
    /// Product of the first registered device (V2: trn1 or inf2 strings).
    pub product: Product,
    /// Platform class (`None` on V2, which never determines one).
    pub platform: Option<Platform>,
    /// Usable-core bitmap.
    pub nc_map: u32,
}

impl Registration {
    /// Whether cleanup has extension state to stop (pod election runs on ultraservers).
    pub const fn needs_pod_election_stop(&self) -> bool {
        matches!(self.platform, Some(Platform::Ultraserver))
    }
}

/// Why a registration failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegistrarError {
    /// The PCI id is not a product of the arch being registered.
    WrongProduct {
        /// The id.
        pci_device_id: u16,
        /// The arch asked to register it.
        arch: Generation,
    },
    /// The usable-core bitmap has a bit at or above the core count.
    BadNcMap {
        /// The bitmap.
        nc_map: u32,
        /// Cores per device.
        nc_per_device: u8,
    },
}

impl fmt::Display for RegistrarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RegistrarError::WrongProduct {
                pci_device_id,
                arch,
            } => {
                write!(f, "PCI device {pci_device_id:#06x} is not a {arch} product")
            }
            RegistrarError::BadNcMap {
                nc_map,
                nc_per_device,
            } => {
                write!(
                    f,
                    "core map {nc_map:#x} has a bit at or above {nc_per_device} cores"
                )
            }
        }
    }
}

impl core::error::Error for RegistrarError {}

/// The version-common registrar layer, for any arch `A`: product lookup and the core-map
/// check. V2's registrar is exactly this; V3 adds platform detection
/// (`khal_cayman::register_v3`), V4 re-runs V3's and adds its own rules.
pub fn register_common<A: Arch>(
    input: &RegistrarInput<'_>,
) -> Result<Registration, RegistrarError> {
    let product = A::PRODUCTS
        .iter()
        .find(|p| p.pci_device_id == input.pci_device_id)
        .copied()
        .ok_or(RegistrarError::WrongProduct {
            pci_device_id: input.pci_device_id,
            arch: A::GENERATION,
        })?;
    let nc_per_device = A::SCALARS.nc_per_device;
    let nc_map = input.dev_nc_map.unwrap_or(A::SCALARS.dev_nc_map);
    if nc_map.checked_shr(u32::from(nc_per_device)).unwrap_or(0) != 0 {
        return Err(RegistrarError::BadNcMap {
            nc_map,
            nc_per_device,
        });
    }
    Ok(Registration {
        generation: A::GENERATION,
        product,
        platform: None,
        nc_map,
    })
}
