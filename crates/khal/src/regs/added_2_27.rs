//! Queue words the 2.27.4.0 driver names where 2.26.5.0 has reserved space.
//!
//! `reference/abi/unknowns-2.27-2.30.md` (e): 2.27.4.0's `udma_regs.h` gives each M2S queue
//! block a second descriptor-prefetch word at queue `+0x04`, and each S2M queue block
//! prefetch words at `+0x00` and `+0x04`; "no bit definitions are given and the kernel never
//! writes them". So they are listed here, not declared as typed registers: no field is
//! known, bring-up (in both profiles) leaves them at their reset value, and the 2.26.5.0
//! register list ([`REGISTERS`](super::REGISTERS), asserted against
//! `reference/udma-registers.tsv`) stays that release's.

use mmio::RegisterBlock;

use super::queue::{Dir, RxQueue, TxQueue};

/// One word a later driver release names in a queue block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddedQueueWord {
    /// The queue block's direction.
    pub dir: Dir,
    /// Byte offset inside the queue block.
    pub offset: usize,
    /// What it is. The source gives no register names; these say what the source says
    /// (the project's wording).
    pub name: &'static str,
    /// The first driver release that names it.
    pub since: &'static str,
}

/// The per-queue prefetch words of 2.27.4.0: no fields known, never written by the kernel.
pub const PREFETCH_WORDS_2_27: [AddedQueueWord; 3] = [
    AddedQueueWord {
        dir: Dir::Tx,
        offset: 0x04,
        name: "second descriptor-prefetch word",
        since: "2.27.4.0",
    },
    AddedQueueWord {
        dir: Dir::Rx,
        offset: 0x00,
        name: "prefetch word 1",
        since: "2.27.4.0",
    },
    AddedQueueWord {
        dir: Dir::Rx,
        offset: 0x04,
        name: "prefetch word 2",
        since: "2.27.4.0",
    },
];

/// Whether the queue block of `dir` declares a register at `offset` (2.26.5.0's layout).
const fn declared(dir: Dir, offset: usize) -> bool {
    let mut regs = match dir {
        Dir::Tx => TxQueue::REGISTERS,
        Dir::Rx => RxQueue::REGISTERS,
    };
    while let [first, rest @ ..] = regs {
        if first.offset == offset {
            return true;
        }
        regs = rest;
    }
    false
}

// The source says these were reserved in 2.26.5.0: no declared register may sit there.
const _: () = {
    let mut words: &[AddedQueueWord] = &PREFETCH_WORDS_2_27;
    while let [w, rest @ ..] = words {
        assert!(
            !declared(w.dir, w.offset),
            "a 2.27.4.0 word over a 2.26.5.0 register"
        );
        words = rest;
    }
};
