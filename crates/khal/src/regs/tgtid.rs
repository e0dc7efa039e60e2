//! Target-ID (MSI-X) steering and the Target Translation Table (TTT): the register facts of
//! seed 004 §2 (`al_udma_gen_tgtid_conf_queue_set_adv` @0x4756d0, `al_udma_ttt_en`
//! @0x475d90, `al_udma_ttt_entry_set` @0x475e70, `al_udma_ttt_default_config` @0x476040).
//!
//! None of these is in the reference (driver 2.26.5.0 hard-codes revision 4 and never steers
//! target ids); every fact below is the seed's, and what the seed leaves out is listed:
//!
//! | fact | seed | missing |
//! |---|---|---|
//! | V3 (rev <= 3) per-queue steering word | `gen + 0x23EC` ([`TGTID_CONF_V3`]) | the per-queue shifts, the sel/MSI-X bit widths, where the "per-qid 16-bit tgtid words" are |
//! | V4 (rev >= 4) per-queue block | `16*(qid+608)` ([`tgtid_queue_v4`]), qid < 16 | its field layout ("sel/val flags + tgtid words") |
//! | TTT enable | tgtid block `+0x800` bit 0 ([`TTT_CTRL`], [`TTT_EN`]) | — |
//! | TTT default-config control | tgtid block `+0x820` ([`TTT_DEFAULT_CTRL`]) | the value written ("clears/inverts") |
//! | TTT ready | tgtid block `+0x824` ([`TTT_READY`]) | which bit is "ready", the wait bound |
//! | TTT entry | 7 dwords at tgtid block `+0xC00` ([`TTT_ENTRY`]): `idx<<5 \| mask`, `key`, `valid \| flags<<1`, … | dwords 3..=6, the field widths, which words are the "trigger words" |
//! | tgtid block | the handle's `tgtid_regs` (`udma+0x58`) | **where it is in the unit**: no offset in either source |
//!
//! The V4 block's base: the seed's pseudocode computes it from `gen` (`gen =
//! al_udma_gen_regs_get(udma)` is the only base in scope), so it is taken as an offset in
//! `gen`, like the V3 word. Both are checked at compile time not to collide with a `gen` row
//! of the reference table.

use udma_desc::{QUEUES_PER_ENGINE, QueueId};

/// V3 (UDMA revision <= 3) target-id steering word, offset in `gen` (abs `0x3a3ec`).
pub const TGTID_CONF_V3: usize = 0x23EC;

/// First block index of the V4 per-queue target-id blocks (`16*(qid+608)`).
pub const TGTID_QUEUE_V4_FIRST: usize = 608;
/// Bytes per V4 per-queue target-id block (the `16*` of `16*(qid+608)`).
pub const TGTID_QUEUE_V4_STRIDE: usize = 16;
// `DMA_MAX_Q_V4`, the queue bound the V4 path asserts (`al_hal_udma_config.c:1270`), is
// 16, the engine's queue count: `udma_desc::QUEUES_PER_ENGINE`, which bounds every QueueId.

/// Offset in `gen` of queue `q`'s V4 target-id block: `16*(q+608)` (`0x2600 + 16*q`).
pub const fn tgtid_queue_v4(q: QueueId) -> usize {
    TGTID_QUEUE_V4_STRIDE * (q.index() + TGTID_QUEUE_V4_FIRST)
}

/// TTT control, in the tgtid block; bit 0 is [`TTT_EN`] (`al_udma_ttt_en`: `rmw_bit0`).
pub const TTT_CTRL: usize = 0x800;
/// TTT enable bit of [`TTT_CTRL`].
pub const TTT_EN: u32 = 0x1;
/// Control word `al_udma_ttt_default_config` "clears/inverts" before it waits.
pub const TTT_DEFAULT_CTRL: usize = 0x820;
/// Status word whose "ready" bit `al_udma_ttt_default_config` spins on.
pub const TTT_READY: usize = 0x824;
/// First dword of the TTT entry window (`tgtid_regs + 0xC00`).
pub const TTT_ENTRY: usize = 0xC00;
/// Dwords per TTT entry.
pub const TTT_ENTRY_WORDS: usize = 7;
/// Shift of the entry index in entry word 0 (`idx<<5 | mask`).
pub const TTT_ENTRY_IDX_SHIFT: u32 = 5;
/// The `mask` part of entry word 0: the bits below the index.
pub const TTT_ENTRY_MASK_MASK: u32 = (1 << TTT_ENTRY_IDX_SHIFT) - 1;
/// `valid` bit of entry word 2 (`valid | flags<<1`).
pub const TTT_ENTRY_VALID: u32 = 0x1;
/// Shift of `flags` in entry word 2.
pub const TTT_ENTRY_FLAGS_SHIFT: u32 = 1;

const _: () = {
    use crate::table::no_row_at;
    assert!(no_row_at("gen", TGTID_CONF_V3));
    let mut q = 0;
    while q < QUEUES_PER_ENGINE as usize {
        assert!(no_row_at(
            "gen",
            TGTID_QUEUE_V4_STRIDE * (q + TGTID_QUEUE_V4_FIRST)
        ));
        q += 1;
    }
    // 608 * 16 = 0x2600: the block sits between gen.axi.cfg_1 (0x2300) and the AXI error
    // detection tables (0x2900), and the 16 blocks end before them.
    assert!(TGTID_QUEUE_V4_STRIDE * TGTID_QUEUE_V4_FIRST == 0x2600);
    assert!(TGTID_QUEUE_V4_STRIDE * (TGTID_QUEUE_V4_FIRST + QUEUES_PER_ENGINE as usize) <= 0x2900);
};
