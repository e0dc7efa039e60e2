//! Target-ID (MSI-X and transfer) steering registers: where seed 004 §2
//! (`al_udma_gen_tgtid_conf_queue_set_adv` @0x4756d0) writes, and what is in the words.
//!
//! The seed gives the places and the branch: "if `udma->rev_id > 3`: assert(qid < 16); write
//! `16*(qid+608)` block: sel/val flags + tgtid words; else: assert(qid <
//! `udma->num_of_queues`); pack sel/MSI-X bits into `gen+0x23EC` per-qid shifts + per-qid
//! 16-bit tgtid words". Neither the seed nor the reference (driver 2.26.5.0, which never
//! steers target ids) gives the words' fields. The ancestor HAL does
//! (`reference/al-hal/facts.tsv`, rows `c`): its two routines are the seed's two branches,
//! at the seed's offsets and with the seed's queue bounds ("matches seed exactly"); the field
//! layouts below are **ancestor only**.
//!
//! | layout | where (offset in gen) | words | source |
//! |---|---|---|---|
//! | revision 4, per queue | `0x2600 + 16*q` = `16*(q+608)` ([`TgtaddrV4`]) | `cfg_vm_ctrl` +0x0 ([`VmCtrl`]), reserved +0x4, `cfg_tx_vm` +0x8, `cfg_rx_vm` +0xC ([`VmTarget`]) | seed offset; al-hal fields |
//! | revision 4, MSI-X | `0x2500` `cfg_tgtid_0` ([`TgtidV4`]): select bit 8, access enable bit 9 ([`TgtidCfg0`]) | | al-hal only |
//! | revision <= 3 | `0x23EC` `cfg_tgtid_0` ([`TgtidV3`], [`TgtidCfg0`]); `cfg_tgtid_1..4` the 16-bit per-queue target ids; `cfg_tgtaddr_0..3` at `0x2400` the 16-bit per-queue address MSBs ([`TgtaddrV3`]) | even queue `[15:0]`, odd `[31:16]` | seed offset; al-hal fields |
//!
//! "v3" in the ancestor means UDMA **revision <= 3** (4 queues, the revision-3 unit layout
//! whose gen block is at unit `+0x1C000`, [`REV3_GEN_BASE`]), not the CAYMAN generation, whose
//! engines are revision 4 (al-hal `c`: "conflict with the seed's label 'v3 (CAYMAN)'"). On a
//! revision-4 unit `gen + 0x23EC` is in the reserved tail of the gen AXI block.
//!
//! None of these rows is in [`REGISTERS`](super::REGISTERS) (which lists the reference's rows
//! and the seed's); they are checked at compile time not to collide with a `gen` row of the
//! reference table.

use bitfield_struct::bitfield;
use mmio::Placed;
use udma_desc::{QUEUES_PER_ENGINE, QueueId};

/// Where the gen block starts in a revision <= 3 unit (al-hal `f`: "rev 3: M2S 0, S2M 0x10000,
/// gen 0x1C000, gen_ex 0x1E800"). The revision-4 layout, every Neuron generation's, has it at
/// `0x38000` ([`super::unit::GEN_BASE`]).
pub const REV3_GEN_BASE: usize = 0x1_C000;
/// Queues of a revision <= 3 engine (al-hal `a`: `DMA_MAX_Q_V3` = 4); the revision <= 3
/// routine asserts `qid` below it besides `qid < num_of_queues`.
pub const DMA_MAX_Q_V3: u8 = 4;

/// `cfg_vm_ctrl` of a revision-4 per-queue block (al-hal `c`: enable bits 0..3).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct VmCtrl {
    /// RX: take the target id from the descriptor's address (bits 63:48).
    pub rx_desc_tgtid_en: bool,
    /// RX: use the queue's target id ([`VmTarget::tgtid`] of `cfg_rx_vm`).
    pub rx_queue_tgtid_en: bool,
    /// TX: take the target id from the descriptor's address.
    pub tx_desc_tgtid_en: bool,
    /// TX: use the queue's target id (`cfg_tx_vm`).
    pub tx_queue_tgtid_en: bool,
    #[bits(28)]
    __: u32,
}

/// `cfg_tx_vm` / `cfg_rx_vm` of a revision-4 per-queue block (al-hal `c`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct VmTarget {
    /// The queue's target id.
    pub tgtid: u16,
    /// The target-address MSBs.
    pub tgtaddr: u16,
}

/// `cfg_tgtid_0`: the revision <= 3 enables of queues 0..3 and the MSI-X bits (al-hal `c`).
/// On revision 4 (gen `+0x2500`) the ancestor names only the MSI-X bits 8 and 9.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TgtidCfg0 {
    /// TX: target id from the descriptor, bit `q` per queue (revision <= 3).
    #[bits(4)]
    pub tx_desc_en: u8,
    /// TX: the queue's target id, bit `4 + q` (revision <= 3).
    #[bits(4)]
    pub tx_queue_en: u8,
    /// MSI-X target-id select.
    pub msix_sel: bool,
    /// MSI-X target-id access enable.
    pub msix_access_en: bool,
    #[bits(6)]
    __: u8,
    /// RX: target id from the descriptor, bit `16 + q` (revision <= 3).
    #[bits(4)]
    pub rx_desc_en: u8,
    /// RX: the queue's target id, bit `20 + q` (revision <= 3).
    #[bits(4)]
    pub rx_queue_en: u8,
    #[bits(8)]
    __: u8,
}

impl TgtidCfg0 {
    /// The two MSI-X bits (al-hal `c`: "bit 8 select, bit 9 access enable").
    pub const MSIX_BITS: u32 = 0x300;
    /// The four enable bits of queue `q` (0..3), in the ancestor's write order: TX
    /// descriptor, TX queue, RX descriptor, RX queue.
    pub const fn queue_bits(q: u8) -> [u32; 4] {
        let q = q & 3;
        [1 << q, 1 << (4 + q), 1 << (16 + q), 1 << (20 + q)]
    }
}

mmio::register! {
    /// Revision 4, queue `q`'s target-id block in gen: 16, 16 bytes apart, from `0x2600`
    /// (the seed's `16*(qid+608)`).
    pub block TgtaddrV4 = "tgtaddr" @ 0x2600 [(QUEUES_PER_ENGINE as usize) x 0x10] {
        /// Enables.
        pub CfgVmCtrl: VmCtrl = "cfg_vm_ctrl" @ 0x0, source "al-hal c";
        /// TX target id and address MSBs.
        pub CfgTxVm: VmTarget = "cfg_tx_vm" @ 0x8, source "al-hal c";
        /// RX target id and address MSBs.
        pub CfgRxVm: VmTarget = "cfg_rx_vm" @ 0xc, source "al-hal c";
    }

    /// Revision 4, the gen `tgtid` block at `0x2500`.
    pub block TgtidV4 = "tgtid" @ 0x2500 {
        /// MSI-X bits (the ancestor names bits 8 and 9 only on revision 4).
        pub CfgTgtid0V4: TgtidCfg0 = "cfg_tgtid_0" @ 0x0, source "al-hal c";
    }

    /// Revision <= 3, the gen `tgtid` block at `0x23EC` of the revision-3 gen map.
    pub block TgtidV3 = "tgtid_v3" @ 0x23ec {
        /// Per-queue enables and MSI-X bits.
        pub CfgTgtid0: TgtidCfg0 = "cfg_tgtid_0" @ 0x0, source "al-hal c";
        /// TX target ids of queues 0 (`[15:0]`) and 1 (`[31:16]`).
        pub CfgTgtid1: u32 = "cfg_tgtid_1" @ 0x4, source "al-hal c";
        /// TX target ids of queues 2 and 3.
        pub CfgTgtid2: u32 = "cfg_tgtid_2" @ 0x8, source "al-hal c";
        /// RX target ids of queues 0 and 1.
        pub CfgTgtid3: u32 = "cfg_tgtid_3" @ 0xc, source "al-hal c";
        /// RX target ids of queues 2 and 3.
        pub CfgTgtid4: u32 = "cfg_tgtid_4" @ 0x10, source "al-hal c";
    }

    /// Revision <= 3 (from revision 2), the gen `tgtaddr` block at `0x2400` of the
    /// revision-3 gen map: the per-queue target-address MSBs, paired as the target ids are.
    pub block TgtaddrV3 = "tgtaddr_v3" @ 0x2400 {
        /// TX address MSBs of queues 0 and 1.
        pub CfgTgtaddr0: u32 = "cfg_tgtaddr_0" @ 0x0, source "al-hal c";
        /// TX address MSBs of queues 2 and 3.
        pub CfgTgtaddr1: u32 = "cfg_tgtaddr_1" @ 0x4, source "al-hal c";
        /// RX address MSBs of queues 0 and 1.
        pub CfgTgtaddr2: u32 = "cfg_tgtaddr_2" @ 0x8, source "al-hal c";
        /// RX address MSBs of queues 2 and 3.
        pub CfgTgtaddr3: u32 = "cfg_tgtaddr_3" @ 0xc, source "al-hal c";
    }
}

/// Offset in gen of the revision <= 3 `cfg_tgtid_0` (the seed's `gen + 0x23EC`).
pub const TGTID_CONF_V3: usize = TgtidV3::BASE;
/// First block index of the V4 per-queue target-id blocks (`16*(qid+608)`).
pub const TGTID_QUEUE_V4_FIRST: usize = 608;
/// Bytes per V4 per-queue target-id block (the `16*` of `16*(qid+608)`).
pub const TGTID_QUEUE_V4_STRIDE: usize = TgtaddrV4::STRIDE;

/// Offset in `gen` of queue `q`'s V4 target-id block: `16*(q+608)` (`0x2600 + 16*q`).
pub const fn tgtid_queue_v4(q: QueueId) -> usize {
    mmio::block_base_or_unmapped::<TgtaddrV4>(q.index())
}

/// The revision <= 3 per-queue 16-bit word of queue `q` (0..3): `(offset in TgtidV3 of the
/// TX word, of the RX word, offset in TgtaddrV3 of the TX address word, of the RX one,
/// shift)`; `None` from queue 4 (the ancestor asserts).
pub const fn v3_queue_words(q: u8) -> Option<(usize, usize, usize, usize, u32)> {
    let shift = if q % 2 == 0 { 0 } else { 16 };
    match q {
        0 | 1 => Some((0x4, 0xc, 0x0, 0x8, shift)),
        2 | 3 => Some((0x8, 0x10, 0x4, 0xc, shift)),
        _ => None,
    }
}

const _: () = {
    use crate::table::no_row_at;
    assert!(TGTID_QUEUE_V4_STRIDE * TGTID_QUEUE_V4_FIRST == TgtaddrV4::BASE);
    // Not a reference row of gen: the rev-4 words and the revision <= 3 ones (which the
    // revision-3 map has at the same offsets in its own gen block).
    let mut q = 0;
    while q < QUEUES_PER_ENGINE as usize {
        let base = TgtaddrV4::BASE + TgtaddrV4::STRIDE * q;
        assert!(no_row_at("gen", base) && no_row_at("gen", base + 0x8));
        assert!(no_row_at("gen", base + 0xc));
        q += 1;
    }
    assert!(no_row_at("gen", TgtidV4::BASE) && no_row_at("gen", TgtidV3::BASE));
    // The 16 blocks end before the AXI error detection tables (0x2900).
    assert!(TgtaddrV4::BASE + TgtaddrV4::STRIDE * TgtaddrV4::COUNT <= 0x2900);
    // The words of queue 0's V3 pairs: cfg_tgtid_1 / _3, cfg_tgtaddr_0 / _2.
    assert!(matches!(v3_queue_words(0), Some((0x4, 0xc, 0x0, 0x8, 0))));
    assert!(matches!(v3_queue_words(3), Some((0x8, 0x10, 0x4, 0xc, 16))));
};
