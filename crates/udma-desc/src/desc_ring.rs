//! A ring's state together with its descriptor storage; single and bulk writes.

use crate::{DescStore, Descriptor, Direction, Error, Reservation, Ring, Slot};

/// One descriptor ring: [`Ring`] state plus the [`DescStore`] its slots live in.
///
/// ```
/// use udma_desc::{DescRing, Descriptor, Direction};
/// let mut storage = [Descriptor::ZERO; 32];
/// let mut ring = DescRing::new(Direction::Tx, &mut storage[..])?;
/// let prebuilt = [Descriptor::from_words([0x0c00_0040, 0x0108_0003, 0x1000, 0]); 4];
/// let res = ring.push_bulk(&prebuilt)?;
/// assert_eq!((res.start(), res.count()), (0, 4));
/// assert_eq!(ring.load(3)?.ring_id().get(), 1); // stamped with the pass's ring id
/// # Ok::<(), udma_desc::Error>(())
/// ```
#[derive(Debug)]
pub struct DescRing<S> {
    ring: Ring,
    store: S,
}

impl<S: DescStore> DescRing<S> {
    /// A ring as large as its storage (which must be a valid ring size).
    #[inline]
    pub fn new(dir: Direction, store: S) -> Result<Self, Error> {
        let cap = store.capacity();
        let size = u32::try_from(cap).map_err(|_| Error::RingSizeOutOfRange { size: u32::MAX })?;
        Self::with_size(dir, store, size)
    }

    /// A ring of `size` descriptors over the first `size` slots of `store`.
    #[inline]
    pub fn with_size(dir: Direction, store: S, size: u32) -> Result<Self, Error> {
        let ring = Ring::new(dir, size)?;
        let capacity = store.capacity();
        if usize::try_from(size).map_or(true, |s| s > capacity) {
            return Err(Error::StorageTooSmall {
                capacity,
                ring_size: size,
            });
        }
        Ok(Self { ring, store })
    }

    /// The ring state (indices, phase, completions; `ack` works through it).
    #[inline]
    pub fn ring(&self) -> &Ring {
        &self.ring
    }

    #[inline]
    pub(crate) fn ring_mut(&mut self) -> &mut Ring {
        &mut self.ring
    }

    /// The descriptor storage.
    #[inline]
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The descriptor storage, mutably (e.g. to clear it). Ring state is untouched.
    #[inline]
    pub fn store_mut(&mut self) -> &mut S {
        &mut self.store
    }

    /// Splits into state and storage.
    #[inline]
    pub fn into_parts(self) -> (Ring, S) {
        (self.ring, self.store)
    }

    /// Free slots (see [`Ring::available`]).
    #[inline]
    pub fn available(&self) -> u32 {
        self.ring.available()
    }

    /// Acknowledges `count` completions (see [`Ring::ack`]); callable from several threads.
    #[inline]
    pub fn ack(&self, count: u32) -> Result<u32, Error> {
        self.ring.ack(count)
    }

    /// Acknowledges `count` completions as the ring's one owner (see
    /// [`Ring::ack_exclusive`]): no compare-and-swap.
    #[inline]
    pub fn ack_exclusive(&mut self, count: u32) -> Result<u32, Error> {
        self.ring.ack_exclusive(count)
    }

    /// Reads slot `index` of the storage.
    #[inline]
    pub fn load(&self, index: u32) -> Result<Descriptor, Error> {
        self.store.load(index)
    }

    /// Writes `desc` into slot `index` of the ring (crate-internal: the copy path).
    #[inline]
    pub(crate) fn store_slot(&mut self, index: u32, desc: Descriptor) -> Result<(), Error> {
        self.store.store_slot(index, self.ring.mask(), desc)
    }

    /// Writes one descriptor into the next slot, stamped with that slot's ring id.
    /// Nothing is consumed if the ring is full or the store refuses the write.
    #[inline]
    pub fn push(&mut self, desc: Descriptor) -> Result<Slot, Error> {
        self.ring.take_room(1)?;
        let slot = self.ring.peek();
        let mut d = desc;
        d.set_ring_id(slot.ring_id);
        self.store.store(slot.index, d)?;
        let c = self.ring.cursor();
        self.ring.commit(self.ring.advance(c, 1));
        Ok(slot)
    }

    /// Takes `count` slots (see [`Ring::reserve`]); fill them with
    /// [`write_reserved`](Self::write_reserved).
    #[inline]
    pub fn reserve(&mut self, count: u32) -> Result<Reservation, Error> {
        self.ring.reserve(count)
    }

    /// Writes prebuilt descriptors into a reservation, stamping each with its slot's ring
    /// id (`(rid << 24) & 0x3000000`, replacing bits 25:24): one run up to the end of the
    /// ring with the reservation's id, then one from slot 0 with the next id.
    ///
    /// Seed 004 §1 `set_descriptors` ORs the id in; for prebuilt descriptors with bits 25:24
    /// clear the bytes are the same. The project replaces the bits so that a descriptor
    /// carrying a stale id cannot combine into a third one.
    #[inline]
    pub fn write_reserved(&mut self, res: &Reservation, descs: &[Descriptor]) -> Result<(), Error> {
        if usize::try_from(res.count()) != Ok(descs.len()) {
            return Err(Error::ReservationMismatch {
                reserved: res.count(),
                given: descs.len(),
            });
        }
        let first = usize::try_from(res.first_run()).unwrap_or(descs.len());
        let (head, tail) = descs.split_at_checked(first).unwrap_or((descs, &[]));
        self.store.store_run(res.start(), head, res.ring_id())?;
        if !tail.is_empty() {
            self.store.store_run(0, tail, res.ring_id().next())?;
        }
        Ok(())
    }

    /// Reserves `descs.len()` slots and writes `descs` into them (stamped). Refused as a
    /// whole if the ring lacks room; the slots are only taken once the writes succeeded.
    #[inline]
    pub fn push_bulk(&mut self, descs: &[Descriptor]) -> Result<Reservation, Error> {
        let count = u32::try_from(descs.len()).map_err(|_| Error::RingFull {
            ring: self.ring.direction(),
            needed: u32::MAX,
            available: self.ring.available(),
        })?;
        // Plan, write, then take the slots: a failed write leaves the ring as it was.
        let res = self.ring.plan(count)?;
        self.write_reserved(&res, descs)?;
        self.ring.commit_reservation(&res);
        Ok(res)
    }
}
