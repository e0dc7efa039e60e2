//! One run of batch copies written straight into plain ring memory: the batch path's inner
//! loop, with the requests checked once per run instead of once per copy.

use crate::builder::{RX_INT_EN, rx_barrier_bits, tx_copy_half};
use crate::caps::PacketCaps;
use crate::size::len_field;
use crate::{Barrier, CopySource, Descriptor};

/// Every barrier, in the order of [`Barrier::raw`] (the tables below are indexed by it).
const BARRIERS: [Barrier; 4] = [
    Barrier::None,
    Barrier::Dmb,
    Barrier::WriteBarrier,
    Barrier::Sow,
];

/// What a written run has to be checked for: the OR of `size - 1` of its copies (at least
/// 65,536 exactly when one size is outside `1..=65536`, see `size_in_range`), with bit 31
/// set for a SOW on an arch without strong ordering, and the OR of the raw barrier numbers
/// (above 3 exactly when one is).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunCheck {
    pub(crate) sizes: u32,
    pub(crate) barriers: u32,
}

/// The copy words of one run of slots that share their ring ids: the same bits as `copy_tx`
/// and `copy_rx` with the ring ids already in, so a copy in the run costs an OR of its
/// length per descriptor.
#[derive(Clone, Copy)]
pub(crate) struct CopyWords {
    /// One per barrier, indexed by its raw value.
    tx: [u64; 4],
    /// One per barrier, then the same with the destination interrupt (index `raw + 4`):
    /// the interrupt is an index, not a shift and an OR per copy.
    rx: [u32; 8],
}

impl CopyWords {
    /// The words of a run whose TX slots carry `tx_rid_bits` and RX slots `rx_rid_bits`.
    #[inline]
    pub(crate) fn new(tx_rid_bits: u32, rx_rid_bits: u32) -> Self {
        Self {
            tx: BARRIERS.map(|b| tx_copy_half(b) | u64::from(tx_rid_bits)),
            rx: {
                let rx = |int: bool| {
                    BARRIERS
                        .map(|b| rx_barrier_bits(b) | rx_rid_bits | if int { RX_INT_EN } else { 0 })
                };
                let ([a, b, c, d], [e, f, g, h]) = (rx(false), rx(true));
                [a, b, c, d, e, f, g, h]
            },
        }
    }

    /// Writes the pair of every request of `run` into `tx` and `rx` (the same length)
    /// unchecked, and returns what the caller must check before it takes the slots.
    #[inline]
    pub(crate) fn write<C: PacketCaps, Q: CopySource>(
        &self,
        tx: &mut [Descriptor],
        rx: &mut [Descriptor],
        run: &[Q],
    ) -> RunCheck {
        let (sizes, barriers) = write_each(tx, rx, run, |t, r, q| self.put::<C, Q>(t, r, q));
        RunCheck { sizes, barriers }
    }

    /// [`write`](Self::write) for a run of plain copies (no barrier, no interrupt: what a
    /// queue that only copies sends), with the words of barrier 0 and no interrupt, and
    /// no table lookup per copy. `None` if one request has a barrier or an interrupt (its
    /// slots were written with the wrong words): the caller writes the run again with
    /// `write`.
    #[inline]
    pub(crate) fn write_plain<Q: CopySource>(
        &self,
        tx: &mut [Descriptor],
        rx: &mut [Descriptor],
        run: &[Q],
    ) -> Option<RunCheck> {
        let (txw, rxw) = (self.tx[0], u64::from(self.rx[0]));
        let (sizes, other) = write_each(tx, rx, run, |t, r, q| {
            let size = q.size();
            // One 16-byte store a descriptor, the length put in the vector register (see
            // `from_lo_len_one_store`; `len_field` is the same low 16 bits).
            *r = Descriptor::from_lo_len_one_store(rxw, size, q.dst());
            *t = Descriptor::from_lo_len_one_store(txw, size, q.src());
            (
                size.wrapping_sub(1),
                q.barrier_raw() | q.dst_interrupt_raw(),
            )
        });
        (other == 0).then_some(RunCheck { sizes, barriers: 0 })
    }

    /// Writes the pair of `q` into `tx` and `rx` unchecked, with its barrier and interrupt,
    /// and returns its two check words (see [`RunCheck`]).
    #[inline(always)]
    fn put<C: PacketCaps, Q: CopySource>(
        &self,
        tx: &mut Descriptor,
        rx: &mut Descriptor,
        q: &Q,
    ) -> (u32, u32) {
        let size = q.size();
        let barrier = q.barrier_raw();
        // `& 3`: an out-of-range barrier is refused through `check.barriers`; the index
        // never misses the tables.
        let b = (barrier & 3) as usize;
        let len = len_field(size);
        let txw = self.tx.get(b).copied().unwrap_or(0) | u64::from(len);
        let ib = b | (usize::from(q.dst_interrupt_raw() != 0) << 2);
        let rxw = self.rx.get(ib).copied().unwrap_or(0) | u32::from(len);
        // One 16-byte store a descriptor (see `from_halves_one_store`).
        *rx = Descriptor::from_halves_one_store(u64::from(rxw), q.dst());
        *tx = Descriptor::from_halves_one_store(txw, q.src());
        let sow = if !C::HAS_STRONG_ORDER && barrier == Barrier::Sow.raw() {
            1 << 31
        } else {
            0
        };
        let barriers = if Q::BARRIER_IN_RANGE { 0 } else { barrier };
        (size.wrapping_sub(1) | sow, barriers)
    }
}

/// Writes the pair of every request of `run` into `tx` and `rx` (the same length) with
/// `put`, two copies a step (half the loop's own work per copy), and returns the OR of
/// `put`'s two check words.
#[inline(always)]
fn write_each<Q>(
    tx: &mut [Descriptor],
    rx: &mut [Descriptor],
    run: &[Q],
    mut put: impl FnMut(&mut Descriptor, &mut Descriptor, &Q) -> (u32, u32),
) -> (u32, u32) {
    let (mut a, mut b) = (0u32, 0u32);
    let n = tx.len().min(rx.len()).min(run.len());
    let even = n & !1;
    let (Some((t2, t1)), Some((r2, r1)), Some((q2, q1))) = (
        tx.get_mut(..n).map(|s| s.split_at_mut(even)),
        rx.get_mut(..n).map(|s| s.split_at_mut(even)),
        run.get(..n).map(|s| s.split_at(even)),
    ) else {
        return (a, b);
    };
    let pairs = t2
        .chunks_exact_mut(2)
        .zip(r2.chunks_exact_mut(2))
        .zip(q2.chunks_exact(2));
    for ((t, r), q) in pairs {
        for ((t, r), q) in t.iter_mut().zip(r.iter_mut()).zip(q) {
            let (x, y) = put(t, r, q);
            (a, b) = (a | x, b | y);
        }
    }
    for ((t, r), q) in t1.iter_mut().zip(r1.iter_mut()).zip(q1) {
        let (x, y) = put(t, r, q);
        (a, b) = (a | x, b | y);
    }
    (a, b)
}
