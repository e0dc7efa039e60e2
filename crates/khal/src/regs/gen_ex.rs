//! The extended general block (`gen_ex`), [`GenEx`], at
//! [`unit::GEN_EX_BASE`](super::unit::GEN_EX_BASE): per-queue address-high selectors (the
//! revision-4 `vmpr_v4` layout, block array [`VmprV4`]), which steer each queue's transfers
//! to a target.

use mmio::{Placed, Register};
use udma_desc::{QUEUES_PER_ENGINE, QueueId};

mmio::register! {
    /// The extended general block of a UDMA unit: its registers are the [`VmprV4`] blocks.
    pub block GenEx = "gen_ex" @ 0x3_c000 {}

    /// Queue `q`'s address-high selectors in `gen_ex` (16, 0x40 apart, from `0x400`).
    pub block VmprV4 = "vmpr_v4" @ 0x400 [(QUEUES_PER_ENGINE as usize) x 0x40] {
        /// TX address-high selector.
        pub TxSel: u32 = "tx_sel" @ 0x0;
        /// RX address-high selector 0.
        pub RxSel0: u32 = "rx_sel[0]" @ 0x4;
        /// RX address-high selector 1.
        pub RxSel1: u32 = "rx_sel[1]" @ 0x8;
        /// RX address-high selector 2.
        pub RxSel2: u32 = "rx_sel[2]" @ 0xc;
    }
}

/// Stride between the per-queue selector blocks.
pub const VMPR_V4_STRIDE: usize = VmprV4::STRIDE;
/// Number of RX selectors per queue.
pub const RX_SELECTORS: usize = RX_SEL.len();
/// The RX selectors' offsets inside a queue's selector block, in order.
const RX_SEL: [usize; 3] = [RxSel0::OFFSET, RxSel1::OFFSET, RxSel2::OFFSET];
/// Value engine init writes to every selector (no high-address override).
pub const SEL_NONE: u32 = 0xffff_ffff;

/// Offset in `gen_ex` of queue `q`'s selector block (every QueueId has one).
const fn vmpr(q: QueueId) -> usize {
    mmio::block_base_or_unmapped::<VmprV4>(q.index())
}

const _: () = assert!(VmprV4::COUNT == QUEUES_PER_ENGINE as usize);

/// Offset in `gen_ex` of queue `q`'s TX selector.
pub const fn tx_sel(q: QueueId) -> usize {
    vmpr(q) + TxSel::OFFSET
}

/// Offset in `gen_ex` of queue `q`'s RX selector `i` (0..3); `None` for `i >= 3`.
pub const fn rx_sel(q: QueueId, i: usize) -> Option<usize> {
    let mut rest: &[usize] = &RX_SEL;
    let mut n = i;
    while let Some((off, tail)) = rest.split_first() {
        if n == 0 {
            return Some(vmpr(q) + *off);
        }
        n -= 1;
        rest = tail;
    }
    None
}
