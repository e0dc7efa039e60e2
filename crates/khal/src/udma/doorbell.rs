//! The doorbell: [`udma_desc::Doorbell`] over any register window of a UDMA unit.

use mmio::{Mmio, MmioExt};
use udma_desc::{Doorbell, QueueId};

use super::Udma;
use crate::Arch;
use crate::regs::queue::{Dir, DrtpInc, TailInc, queue_base};

/// Rings the tail-pointer increment (`+0x38`) of a queue of the unit window `M`.
///
/// Each ring is the DMA write barrier ([`Mmio::write_barrier`]), then one 32-bit write of the
/// count: the barrier makes the descriptors written to memory visible to the device before
/// the doorbell. The kernel's doorbell helper issues a full memory barrier there
/// (`udma-notes.md` §6) and the userspace HAL an `mb()` (seed 004 §1, `al_udma_desc_action_add`);
/// only the store-before-store half of it is needed, which is what the write barrier is.
/// Ringing RX before TX is the caller's ordering.
#[derive(Clone, Copy, Debug)]
pub struct UnitDoorbell<M>(pub M);

#[inline]
fn ring<M: Mmio>(regs: &M, dir: Dir, q: QueueId, count: u32) {
    regs.write_barrier();
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

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// `al_udma_m2m_copy_start` (seed 004 §1) as the 2.26.5.0 kernel checks it
    /// (`udma-notes.md` §6 and §13): the RX doorbell with `s2m_count`, then the TX doorbell
    /// with `m2s_count` only if it is above 0, for a queue among the engine's configured
    /// queues (the [`Doorbell`] methods below take any [`QueueId`]; this is the checked
    /// entry).
    ///
    /// Refused before any write: an RX count of 0 ([`udma_desc::start_refuses_rx_count`], the
    /// rule's one definition: the kernel's doorbell helper refuses "a count of 0 ... with -1
    /// and writes nothing"; RX is always rung), and a count that does
    /// not fit the 24-bit tail-increment field. A TX count of 0 is legitimate ("A TX count of
    /// 0 is how the caller pre-posts RX descriptors") and rings only RX; the seed's body
    /// rings TX unconditionally, the kernel skips it, and this follows the kernel. The
    /// handle does not know the ring sizes, so "above ring size" is the ring's check
    /// (`udma_desc::RingPair::copy_start`).
    pub fn copy_start(
        &self,
        q: QueueId,
        m2s_count: u32,
        s2m_count: u32,
    ) -> Result<(), super::UdmaError> {
        self.check_queue(q)?;
        if udma_desc::start_refuses_rx_count(s2m_count) {
            return Err(super::UdmaError::DoorbellRxCountZero);
        }
        for (dir, count) in [(Dir::Rx, s2m_count), (Dir::Tx, m2s_count)] {
            if count > TailInc::MAX_COUNT {
                return Err(super::UdmaError::DoorbellCountTooWide { dir, count });
            }
        }
        self.ring_rx(q, s2m_count);
        if m2s_count > 0 {
            self.ring_tx(q, m2s_count);
        }
        Ok(())
    }
}

/// The engine handle rings through the queue blocks of [`regs::queue`](crate::regs::queue),
/// like every other per-queue access of [`Udma`]. These do not check `queue` against the configured
/// count, nor `count` against 0 or the 24-bit field ([`Udma::copy_start`] does; the
/// `udma-desc` ring callers bound it by the ring size, at most 2^23).
impl<A: Arch, M: Mmio> Doorbell for Udma<A, M> {
    #[inline]
    fn ring_rx(&self, queue: QueueId, count: u32) {
        self.regs().write_barrier();
        self.write_queue::<DrtpInc>(Dir::Rx, queue, TailInc::from_bits(count));
    }
    #[inline]
    fn ring_tx(&self, queue: QueueId, count: u32) {
        self.regs().write_barrier();
        self.write_queue::<DrtpInc>(Dir::Tx, queue, TailInc::from_bits(count));
    }
}
