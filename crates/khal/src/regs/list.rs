//! The one register list: every named UDMA unit register as (block, name, offset, block
//! base, source), built from the typed markers (no offset is restated here).
//!
//! `neuron-tool regs` prints from [`REGISTERS`], the `registers` integration test compares it
//! row by row with `reference/udma-registers.tsv` (each marker is also checked at compile
//! time by `register!`), and [`QueueReg`](super::QueueReg) names
//! its per-queue entries. Registers that only a seed names are listed with
//! [`Source::Seed004`] (and are proven at compile time not to collide with a reference row).
//!
//! Naming rule for the register types: a marker is the table name in `UpperCamelCase`
//! (`m2s.change_state` → `ChangeState`); when its value type would take that name, the
//! value type keeps it and the marker gets a `Reg` suffix (`CfgLen` value, `CfgLenReg`
//! marker); TX-only / RX-only per-queue markers carry a `Tx`/`Rx` prefix.

use mmio::Register;

use super::queue::{self, QUEUE_BLOCK};
use super::unit::{GEN_BASE, GEN_EX_BASE, M2S_BASE, S2M_BASE};
use super::{gen_ex, general, m2s, s2m};

/// Where a register fact comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// `reference/udma-registers.tsv` (kernel driver 2.26.5.0).
    Reference,
    /// Seed 004 (KaenaHal, libnrt 2.31.24.0) only.
    Seed004,
}

/// One register of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegisterInfo {
    /// Block, as the reference table names it (`m2s`, `s2m`, `gen`, `gen_ex`, `m2s_q`,
    /// `s2m_q`, `q_rings`).
    pub block: &'static str,
    /// Register name (the table's, or this crate's for a seed-only register).
    pub name: &'static str,
    /// Offset inside the block.
    pub offset: usize,
    /// Offset of the block from the unit base (queue blocks: queue 0's); `None` for the
    /// `q_rings` overlay, which is a view of either direction's queue block.
    pub block_base: Option<usize>,
    /// Where the fact comes from.
    pub source: Source,
}

impl RegisterInfo {
    /// Offset from the unit base (`None` for overlay rows).
    pub const fn abs(&self) -> Option<usize> {
        match self.block_base {
            Some(b) => Some(b + self.offset),
            None => None,
        }
    }
}

macro_rules! reg {
    ($block:literal, $base:expr, $m:ty) => {
        reg!($block, $base, $m, Source::Reference)
    };
    ($block:literal, $base:expr, $m:ty, $src:expr) => {
        RegisterInfo {
            block: $block,
            name: <$m as Register>::NAME,
            offset: <$m as Register>::OFFSET,
            block_base: $base,
            source: $src,
        }
    };
}

macro_rules! named {
    ($block:literal, $base:expr, $name:literal, $off:expr) => {
        RegisterInfo {
            block: $block,
            name: $name,
            offset: $off,
            block_base: $base,
            source: Source::Reference,
        }
    };
}

/// A shared ring register under its direction-specific table name.
macro_rules! ring {
    ($block:literal, $base:expr, $name:literal, $m:ty) => {
        RegisterInfo {
            block: $block,
            name: $name,
            offset: <$m as Register>::OFFSET,
            block_base: $base,
            source: Source::Reference,
        }
    };
}

const M2S: Option<usize> = Some(M2S_BASE);
const S2M: Option<usize> = Some(S2M_BASE);
const GEN: Option<usize> = Some(GEN_BASE);
const GEN_EX: Option<usize> = Some(GEN_EX_BASE);
const M2S_Q0: Option<usize> = Some(M2S_BASE + QUEUE_BLOCK);
const S2M_Q0: Option<usize> = Some(S2M_BASE + QUEUE_BLOCK);

/// Queue 0's `vmpr_v4` selector block in `gen_ex`.
const VMPR0: usize = gen_ex::VMPR_V4;

/// Every named register of a UDMA unit.
pub const REGISTERS: [RegisterInfo; 111] = [
    // m2s
    reg!("m2s", M2S, m2s::AxiCompWrCfg1),
    reg!("m2s", M2S, m2s::AxiCompWrCfg2),
    reg!("m2s", M2S, m2s::AxiDataRdCfg1),
    reg!("m2s", M2S, m2s::AxiDataRdCfg2),
    reg!("m2s", M2S, m2s::AxiDescRdCfg1),
    reg!("m2s", M2S, m2s::AxiDescRdCfg2),
    reg!("m2s", M2S, m2s::AxiDataRdCfg),
    reg!("m2s", M2S, m2s::AxiDescRdCfg3),
    reg!("m2s", M2S, m2s::AxiDescWrCfg1),
    reg!("m2s", M2S, m2s::AxiOstandCfg),
    reg!("m2s", M2S, m2s::State),
    reg!("m2s", M2S, m2s::ChangeState),
    reg!("m2s", M2S, m2s::ErrLogMaskReg),
    reg!("m2s", M2S, m2s::CfgLenReg),
    reg!("m2s", M2S, m2s::StreamCfgReg),
    reg!("m2s", M2S, m2s::DescPrefCfg1Reg),
    reg!("m2s", M2S, m2s::DescPrefCfg2Reg),
    reg!("m2s", M2S, m2s::DescPrefCfg3Reg),
    reg!("m2s", M2S, m2s::DataCfgReg),
    reg!("m2s", M2S, m2s::RlimitMask),
    reg!("m2s", M2S, m2s::CompCfgApplicationAck),
    reg!("m2s", M2S, m2s::DmaVersion),
    // s2m
    reg!("s2m", S2M, s2m::AxiDataWrCfg1),
    reg!("s2m", S2M, s2m::AxiDataWrCfg2),
    reg!("s2m", S2M, s2m::AxiDescRdCfg4),
    reg!("s2m", S2M, s2m::AxiDescRdCfg5),
    reg!("s2m", S2M, s2m::AxiCompWrCfg1),
    reg!("s2m", S2M, s2m::AxiCompWrCfg2),
    reg!("s2m", S2M, s2m::AxiDataWrCfg),
    reg!("s2m", S2M, s2m::AxiDescRdCfg3),
    reg!("s2m", S2M, s2m::AxiDescWrCfg1),
    reg!("s2m", S2M, s2m::AxiOstandCfgRd),
    reg!("s2m", S2M, s2m::AxiOstandCfgWr),
    reg!("s2m", S2M, s2m::AxiOstandCfgWr2),
    reg!("s2m", S2M, s2m::State),
    reg!("s2m", S2M, s2m::ChangeState),
    reg!("s2m", S2M, s2m::ErrLogMaskReg),
    reg!("s2m", S2M, s2m::StreamCfgReg),
    reg!("s2m", S2M, s2m::DescPrefCfg1Reg),
    reg!("s2m", S2M, s2m::DescPrefCfg2Reg),
    reg!("s2m", S2M, s2m::DescPrefCfg3Reg),
    reg!("s2m", S2M, s2m::DescPrefCfg4Reg),
    reg!("s2m", S2M, s2m::NoDescCfgReg, Source::Seed004),
    reg!("s2m", S2M, s2m::CompCfg1cReg),
    reg!("s2m", S2M, s2m::CompCfgApplicationAck),
    // per-queue: the shared ring registers (overlay), then the direction-specific ones
    reg!("q_rings", None, queue::Cfg),
    reg!("q_rings", None, queue::Status),
    reg!("q_rings", None, queue::DrbpLow),
    reg!("q_rings", None, queue::DrbpHigh),
    reg!("q_rings", None, queue::Drl),
    reg!("q_rings", None, queue::Drhp),
    reg!("q_rings", None, queue::DrtpInc),
    reg!("q_rings", None, queue::Drtp),
    reg!("q_rings", None, queue::Dcp),
    reg!("q_rings", None, queue::CrbpLow),
    reg!("q_rings", None, queue::CrbpHigh),
    reg!("q_rings", None, queue::Crhp),
    ring!("m2s_q", M2S_Q0, "cfg", queue::Cfg),
    ring!("m2s_q", M2S_Q0, "status", queue::Status),
    ring!("m2s_q", M2S_Q0, "tdrbp_low", queue::DrbpLow),
    ring!("m2s_q", M2S_Q0, "tdrbp_high", queue::DrbpHigh),
    ring!("m2s_q", M2S_Q0, "tdrl", queue::Drl),
    ring!("m2s_q", M2S_Q0, "tdrhp", queue::Drhp),
    ring!("m2s_q", M2S_Q0, "tdrtp_inc", queue::DrtpInc),
    ring!("m2s_q", M2S_Q0, "tdrtp", queue::Drtp),
    ring!("m2s_q", M2S_Q0, "tdcp", queue::Dcp),
    ring!("m2s_q", M2S_Q0, "tcrbp_low", queue::CrbpLow),
    ring!("m2s_q", M2S_Q0, "tcrbp_high", queue::CrbpHigh),
    ring!("m2s_q", M2S_Q0, "tcrhp", queue::Crhp),
    reg!("m2s_q", M2S_Q0, queue::TxDescPrefCfg),
    reg!("m2s_q", M2S_Q0, queue::TxRlimitMaskReg),
    reg!("m2s_q", M2S_Q0, queue::TxCompCfg),
    reg!("m2s_q", M2S_Q0, queue::TxQSwCtrl),
    ring!("s2m_q", S2M_Q0, "cfg", queue::Cfg),
    ring!("s2m_q", S2M_Q0, "status", queue::Status),
    ring!("s2m_q", S2M_Q0, "rdrbp_low", queue::DrbpLow),
    ring!("s2m_q", S2M_Q0, "rdrbp_high", queue::DrbpHigh),
    ring!("s2m_q", S2M_Q0, "rdrl", queue::Drl),
    ring!("s2m_q", S2M_Q0, "rdrhp", queue::Drhp),
    ring!("s2m_q", S2M_Q0, "rdrtp_inc", queue::DrtpInc),
    ring!("s2m_q", S2M_Q0, "rdrtp", queue::Drtp),
    ring!("s2m_q", S2M_Q0, "rdcp", queue::Dcp),
    ring!("s2m_q", S2M_Q0, "rcrbp_low", queue::CrbpLow),
    ring!("s2m_q", S2M_Q0, "rcrbp_high", queue::CrbpHigh),
    ring!("s2m_q", S2M_Q0, "rcrhp", queue::Crhp),
    reg!("s2m_q", S2M_Q0, queue::RxCompCfg),
    reg!("s2m_q", S2M_Q0, queue::RxQSwCtrl),
    // gen
    named!(
        "gen",
        GEN,
        "interrupt_regs.main_iofic",
        general::PRIMARY_IOFIC
    ),
    named!(
        "gen",
        GEN,
        "interrupt_regs.secondary_iofic_ctrl",
        general::SECONDARY_IOFIC
    ),
    reg!("gen", GEN, general::AxiCfg1),
    named!(
        "gen",
        GEN,
        "axi_error_detection_table[0].addr0",
        general::AXI_ERROR_DETECTION_TABLE
    ),
    named!(
        "gen",
        GEN,
        "axi_error_control[0].table_addr",
        general::AXI_ERROR_CONTROL
    ),
    named!(
        "gen",
        GEN,
        "axi_error_control[0].table_data",
        general::AXI_ERROR_CONTROL + general::AXI_ERROR_CONTROL_DATA
    ),
    named!("gen", GEN, "axi_queue[0].state_request", general::AXI_QUEUE),
    named!(
        "gen",
        GEN,
        "axi_queue[0].error_status",
        general::AXI_QUEUE + 4
    ),
    named!("gen", GEN, "axi_queue[0].cfg", general::AXI_QUEUE + 8),
    named!(
        "gen",
        GEN,
        "iofic_base_m2s_desc_rd",
        general::AxiErrorIofic::M2sDescRd.offset()
    ),
    named!(
        "gen",
        GEN,
        "iofic_base_m2s_data_rd",
        general::AxiErrorIofic::M2sDataRd.offset()
    ),
    named!(
        "gen",
        GEN,
        "iofic_base_m2s_cmpl_wr",
        general::AxiErrorIofic::M2sCmplWr.offset()
    ),
    named!(
        "gen",
        GEN,
        "iofic_base_s2m_desc_rd",
        general::AxiErrorIofic::S2mDescRd.offset()
    ),
    named!(
        "gen",
        GEN,
        "iofic_base_s2m_data_wr",
        general::AxiErrorIofic::S2mDataWr.offset()
    ),
    named!(
        "gen",
        GEN,
        "iofic_base_s2m_cmpl_wr",
        general::AxiErrorIofic::S2mCmplWr.offset()
    ),
    named!(
        "gen",
        GEN,
        "iofic_base_msix",
        general::AxiErrorIofic::Msix.offset()
    ),
    reg!("gen", GEN, general::SpareZeroes0Reg),
    reg!("gen", GEN, general::SpareZeroes1),
    reg!("gen", GEN, general::SpareOnes0),
    reg!("gen", GEN, general::SpareOnes1),
    // gen_ex: queue 0's selector block
    named!(
        "gen_ex",
        GEN_EX,
        "vmpr_v4[0].tx_sel",
        VMPR0 + gen_ex::TX_SEL
    ),
    named!(
        "gen_ex",
        GEN_EX,
        "vmpr_v4[0].rx_sel[0]",
        VMPR0 + gen_ex::RX_SEL
    ),
    named!(
        "gen_ex",
        GEN_EX,
        "vmpr_v4[0].rx_sel[1]",
        VMPR0 + gen_ex::RX_SEL + 4
    ),
    named!(
        "gen_ex",
        GEN_EX,
        "vmpr_v4[0].rx_sel[2]",
        VMPR0 + gen_ex::RX_SEL + 8
    ),
];

/// The registers of `block`, in list order.
pub fn in_block(block: &str) -> impl Iterator<Item = &'static RegisterInfo> + '_ {
    REGISTERS.iter().filter(move |r| r.block == block)
}
