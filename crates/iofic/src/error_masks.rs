//! The UDMA error-interrupt masks that depend on the UDMA **revision** (seed 004 §4,
//! `al_udma_iofic_m2s_error_ints_unmask` @0x476650 / `_s2m_error_ints_unmask` @0x476a00).
//!
//! The seed gives two values per mask, "(v3)" and "(v4)", next to its statement that
//! "every advanced/tgtid/TTT/IOFIC path rev-gates on `udma->rev_id` against
//! `AL_UDMA_REV_ID_4`". Keying them on the UDMA revision (<= 3, >= 4), like the
//! secondary-summary table ([`crate::secondary_summary_bits`]), is this crate's
//! **inference**: §4 does not show the branch, and where seed §2 does show a `rev_id` branch
//! (`al_udma_gen_tgtid_conf_queue_set_adv`) it labels the two arms "v4 (MARIANA)" and
//! "v3 (CAYMAN)", i.e. by chip generation. `al_udma_init` refuses every revision but 4
//! before it calls them, so under this reading every engine the HAL brings up, CAYMAN's
//! included, gets the revision-4 values, which are also the kernel's (`iofic.tsv`
//! `policy_mask`: `PRI_D_M2S` 0x500, `SEC_B_S2M_ERRORS_V4` 0xFFFF_EF07).
//!
//! The kernel also names an older S2M set, `SEC_B_S2M_ERRORS_BASE` 0x7FFF_EF07 ("RX error
//! causes (older set)"), which is not the seed's "(v3)" 0x7FFF_E007 (bits 11:8 differ). Both
//! are kept, each named after its source: [`S2M_ERROR_MASK_UP_TO_REV3`] (seed) and
//! [`S2M_ERROR_MASK_KERNEL_BASE`] (kernel). No arch programs the kernel's older set.

/// Primary group D bits the M2S bring-up lifts last, UDMA revision <= 3 (seed: 256).
pub const M2S_PRIMARY_D_UNMASK_UP_TO_REV3: u32 = 0x100;
/// Primary group D bits the M2S bring-up lifts last, UDMA revision 4 (seed: 1280).
pub const M2S_PRIMARY_D_UNMASK_REV4: u32 = 0x500;
/// Secondary group B causes the S2M bring-up unmasks, UDMA revision <= 3 (seed 004 §4:
/// "0x7FFFE007(v3)").
pub const S2M_ERROR_MASK_UP_TO_REV3: u32 = 0x7FFF_E007;
/// Secondary group B causes the S2M bring-up unmasks, UDMA revision 4 (seed 004 §4:
/// "0xFFFFEF07(v4)"; kernel `iofic.tsv` `SEC_B_S2M_ERRORS_V4`).
pub const S2M_ERROR_MASK_REV4: u32 = 0xFFFF_EF07;
/// The kernel's older secondary-group-B RX error set (`iofic.tsv` `policy_mask`
/// `SEC_B_S2M_ERRORS_BASE` 0x7fffef07, "RX error causes (older set)"); the kernel uses
/// [`S2M_ERROR_MASK_REV4`] ("older set plus bit 31"). Differs from the seed's
/// [`S2M_ERROR_MASK_UP_TO_REV3`] in bits 11:8.
pub const S2M_ERROR_MASK_KERNEL_BASE: u32 = 0x7FFF_EF07;
