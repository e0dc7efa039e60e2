//! The general block (`gen`, module `general` since `gen` is reserved in Rust 2024), at [`unit::GEN_BASE`](super::unit::GEN_BASE): the two
//! interrupt-controller levels, the AXI timeout and error tables, and spare registers.
//!
//! Offsets here are relative to the `gen` block. The IOFIC groups themselves (cause, mask,
//! mask-clear, …) belong to the `iofic` crate; this module only says where the levels are.

use bitfield_struct::bitfield;
use udma_desc::QueueId;

use super::unit::GEN_BASE;

/// Primary interrupt controller (groups A..D, 0x40 bytes each), offset in `gen` (the
/// `iofic` crate's layout, checked here against this crate's table).
pub const PRIMARY_IOFIC: usize = iofic::layout::PRIMARY_BASE_IN_GEN;
/// Secondary interrupt controller (groups A..C: TX errors, RX errors, AXI parity).
pub const SECONDARY_IOFIC: usize = iofic::layout::SECONDARY_BASE_IN_GEN;
/// Bytes per IOFIC group window.
pub const IOFIC_GROUP_STRIDE: usize = iofic::layout::GROUP_STRIDE;
/// Where the TX (M2S) error and abort causes latch: secondary group A.
pub const M2S_ABORT_CAUSE: usize = SECONDARY_IOFIC;
/// Where the RX (S2M) error and abort causes latch: secondary group B.
pub const S2M_ABORT_CAUSE: usize = SECONDARY_IOFIC + IOFIC_GROUP_STRIDE;

const _: () = assert!(crate::table::offset_is(
    "gen",
    "interrupt_regs.main_iofic",
    PRIMARY_IOFIC
));
const _: () = assert!(crate::table::offset_is(
    "gen",
    "interrupt_regs.secondary_iofic_ctrl",
    SECONDARY_IOFIC
));
const _: () = assert!(crate::table::abs_is(
    "iofic_secondary",
    "group_A",
    GEN_BASE + M2S_ABORT_CAUSE
));
const _: () = assert!(crate::table::abs_is(
    "iofic_secondary",
    "group_B",
    GEN_BASE + S2M_ABORT_CAUSE
));

/// `gen.spare_reg.zeroes0`: bit 0 is cleared at engine init to turn on completion-head
/// reporting.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct SpareZeroes0 {
    /// Set = completion-head reporting off (the reset state).
    pub disable_comp_head_report: bool,
    #[bits(31)]
    __: u32,
}

register! { "gen" in GEN_BASE;
    /// AXI master transaction timeout for all transactions (engine init: 100,000,000).
    pub AxiCfg1: u32 = "axi.cfg_1" @ 0x2300;
    /// Spare register; bit 0 gates completion-head reporting.
    pub SpareZeroes0Reg: SpareZeroes0 = "spare_reg.zeroes0" @ 0x3460;
    /// Spare register (resets to zeros).
    pub SpareZeroes1: u32 = "spare_reg.zeroes1" @ 0x3464;
    /// Spare register (resets to ones).
    pub SpareOnes0: u32 = "spare_reg.ones0" @ 0x3468;
    /// Spare register (resets to ones).
    pub SpareOnes1: u32 = "spare_reg.ones1" @ 0x346c;
}

/// One of the single-group AXI-error interrupt controllers in `gen` (0x100 apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(usize)]
pub enum AxiErrorIofic {
    /// TX descriptor-read AXI errors.
    M2sDescRd = iofic::layout::AXI_ERROR_M2S_DESC_RD_IN_GEN,
    /// TX data-read AXI errors.
    M2sDataRd = iofic::layout::AXI_ERROR_M2S_DATA_RD_IN_GEN,
    /// TX completion-write AXI errors.
    M2sCmplWr = iofic::layout::AXI_ERROR_M2S_CMPL_WR_IN_GEN,
    /// RX descriptor-read AXI errors.
    S2mDescRd = iofic::layout::AXI_ERROR_S2M_DESC_RD_IN_GEN,
    /// RX data-write AXI errors.
    S2mDataWr = iofic::layout::AXI_ERROR_S2M_DATA_WR_IN_GEN,
    /// RX completion-write AXI errors.
    S2mCmplWr = iofic::layout::AXI_ERROR_S2M_CMPL_WR_IN_GEN,
    /// MSI-X AXI errors (the driver does not program it).
    Msix = iofic::layout::AXI_ERROR_MSIX_IN_GEN,
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

const _: () = {
    use crate::table::offset_is as t;
    use AxiErrorIofic as A;
    assert!(t("gen", "iofic_base_m2s_desc_rd", A::M2sDescRd.offset()));
    assert!(t("gen", "iofic_base_m2s_data_rd", A::M2sDataRd.offset()));
    assert!(t("gen", "iofic_base_m2s_cmpl_wr", A::M2sCmplWr.offset()));
    assert!(t("gen", "iofic_base_s2m_desc_rd", A::S2mDescRd.offset()));
    assert!(t("gen", "iofic_base_s2m_data_wr", A::S2mDataWr.offset()));
    assert!(t("gen", "iofic_base_s2m_cmpl_wr", A::S2mCmplWr.offset()));
    assert!(t("gen", "iofic_base_msix", A::Msix.offset()));
    // The order is the one `iofic::udma::enable_axi_error_aborts` programs.
    let [a, b, c, d, e, f] = A::PROGRAMMED;
    let [a2, b2, c2, d2, e2, f2] = iofic::layout::AXI_ERROR_IN_GEN;
    assert!(a.offset() == a2 && b.offset() == b2 && c.offset() == c2);
    assert!(d.offset() == d2 && e.offset() == e2 && f.offset() == f2);
};

/// AXI error detection tables: 7 tables of 16 words, 0x40 apart.
pub const AXI_ERROR_DETECTION_TABLE: usize = 0x2900;
/// Stride between AXI error detection tables.
pub const AXI_ERROR_DETECTION_TABLE_STRIDE: usize = 0x40;
/// Number of AXI error detection tables and error-control entries.
pub const AXI_ERROR_TABLES: usize = 7;
/// Words per AXI error detection table (the entry index is a set of parity, timeout and
/// response error bits).
pub const AXI_ERROR_DETECTION_ENTRIES: usize = 16;
/// AXI error control entries (`table_addr` at +0, `table_data` at +4), 8 bytes apart.
pub const AXI_ERROR_CONTROL: usize = 0x2b00;
/// Stride between AXI error control entries.
pub const AXI_ERROR_CONTROL_STRIDE: usize = 0x8;
/// `table_data` inside an AXI error control entry (the row selected by `table_addr`).
pub const AXI_ERROR_CONTROL_DATA: usize = 0x4;
/// Per-queue AXI block (`state_request` +0, `error_status` +4, `cfg` +8), 0xc apart.
pub const AXI_QUEUE: usize = 0x2c00;
/// Stride between per-queue AXI blocks.
pub const AXI_QUEUE_STRIDE: usize = 0xc;

const _: () = {
    use crate::table::offset_is as t;
    assert!(t(
        "gen",
        "axi_error_detection_table[0].addr0",
        AXI_ERROR_DETECTION_TABLE
    ));
    assert!(t(
        "gen",
        "axi_error_control[0].table_addr",
        AXI_ERROR_CONTROL
    ));
    assert!(t(
        "gen",
        "axi_error_control[0].table_data",
        AXI_ERROR_CONTROL + AXI_ERROR_CONTROL_DATA
    ));
    assert!(t("gen", "axi_queue[0].state_request", AXI_QUEUE));
    assert!(t("gen", "axi_queue[0].error_status", AXI_QUEUE + 4));
    assert!(t("gen", "axi_queue[0].cfg", AXI_QUEUE + 8));
};

/// Offset in `gen` of word `entry` (0..16) of AXI error detection table `table` (0..7);
/// `None` outside those ranges.
pub const fn axi_error_detection(table: usize, entry: usize) -> Option<usize> {
    if table >= AXI_ERROR_TABLES || entry >= AXI_ERROR_DETECTION_ENTRIES {
        return None;
    }
    Some(AXI_ERROR_DETECTION_TABLE + table * AXI_ERROR_DETECTION_TABLE_STRIDE + entry * 4)
}

/// Offset in `gen` of `table_addr` of AXI error control `index` (0..7); `table_data` is
/// [`AXI_ERROR_CONTROL_DATA`] further.
pub const fn axi_error_control(index: usize) -> Option<usize> {
    if index >= AXI_ERROR_TABLES {
        return None;
    }
    Some(AXI_ERROR_CONTROL + index * AXI_ERROR_CONTROL_STRIDE)
}

/// Offset in `gen` of queue `q`'s AXI `state_request` (`error_status` +4, `cfg` +8).
pub const fn axi_queue(q: QueueId) -> usize {
    AXI_QUEUE + q.index() * AXI_QUEUE_STRIDE
}
