//! IOFIC policy values per UDMA revision, supplied at compile time by `khal`'s revision
//! types (`khal::Rev3`, `khal::Rev4`).
//!
//! `iofic` sits below `khal` and must not depend on it: the revision types implement this
//! trait, once each, and the policy functions in [`crate::udma`] are generic over it, so no
//! code branches on an arch id or a revision number. An arch reaches them through its
//! revision (`A::Revision`).
//!
//! Sources. The two values that vary are keyed on the UDMA **revision** (seed 004 §4; an
//! inference, see [`crate::error_masks`]: seed §2 labels its `rev_id` branches "v4 (MARIANA)"
//! / "v3 (CAYMAN)"): revision <= 3 gets 0x100 / 0x7FFF_E007, revision 4 gets
//! 0x500 / 0xFFFF_EF07. Every shipped generation has UDMA revision 4 (the userspace HAL
//! refuses any other at `al_udma_init`; the kernel hard-codes 4), so V2, V3 and V4 all
//! program the revision-4 values, which are also the kernel's (`iofic.tsv` `policy_mask`).
//!
//! | UDMA revision | `M2S_PRIMARY_D_UNMASK` | `S2M_ERROR_MASK` | source |
//! |---|---|---|---|
//! | <= 3 | 0x100 (256) | 0x7FFF_E007 | seed 004 §4 "(v3)" |
//! | 4 (V2, V3, V4) | 0x500 (1280) | 0xFFFF_EF07 | seed 004 §4 "(v4)"; kernel |
//!
//! The other values have defaults equal to the kernel's, shared by every arch.

/// IOFIC policy values that differ per UDMA revision.
///
/// ```
/// use iofic::caps::IoficCaps;
/// use iofic::error_masks::{M2S_PRIMARY_D_UNMASK_REV4, S2M_ERROR_MASK_REV4};
/// // A UDMA revision 4 engine (every shipped generation, CAYMAN's included).
/// struct Rev4Engine;
/// impl IoficCaps for Rev4Engine {
///     const M2S_PRIMARY_D_UNMASK: u32 = M2S_PRIMARY_D_UNMASK_REV4; // 0x500
///     const S2M_ERROR_MASK: u32 = S2M_ERROR_MASK_REV4; // 0xFFFF_EF07
/// }
/// assert_eq!(Rev4Engine::M2S_ERROR_MASK, 0x0fff_ffff); // default, shared by all
/// ```
pub trait IoficCaps {
    /// Primary group D bits lifted last by the M2S (TX) bring-up (revision <= 3: 0x100,
    /// revision 4: 0x500).
    const M2S_PRIMARY_D_UNMASK: u32;
    /// S2M (RX) secondary-group-B error causes unmasked and made abort-capable
    /// (revision <= 3: 0x7FFF_E007, revision 4: 0xFFFF_EF07).
    const S2M_ERROR_MASK: u32;
    /// M2S (TX) secondary-group-A error causes unmasked and made abort-capable
    /// (kernel `SEC_A_M2S_ERRORS`, 0x0FFF_FFFF: every named TX cause).
    const M2S_ERROR_MASK: u32 = 0x0fff_ffff;
    /// TX AXI FIFO parity causes of secondary group C (kernel `SEC_C_M2S_ERRORS`, 0x3F).
    const M2S_PARITY_MASK: u32 = 0x0000_003f;
    /// RX AXI FIFO parity causes of secondary group C (kernel `SEC_C_S2M_ERRORS`, 0xFC0).
    const S2M_PARITY_MASK: u32 = 0x0000_0fc0;
    /// Primary group D bits lifted last by the S2M (RX) bring-up (kernel `PRI_D_S2M`, 0x600).
    const S2M_PRIMARY_D_UNMASK: u32 = 0x0000_0600;
}
