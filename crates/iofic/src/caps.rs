//! Per-arch IOFIC policy values, supplied at compile time by the `khal` arch types.
//!
//! `iofic` sits below `khal` and must not depend on it: the arch types implement this trait.

/// IOFIC policy values that differ per chip generation.
pub trait IoficCaps {
    /// Primary group D bits lifted last by the M2S (TX) bring-up (V3: 0x100, V4: 0x500).
    const M2S_PRIMARY_D_UNMASK: u32;
    /// S2M (RX) secondary-group-B error causes unmasked and made abort-capable
    /// (V3: 0x7FFF_E007, V4: 0xFFFF_EF07).
    const S2M_ERROR_MASK: u32;
}
