//! The doorbell: how software tells an engine that descriptors are ready.

use crate::QueueId;

/// Rings a UDMA queue's tail-pointer-increment registers.
///
/// A write of `n` to a queue's tail-increment register hands the next `n` descriptors of that
/// ring to the engine. `udma-desc` does not know register addresses (they belong to `khal`),
/// so the ring code speaks to this trait; `khal` implements it over any `mmio::Mmio` window
/// (a mapped BAR, a recording fake, the device model), and tests can record calls.
///
/// An implementation that writes a real device orders the descriptor stores before its
/// register write (`khal`'s issue `mmio`'s DMA write barrier first, `mmio::Mmio::write_barrier`).
pub trait Doorbell {
    /// Hands `count` more RX (stream-to-memory) descriptors of `queue` to the engine.
    fn ring_rx(&self, queue: QueueId, count: u32);
    /// Hands `count` more TX (memory-to-stream) descriptors of `queue` to the engine.
    fn ring_tx(&self, queue: QueueId, count: u32);
}

/// Whether a start handing `rx_count` RX descriptors to the engine is refused. The 2.26.5.0
/// kernel's doorbell helper always rings RX and refuses a count of 0 "with -1 and writes
/// nothing" (`reference/udma-notes.md` §6, §13); a TX count of 0 is legitimate (RX
/// descriptors posted ahead) and rings only RX. The rule's one definition:
/// [`RingPair::copy_start`](crate::RingPair::copy_start) and `khal`'s `Udma::copy_start`
/// both ask it.
///
/// ```
/// assert!(udma_desc::start_refuses_rx_count(0));
/// assert!(!udma_desc::start_refuses_rx_count(1));
/// ```
#[inline]
pub const fn start_refuses_rx_count(rx_count: u32) -> bool {
    rx_count == 0
}

impl<T: Doorbell + ?Sized> Doorbell for &T {
    fn ring_rx(&self, queue: QueueId, count: u32) {
        (**self).ring_rx(queue, count)
    }
    fn ring_tx(&self, queue: QueueId, count: u32) {
        (**self).ring_tx(queue, count)
    }
}
