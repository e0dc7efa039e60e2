//! The Target Translation Table of a unit's target-id block, as far as seed 004 §2 describes
//! its effect (`al_udma_ttt_en`, `al_udma_ttt_entry_set`, `al_udma_ttt_default_config`).
//!
//! Where the target-id block sits in the unit is in neither source (khal's `regs::tgtid`
//! lists what is missing), so the model does not place it in BAR0: [`Device::tgtid_block`]
//! hands out a separate register window on it, the window khal's TTT calls take. Offsets
//! inside the block are khal's (`TTT_CTRL`, `TTT_DEFAULT_CTRL`, `TTT_READY`, `TTT_ENTRY`).
//!
//! Behaviour, and what is a model choice where the seed is silent:
//! * `+0x800` control and every other offset of the block: plain storage.
//! * `+0x824` reads 0 until `+0x820` is written, then all ones: the seed spins on "the ready
//!   bit" after the control update without saying which bit, so every bit reads set.
//! * `+0xC00..+0xC18`: the 7-dword entry window. Writing the last dword commits the entry
//!   under its index (`word0 >> 5`): the seed names "trigger words" without saying which, and
//!   the HAL writes the seven in order.
//! * The block exists only on UDMA revision 4 and later (`ttt_en` asserts `rev_id >= 4`).
//!
//! [`Device::tgtid_block`]: crate::Device::tgtid_block

use std::collections::BTreeMap;

use khal::regs::tgtid::{
    TTT_CTRL, TTT_DEFAULT_CTRL, TTT_EN, TTT_ENTRY, TTT_ENTRY_IDX_SHIFT, TTT_ENTRY_WORDS, TTT_READY,
};

use crate::offset_hasher::OffsetMap;

/// One committed TTT entry: its seven dwords, in write order.
pub type TttEntryWords = [u32; TTT_ENTRY_WORDS];

/// The TTT state of one unit.
#[derive(Clone, Debug, Default)]
pub(crate) struct TttModel {
    plain: OffsetMap<u32>,
    ready: bool,
    staging: TttEntryWords,
    entries: BTreeMap<u32, TttEntryWords>,
}

/// Offset of the last dword of the entry window.
const ENTRY_LAST: usize = TTT_ENTRY + 4 * (TTT_ENTRY_WORDS - 1);

impl TttModel {
    pub(crate) fn read(&self, off: usize) -> u32 {
        match off {
            TTT_READY => {
                if self.ready {
                    u32::MAX
                } else {
                    0
                }
            }
            o if (TTT_ENTRY..=ENTRY_LAST).contains(&o) && o % 4 == 0 => {
                self.staging.get((o - TTT_ENTRY) / 4).copied().unwrap_or(0)
            }
            o => self.plain.get(&o).copied().unwrap_or(0),
        }
    }

    pub(crate) fn write(&mut self, off: usize, value: u32) {
        match off {
            TTT_READY => {}
            o if (TTT_ENTRY..=ENTRY_LAST).contains(&o) && o % 4 == 0 => {
                if let Some(w) = self.staging.get_mut((o - TTT_ENTRY) / 4) {
                    *w = value;
                }
                if o == ENTRY_LAST {
                    let [w0, ..] = self.staging;
                    self.entries.insert(w0 >> TTT_ENTRY_IDX_SHIFT, self.staging);
                }
            }
            o => {
                if o == TTT_DEFAULT_CTRL {
                    self.ready = true;
                }
                self.plain.insert(o, value);
            }
        }
    }

    /// `+0x800` bit 0.
    pub(crate) fn enabled(&self) -> bool {
        self.read(TTT_CTRL) & TTT_EN != 0
    }

    /// Committed entries by index.
    pub(crate) fn entries(&self) -> Vec<(u32, TttEntryWords)> {
        self.entries.iter().map(|(&i, &w)| (i, w)).collect()
    }
}
