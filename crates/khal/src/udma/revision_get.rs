//! `al_udma_revision_get` (seed 004 §2, @0x45fbe0: "read UDMA rev reg"): which register it
//! reads and what it makes of the word, and the revision the userspace bring-up uses.
//!
//! The seed names the function without its body. The ancestor HAL states both facts
//! (`reference/al-hal/facts.tsv`, rows `a`, confidence "consistent with seed"):
//!
//! * the register is M2S `m2s_feature.dma_version`, unit `+0x604`
//!   ([`m2s::DmaVersion`](crate::regs::m2s::DmaVersion));
//! * a word of 4 or more **is** the revision, whole (no mask, no shift); 0 means revision
//!   1, 2 or 3, for which the ancestor reads the programming-ID field `[11:0]` of the
//!   revision-3 layout's gen `dma_misc.revision` (unit `+0x1E084`).
//!
//! Two things stay an **inference**, labelled here and in the tests: that KaenaHal kept the
//! ancestor's routine unchanged (the al-hal README's reasoning: a word carrying other bits
//! would fail the seed's `rev_id != 4` gate, and libnrt works on hardware), and therefore that
//! every shipped engine's word reads exactly 4. If it is wrong, the default bring-up refuses
//! every real engine. So the code is safe either way: the caller may state the revision
//! instead of reading it ([`RevisionSource::Given`], from
//! [`EngineParams::hw_revision`](crate::udma::EngineParams::hw_revision)), a refusal names
//! the word and where it came from, and the device model can preset any word
//! (`neuron_emu::DeviceConfig::with_dma_version`).
//!
//! Deliberate deviation: below 4 the ancestor's fallback read is **not** made. `+0x1E084` is
//! a register of the revision-3 unit layout only; on a revision-4 unit (every Neuron
//! generation) it falls in M2S space no source names, and the seed refuses anything but 4
//! anyway. The word itself is refused, named.

use crate::regs::m2s::UDMA_REV_ID_4;

/// Where the revision the userspace bring-up checks came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RevisionSource {
    /// Read from `m2s_feature.dma_version` by the ancestor's rule ([`revision_from_dma_version`]).
    Register,
    /// Stated by the caller ([`EngineParams::hw_revision`](crate::udma::EngineParams::hw_revision)):
    /// nothing was read.
    Given,
}

/// Unit offset of the revision-3 layout's gen `dma_misc.revision`, which the ancestor reads
/// when `dma_version` is below 4 (al-hal `a`: "unit+0x1E084 (v3 gen base 0x1C000 + dma_misc
/// 0x2080 + 4), bits `[11:0]`"). Recorded, never read here (module docs).
pub const REV3_DMA_MISC_REVISION: usize = 0x1_E084;
/// Its programming-interface ID field `[11:0]` (al-hal `a`, mask 0x00000FFF).
pub const DMA_MISC_PROGRAMMING_ID: u32 = 0x0000_0FFF;

/// `al_udma_revision_get` on the word read from `m2s_feature.dma_version` (al-hal `a`): the
/// whole word when it is 4 or more; `None` below 4 (revision 1..3, whose number the ancestor
/// takes from a register this crate does not read).
///
/// ```
/// use khal::udma::revision_from_dma_version;
/// assert_eq!(revision_from_dma_version(4), Some(4));
/// assert_eq!(revision_from_dma_version(0x104), Some(0x104)); // whole word: refused by the gate
/// assert_eq!(revision_from_dma_version(0), None);
/// ```
pub const fn revision_from_dma_version(word: u32) -> Option<u32> {
    if word >= UDMA_REV_ID_4 {
        Some(word)
    } else {
        None
    }
}
