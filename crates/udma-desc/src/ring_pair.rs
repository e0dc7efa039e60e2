//! The TX/RX ring pair of one queue: copies, CRCs, packets and the doorbell.

use crate::builder::{copy_pair_unchecked, copy_rx, copy_tx, ring_id_bits};
use crate::caps::PacketCaps;
use crate::copy_run::CopyWords;
use crate::{
    Barrier, CopyRequest, CopySource, DescRing, DescStore, Direction, Doorbell, Error,
    MAX_TRANSFER_BYTES, QueueId, Reservation, Slot, start_refuses_rx_count,
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
///
/// The pair keeps the producer's copy of the room (as single-producer rings that run at
/// memory speed do: rtrb, DPDK's `rte_ring`, crossbeam's `ArrayQueue`), as the count of
/// copies both rings are known to have room for. It is kept only while the two rings are
/// *in step* — the same size, the same next slot and the same ring id, which is where a
/// queue that only copies stays, one TX and one RX slot per copy — so that
/// [`copy_prepare_one`](Self::copy_prepare_one) moves both rings with one cursor and
/// counts one budget down (0 means "look": one compare, where a limit slot that may be
/// absent took two). When the budget runs out it looks at both rings' completion indices
/// again.
/// Acknowledgements only ever add room, so the copy never promises a slot that is not free,
/// and a copy is refused only after a fresh look finds a ring full, exactly when the
/// driver's `(completion - (next + 16)) mod size` refuses it. Every other way of taking
/// slots (batches, CRCs, packets, [`tx_mut`](Self::tx_mut) / [`rx_mut`](Self::rx_mut))
/// drops the copy first.
#[derive(Debug)]
pub struct RingPair<T, R> {
    queue: QueueId,
    tx: DescRing<T>,
    rx: DescRing<R>,
    /// While the rings are in step: the copies both rings still have room for without a
    /// fresh look (the room of the last look less the copies since). 0 otherwise, so the
    /// next copy looks.
    budget: u32,
}

impl<T: DescStore, R: DescStore> RingPair<T, R> {
    /// Pairs the TX and RX rings of `queue`.
    #[inline]
    pub fn new(queue: QueueId, tx: DescRing<T>, rx: DescRing<R>) -> Self {
        Self {
            queue,
            tx,
            rx,
            budget: 0,
        }
    }

    /// Whether both rings have the same size, next slot and ring id.
    #[inline]
    fn in_step(&self) -> bool {
        let (t, r) = (self.tx.ring(), self.rx.ring());
        t.size() == r.size() && t.cursor() == r.cursor()
    }

    /// Slots were taken outside the copy path: the copied room may overstate, drop it.
    #[inline]
    fn forget_room(&mut self) {
        self.budget = 0;
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
        self.forget_room();
        &mut self.tx
    }

    /// The RX ring, mutably (bulk writes).
    #[inline]
    pub fn rx_mut(&mut self) -> &mut DescRing<R> {
        self.forget_room();
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

    /// [`ack`](Self::ack) by the pair's one owner (`&mut self`: nobody acknowledges
    /// concurrently), with plain updates instead of compare-and-swap loops, so a producer
    /// that also acknowledges keeps the rings' state in registers across its loop. Both
    /// counts are checked before either ring moves.
    #[inline]
    pub fn ack_exclusive(&mut self, count: u32) -> Result<(), Error> {
        self.tx.ring_mut().check_ack_exclusive(count)?;
        self.rx.ring_mut().check_ack_exclusive(count)?;
        self.tx.ack_exclusive(count)?;
        self.rx.ack_exclusive(count)?;
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
    // While the rings are in step (see the type's docs) one cursor and one count serve
    // both, so a loop of copies keeps few values in registers. Nothing here is an opaque
    // call: one would make the loop reload the rings' state on every copy.
    #[inline(always)]
    pub fn copy_prepare_one<C: PacketCaps>(
        &mut self,
        req: &CopyRequest,
    ) -> Result<CopySlots, Error> {
        let len = req.validate::<C>()?;
        let ring = self.tx.ring();
        let (c, mask) = (ring.cursor(), ring.mask());
        // What is left after this copy; at 0 this copy looks afresh first.
        let left = match self.budget.checked_sub(1) {
            Some(left) => left,
            None => {
                let room = self.fresh_room()?;
                if !self.in_step() {
                    return self.copy_apart(req, len);
                }
                // A fresh look finds room for at least this copy.
                room.wrapping_sub(1)
            }
        };
        // In step: the TX cursor and mask are the RX ring's too.
        let pair = copy_pair_unchecked(c.ring_id, c.ring_id, req, len);
        // RX first, as the driver takes its slots; indices move only once both are written.
        self.rx.store_mut().store_slot(c.next, mask, pair.rx)?;
        self.tx.store_mut().store_slot(c.next, mask, pair.tx)?;
        // Both rings step to the same slot; the ring id moves on when it wraps to 0.
        self.budget = left;
        let next = c.next.wrapping_add(1) & mask;
        self.rx.ring_mut().set_next(next);
        self.tx.ring_mut().set_next(next);
        if next == 0 {
            let id = c.ring_id.next();
            self.rx.ring_mut().set_ring_id(id);
            self.tx.ring_mut().set_ring_id(id);
        }
        let slot = Slot {
            index: c.next,
            ring_id: c.ring_id,
        };
        Ok(CopySlots { tx: slot, rx: slot })
    }

    /// Both rings looked at afresh, TX then RX as the seed checks them: the copies both
    /// have room for, or [`Error::RingFull`] naming the full ring.
    #[inline]
    fn fresh_room(&mut self) -> Result<u32, Error> {
        let tx = self.tx.ring_mut().room();
        if tx == 0 {
            return Err(crate::ring::ring_full(Direction::Tx, 1, tx));
        }
        let rx = self.rx.ring_mut().room();
        if rx == 0 {
            return Err(crate::ring::ring_full(Direction::Rx, 1, rx));
        }
        Ok(tx.min(rx))
    }

    /// One copy into rings that are not in step (room checked): each ring with its own
    /// cursor.
    #[inline]
    fn copy_apart(&mut self, req: &CopyRequest, len: u16) -> Result<CopySlots, Error> {
        let rx = self.rx.ring().peek();
        let tx = self.tx.ring().peek();
        let pair = copy_pair_unchecked(tx.ring_id, rx.ring_id, req, len);
        self.rx.store_slot(rx.index, pair.rx)?;
        self.tx.store_slot(tx.index, pair.tx)?;
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
    #[inline]
    pub fn copy_prepare_batch<C: PacketCaps>(
        &mut self,
        reqs: &[CopyRequest],
    ) -> Result<CopyBatch, Error> {
        self.copy_prepare_batch_from::<C, _>(reqs)
    }

    /// [`copy_prepare_batch`](Self::copy_prepare_batch) over requests of another layout,
    /// read in place through [`CopySource`] (the C ABI's `al_udma_m2m_copy_req`): no pass
    /// to convert the array first. A raw barrier number above 3 is refused as
    /// [`Error::InvalidBarrier`]; everything else is as `copy_prepare_batch`, byte for byte.
    ///
    /// ```
    /// use udma_desc::{caps::{PacketCaps, Supported, Unsupported}, CopySource, DescRing, Descriptor, Direction, Error, QueueId, RingPair};
    /// struct V3;
    /// impl PacketCaps for V3 {
    ///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    ///     type NotificationMasks = Unsupported;
    ///     type StrongOrdering = Supported;
    /// }
    /// /// A caller's own request layout: (src, dst, size, raw barrier).
    /// struct Req(u64, u64, u32, u32);
    /// impl CopySource for Req {
    ///     fn src(&self) -> u64 { self.0 }
    ///     fn dst(&self) -> u64 { self.1 }
    ///     fn size(&self) -> u32 { self.2 }
    ///     fn barrier_raw(&self) -> u32 { self.3 }
    ///     fn dst_interrupt_raw(&self) -> u32 { 0 }
    /// }
    /// let (mut txs, mut rxs) = ([Descriptor::ZERO; 32], [Descriptor::ZERO; 32]);
    /// let mut pair = RingPair::new(
    ///     QueueId::new(0)?,
    ///     DescRing::new(Direction::Tx, &mut txs[..])?,
    ///     DescRing::new(Direction::Rx, &mut rxs[..])?,
    /// );
    /// let bad = [Req(0x1000, 0x2000, 64, 0), Req(0x1040, 0x2040, 64, 4)];
    /// assert_eq!(pair.copy_prepare_batch_from::<V3, _>(&bad), Err(Error::InvalidBarrier { value: 4 }));
    /// assert_eq!(pair.tx().ring().next_index(), 0);
    /// let b = pair.copy_prepare_batch_from::<V3, _>(&[Req(0x1000, 0x2000, 64, 0)])?;
    /// assert_eq!((b.tx.count(), pair.rx().load(0)?.words()), (1, [0x0100_0040, 0, 0x2000, 0]));
    /// # Ok::<(), udma_desc::Error>(())
    /// ```
    pub fn copy_prepare_batch_from<C: PacketCaps, Q: CopySource>(
        &mut self,
        reqs: &[Q],
    ) -> Result<CopyBatch, Error> {
        let count = u32::try_from(reqs.len()).map_err(|_| Error::RingFull {
            ring: Direction::Tx,
            needed: u32::MAX,
            available: self.tx.available(),
        })?;
        self.forget_room();
        let tx = self.tx.ring_mut().plan(count)?;
        let rx = self.rx.ring_mut().plan(count)?;
        // Runs where neither ring wraps (at most three): one ring-id computation each.
        let (mut t, mut r) = (tx.start_slot(), rx.start_slot());
        let mut rest = reqs;
        while !rest.is_empty() {
            let n = rest
                .len()
                .min(tx.room_before_wrap(t.index))
                .min(rx.room_before_wrap(r.index));
            let (run, tail) = rest.split_at_checked(n).unwrap_or((rest, &[]));
            self.write_run::<C, Q>(
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
    /// validating each request. Plain-memory stores are written in one fused pass
    /// ([`CopyWords::write_plain`], or [`CopyWords::write`] again for a run with a barrier
    /// or an interrupt) that checks the requests once at the end of the run; a bad
    /// run is then checked request by request for the first error, as `validate` reports
    /// it. The slots it wrote are free ones (the rings have not moved), as the method's
    /// docs allow.
    #[inline]
    fn write_run<C: PacketCaps, Q: CopySource>(
        &mut self,
        ti: u32,
        ri: u32,
        tx_bits: u32,
        rx_bits: u32,
        run: &[Q],
    ) -> Result<(), Error> {
        let (txs, rxs) = (self.tx.store_mut(), self.rx.store_mut());
        if let (Some(t), Some(r)) = (txs.slots_mut(ti, run.len()), rxs.slots_mut(ri, run.len())) {
            let words = CopyWords::new(tx_bits, rx_bits);
            // Plain copies first (the common case, no lookups); any other run is rewritten.
            let check = match words.write_plain(t, r, run) {
                Some(check) => check,
                None => words.write::<C, Q>(t, r, run),
            };
            if check.sizes >= MAX_TRANSFER_BYTES || check.barriers > Barrier::Sow.raw() {
                for q in run {
                    q.request()?.validate::<C>()?;
                }
            }
            return Ok(());
        }
        // Any other store: one descriptor at a time, the length field from `validate` (the
        // one place a size is encoded).
        let (mut t, mut r) = (ti, ri);
        for q in run {
            let q = q.request()?;
            let len = q.validate::<C>()?;
            rxs.store(r, copy_rx(&q, len, rx_bits))?;
            txs.store(t, copy_tx(&q, len, tx_bits))?;
            // A run never passes its ring's end (at most 2^24 slots): no wrap.
            (t, r) = (t.wrapping_add(1), r.wrapping_add(1));
        }
        Ok(())
    }

    /// Rings the doorbells that hand `tx_count` TX and `rx_count` RX descriptors to the
    /// engine: RX first, so destinations are ready before source data reaches the stream,
    /// then TX. Each count must be at most its ring's size. An RX count of 0 is refused before
    /// any write, as the 2.26.5.0 kernel refuses it ([`start_refuses_rx_count`], the rule's
    /// one definition, which `khal::udma::Udma::copy_start` asks too); a TX count of 0 rings
    /// only RX (how RX descriptors are posted ahead).
    /// The doorbell owns the barrier that makes the descriptors visible to the engine first
    /// ([`Doorbell`]: `khal`'s doorbells issue `mmio`'s DMA write barrier,
    /// `mmio::Mmio::write_barrier`, before each register write), so no fence is added here:
    /// a second one would only cost time on every start.
    #[inline]
    pub fn copy_start<D: Doorbell + ?Sized>(
        &self,
        db: &D,
        tx_count: u32,
        rx_count: u32,
    ) -> Result<(), Error> {
        if start_refuses_rx_count(rx_count) {
            return Err(Error::DoorbellRxCountZero);
        }
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
        db.ring_rx(self.queue, rx_count);
        if tx_count > 0 {
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
