//! The general block (`gen`, module `general` since `gen` is reserved in Rust 2024),
//! [`Gen`], at [`unit::GEN_BASE`](super::unit::GEN_BASE): the two interrupt-controller
//! levels, the AXI timeout and error tables, and spare registers.
//!
//! Offsets here are relative to the `gen` block. The IOFIC groups themselves (cause, mask,
//! mask-clear, …) belong to the `iofic` crate (block [`GroupRegs`]); this module only says
//! where the windows on them are.

use iofic::layout as il;
use iofic::regs::GroupRegs;
use mmio::Placed;
use udma_desc::QUEUES_PER_ENGINE;

mmio::register! {
    /// The general block of a UDMA unit: interrupt controllers, AXI, spare registers (its
    /// base is defined once, in `iofic`, which sits below khal and needs it).
    pub block Gen = "gen" @ (il::GEN_BASE_IN_UNIT) {
        /// The primary interrupt controller: a level of up to 16 group windows (A..D used).
        pub MainIofic: [GroupRegs; (il::MAX_GROUPS) x (il::GROUP_STRIDE)] =
            "interrupt_regs.main_iofic" @ il::PRIMARY_BASE_IN_GEN;
        /// The secondary interrupt controller (groups A..C: TX errors, RX errors, AXI
        /// parity).
        pub SecondaryIofic: [GroupRegs; (il::MAX_GROUPS) x (il::GROUP_STRIDE)] =
            "interrupt_regs.secondary_iofic_ctrl" @ il::SECONDARY_BASE_IN_GEN;
        /// AXI master transaction timeout for all transactions. Engine init writes
        /// [`HAL_PKT_CLK`](crate::udma::HAL_PKT_CLK) = 0xF4240 in the default userspace-HAL
        /// profile (seed 004 §2, "pkt/clk") and
        /// [`KERNEL_AXI_TIMEOUT`](crate::udma::KERNEL_AXI_TIMEOUT) = 100,000,000 in the kernel's
        /// (`udma-notes.md` §2); the ancestor HAL writes 5,000,000 (al-hal `f`).
        pub AxiCfg1: u32 = "axi.cfg_1" @ 0x2300;
        /// The TX descriptor-read AXI-error controller (one group).
        pub IoficM2sDescRd: [GroupRegs; 1 x 0] =
            "iofic_base_m2s_desc_rd" @ il::AXI_ERROR_M2S_DESC_RD_IN_GEN;
        /// The TX data-read AXI-error controller (one group).
        pub IoficM2sDataRd: [GroupRegs; 1 x 0] =
            "iofic_base_m2s_data_rd" @ il::AXI_ERROR_M2S_DATA_RD_IN_GEN;
        /// The TX completion-write AXI-error controller (one group).
        pub IoficM2sCmplWr: [GroupRegs; 1 x 0] =
            "iofic_base_m2s_cmpl_wr" @ il::AXI_ERROR_M2S_CMPL_WR_IN_GEN;
        /// The RX descriptor-read AXI-error controller (one group).
        pub IoficS2mDescRd: [GroupRegs; 1 x 0] =
            "iofic_base_s2m_desc_rd" @ il::AXI_ERROR_S2M_DESC_RD_IN_GEN;
        /// The RX data-write AXI-error controller (one group).
        pub IoficS2mDataWr: [GroupRegs; 1 x 0] =
            "iofic_base_s2m_data_wr" @ il::AXI_ERROR_S2M_DATA_WR_IN_GEN;
        /// The RX completion-write AXI-error controller (one group).
        pub IoficS2mCmplWr: [GroupRegs; 1 x 0] =
            "iofic_base_s2m_cmpl_wr" @ il::AXI_ERROR_S2M_CMPL_WR_IN_GEN;
        /// The MSI-X AXI-error controller (one group; the driver does not program it).
        pub IoficMsix: [GroupRegs; 1 x 0] = "iofic_base_msix" @ il::AXI_ERROR_MSIX_IN_GEN;
        /// Spare register; bit 0 gates completion-head reporting.
        pub SpareZeroes0Reg:
            /// `gen.spare_reg.zeroes0`: bit 0 is cleared at engine init to turn on
            /// completion-head reporting.
            struct SpareZeroes0 {
                /// Set = completion-head reporting off (the reset state).
                pub disable_comp_head_report: bool,
                #[bits(31)]
                __: u32,
            } = "spare_reg.zeroes0" @ 0x3460;
        /// Spare register (resets to zeros).
        pub SpareZeroes1: u32 = "spare_reg.zeroes1" @ 0x3464;
        /// Spare register (resets to ones).
        pub SpareOnes0: u32 = "spare_reg.ones0" @ 0x3468;
        /// Spare register (resets to ones).
        pub SpareOnes1: u32 = "spare_reg.ones1" @ 0x346c;
    }

    /// AXI error detection table `t` of `gen` (7, 0x40 apart): 16 words, indexed by a set of
    /// parity, timeout and response error bits (the table names word 0 only).
    pub block AxiErrorDetectionTable = "axi_error_detection_table"
        @ 0x2900 [AXI_ERROR_TABLES x 0x40]
    {
        /// Word 0 of the table (word `e` is `4 * e` further).
        pub Addr0: u32 = "addr0" @ 0x0;
    }

    /// AXI error control entry `i` of `gen` (7, 8 bytes apart): select a table row, then
    /// program it.
    pub block AxiErrorControl = "axi_error_control" @ 0x2b00 [AXI_ERROR_TABLES x 0x8] {
        /// The row of the detection table to program.
        pub TableAddr: u32 = "table_addr" @ 0x0;
        /// The data for the selected row.
        pub TableData: u32 = "table_data" @ 0x4;
    }

    /// Queue `q`'s AXI registers in `gen` (16, 0xc apart).
    pub block AxiQueue = "axi_queue" @ 0x2c00 [(QUEUES_PER_ENGINE as usize) x 0xc] {
        /// AXI state request (active / not active).
        pub AxiQueueStateRequest: u32 = "state_request" @ 0x0;
        /// AXI error status, cleared when read.
        pub AxiQueueErrorStatus: u32 = "error_status" @ 0x4;
        /// AXI config.
        pub AxiQueueCfg: u32 = "cfg" @ 0x8;
    }
}

/// Primary interrupt controller (groups A..D, 0x40 bytes each), offset in `gen`.
pub const PRIMARY_IOFIC: usize = MainIofic::BASE;
/// Secondary interrupt controller (groups A..C: TX errors, RX errors, AXI parity).
pub const SECONDARY_IOFIC: usize = SecondaryIofic::BASE;
/// Bytes per IOFIC group window.
pub const IOFIC_GROUP_STRIDE: usize = MainIofic::STRIDE;
/// Where the TX (M2S) error and abort causes latch: secondary group A.
pub const M2S_ABORT_CAUSE: usize = SECONDARY_IOFIC + il::GROUP_A * IOFIC_GROUP_STRIDE;
/// Where the RX (S2M) error and abort causes latch: secondary group B.
pub const S2M_ABORT_CAUSE: usize = SECONDARY_IOFIC + il::GROUP_B * IOFIC_GROUP_STRIDE;

const _: () = {
    use crate::table::abs_is;
    assert!(abs_is(
        "iofic_secondary",
        "group_A",
        Gen::BASE + M2S_ABORT_CAUSE
    ));
    assert!(abs_is(
        "iofic_secondary",
        "group_B",
        Gen::BASE + S2M_ABORT_CAUSE
    ));
    assert!(SecondaryIofic::STRIDE == MainIofic::STRIDE);
};

/// One of the single-group AXI-error interrupt controllers in `gen` (0x100 apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(usize)]
pub enum AxiErrorIofic {
    /// TX descriptor-read AXI errors.
    M2sDescRd = IoficM2sDescRd::BASE,
    /// TX data-read AXI errors.
    M2sDataRd = IoficM2sDataRd::BASE,
    /// TX completion-write AXI errors.
    M2sCmplWr = IoficM2sCmplWr::BASE,
    /// RX descriptor-read AXI errors.
    S2mDescRd = IoficS2mDescRd::BASE,
    /// RX data-write AXI errors.
    S2mDataWr = IoficS2mDataWr::BASE,
    /// RX completion-write AXI errors.
    S2mCmplWr = IoficS2mCmplWr::BASE,
    /// MSI-X AXI errors (the driver does not program it).
    Msix = IoficMsix::BASE,
}

impl AxiErrorIofic {
    /// The six controllers the V2 product step programs, in order.
    pub const PROGRAMMED: [Self; 6] = [
        Self::M2sDescRd,
        Self::M2sDataRd,
        Self::M2sCmplWr,
        Self::S2mDescRd,
        Self::S2mDataWr,
        Self::S2mCmplWr,
    ];
    /// Offset of the controller's group window inside `gen`.
    pub const fn offset(self) -> usize {
        self as usize
    }
}

// The order is the one `iofic::udma::enable_axi_error_aborts` programs.
const _: () = {
    let [a, b, c, d, e, f] = AxiErrorIofic::PROGRAMMED;
    let [a2, b2, c2, d2, e2, f2] = il::AXI_ERROR_IN_GEN;
    assert!(a.offset() == a2 && b.offset() == b2 && c.offset() == c2);
    assert!(d.offset() == d2 && e.offset() == e2 && f.offset() == f2);
};

/// Number of AXI error detection tables and error-control entries.
pub const AXI_ERROR_TABLES: usize = 7;
/// Words per AXI error detection table (the entry index is a set of parity, timeout and
/// response error bits).
pub const AXI_ERROR_DETECTION_ENTRIES: usize = 16;
/// `table_data` inside an AXI error control entry (the row selected by `table_addr`).
pub const AXI_ERROR_CONTROL_DATA: usize = <TableData as mmio::Register>::OFFSET;

/// Offset in `gen` of word `entry` (0..16) of AXI error detection table `table` (0..7);
/// `None` outside those ranges.
pub const fn axi_error_detection(table: usize, entry: usize) -> Option<usize> {
    if entry >= AXI_ERROR_DETECTION_ENTRIES {
        return None;
    }
    match AxiErrorDetectionTable::base(table) {
        Some(t) => Some(t + <Addr0 as mmio::Register>::OFFSET + entry * 4),
        None => None,
    }
}

/// Offset in `gen` of `table_addr` of AXI error control `index` (0..7); `table_data` is
/// [`AXI_ERROR_CONTROL_DATA`] further.
pub const fn axi_error_control(index: usize) -> Option<usize> {
    match AxiErrorControl::base(index) {
        Some(c) => Some(c + <TableAddr as mmio::Register>::OFFSET),
        None => None,
    }
}
