//! Engine-init step 4: error-interrupt unmask, through the `iofic` crate's policy layer.

use mmio::Mmio;

use crate::Arch;

/// Unmasks the TX then the RX error interrupts of one unit (`udma-notes.md` section 2 step 4:
/// seven writes each, `iofic.tsv` `unmask_write.m2s` / `.s2m`), with the masks of `A`'s UDMA
/// revision (its `iofic::caps::IoficCaps`).
///
/// `gen_block` is the window of the unit's `gen` block (unit base + `0x38000`).
pub fn unmask_error_interrupts<A: Arch, G: Mmio + ?Sized>(gen_block: &G) {
    iofic::udma::m2s_bring_up::<A::Revision, G>(gen_block);
    iofic::udma::s2m_bring_up::<A::Revision, G>(gen_block);
}
