//! The secondary-summary bit table, keyed by UDMA revision.
//!
//! Source: seed 004 §4 `al_udma_iofic_sec_level_int_get` (.rodata 0x855060 / 0x855070),
//! not the kernel, which hard-codes revision 4. Up to revision 3 only secondary groups A and
//! B have a summary bit in primary group D; from revision 4 there are four. The kernel reference agrees on the
//! revision-4 bits it names (`primary_D_bit`: 0x100, 0x200, 0x400).

use crate::layout::{SECONDARY_GROUPS_OLD, SECONDARY_GROUPS_REV4};
use crate::{Error, PrimaryDSummary};

/// The newest UDMA revision the tables know. A later one is an error, not a guess.
pub const MAX_UDMA_REV: u8 = 4;
/// The first UDMA revision with four summary bits and secondary group C.
pub const FIRST_REV4: u8 = 4;

/// Summary bits of secondary groups A..D for revisions 0..=3.
pub const SUMMARY_UP_TO_REV3: [PrimaryDSummary; 4] = [
    PrimaryDSummary::GROUP_D_M2S,
    PrimaryDSummary::GROUP_D_S2M,
    PrimaryDSummary::empty(),
    PrimaryDSummary::empty(),
];
/// Summary bits of secondary groups A..D from revision 4.
pub const SUMMARY_REV4: [PrimaryDSummary; 4] = [
    PrimaryDSummary::GROUP_D_M2S,
    PrimaryDSummary::GROUP_D_S2M,
    PrimaryDSummary::GROUP_D_2ND_IOFIC_GROUP_C,
    PrimaryDSummary::GROUP_D_2ND_IOFIC_GROUP_D,
];

/// Primary group D summary bit of each secondary group (index 0 = A), for UDMA revision
/// `udma_rev`. An entry of 0 means that secondary group has no summary bit.
///
/// ```
/// use iofic::{secondary_summary_bits, Error};
/// let bits = secondary_summary_bits(3)?.map(|b| b.bits());
/// assert_eq!(bits, [0x100, 0x200, 0, 0]);
/// let bits = secondary_summary_bits(4)?.map(|b| b.bits());
/// assert_eq!(bits, [0x100, 0x200, 0x400, 0x800]);
/// assert!(matches!(secondary_summary_bits(5), Err(Error::UnknownUdmaRevision { rev: 5, .. })));
/// # Ok::<(), Error>(())
/// ```
pub const fn secondary_summary_bits(udma_rev: u8) -> Result<[PrimaryDSummary; 4], Error> {
    match udma_rev {
        0..FIRST_REV4 => Ok(SUMMARY_UP_TO_REV3),
        FIRST_REV4..=MAX_UDMA_REV => Ok(SUMMARY_REV4),
        rev => Err(unknown(rev)),
    }
}

/// Secondary groups in use for UDMA revision `udma_rev` (iofic.tsv `secondary_groups_valid`:
/// 3 for revision 4, 2 for older ones).
pub const fn secondary_groups(udma_rev: u8) -> Result<usize, Error> {
    match udma_rev {
        0..FIRST_REV4 => Ok(SECONDARY_GROUPS_OLD),
        FIRST_REV4..=MAX_UDMA_REV => Ok(SECONDARY_GROUPS_REV4),
        rev => Err(unknown(rev)),
    }
}

const fn unknown(rev: u8) -> Error {
    Error::UnknownUdmaRevision {
        rev,
        newest_known: MAX_UDMA_REV,
    }
}
