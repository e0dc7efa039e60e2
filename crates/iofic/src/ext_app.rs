//! The external-application interrupt of primary group D: `al_udma_iofic_get_ext_app_bit`
//! and `al_udma_iofic_unmask_ext_app` (seed 004 §2 names both: `unmask_ext_app` calls
//! `get_ext_app_bit`; it gives neither body).
//!
//! The bit and the procedure are the ancestor HAL's (`reference/al-hal/facts.tsv` rows `e`,
//! "consistent with seed"): bit 13 of primary group D from UDMA revision 4, bit 11 below
//! (the group's map: 8..11 the secondary summaries on revision 4, 12 the software timer, 13
//! the application; below revision 4: 8, 9 the summaries, 10 the timer, 11 the
//! application); `unmask_ext_app(clear)` clears the bit's cause when asked (a write of the
//! complement to cause), then unmasks it (a write of the complement to mask-clear).

use mmio::Mmio;

use crate::summary::{FIRST_REV4, MAX_UDMA_REV};
use crate::{Error, PrimaryDSummary};

/// The application-external bit of primary group D from UDMA revision 4 (bit 13).
pub const EXT_APP_REV4: u32 = 1 << 13;
/// The application-external bit of primary group D below UDMA revision 4 (bit 11).
pub const EXT_APP_UP_TO_REV3: u32 = 1 << 11;

/// `al_udma_iofic_get_ext_app_bit`: primary group D's external-application bit for UDMA
/// revision `udma_rev`.
///
/// ```
/// assert_eq!(iofic::ext_app_bit(4)?.bits(), 0x2000);
/// assert_eq!(iofic::ext_app_bit(3)?.bits(), 0x800);
/// # Ok::<(), iofic::Error>(())
/// ```
pub const fn ext_app_bit(udma_rev: u8) -> Result<PrimaryDSummary, Error> {
    match udma_rev {
        0..FIRST_REV4 => Ok(PrimaryDSummary::from_bits_retain(EXT_APP_UP_TO_REV3)),
        FIRST_REV4..=MAX_UDMA_REV => Ok(PrimaryDSummary::from_bits_retain(EXT_APP_REV4)),
        rev => Err(Error::UnknownUdmaRevision {
            rev,
            newest_known: MAX_UDMA_REV,
        }),
    }
}

/// `al_udma_iofic_unmask_ext_app`: on the UDMA unit's gen block `gen_block`, clears the
/// external-application cause when `clear` is set, then unmasks it, in primary group D. An
/// unknown revision is refused before any access.
pub fn unmask_ext_app<G: Mmio + ?Sized>(
    gen_block: &G,
    udma_rev: u8,
    clear: bool,
) -> Result<(), Error> {
    let bit = ext_app_bit(udma_rev)?;
    let d = crate::udma::primary_misc(gen_block);
    if clear {
        d.clear(bit);
    }
    d.unmask(bit);
    Ok(())
}
