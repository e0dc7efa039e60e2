//! The UDMA error-interrupt masks that depend on the UDMA **revision** (seed 004 §4,
//! `al_udma_iofic_m2s_error_ints_unmask` @0x476650 / `_s2m_error_ints_unmask` @0x476a00).
//!
//! The seed gives two values per mask, "(v3)" and "(v4)", next to its statement that
//! "every advanced/tgtid/TTT/IOFIC path rev-gates on `udma->rev_id` against
//! `AL_UDMA_REV_ID_4`": they are keyed on the UDMA revision (<= 3, >= 4), like the
//! secondary-summary table ([`crate::secondary_summary_bits`]), not on the chip generation.
//! `al_udma_init` refuses every revision but 4 before it calls them, so every engine the
//! HAL brings up, CAYMAN's included, gets the revision-4 values, which are also the
//! kernel's (`iofic.tsv` `policy_mask`: `PRI_D_M2S` 0x500, `SEC_B_S2M_ERRORS` 0xFFFF_EF07).

/// Primary group D bits the M2S bring-up lifts last, UDMA revision <= 3 (seed: 256).
pub const M2S_PRIMARY_D_UNMASK_UP_TO_REV3: u32 = 0x100;
/// Primary group D bits the M2S bring-up lifts last, UDMA revision 4 (seed: 1280).
pub const M2S_PRIMARY_D_UNMASK_REV4: u32 = 0x500;
/// Secondary group B causes the S2M bring-up unmasks, UDMA revision <= 3.
pub const S2M_ERROR_MASK_UP_TO_REV3: u32 = 0x7FFF_E007;
/// Secondary group B causes the S2M bring-up unmasks, UDMA revision 4.
pub const S2M_ERROR_MASK_REV4: u32 = 0xFFFF_EF07;
