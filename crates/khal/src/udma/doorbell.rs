//! The doorbell: [`udma_desc::Doorbell`] over any register window of a UDMA unit.

use core::sync::atomic::{Ordering, fence};

use mmio::{Mmio, MmioExt};
use udma_desc::{Doorbell, QueueId};

use super::Udma;
use crate::Arch;
use crate::regs::queue::{Dir, DrtpInc, TailInc, queue_base};

/// Rings the tail-pointer increment (`+0x38`) of a queue of the unit window `M`.
///
/// Each ring is a full memory fence, then one 32-bit write of the count: the fence makes the
/// descriptors written to host memory visible to the device before the doorbell (the driver
/// does the same). Ringing RX before TX is the caller's ordering.
#[derive(Clone, Copy, Debug)]
pub struct UnitDoorbell<M>(pub M);

#[inline]
fn ring<M: Mmio>(regs: &M, dir: Dir, q: QueueId, count: u32) {
    fence(Ordering::SeqCst);
    regs.window(queue_base(dir, q))
        .write::<DrtpInc>(TailInc::from_bits(count));
}

impl<M: Mmio> Doorbell for UnitDoorbell<M> {
    #[inline]
    fn ring_rx(&self, queue: QueueId, count: u32) {
        ring(&self.0, Dir::Rx, queue, count)
    }
    #[inline]
    fn ring_tx(&self, queue: QueueId, count: u32) {
        ring(&self.0, Dir::Tx, queue, count)
    }
}

/// The engine handle rings through the arch's register-offset set (`A::UDMA`), like every
/// other per-queue access of [`Udma`].
impl<A: Arch, M: Mmio> Doorbell for Udma<A, M> {
    #[inline]
    fn ring_rx(&self, queue: QueueId, count: u32) {
        fence(Ordering::SeqCst);
        self.write_queue::<DrtpInc>(Dir::Rx, queue, TailInc::from_bits(count));
    }
    #[inline]
    fn ring_tx(&self, queue: QueueId, count: u32) {
        fence(Ordering::SeqCst);
        self.write_queue::<DrtpInc>(Dir::Tx, queue, TailInc::from_bits(count));
    }
}
