//! The UDMA register-offset set an [`Arch`](crate::Arch) exposes, as one `const` value.
//!
//! Built from the register markers (single source of truth, already checked against the
//! table), so an arch never restates a number. Every generation uses [`UdmaLayout::REV4`]
//! (the kernel driver programs all three as UDMA revision 4); the value lives on the `Arch`
//! trait so that a generation with another layout would override one item.

use mmio::Register;
use udma_desc::QueueId;

use super::queue::{self, Dir};
use super::{general, unit};

/// One of the per-queue registers (16 names; `comp_cfg` and `q_sw_ctrl` sit at different
/// offsets per direction, so the offset set has 18 entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueueReg {
    /// TX only: descriptor prefetch setup.
    DescPrefCfg,
    /// Queue cfg.
    Cfg,
    /// Ring status.
    Status,
    /// Descriptor ring base low.
    DrbpLow,
    /// Descriptor ring base high.
    DrbpHigh,
    /// Descriptor ring length.
    Drl,
    /// Ring head.
    Drhp,
    /// Tail increment (doorbell).
    DrtpInc,
    /// Ring tail.
    Drtp,
    /// Current descriptor pointer.
    Dcp,
    /// Completion ring base low.
    CrbpLow,
    /// Completion ring base high.
    CrbpHigh,
    /// Completion ring head.
    Crhp,
    /// TX only: rate-limiter mask.
    RlimitMask,
    /// Completion behaviour.
    CompCfg,
    /// Software control (queue reset).
    QSwCtrl,
}

impl QueueReg {
    /// Every per-queue register name.
    pub const ALL: [QueueReg; 16] = [
        Self::DescPrefCfg,
        Self::Cfg,
        Self::Status,
        Self::DrbpLow,
        Self::DrbpHigh,
        Self::Drl,
        Self::Drhp,
        Self::DrtpInc,
        Self::Drtp,
        Self::Dcp,
        Self::CrbpLow,
        Self::CrbpHigh,
        Self::Crhp,
        Self::RlimitMask,
        Self::CompCfg,
        Self::QSwCtrl,
    ];
}

/// The 18 per-queue register offsets (inside a queue block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueueOffsets {
    /// TX `desc_pref_cfg`.
    pub tx_desc_pref_cfg: usize,
    /// `cfg` (both directions).
    pub cfg: usize,
    /// `status`.
    pub status: usize,
    /// Descriptor ring base low.
    pub drbp_low: usize,
    /// Descriptor ring base high.
    pub drbp_high: usize,
    /// Descriptor ring length.
    pub drl: usize,
    /// Ring head.
    pub drhp: usize,
    /// Tail increment (doorbell), both directions.
    pub drtp_inc: usize,
    /// Ring tail.
    pub drtp: usize,
    /// Current descriptor pointer.
    pub dcp: usize,
    /// Completion ring base low.
    pub crbp_low: usize,
    /// Completion ring base high.
    pub crbp_high: usize,
    /// Completion ring head.
    pub crhp: usize,
    /// TX `rlimit.mask`.
    pub tx_rlimit_mask: usize,
    /// TX `comp_cfg`.
    pub tx_comp_cfg: usize,
    /// TX `q_sw_ctrl`.
    pub tx_q_sw_ctrl: usize,
    /// RX `comp_cfg`.
    pub rx_comp_cfg: usize,
    /// RX `q_sw_ctrl`.
    pub rx_q_sw_ctrl: usize,
}

/// Where a UDMA unit's blocks and per-queue registers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UdmaLayout {
    /// TX block base.
    pub m2s_base: usize,
    /// RX block base.
    pub s2m_base: usize,
    /// TX error/abort cause group (secondary IOFIC group A) from the unit base.
    pub m2s_abort_cause_base: usize,
    /// `gen` block base.
    pub gen_base: usize,
    /// `gen_ex` block base.
    pub gen_ex_base: usize,
    /// Queue 0's block inside a direction block.
    pub queue_block: usize,
    /// Stride between queue blocks.
    pub queue_stride: usize,
    /// Queues per direction.
    pub queues: u8,
    /// The per-queue register offsets.
    pub queue: QueueOffsets,
}

impl UdmaLayout {
    /// The revision-4 layout of `udma-registers.tsv`.
    pub const REV4: Self = Self {
        m2s_base: unit::M2S_BASE,
        s2m_base: unit::S2M_BASE,
        m2s_abort_cause_base: unit::GEN_BASE + general::M2S_ABORT_CAUSE,
        gen_base: unit::GEN_BASE,
        gen_ex_base: unit::GEN_EX_BASE,
        queue_block: queue::QUEUE_BLOCK,
        queue_stride: queue::QUEUE_STRIDE,
        queues: udma_desc::QUEUES_PER_ENGINE,
        queue: QueueOffsets {
            tx_desc_pref_cfg: queue::TxDescPrefCfg::OFFSET,
            cfg: queue::Cfg::OFFSET,
            status: queue::Status::OFFSET,
            drbp_low: queue::DrbpLow::OFFSET,
            drbp_high: queue::DrbpHigh::OFFSET,
            drl: queue::Drl::OFFSET,
            drhp: queue::Drhp::OFFSET,
            drtp_inc: queue::DrtpInc::OFFSET,
            drtp: queue::Drtp::OFFSET,
            dcp: queue::Dcp::OFFSET,
            crbp_low: queue::CrbpLow::OFFSET,
            crbp_high: queue::CrbpHigh::OFFSET,
            crhp: queue::Crhp::OFFSET,
            tx_rlimit_mask: queue::TxRlimitMaskReg::OFFSET,
            tx_comp_cfg: queue::TxCompCfg::OFFSET,
            tx_q_sw_ctrl: queue::TxQSwCtrl::OFFSET,
            rx_comp_cfg: queue::RxCompCfg::OFFSET,
            rx_q_sw_ctrl: queue::RxQSwCtrl::OFFSET,
        },
    };

    /// Offset of direction `dir`'s block from the unit base.
    #[inline]
    pub const fn dir_base(&self, dir: Dir) -> usize {
        match dir {
            Dir::Tx => self.m2s_base,
            Dir::Rx => self.s2m_base,
        }
    }

    /// Offset of queue `q`'s block of direction `dir` from the unit base.
    #[inline]
    pub const fn queue_base(&self, dir: Dir, q: QueueId) -> usize {
        self.dir_base(dir) + self.queue_block + q.index() * self.queue_stride
    }

    /// Offset of `reg` inside a queue block of direction `dir`; `None` for the TX-only
    /// registers asked for RX (the table has no RX sibling).
    #[inline]
    pub const fn queue_reg(&self, dir: Dir, reg: QueueReg) -> Option<usize> {
        let o = &self.queue;
        Some(match (reg, dir) {
            (QueueReg::DescPrefCfg, Dir::Tx) => o.tx_desc_pref_cfg,
            (QueueReg::RlimitMask, Dir::Tx) => o.tx_rlimit_mask,
            (QueueReg::DescPrefCfg | QueueReg::RlimitMask, Dir::Rx) => return None,
            (QueueReg::CompCfg, Dir::Tx) => o.tx_comp_cfg,
            (QueueReg::CompCfg, Dir::Rx) => o.rx_comp_cfg,
            (QueueReg::QSwCtrl, Dir::Tx) => o.tx_q_sw_ctrl,
            (QueueReg::QSwCtrl, Dir::Rx) => o.rx_q_sw_ctrl,
            (QueueReg::Cfg, _) => o.cfg,
            (QueueReg::Status, _) => o.status,
            (QueueReg::DrbpLow, _) => o.drbp_low,
            (QueueReg::DrbpHigh, _) => o.drbp_high,
            (QueueReg::Drl, _) => o.drl,
            (QueueReg::Drhp, _) => o.drhp,
            (QueueReg::DrtpInc, _) => o.drtp_inc,
            (QueueReg::Drtp, _) => o.drtp,
            (QueueReg::Dcp, _) => o.dcp,
            (QueueReg::CrbpLow, _) => o.crbp_low,
            (QueueReg::CrbpHigh, _) => o.crbp_high,
            (QueueReg::Crhp, _) => o.crhp,
        })
    }

    /// Offset from the unit base of `reg` of queue `q`, direction `dir`.
    #[inline]
    pub const fn queue_reg_abs(&self, dir: Dir, q: QueueId, reg: QueueReg) -> Option<usize> {
        match self.queue_reg(dir, reg) {
            Some(off) => Some(self.queue_base(dir, q) + off),
            None => None,
        }
    }
}
