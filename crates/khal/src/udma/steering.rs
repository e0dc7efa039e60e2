//! Per-queue target steering: the address-high selectors of `gen_ex`.
//!
//! The reference has one layout, revision 4's `vmpr_v4` (per queue at `gen_ex + 0x400 +
//! q*0x40`: `tx_sel`, then `rx_sel[0..3]`); engine init writes all-ones to every selector
//! (no override). Older revisions lay the selectors out differently and the reference does
//! not give that layout, so for them this is a typed error, and for an arch whose revision
//! type lacks [`TargetTranslation`] it does not compile.

use mmio::{Mmio, MmioExt};
use udma_desc::QueueId;

use super::error::RevisionFeature;
use super::{Udma, UdmaError};
use crate::regs::{gen_ex, unit};
use crate::{Arch, TargetTranslation};

/// The selector values of one queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueueTarget {
    /// TX address-high selector.
    pub tx: u32,
    /// RX address-high selectors 0..3.
    pub rx: [u32; 3],
}

impl QueueTarget {
    /// No override (what engine init programs).
    pub const NONE: Self = Self {
        tx: gen_ex::SEL_NONE,
        rx: [gen_ex::SEL_NONE; 3],
    };
}

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Steers queue `q` (revision 4 layout): writes `tx_sel`, then `rx_sel[0..3]`.
    pub fn set_queue_target(&self, q: QueueId, target: QueueTarget) -> Result<(), UdmaError>
    where
        A::Revision: TargetTranslation,
    {
        self.check_queue(q)?;
        self.require_revision(RevisionFeature::TargetSteering, 4)?;
        let genx = self.regs().window(unit::GEN_EX_BASE);
        genx.write32(gen_ex::tx_sel(q), target.tx);
        for (i, v) in target.rx.iter().enumerate() {
            if let Some(off) = gen_ex::rx_sel(q, i) {
                genx.write32(off, *v);
            }
        }
        Ok(())
    }

    /// Reads queue `q`'s selectors back.
    pub fn queue_target(&self, q: QueueId) -> Result<QueueTarget, UdmaError>
    where
        A::Revision: TargetTranslation,
    {
        self.check_queue(q)?;
        self.require_revision(RevisionFeature::TargetSteering, 4)?;
        let genx = self.regs().window(unit::GEN_EX_BASE);
        let mut t = QueueTarget {
            tx: genx.read32(gen_ex::tx_sel(q)),
            rx: [0; 3],
        };
        for (i, v) in t.rx.iter_mut().enumerate() {
            if let Some(off) = gen_ex::rx_sel(q, i) {
                *v = genx.read32(off);
            }
        }
        Ok(t)
    }
}
