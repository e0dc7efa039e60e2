//! The Target Translation Table (seed 004 §2: `al_udma_ttt_en` @0x475d90,
//! `al_udma_ttt_entry_set` @0x475e70, `al_udma_ttt_default_config` @0x476040): UDMA revision
//! 4 only and run by the HAL on MARIANA only, so every method here is bounded on
//! [`TargetTranslationTable`] (and the revision's [`TttRevision`]) and does not compile for
//! another arch.
//!
//! The TTT registers sit in the handle's `tgtid_regs` block, whose place in the unit is in
//! neither source: every method takes a window on that block from the caller (like the
//! external interrupt controller of ring-id masking). Offsets inside it are the seed's
//! ([`regs::tgtid`](crate::regs::tgtid)). What the seed leaves out is a parameter, never a
//! guess: the dwords 3..=6 of an entry, the value `ttt_default_config` writes to `+0x820`,
//! which bit of `+0x824` is "ready", and the entry it writes per queue ([`TttDefaults`]).
//!
//! Barriers: `ttt_entry_set` issues two `al_data_memory_barrier` fences after the trigger
//! words. Here that is one DMA write barrier ([`mmio::Mmio::write_barrier`]) after the last
//! entry word: which words are the "trigger words" is not stated, so it follows the whole
//! entry, and a second barrier straight after the first orders nothing more. The entry words
//! themselves are register writes, which an uncached mapping already keeps in order; the
//! barrier orders any memory the caller wrote before them as well, which is all a store
//! barrier can add (no source says what the vendor's fences protect).

use mmio::{Mmio, MmioExt};
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::caps::TargetTranslationTable;
use crate::regs::tgtid::{
    TTT_CTRL, TTT_DEFAULT_CTRL, TTT_EN, TTT_ENTRY, TTT_ENTRY_FLAGS_SHIFT, TTT_ENTRY_IDX_SHIFT,
    TTT_ENTRY_MASK_MASK, TTT_ENTRY_VALID, TTT_ENTRY_WORDS, TTT_READY,
};
use crate::{Arch, TttRevision};

/// One TTT entry (seed: "idx<<5 | mask, key, valid | flags<<1, …").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TttEntry {
    /// Entry index (word 0 from bit 5).
    pub idx: u32,
    /// The bits below the index in word 0 (0..=31).
    pub mask: u32,
    /// Word 1.
    pub key: u32,
    /// Word 2 bit 0.
    pub valid: bool,
    /// Word 2 from bit 1.
    pub flags: u32,
    /// Words 3..=6, raw: the seed elides them ("…").
    pub rest: [u32; 4],
}

/// Which field of a [`TttEntry`] does not fit its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TttField {
    /// `idx` (must be below 2^27 to fit above bit 5).
    Idx,
    /// `mask` (must be below 32).
    Mask,
    /// `flags` (must be below 2^31 to fit above bit 1).
    Flags,
}

impl TttEntry {
    /// The seven dwords, in write order; a field that does not fit is a typed error.
    pub const fn words(&self) -> Result<[u32; TTT_ENTRY_WORDS], UdmaError> {
        if self.mask & !TTT_ENTRY_MASK_MASK != 0 {
            return Err(UdmaError::TttEntryField {
                field: TttField::Mask,
                value: self.mask,
            });
        }
        if self.idx >> (32 - TTT_ENTRY_IDX_SHIFT) != 0 {
            return Err(UdmaError::TttEntryField {
                field: TttField::Idx,
                value: self.idx,
            });
        }
        if self.flags >> (32 - TTT_ENTRY_FLAGS_SHIFT) != 0 {
            return Err(UdmaError::TttEntryField {
                field: TttField::Flags,
                value: self.flags,
            });
        }
        let valid = if self.valid { TTT_ENTRY_VALID } else { 0 };
        let [r3, r4, r5, r6] = self.rest;
        Ok([
            (self.idx << TTT_ENTRY_IDX_SHIFT) | self.mask,
            self.key,
            valid | (self.flags << TTT_ENTRY_FLAGS_SHIFT),
            r3,
            r4,
            r5,
            r6,
        ])
    }
}

/// What `ttt_default_config` needs and the seed does not give.
#[derive(Clone, Copy, Debug)]
pub struct TttDefaults {
    /// Read-modify-write of the `+0x820` control word (the seed: "clears/inverts").
    pub ctrl_update: fn(u32) -> u32,
    /// The "ready" bit(s) of `+0x824`.
    pub ready_mask: u32,
    /// The entry written for each configured queue.
    pub entry_for: fn(QueueId) -> TttEntry,
}

impl<A: Arch + TargetTranslationTable, M: Mmio> Udma<A, M>
where
    A::Revision: TttRevision,
{
    /// The marker and [`Arch::TTT_DEFAULT_ON_NORMAL`] state one fact twice (seed 004 §2: the
    /// TTT default configuration is "MARIANA-only" and "reached only from
    /// `al_udma_state_set_wait` on the NORMAL transition"): an arch with the marker but
    /// without the flag fails to compile as soon as it uses a TTT method.
    const TTT_RUNS_ON_NORMAL: () = assert!(
        A::TTT_DEFAULT_ON_NORMAL,
        "an arch implementing TargetTranslationTable must set TTT_DEFAULT_ON_NORMAL"
    );

    /// `al_udma_ttt_en`: sets or clears bit 0 of `+0x800` (read-modify-write).
    pub fn ttt_en<W: Mmio + ?Sized>(&self, tgtid: &W, enable: bool) {
        let () = Self::TTT_RUNS_ON_NORMAL;
        tgtid.modify32(TTT_CTRL, |v| if enable { v | TTT_EN } else { v & !TTT_EN });
    }

    /// `al_udma_ttt_entry_set`: the seven dwords at `+0xC00` in order, then the write
    /// barrier.
    /// A field that does not fit is refused before any write.
    pub fn ttt_entry_set<W: Mmio + ?Sized>(
        &self,
        tgtid: &W,
        entry: &TttEntry,
    ) -> Result<(), UdmaError> {
        let () = Self::TTT_RUNS_ON_NORMAL;
        let words = entry.words()?;
        for (i, v) in words.iter().enumerate() {
            tgtid.write32(TTT_ENTRY + 4 * i, *v);
        }
        tgtid.write_barrier();
        Ok(())
    }

    /// `al_udma_ttt_default_config`: update the `+0x820` control, wait for the `+0x824` ready
    /// bit (at most `max_polls` reads: [`UdmaError::TttNotReady`] past them), enable the
    /// table, then write `defaults.entry_for(q)` for every configured queue (the seed: "a TTT
    /// entry for every queue"; whether that is the configured count or all 16 is not stated).
    /// Every entry is checked before the first access.
    pub fn ttt_default_config<W: Mmio + ?Sized>(
        &self,
        tgtid: &W,
        defaults: &TttDefaults,
        max_polls: u32,
    ) -> Result<(), UdmaError> {
        let () = Self::TTT_RUNS_ON_NORMAL;
        let queues = || QueueId::all().take(usize::from(self.queue_count()));
        for q in queues() {
            (defaults.entry_for)(q).words()?;
        }
        tgtid.modify32(TTT_DEFAULT_CTRL, defaults.ctrl_update);
        let mut ready = false;
        for _ in 0..max_polls {
            if tgtid.read32(TTT_READY) & defaults.ready_mask != 0 {
                ready = true;
                break;
            }
        }
        if !ready {
            return Err(UdmaError::TttNotReady { polls: max_polls });
        }
        self.ttt_en(tgtid, true);
        for q in queues() {
            self.ttt_entry_set(tgtid, &(defaults.entry_for)(q))?;
        }
        Ok(())
    }

    /// `al_udma_state_set_wait` on a TTT arch: on the NORMAL transition, first
    /// [`ttt_default_config`](Self::ttt_default_config) (the seed gives no order between it
    /// and the state command; the table is set up before the engine is told to run), then
    /// as [`state_set_wait`](Self::state_set_wait).
    pub fn state_set_wait_ttt<W: Mmio + ?Sized>(
        &self,
        state: super::UdmaState,
        tgtid: &W,
        defaults: &TttDefaults,
        max_polls: u32,
    ) -> Result<(), UdmaError> {
        let () = Self::TTT_RUNS_ON_NORMAL;
        if state == super::UdmaState::Normal {
            self.ttt_default_config(tgtid, defaults, max_polls)?;
        }
        self.set_state(state)?;
        self.wait_state(state, max_polls)
    }
}
