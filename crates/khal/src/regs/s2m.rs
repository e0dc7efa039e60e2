//! The RX (stream-to-memory, S2M) engine block, [`S2m`], at [`unit::S2M_BASE`](super::unit::S2M_BASE).

pub use super::m2s::{DescPrefCfg3, DescRdBurstCfg};
pub use super::{ChangeStateCmd, EngineStateWord};

mmio::register! {
    /// The RX (stream-to-memory) engine block of a UDMA unit.
    pub block S2m = "s2m" @ 0x2_0000 {
        /// AXI settings for RX data writes, word 1.
        pub AxiDataWrCfg1: u32 = "axi_s2m.data_wr_cfg_1" @ 0x0100;
        /// AXI settings for RX data writes, word 2.
        pub AxiDataWrCfg2: u32 = "axi_s2m.data_wr_cfg_2" @ 0x0104;
        /// AXI settings for RX descriptor reads, word 4.
        pub AxiDescRdCfg4: u32 = "axi_s2m.desc_rd_cfg_4" @ 0x0108;
        /// AXI settings for RX descriptor reads, word 5.
        pub AxiDescRdCfg5: u32 = "axi_s2m.desc_rd_cfg_5" @ 0x010c;
        /// AXI settings for RX completion writes, word 1.
        pub AxiCompWrCfg1: u32 = "axi_s2m.comp_wr_cfg_1" @ 0x0110;
        /// AXI settings for RX completion writes, word 2.
        pub AxiCompWrCfg2: u32 = "axi_s2m.comp_wr_cfg_2" @ 0x0114;
        /// RX data-write bus master setup.
        pub AxiDataWrCfg: u32 = "axi_s2m.data_wr_cfg" @ 0x0118;
        /// RX descriptor-read burst setup.
        pub AxiDescRdCfg3: DescRdBurstCfg = "axi_s2m.desc_rd_cfg_3" @ 0x011c;
        /// AXI settings for RX descriptor writes.
        pub AxiDescWrCfg1: u32 = "axi_s2m.desc_wr_cfg_1" @ 0x0120;
        /// Limits on outstanding RX reads.
        pub AxiOstandCfgRd:
            /// `axi_s2m.ostand_cfg_rd`: limits on outstanding RX reads.
            struct OstandCfgRd {
                /// Outstanding RX descriptor reads.
                pub max_desc_rd_ostand: u8,
                #[bits(8)]
                __: u8,
                /// Outstanding stream acknowledges (width not stated; 8 bits hold the 0x40 used).
                pub max_stream_ack: u8,
                #[bits(8)]
                __: u8,
            } = "axi_s2m.ostand_cfg_rd" @ 0x0124;
        /// Limits on outstanding RX writes.
        pub AxiOstandCfgWr:
            /// `axi_s2m.ostand_cfg_wr`: limits on outstanding RX writes.
            struct OstandCfgWr {
                /// Outstanding RX data writes.
                pub max_data_wr_ostand: u8,
                /// Outstanding RX data beats.
                pub max_data_beats_wr: u8,
                /// Outstanding completion writes.
                pub max_comp_req: u8,
                /// Outstanding completion data beats.
                pub max_comp_data_wr: u8,
            } = "axi_s2m.ostand_cfg_wr" @ 0x0128;
        /// Wide outstanding-data-write limit (V4 only).
        pub AxiOstandCfgWr2:
            /// `axi_s2m.ostand_cfg_wr_2`: the wider outstanding-data-write limit (V4 only).
            struct OstandCfgWr2 {
                /// Outstanding RX data writes (wide field).
                #[bits(10)]
                pub max_data_wr_ostand: u16,
                #[bits(22)]
                __: u32,
            } = "axi_s2m.ostand_cfg_wr_2" @ 0x012c;
        /// Read-only RX engine state.
        pub State: EngineStateWord = "s2m.state" @ 0x0200;
        /// One-hot RX state-change command.
        pub ChangeState: ChangeStateCmd = "s2m.change_state" @ 0x0204;
        /// RX error-log mask.
        pub ErrLogMaskReg:
            /// `s2m.err_log_mask`: a set bit stops that RX error from being logged.
            struct ErrLogMask {
                #[bits(11)]
                __: u16,
                /// Prefetch ring-id mismatch (masked on NeuronCore engines of V3/V4).
                pub pref_ring_id: bool,
                #[bits(20)]
                __: u32,
            } = "s2m.err_log_mask" @ 0x020c;
        /// RX stream interface setup.
        pub StreamCfgReg:
            /// `s2m.stream_cfg`: RX stream interface setup. The stream counts as disabled only when all
            /// three bits are set.
            struct StreamCfg {
                /// Stop the RX stream interface at end of packet.
                pub disable: bool,
                #[bits(3)]
                __: u8,
                /// Stop and keep accepting (dropping) stream data.
                pub flush: bool,
                #[bits(3)]
                __: u8,
                /// Stop descriptor prefetch when disabled and idle.
                pub stop_prefetch: bool,
                #[bits(23)]
                __: u32,
            } = "s2m.stream_cfg" @ 0x0250;
        /// RX descriptor prefetch setup, word 1.
        pub DescPrefCfg1Reg: u32 = "s2m_rd.desc_pref_cfg_1" @ 0x0300;
        /// RX descriptor prefetch setup, word 2.
        pub DescPrefCfg2Reg: u32 = "s2m_rd.desc_pref_cfg_2" @ 0x0304;
        /// RX prefetch threshold and bursts.
        pub DescPrefCfg3Reg: DescPrefCfg3 = "s2m_rd.desc_pref_cfg_3" @ 0x0308;
        /// RX descriptor prefetch setup, word 4.
        pub DescPrefCfg4Reg: u32 = "s2m_rd.desc_pref_cfg_4" @ 0x030c;
        /// RX completion descriptor size and queue promotion.
        pub CompCfg1cReg:
            /// `s2m_comp.cfg_1c`: completion descriptor size and queue promotion.
            struct CompCfg1c {
                /// Completion descriptor size in 32-bit words (width not stated; 12 bits below the
                /// promotion bit).
                #[bits(12)]
                pub desc_size_words: u16,
                /// Let the in-progress queue be promoted in the completion write scheduler.
                pub q_promotion: bool,
                #[bits(19)]
                __: u32,
            } = "s2m_comp.cfg_1c" @ 0x0380;
        /// RX completion application-acknowledge timeout.
        pub CompCfgApplicationAck: u32 = "s2m_comp.cfg_application_ack" @ 0x038c;
        /// S2M "no descriptor" policy (seed 004 §2 `al_udma_s2m_no_desc_cfg_set`: S2M common
        /// `+0x344`; abs `0x20344`: the seed's `al_udma_init` places S2M at `regs_base + 0x20000`,
        /// as the reference does). The ancestor HAL names it `s2m_wr.data_cfg_2` (al-hal `g`).
        pub NoDescCfgReg:
            /// The S2M "no descriptor" policy word at S2M `+0x344` (seed 004 §2
            /// `al_udma_s2m_no_desc_cfg_set` @0x4752f0): what the RX engine does with a packet when the
            /// queue has no descriptor for it. The reference lists no register at this offset; the
            /// ancestor HAL (`reference/al-hal/facts.tsv` rows `g`) names it `s2m_wr.data_cfg_2` and
            /// gives every bit below. The seed's bits (23:0, 27, 28) match it exactly; bits 29..=31
            /// and the unit are the ancestor's only.
            struct NoDescCfg {
                /// How long to wait for a descriptor (`[23:0]`), in south-bridge (SB) clock cycles
                /// (the ancestor's unit; the seed gives none). With [`drop_en`](Self::drop_en)
                /// clear, 0 means "wait forever" (the seed's warning: "setting timeout to 0 will cause
                /// the udma to wait forever instead of dropping the packet"; the ancestor agrees).
                #[bits(24)]
                pub timeout: u32,
                #[bits(3)]
                __: u8,
                /// Bit 27: drop the packet (after the timeout) instead of waiting.
                pub drop_en: bool,
                /// Bit 28: the seed's "mask" bit; the ancestor's no-descriptor **hint interrupt**
                /// enable (fires at once, not after the timeout; its cause is S2M secondary group B
                /// bit 7, which neither error mask unmasks).
                pub mask: bool,
                /// Bit 29 (ancestor only): wait for prefetch: 1 drops when the prefetch FIFO has no
                /// descriptor, 0 only when the system has none. The ancestor clears it when dropping.
                pub wait_for_prefetch: bool,
                /// Bit 30 (ancestor only): full-line write mode.
                pub full_line_write: bool,
                /// Bit 31 (ancestor only): direct-placement header uses buffer 1.
                pub hdr_in_buf1: bool,
            } = "s2m.no_desc_cfg" @ 0x0344,
            source "seed 004 §2 al_udma_s2m_no_desc_cfg_set";
    }
}

impl StreamCfg {
    /// True when DISABLE, FLUSH and STOP_PREFETCH are all set (the driver's rule).
    pub const fn stream_disabled(self) -> bool {
        self.disable() && self.flush() && self.stop_prefetch()
    }
}

impl NoDescCfg {
    /// Bits 27 and 28, which the seed's `al_udma_s2m_no_desc_cfg_set` clears before it sets
    /// them (`r & ~0x18000000`).
    pub const POLICY_BITS: u32 = 0x1800_0000;
    /// The timeout field `[23:0]` (`timeout & 0x00FFFFFF`).
    pub const TIMEOUT_MASK: u32 = 0x00FF_FFFF;
}
