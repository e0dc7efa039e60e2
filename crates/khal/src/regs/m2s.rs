//! The TX (memory-to-stream, M2S) engine block, at [`unit::M2S_BASE`](super::unit::M2S_BASE).

use bitfield_struct::bitfield;

pub use super::{ChangeStateCmd, EngineStateWord};

/// Burst setup for descriptor reads (`axi_m2s.desc_rd_cfg_3`, `axi_s2m.desc_rd_cfg_3`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct DescRdBurstCfg {
    /// Descriptors per read burst (the driver's field name says "beats"; it counts
    /// descriptors). Width not stated by the reference; 8 bits hold every value used.
    pub descs_per_burst: u8,
    #[bits(8)]
    __: u8,
    /// Split bursts at the max-burst boundary.
    pub always_break_on_max_boundary: bool,
    #[bits(15)]
    __: u16,
}

/// `*_rd.desc_pref_cfg_3`: prefetch threshold and minimum bursts (same layout TX and RX).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct DescPrefCfg3 {
    /// Min prefetch burst while the FIFO is below the threshold.
    #[bits(4)]
    pub min_burst_below_thr: u8,
    /// Min prefetch burst while the FIFO is above the threshold.
    #[bits(4)]
    pub min_burst_above_thr: u8,
    /// Prefetch threshold; must be at least the max descriptors per packet.
    pub pref_thr: u8,
    #[bits(16)]
    __: u16,
}

mmio::register! {
    /// The TX (memory-to-stream) engine block of a UDMA unit, at its start.
    pub block M2s = "m2s" @ 0x0_0000 {
        /// AXI settings for TX completion writes, word 1.
        pub AxiCompWrCfg1: u32 = "axi_m2s.comp_wr_cfg_1" @ 0x0100;
        /// AXI settings for TX completion writes, word 2.
        pub AxiCompWrCfg2: u32 = "axi_m2s.comp_wr_cfg_2" @ 0x0104;
        /// AXI settings for TX data reads, word 1.
        pub AxiDataRdCfg1: u32 = "axi_m2s.data_rd_cfg_1" @ 0x0108;
        /// AXI settings for TX data reads, word 2.
        pub AxiDataRdCfg2: u32 = "axi_m2s.data_rd_cfg_2" @ 0x010c;
        /// AXI settings for TX descriptor reads, word 1.
        pub AxiDescRdCfg1: u32 = "axi_m2s.desc_rd_cfg_1" @ 0x0110;
        /// AXI settings for TX descriptor reads, word 2.
        pub AxiDescRdCfg2: u32 = "axi_m2s.desc_rd_cfg_2" @ 0x0114;
        /// TX data-read bus master setup.
        pub AxiDataRdCfg:
            /// `axi_m2s.data_rd_cfg`: TX data-read bus master setup.
            struct DataRdCfg {
                /// Low bits the driver programs as 8 (burst setting; the reference does not name them).
                pub low: u16,
                /// Split data reads at the max-burst boundary.
                pub always_break_on_max_boundary: bool,
                #[bits(15)]
                __: u16,
            } = "axi_m2s.data_rd_cfg" @ 0x0118;
        /// TX descriptor-read burst setup.
        pub AxiDescRdCfg3: DescRdBurstCfg = "axi_m2s.desc_rd_cfg_3" @ 0x011c;
        /// AXI settings for TX descriptor writes.
        pub AxiDescWrCfg1: u32 = "axi_m2s.desc_wr_cfg_1" @ 0x0120;
        /// Limits on outstanding TX bus transactions.
        pub AxiOstandCfg:
            /// `axi_m2s.ostand_cfg`: limits on outstanding TX bus transactions.
            struct OstandCfg {
                /// Outstanding data reads.
                pub max_data_rd: u8,
                /// Outstanding descriptor reads.
                pub max_desc_rd: u8,
                /// Outstanding completion writes.
                pub max_comp_req: u8,
                /// Outstanding completion data beats.
                pub max_comp_data_wr: u8,
            } = "axi_m2s.ostand_cfg" @ 0x0124;
        /// Read-only TX engine state.
        pub State: EngineStateWord = "m2s.state" @ 0x0200;
        /// One-hot TX state-change command.
        pub ChangeState: ChangeStateCmd = "m2s.change_state" @ 0x0204;
        /// TX error-log mask.
        pub ErrLogMaskReg:
            /// `m2s.err_log_mask`: a set bit stops that TX error from being logged.
            struct ErrLogMask {
                #[bits(17)]
                __: u32,
                /// Prefetch ring-id mismatch (masked on NeuronCore engines of V3/V4).
                pub pref_ring_id: bool,
                #[bits(14)]
                __: u16,
            } = "m2s.err_log_mask" @ 0x020c;
        /// TX max packet length and 64K-as-zero.
        pub CfgLenReg:
            /// `m2s.cfg_len`: maximum packet length and the 64 KiB-as-zero encoding.
            struct CfgLen {
                /// Largest packet (sum of its descriptors) in bytes.
                #[bits(20)]
                pub max_pkt_size: u32,
                #[bits(4)]
                __: u8,
                /// A descriptor length of 0 means 64 KiB.
                pub encode_64k: bool,
                #[bits(7)]
                __: u8,
            } = "m2s.cfg_len" @ 0x0254;
        /// TX stream interface setup.
        pub StreamCfgReg:
            /// `m2s.stream_cfg`: TX stream interface setup.
            struct StreamCfg {
                /// Stop the stream interface at the end of the current packet.
                pub disable: bool,
                /// 0 cut-through, 1 wait for [`rd_th`](Self::rd_th) beats.
                pub rd_mode: bool,
                #[bits(6)]
                __: u8,
                /// Beats needed before a packet is sent to the stream.
                #[bits(11)]
                pub rd_th: u16,
                #[bits(13)]
                __: u16,
            } = "m2s.stream_cfg" @ 0x0258;
        /// TX descriptor prefetch setup, word 1.
        pub DescPrefCfg1Reg: u32 = "m2s_rd.desc_pref_cfg_1" @ 0x0300;
        /// TX prefetch: max descriptors per packet, forced round-robin.
        pub DescPrefCfg2Reg:
            /// `m2s_rd.desc_pref_cfg_2`: max descriptors per packet, forced round-robin.
            struct DescPrefCfg2 {
                /// Max descriptors in one packet (8..=128). The reference gives no width (the field ends
                /// below bit 16); 8 bits hold every accepted value.
                pub max_desc_per_pkt: u8,
                #[bits(8)]
                __: u8,
                /// Force round-robin between queues.
                pub perf_force_rr: bool,
                #[bits(15)]
                __: u16,
            } = "m2s_rd.desc_pref_cfg_2" @ 0x0304;
        /// TX prefetch threshold and bursts.
        pub DescPrefCfg3Reg: DescPrefCfg3 = "m2s_rd.desc_pref_cfg_3" @ 0x0308;
        /// TX data read FIFO depth and packet limit.
        pub DataCfgReg:
            /// `m2s_rd.data_cfg`: TX data read FIFO depth and max packets in flight.
            struct DataCfg {
                /// FIFO depth in 256-bit beats (the arch's `num_beats`: V2 1024, V3/V4 2296).
                #[bits(12)]
                pub data_fifo_depth: u16,
                #[bits(4)]
                __: u8,
                /// Packet-count limit of the read-data FIFO (the driver writes the reset value 0x100).
                pub max_pkt_limit: u16,
            } = "m2s_rd.data_cfg" @ 0x0310;
        /// Engine-wide TX stream rate limiter mask.
        pub RlimitMask: u32 = "m2s_stream_rate_limiter.rlimit.mask" @ 0x03d4;
        /// TX completion application-acknowledge timeout.
        pub CompCfgApplicationAck: u32 = "m2s_comp.cfg_application_ack" @ 0x0408;
        /// Read-only DMA version / feature word: what the userspace HAL's
        /// `al_udma_revision_get` reads (seed 004 §2 `al_udma_init`; the register is the
        /// ancestor HAL's fact, al-hal `a`: see [`UDMA_REV_ID_4`]).
        pub DmaVersion: u32 = "m2s_feature.dma_version" @ 0x0604;
    }
}

/// The only UDMA revision the userspace HAL initialises (`AL_UDMA_REV_ID_4`, seed 004 §2:
/// `al_udma_init` refuses any other `rev_id` with -EINVAL, "unsupported DMA rev id").
///
/// Which word holds the revision the seed does not say (`al_udma_revision_get` @0x45fbe0,
/// "read UDMA rev reg", no body), nor does the reference (`m2s_feature.dma_version` without a
/// field table). The ancestor HAL does (`reference/al-hal/facts.tsv` rows `a`): it is
/// [`DmaVersion`], and a word of 4 or more is the revision, whole. That KaenaHal kept that
/// rule is an **inference**; [`crate::udma::revision_from_dma_version`] applies it and says
/// what makes the bring-up safe if it is wrong. The number itself is
/// [`Rev4::NUMBER`](crate::Rev4), widened to the register's width.
pub const UDMA_REV_ID_4: u32 = <crate::Rev4 as crate::UdmaRevision>::NUMBER as u32;
