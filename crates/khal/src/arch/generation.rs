//! Chip generations and the PCI device id → generation map.

use core::fmt;

/// Amazon's PCI vendor id (every Neuron device).
pub const PCI_VENDOR_ID: u16 = 0x1d0f;

/// The Neuron PCI device ids (`arch-ids.tsv`), defined once: the generation map below and
/// the arch crates' product lists both use these.
pub mod pci_id {
    /// trn1 (V2).
    pub const TRN1: u16 = 0x7164;
    /// inf2 (V2).
    pub const INF2: u16 = 0x7264;
    /// trn2 (V3).
    pub const TRN2: u16 = 0x7364;
    /// trn3, first id (V4).
    pub const TRN3: u16 = 0x7564;
    /// trn3, second id (V4).
    pub const TRN3_B: u16 = 0x7565;
}

/// A Neuron chip generation. The discriminant is the driver's arch enum value
/// (INVALID = 0, V2 = 2, V3 = 3, V4 = 4; there is no 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Generation {
    /// SUNDA: trn1, inf2.
    V2 = 2,
    /// CAYMAN: trn2.
    V3 = 3,
    /// MARIANA: trn3 (V3 plus overrides).
    V4 = 4,
}

/// A PCI device id that is not a Neuron device this crate knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownDeviceId(pub u16);

impl fmt::Display for UnknownDeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown Neuron PCI device id {:#06x}", self.0)
    }
}

impl core::error::Error for UnknownDeviceId {}

/// A byte that is not a generation's arch-enum value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidGeneration(pub u8);

impl fmt::Display for InvalidGeneration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a Neuron arch value (2, 3 or 4)", self.0)
    }
}

impl core::error::Error for InvalidGeneration {}

impl Generation {
    /// Every generation, oldest first.
    pub const ALL: [Generation; 3] = [Generation::V2, Generation::V3, Generation::V4];

    /// The generation of PCI device `id` (0x7164, 0x7264 → V2; 0x7364 → V3;
    /// 0x7564, 0x7565 → V4).
    ///
    /// ```
    /// use khal::{Generation, UnknownDeviceId};
    /// assert_eq!(Generation::from_pci_device_id(0x7264), Ok(Generation::V2));
    /// assert_eq!(Generation::from_pci_device_id(0x7565), Ok(Generation::V4));
    /// assert_eq!(Generation::from_pci_device_id(0x7464), Err(UnknownDeviceId(0x7464)));
    /// ```
    pub const fn from_pci_device_id(id: u16) -> Result<Self, UnknownDeviceId> {
        match id {
            pci_id::TRN1 | pci_id::INF2 => Ok(Generation::V2),
            pci_id::TRN2 => Ok(Generation::V3),
            pci_id::TRN3 | pci_id::TRN3_B => Ok(Generation::V4),
            other => Err(UnknownDeviceId(other)),
        }
    }

    /// The driver's arch-enum value (2, 3, 4).
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// Decodes an arch-enum value.
    pub const fn from_number(v: u8) -> Result<Self, InvalidGeneration> {
        match v {
            2 => Ok(Generation::V2),
            3 => Ok(Generation::V3),
            4 => Ok(Generation::V4),
            other => Err(InvalidGeneration(other)),
        }
    }

    /// Project code name.
    pub const fn code_name(self) -> &'static str {
        match self {
            Generation::V2 => "SUNDA",
            Generation::V3 => "CAYMAN",
            Generation::V4 => "MARIANA",
        }
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "V{} ({})", self.number(), self.code_name())
    }
}

/// One product (PCI device id) of a generation, with its sysfs strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Product {
    /// PCI device id.
    pub pci_device_id: u16,
    /// Product name (`trn1`, `inf2`, …).
    pub product: &'static str,
    /// Device-type suffix shown in sysfs (inf2 reports "v3" although it is V2).
    pub nd_type_suffix: &'static str,
    /// Core-type suffix shown in sysfs.
    pub nc_type_suffix: &'static str,
    /// Instance-family text.
    pub instance_suffix: &'static str,
    /// Marketing device name.
    pub device_name: &'static str,
}
