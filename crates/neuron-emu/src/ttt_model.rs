//! The TTT (the ancestor HAL's *Transaction Type Table*) of a unit's `gen_ex` block, as far as
//! the sources describe it: seed 004 §2 gives the offsets (`al_udma_ttt_en`,
//! `al_udma_ttt_entry_set`, `al_udma_ttt_default_config`), the ancestor HAL the block and
//! the fields (`reference/al-hal/facts.tsv` rows `d`; khal's `regs::ttt`).
//!
//! The registers sit in `gen_ex` from `+0x800` (unit `0x3c800..0x3cc1c`, just past the
//! kernel's unit structure). The model serves them there in every unit window of revision 4
//! and later, and also through a separate window on `gen_ex` ([`Device::tgtid_block`]), both
//! on the same state.
//!
//! Behaviour, and what is a model choice where no source says:
//! * `cfg_v4_section_en` (`+0x800`) and the other words: plain storage.
//! * `init_trig` (`+0x820`) bit 0 starts a self-clearing zero-fill of the table (ancestor):
//!   the model clears every entry at once, so the bit reads back 0 and `init_in_progress`
//!   (`+0x824`) always reads 0 (the fill taking no time is the model's choice).
//! * The entry window `+0xC00..=+0xC18`: words are staged; writing the last one
//!   (`axi_write_padding`) commits the seven under the entry's address word (transaction type
//!   `[4:0]` and queue `[8:5]`), as the ancestor states.
//! * The block exists only on UDMA revision 4 and later (`ttt_en` asserts `rev_id >= 4`).
//!
//! [`Device::tgtid_block`]: crate::Device::tgtid_block

use std::collections::BTreeMap;

use khal::regs::ttt::{
    TTT_CTRL, TTT_EN, TTT_ENTRY, TTT_ENTRY_COMMIT, TTT_ENTRY_WORDS, TTT_INIT_BIT,
    TTT_INIT_IN_PROGRESS, TTT_INIT_TRIG, TttAddr,
};

use crate::offset_hasher::OffsetMap;

/// One committed TTT entry: its seven words, in write order.
pub type TttEntryWords = [u32; TTT_ENTRY_WORDS];

/// The address-word bits that name an entry (transaction type and queue).
const ENTRY_KEY: u32 = TttAddr::new()
    .with_tr_type(0x1f)
    .with_queue(0xf)
    .into_bits();

/// The TTT state of one unit.
#[derive(Clone, Debug, Default)]
pub(crate) struct TttModel {
    plain: OffsetMap<u32>,
    staging: TttEntryWords,
    entries: BTreeMap<u32, TttEntryWords>,
}

impl TttModel {
    /// Reads `off` (an offset in `gen_ex`).
    pub(crate) fn read(&self, off: usize) -> u32 {
        match off {
            TTT_INIT_IN_PROGRESS => 0,
            o if (TTT_ENTRY..=TTT_ENTRY_COMMIT).contains(&o) && o % 4 == 0 => {
                self.staging.get((o - TTT_ENTRY) / 4).copied().unwrap_or(0)
            }
            o => self.plain.get(&o).copied().unwrap_or(0),
        }
    }

    /// Writes `value` at `off` (an offset in `gen_ex`).
    pub(crate) fn write(&mut self, off: usize, value: u32) {
        match off {
            TTT_INIT_IN_PROGRESS => {}
            TTT_INIT_TRIG => {
                if value & TTT_INIT_BIT != 0 {
                    self.entries.clear();
                }
                self.plain.insert(off, value & !TTT_INIT_BIT);
            }
            o if (TTT_ENTRY..=TTT_ENTRY_COMMIT).contains(&o) && o % 4 == 0 => {
                if let Some(w) = self.staging.get_mut((o - TTT_ENTRY) / 4) {
                    *w = value;
                }
                if o == TTT_ENTRY_COMMIT {
                    let [w0, ..] = self.staging;
                    self.entries.insert(w0 & ENTRY_KEY, self.staging);
                }
            }
            o => {
                self.plain.insert(o, value);
            }
        }
    }

    /// `cfg_v4_section_en` bit 0.
    pub(crate) fn enabled(&self) -> bool {
        self.read(TTT_CTRL) & TTT_EN != 0
    }

    /// Committed entries by address word (transaction type | queue << 5).
    pub(crate) fn entries(&self) -> Vec<(u32, TttEntryWords)> {
        self.entries.iter().map(|(&i, &w)| (i, w)).collect()
    }
}
