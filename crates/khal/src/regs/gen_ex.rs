//! The extended general block (`gen_ex`), at [`unit::GEN_EX_BASE`](super::unit::GEN_EX_BASE):
//! per-queue address-high selectors (the revision-4 `vmpr_v4` layout), which steer each
//! queue's transfers to a target.

use udma_desc::QueueId;

use super::unit::GEN_EX_BASE;

/// First per-queue selector block (`vmpr_v4[0]`), offset in `gen_ex`.
pub const VMPR_V4: usize = 0x400;
/// Stride between the per-queue selector blocks.
pub const VMPR_V4_STRIDE: usize = 0x40;
/// `tx_sel` inside a queue's selector block.
pub const TX_SEL: usize = 0x0;
/// `rx_sel[0]` inside a queue's selector block (`rx_sel[i]` at +4*i).
pub const RX_SEL: usize = 0x4;
/// Number of RX selectors per queue.
pub const RX_SELECTORS: usize = 3;
/// Value engine init writes to every selector (no high-address override).
pub const SEL_NONE: u32 = 0xffff_ffff;

const _: () = {
    use crate::table::{abs_is, offset_is};
    assert!(offset_is("gen_ex", "vmpr_v4[0].tx_sel", VMPR_V4 + TX_SEL));
    assert!(offset_is(
        "gen_ex",
        "vmpr_v4[0].rx_sel[0]",
        VMPR_V4 + RX_SEL
    ));
    assert!(offset_is(
        "gen_ex",
        "vmpr_v4[0].rx_sel[1]",
        VMPR_V4 + RX_SEL + 4
    ));
    assert!(offset_is(
        "gen_ex",
        "vmpr_v4[0].rx_sel[2]",
        VMPR_V4 + RX_SEL + 8
    ));
    assert!(abs_is("gen_ex", "vmpr_v4[0].tx_sel", GEN_EX_BASE + VMPR_V4));
};

/// Offset in `gen_ex` of queue `q`'s TX selector.
pub const fn tx_sel(q: QueueId) -> usize {
    VMPR_V4 + q.index() * VMPR_V4_STRIDE + TX_SEL
}

/// Offset in `gen_ex` of queue `q`'s RX selector `i` (0..3); `None` for `i >= 3`.
pub const fn rx_sel(q: QueueId, i: usize) -> Option<usize> {
    if i >= RX_SELECTORS {
        return None;
    }
    Some(VMPR_V4 + q.index() * VMPR_V4_STRIDE + RX_SEL + 4 * i)
}
