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
/// offsets per direction, so the offset set has 18 entries). Each is an entry of
/// [`REGISTERS`](super::REGISTERS) (block `q_rings`, `m2s_q` or `s2m_q`).
///
/// The userspace HAL resolves a 19th per-queue offset through its trampolines, the M2S-only
/// data-tail-pointer increment (seed 004 §3); no source gives its offset, so it has no
/// variant here ([`khal_udma`](super::khal_udma)).
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
    /// The offset inside a queue block and the table name of this register in direction
    /// `dir` (from its typed marker); `None` for a TX-only register asked for RX.
    pub const fn marker_offset_and_name(self, dir: Dir) -> Option<(usize, &'static str)> {
        macro_rules! m {
            ($t:ty) => {
                Some((<$t as Register>::OFFSET, <$t as Register>::NAME))
            };
        }
        match (self, dir) {
            (QueueReg::DescPrefCfg, Dir::Tx) => m!(queue::TxDescPrefCfg),
            (QueueReg::RlimitMask, Dir::Tx) => m!(queue::TxRlimitMaskReg),
            (QueueReg::DescPrefCfg | QueueReg::RlimitMask, Dir::Rx) => None,
            (QueueReg::CompCfg, Dir::Tx) => m!(queue::TxCompCfg),
            (QueueReg::CompCfg, Dir::Rx) => m!(queue::RxCompCfg),
            (QueueReg::QSwCtrl, Dir::Tx) => m!(queue::TxQSwCtrl),
            (QueueReg::QSwCtrl, Dir::Rx) => m!(queue::RxQSwCtrl),
            (QueueReg::Cfg, _) => m!(queue::Cfg),
            (QueueReg::Status, _) => m!(queue::Status),
            (QueueReg::DrbpLow, _) => m!(queue::DrbpLow),
            (QueueReg::DrbpHigh, _) => m!(queue::DrbpHigh),
            (QueueReg::Drl, _) => m!(queue::Drl),
            (QueueReg::Drhp, _) => m!(queue::Drhp),
            (QueueReg::DrtpInc, _) => m!(queue::DrtpInc),
            (QueueReg::Drtp, _) => m!(queue::Drtp),
            (QueueReg::Dcp, _) => m!(queue::Dcp),
            (QueueReg::CrbpLow, _) => m!(queue::CrbpLow),
            (QueueReg::CrbpHigh, _) => m!(queue::CrbpHigh),
            (QueueReg::Crhp, _) => m!(queue::Crhp),
        }
    }

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
    /// registers asked for RX (the table has no RX sibling). From the typed markers, the
    /// same ones [`REGISTERS`](super::REGISTERS) lists.
    #[inline]
    pub const fn queue_reg(&self, dir: Dir, reg: QueueReg) -> Option<usize> {
        match reg.marker_offset_and_name(dir) {
            Some((off, _)) => Some(off),
            None => None,
        }
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
