//! The RX queue completion words the reference does not list: `comp_cfg_2` (the completion
//! coalescing timer), `pkt_cfg` (header split) and `qos_cfg`, at `+0x58`, `+0x5C` and `+0x60`
//! of each RX queue block (al-hal `e`, **ancestor only**: seed 004 §2 names the setters, the
//! kernel reference neither the registers nor the setters). `comp_cfg` (`+0x54`) is the
//! reference's ([`RxCompCfg`](super::queue::RxCompCfg)); the ancestor adds its bit meanings
//! past bit 1 ([`RxCompCfgBits`]).
//!
//! None of these rows is in [`REGISTERS`](super::REGISTERS); they are checked at compile
//! time not to collide with an `s2m_q` row of the reference table.

use bitfield_struct::bitfield;
use mmio::Placed;
use udma_desc::QUEUES_PER_ENGINE;

use super::s2m::S2m;

/// RX `comp_cfg` with the ancestor's bits (al-hal `e`: "bit0 completion-ring update enable,
/// bit1 disable completion coalescing, bit2 first-packet promotion (reserved), bit3
/// buffer-2 length location").
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct RxCompCfgBits {
    /// Bit 0: write completion entries to the completion ring.
    pub en_comp_ring_update: bool,
    /// Bit 1: turn off completion coalescing.
    pub dis_comp_coal: bool,
    /// Bit 2: first-packet promotion (reserved in the ancestor).
    pub first_pkt_promotion: bool,
    /// Bit 3: where buffer 2's length is in the completion descriptor (0 word 1 `[31:16]`,
    /// 1 word 2 `[31:16]`).
    pub buf2_len_loc: bool,
    #[bits(28)]
    __: u32,
}

/// RX `pkt_cfg` (al-hal `e`: "header size `[15:0]` bytes, force header split bit16, enable
/// header split bit17").
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct PktCfg {
    /// Header size in bytes.
    pub hdr_size: u16,
    /// Bit 16: force header split.
    pub force_hdr_split: bool,
    /// Bit 17: enable header split.
    pub en_hdr_split: bool,
    #[bits(14)]
    __: u16,
}

/// RX `qos_cfg` (al-hal `e`: "queue QoS `[7:0]`").
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct QosCfg {
    /// The queue's QoS.
    pub q_qos: u8,
    #[bits(24)]
    __: u32,
}

/// `axi_s2m.desc_wr_cfg_1` with the ancestor's burst fields (al-hal `e`: "max AXI beats
/// `[7:0]` ... min AXI beats `[23:16]` in desc_wr_cfg_1"); the register is the reference's
/// ([`AxiDescWrCfg1`](super::s2m::AxiDescWrCfg1)), its fields the ancestor's only.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct DescWrBurst {
    /// Max AXI beats of a completion-descriptor write.
    pub max_axi_beats: u8,
    #[bits(8)]
    __: u8,
    /// Min AXI beats of a completion-descriptor write.
    pub min_axi_beats: u8,
    #[bits(8)]
    __: u8,
}

mmio::register! {
    /// The ancestor's RX queue completion words: a block per RX queue, at the RX queue
    /// blocks' place and stride ([`RxQueue`](super::queue::RxQueue)).
    pub block RxQueueComp = "s2m_q"
        @ (S2m::BASE + 0x1000) [(QUEUES_PER_ENGINE as usize) x 0x1000]
    {
        /// The queue's completion coalescing timer, in SB (south-bridge) clock cycles.
        pub CompCfg2: u32 = "comp_cfg_2" @ 0x0058, source "al-hal e";
        /// Header split.
        pub RxPktCfg: PktCfg = "pkt_cfg" @ 0x005c, source "al-hal e";
        /// Queue QoS.
        pub RxQosCfg: QosCfg = "qos_cfg" @ 0x0060, source "al-hal e";
    }
}

const _: () = {
    use crate::table::no_row_at;
    assert!(RxQueueComp::BASE == super::queue::RxQueue::BASE);
    assert!(RxQueueComp::STRIDE == super::queue::RxQueue::STRIDE);
    assert!(no_row_at("s2m_q", 0x58) && no_row_at("s2m_q", 0x5c) && no_row_at("s2m_q", 0x60));
};
