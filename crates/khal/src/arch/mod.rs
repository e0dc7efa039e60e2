//! The compile-time `Arch` trait and its parts.

mod generation;
mod revision;
mod scalars;

pub use generation::{Generation, InvalidGeneration, PCI_VENDOR_ID, Product, UnknownDeviceId};
pub use revision::{Rev3, Rev4, TargetTranslation, UdmaRevision};
pub use scalars::{Scalars, VersionWindow};

use iofic::caps::IoficCaps;
use udma_desc::caps::PacketCaps;

use crate::regs::UdmaLayout;

/// One chip generation, resolved at compile time.
///
/// Implemented by zero-sized types in `khal-sunda` (V2), `khal-cayman` (V3) and
/// `khal-mariana` (V4 = V3 + overrides). Code that depends on the generation is generic over
/// `A: Arch` and reads associated consts, so each generation gets its own monomorphised copy
/// with the numbers folded in — no table of function pointers, no run-time branch.
///
/// The capability supertraits come from the crates below `khal`: [`PacketCaps`] (descriptor
/// limits, `udma-desc`) and [`IoficCaps`] (error-interrupt policy masks, `iofic`).
/// Version-common behaviour is written once, as default items here.
pub trait Arch:
    PacketCaps + IoficCaps + Copy + Default + core::fmt::Debug + Send + Sync + 'static
{
    // --- identity ---
    /// The generation.
    const GENERATION: Generation;
    /// Project code name (SUNDA, CAYMAN, MARIANA).
    const CODE_NAME: &'static str = Self::GENERATION.code_name();
    /// The products of this generation (PCI ids and sysfs strings).
    const PRODUCTS: &'static [Product];
    /// The UDMA revision of this generation's engines, as a type (revision-gated APIs are
    /// bounded on it).
    type Revision: UdmaRevision;
    /// The UDMA revision number.
    const UDMA_REVISION: u8 = <Self::Revision as UdmaRevision>::NUMBER;

    // --- data ---
    /// Per-arch scalars (`arch-scalars.tsv`, `address-map.tsv`).
    const SCALARS: Scalars;
    /// The UDMA register-offset set (version common: [`UdmaLayout::REV4`]).
    const UDMA: UdmaLayout = UdmaLayout::REV4;
}
