//! Engine-init step 4: error-interrupt unmask, through the `iofic` crate's policy layer.

use mmio::Mmio;

use crate::Arch;

/// Unmasks the TX then the RX error interrupts of one unit (`udma-notes.md` section 2 step 4:
/// seven writes each, `iofic.tsv` `unmask_write.m2s` / `.s2m`), with `A`'s per-arch masks.
///
/// `gen_block` is the window of the unit's `gen` block (unit base + `0x38000`).
///
/// SEAM: until the `iofic` policy API is on `main`, this does nothing; engine init already
/// calls it at the right point of the sequence.
pub fn unmask_error_interrupts<A: Arch, G: Mmio + ?Sized>(gen_block: &G) {
    let _ = gen_block;
}
