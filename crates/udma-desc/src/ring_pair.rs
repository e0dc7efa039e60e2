//! The TX/RX ring pair of one queue: copies, CRCs, packets and the doorbell.

use core::sync::atomic::{Ordering, fence};

use crate::builder::{copy_pair_unchecked, copy_rx, copy_tx, ring_id_bits};
use crate::caps::PacketCaps;
use crate::{
    CopyRequest, DescRing, DescStore, Direction, Doorbell, Error, QueueId, Reservation, Slot,
};

/// The slots a copy went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopySlots {
    /// The TX (source) slot.
    pub tx: Slot,
    /// The RX (destination) slot.
    pub rx: Slot,
}

/// Where a batch of copies went: `count` consecutive slots on each ring (each may wrap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyBatch {
    /// The TX (source) slots.
    pub tx: Reservation,
    /// The RX (destination) slots.
    pub rx: Reservation,
}

/// The TX ring and the RX ring of one UDMA queue.
///
/// ```
/// use udma_desc::{caps::{PacketCaps, Unsupported}, CopyRequest, DescRing, Descriptor, Direction, QueueId, RingPair};
/// struct V2;
/// impl PacketCaps for V2 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x80;
///     type NotificationMasks = Unsupported;
///     type StrongOrdering = Unsupported;
/// }
/// let (mut txs, mut rxs) = ([Descriptor::ZERO; 32], [Descriptor::ZERO; 32]);
/// let mut pair = RingPair::new(
///     QueueId::new(3)?,
///     DescRing::new(Direction::Tx, &mut txs[..])?,
///     DescRing::new(Direction::Rx, &mut rxs[..])?,
/// );
/// let slots = pair.copy_prepare_one::<V2>(&CopyRequest::new(0x1000, 0x2000, 4096))?;
/// assert_eq!((slots.tx.index, slots.rx.index), (0, 0));
/// assert_eq!(pair.tx().load(0)?.tx_size(), 4096);
/// # Ok::<(), udma_desc::Error>(())
/// ```
#[derive(Debug)]
pub struct RingPair<T, R> {
    queue: QueueId,
    tx: DescRing<T>,
    rx: DescRing<R>,
}

impl<T: DescStore, R: DescStore> RingPair<T, R> {
    /// Pairs the TX and RX rings of `queue`.
    #[inline]
    pub fn new(queue: QueueId, tx: DescRing<T>, rx: DescRing<R>) -> Self {
        Self { queue, tx, rx }
    }

    /// The queue both rings belong to.
    #[inline]
    pub fn queue(&self) -> QueueId {
        self.queue
    }

    /// The TX ring.
    #[inline]
    pub fn tx(&self) -> &DescRing<T> {
        &self.tx
    }

    /// The RX ring.
    #[inline]
    pub fn rx(&self) -> &DescRing<R> {
        &self.rx
    }

    /// The TX ring, mutably (bulk writes).
    #[inline]
    pub fn tx_mut(&mut self) -> &mut DescRing<T> {
        &mut self.tx
    }

    /// The RX ring, mutably (bulk writes).
    #[inline]
    pub fn rx_mut(&mut self) -> &mut DescRing<R> {
        &mut self.rx
    }

    /// Splits back into the two rings.
    #[inline]
    pub fn into_parts(self) -> (DescRing<T>, DescRing<R>) {
        (self.tx, self.rx)
    }

    /// Acknowledges `count` completed copies on both rings (the caller acks the same count
    /// on TX and RX). Both counts are checked before either ring moves, unless another
    /// thread acks concurrently.
    #[inline]
    pub fn ack(&self, count: u32) -> Result<(), Error> {
        for r in [self.tx.ring(), self.rx.ring()] {
            let outstanding = r.outstanding();
            if count > outstanding {
                return Err(Error::AckTooMany { count, outstanding });
            }
        }
        self.tx.ack(count)?;
        self.rx.ack(count)?;
        Ok(())
    }

    /// Prepares one copy: validates everything first (barrier on this arch, size
    /// `1..=65536`, one free slot on TX and on RX), then takes the RX slot and the TX slot
    /// and writes the pair built by [`build_copy_pair`](crate::build_copy_pair).
    ///
    /// A rejected request consumes no slot and flips no phase. (The kernel takes both
    /// slots before checking the barrier and leaves two unwritten slots behind.) The
    /// queue id is valid by construction ([`QueueId`]); a raw barrier number is checked
    /// by [`Barrier::from_raw`](crate::Barrier::from_raw).
    // Always inlined: it is the runtime's most frequent operation, and a call (with its
    // register saves and the result returned through memory) costs as much as the work.
    #[inline(always)]
    pub fn copy_prepare_one<C: PacketCaps>(
        &mut self,
        req: &CopyRequest,
    ) -> Result<CopySlots, Error> {
        let len = req.validate::<C>()?;
        if !self.tx.ring().has_room() {
            return Err(self.tx.ring().full(1));
        }
        if !self.rx.ring().has_room() {
            return Err(self.rx.ring().full(1));
        }
        let rx = self.rx.ring().peek();
        let tx = self.tx.ring().peek();
        // Both descriptors are built in registers, then each is stored once.
        let pair = copy_pair_unchecked(tx.ring_id, rx.ring_id, req, len);
        // RX first, as the driver takes its slots; indices move only once both are written.
        self.rx.store_mut().store(rx.index, pair.rx)?;
        self.tx.store_mut().store(tx.index, pair.tx)?;
        self.rx.ring_mut().advance_one();
        self.tx.ring_mut().advance_one();
        Ok(CopySlots { tx, rx })
    }

    /// Prepares `reqs.len()` copies at once, the batch path of seed 004 §1
    /// (`reserve_descriptors` then `set_descriptors`): every request is validated first
    /// (as [`copy_prepare_one`](Self::copy_prepare_one) does) as it is written, room for
    /// all of them is checked on both rings first, the slots are written in runs where
    /// neither ring wraps (at most three) with the ring ids computed once per run, and
    /// only then do both rings move. The bytes are those of `reqs.len()` calls to
    /// `copy_prepare_one`.
    ///
    /// A refused batch (a bad request, no room for all) takes no slot and moves no index;
    /// free slots beyond the rings' `next` may have been written, as
    /// [`packet_prepare`](Self::packet_prepare) may.
    ///
    /// ```
    /// use udma_desc::{caps::{PacketCaps, Supported, Unsupported}, CopyRequest, DescRing, Descriptor, Direction, QueueId, RingPair};
    /// struct V3;
    /// impl PacketCaps for V3 {
    ///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    ///     type NotificationMasks = Unsupported;
    ///     type StrongOrdering = Supported;
    /// }
    /// let (mut txs, mut rxs) = ([Descriptor::ZERO; 32], [Descriptor::ZERO; 32]);
    /// let mut pair = RingPair::new(
    ///     QueueId::new(0)?,
    ///     DescRing::new(Direction::Tx, &mut txs[..])?,
    ///     DescRing::new(Direction::Rx, &mut rxs[..])?,
    /// );
    /// let reqs = [CopyRequest::new(0x1000, 0x2000, 64), CopyRequest::new(0x1040, 0x2040, 64)];
    /// let b = pair.copy_prepare_batch::<V3>(&reqs)?;
    /// assert_eq!((b.tx.start(), b.tx.count(), pair.tx().ring().next_index()), (0, 2, 2));
    /// assert_eq!(pair.rx().load(1)?.words(), [0x0100_0040, 0, 0x2040, 0]);
    /// # Ok::<(), udma_desc::Error>(())
    /// ```
    pub fn copy_prepare_batch<C: PacketCaps>(
        &mut self,
        reqs: &[CopyRequest],
    ) -> Result<CopyBatch, Error> {
        let count = u32::try_from(reqs.len()).map_err(|_| Error::RingFull {
            ring: Direction::Tx,
            needed: u32::MAX,
            available: self.tx.available(),
        })?;
        let tx = self.tx.ring().plan(count)?;
        let rx = self.rx.ring().plan(count)?;
        // Runs where neither ring wraps (at most three): one ring-id computation each.
        let (mut t, mut r) = (tx.start_slot(), rx.start_slot());
        let mut rest = reqs;
        while !rest.is_empty() {
            let n = rest
                .len()
                .min(tx.room_before_wrap(t.index))
                .min(rx.room_before_wrap(r.index));
            let (run, tail) = rest.split_at_checked(n).unwrap_or((rest, &[]));
            self.write_run::<C>(
                t.index,
                r.index,
                ring_id_bits(t.ring_id),
                ring_id_bits(r.ring_id),
                run,
            )?;
            t = tx.after(t, n);
            r = rx.after(r, n);
            rest = tail;
        }
        self.rx.ring_mut().commit_reservation(&rx);
        self.tx.ring_mut().commit_reservation(&tx);
        Ok(CopyBatch { tx, rx })
    }

    /// Writes one run of copies from TX slot `ti` and RX slot `ri` (no wrap inside),
    /// validating each request. Plain-memory stores are written in one fused pass.
    #[inline]
    fn write_run<C: PacketCaps>(
        &mut self,
        ti: u32,
        ri: u32,
        tx_bits: u32,
        rx_bits: u32,
        run: &[CopyRequest],
    ) -> Result<(), Error> {
        let (txs, rxs) = (self.tx.store_mut(), self.rx.store_mut());
        if let (Some(t), Some(r)) = (txs.slots_mut(ti, run.len()), rxs.slots_mut(ri, run.len())) {
            for ((t, r), q) in t.iter_mut().zip(r.iter_mut()).zip(run) {
                let len = q.validate::<C>()?;
                *r = copy_rx(q, len, rx_bits);
                *t = copy_tx(q, len, tx_bits);
            }
            return Ok(());
        }
        // Any other store: one descriptor at a time, the length field from `validate` (the
        // one place a size is encoded).
        let (mut t, mut r) = (ti, ri);
        for q in run {
            let len = q.validate::<C>()?;
            rxs.store(r, copy_rx(q, len, rx_bits))?;
            txs.store(t, copy_tx(q, len, tx_bits))?;
            // A run never passes its ring's end (at most 2^24 slots): no wrap.
            (t, r) = (t.wrapping_add(1), r.wrapping_add(1));
        }
        Ok(())
    }

    /// Rings the doorbells that hand `tx_count` TX and `rx_count` RX descriptors to the
    /// engine: RX first, so destinations are ready before source data reaches the stream,
    /// then TX. Each count must be at most its ring's size. A zero count rings nothing
    /// (TX 0 is how RX descriptors are posted ahead; the kernel would assert on RX 0).
    /// A full memory fence precedes each doorbell so the descriptors are visible first.
    #[inline]
    pub fn copy_start<D: Doorbell + ?Sized>(
        &self,
        db: &D,
        tx_count: u32,
        rx_count: u32,
    ) -> Result<(), Error> {
        for (ring, count, size) in [
            (Direction::Tx, tx_count, self.tx.ring().size()),
            (Direction::Rx, rx_count, self.rx.ring().size()),
        ] {
            if count > size {
                return Err(Error::DoorbellCountTooLarge {
                    ring,
                    count,
                    ring_size: size,
                });
            }
        }
        if rx_count > 0 {
            fence(Ordering::SeqCst);
            db.ring_rx(self.queue, rx_count);
        }
        if tx_count > 0 {
            fence(Ordering::SeqCst);
            db.ring_tx(self.queue, tx_count);
        }
        Ok(())
    }
}

impl<S: DescStore> DescRing<S> {
    /// Advances the ring past `n` slots already written (crate-internal commit step).
    #[inline]
    pub(crate) fn advance_by(&mut self, n: u32) {
        let c = self.ring().cursor();
        let next = self.ring().advance(c, n);
        self.ring_mut().commit(next);
    }
}
