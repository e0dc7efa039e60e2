//! Per-queue target steering: the address-high selectors of `gen_ex`.
//!
//! The reference has one layout, revision 4's `vmpr_v4` (per queue at `gen_ex + 0x400 +
//! q*0x40`: `tx_sel`, then `rx_sel[0..3]`); engine init writes all-ones to every selector
//! (no override). Older revisions lay the selectors out differently and the reference does
//! not give that layout, so it is not modelled: these functions need an arch whose revision
//! type implements [`SteeringLayoutV4`], and do not compile for any other. An engine's
//! revision is fixed by its arch (a different hardware revision is refused when the handle
//! is made), so no run-time revision check remains here.

use mmio::{Mmio, MmioExt};
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::regs::{gen_ex, unit};
use crate::{Arch, SteeringLayoutV4};

/// The selector values of one queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueueTarget {
    /// TX address-high selector.
    pub tx: u32,
    /// RX address-high selectors 0..3.
    pub rx: [u32; gen_ex::RX_SELECTORS],
}

impl QueueTarget {
    /// No override (what engine init programs).
    pub const NONE: Self = Self {
        tx: gen_ex::SEL_NONE,
        rx: [gen_ex::SEL_NONE; gen_ex::RX_SELECTORS],
    };
}

impl<A: Arch, M: Mmio> Udma<A, M>
where
    A::Revision: SteeringLayoutV4,
{
    /// Steers queue `q` (revision 4 layout): writes `tx_sel`, then `rx_sel[0..3]`.
    pub fn set_queue_target(&self, q: QueueId, target: QueueTarget) -> Result<(), UdmaError> {
        self.check_queue(q)?;
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
    pub fn queue_target(&self, q: QueueId) -> Result<QueueTarget, UdmaError> {
        self.check_queue(q)?;
        let genx = self.regs().window(unit::GEN_EX_BASE);
        let mut t = QueueTarget {
            tx: genx.read32(gen_ex::tx_sel(q)),
            rx: [0; gen_ex::RX_SELECTORS],
        };
        for (i, v) in t.rx.iter_mut().enumerate() {
            if let Some(off) = gen_ex::rx_sel(q, i) {
                *v = genx.read32(off);
            }
        }
        Ok(t)
    }
}
