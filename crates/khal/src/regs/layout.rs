//! The per-queue registers by name, for code that picks one at run time (the seed's
//! per-queue offset trampolines, seed 004 §3; the device model's and the emulated kernel's
//! readers): each name resolves through its typed marker and the queue block arrays of
//! [`queue`], so no offset is restated. Every generation has this one layout (the kernel
//! driver programs all three as UDMA revision 4; no source gives another).

use mmio::Register;
use udma_desc::QueueId;

use super::queue::{self, Dir};

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

impl QueueReg {
    /// Offset of this register inside a queue block of direction `dir`; `None` for the
    /// TX-only registers asked for RX (the table has no RX sibling).
    #[inline]
    pub const fn offset(self, dir: Dir) -> Option<usize> {
        match self.marker_offset_and_name(dir) {
            Some((off, _)) => Some(off),
            None => None,
        }
    }

    /// Offset from the unit base of this register of queue `q`, direction `dir`.
    #[inline]
    pub const fn abs(self, dir: Dir, q: QueueId) -> Option<usize> {
        match self.offset(dir) {
            Some(off) => Some(queue::queue_base(dir, q) + off),
            None => None,
        }
    }
}
