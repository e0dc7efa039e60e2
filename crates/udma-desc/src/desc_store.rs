//! Where a ring's descriptors live, kept apart from the ring's indices.

use crate::{Descriptor, Error, RingId};

/// Storage for the descriptors of one ring.
///
/// The ring *state* ([`Ring`](crate::Ring): indices, phase, completion index) never holds
/// a `&mut [Descriptor]` into device memory; it writes slots through this trait. Plain
/// memory (`[Descriptor]`, arrays, `&mut` of either) implements it here; a volatile mmap
/// window (`ndl-std`) or the device model's memory (`neuron-emu`) implement it with their
/// own accesses.
pub trait DescStore {
    /// Descriptors the storage holds.
    fn capacity(&self) -> usize;

    /// Writes `desc` into slot `index`.
    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), Error>;

    /// Reads slot `index`.
    fn load(&self, index: u32) -> Result<Descriptor, Error>;

    /// Writes `desc` into slot `index` of a ring of `mask + 1` slots (a power of two, at
    /// most [`capacity`](Self::capacity); `index <= mask`). The default is
    /// [`store`](Self::store); plain memory checks the ring against its length and indexes
    /// with `index & mask`, which the compiler knows is in range, so a loop of stores
    /// carries no bounds check and no length.
    #[inline]
    fn store_slot(&mut self, index: u32, mask: u32, desc: Descriptor) -> Result<(), Error> {
        let _ = mask;
        self.store(index, desc)
    }

    /// Reads slot `index` of a ring of `mask + 1` slots ([`store_slot`](Self::store_slot)'s
    /// reading side): an index past the ring is [`Error::SlotOutOfRange`].
    #[inline]
    fn load_slot(&self, index: u32, mask: u32) -> Result<Descriptor, Error> {
        if index > mask {
            return Err(out_of_range(index, ring_len(mask)));
        }
        self.load(index)
    }

    /// Writes `descs` into consecutive slots from `start`, stamping each with `ring_id`
    /// (bits 25:24 of word 0 replaced), through [`store_iter`](Self::store_iter).
    #[inline]
    fn store_run(
        &mut self,
        start: u32,
        descs: &[Descriptor],
        ring_id: RingId,
    ) -> Result<(), Error> {
        self.store_iter(start, stamped(descs, ring_id))
    }

    /// The `len` slots from `start` as plain memory, for stores that are ordinary memory
    /// (the batch path then writes them directly, several rings in one pass). `None`, the
    /// default, sends callers through [`store`](Self::store) / [`store_iter`](Self::store_iter).
    #[inline]
    fn slots_mut(&mut self, start: u32, len: usize) -> Option<&mut [Descriptor]> {
        let _ = (start, len);
        None
    }

    /// Writes the descriptors `descs` yields into consecutive slots from `start` (the run
    /// must not pass the end of the ring). The default stores one by one; plain memory
    /// checks the run's bounds once and writes each descriptor with one store.
    #[inline]
    fn store_iter<I: ExactSizeIterator<Item = Descriptor>>(
        &mut self,
        start: u32,
        descs: I,
    ) -> Result<(), Error> {
        let mut index = start;
        for d in descs {
            self.store(index, d)?;
            index = index.wrapping_add(1);
        }
        Ok(())
    }
}

/// `descs`, each with bits 25:24 replaced by `ring_id`.
#[inline]
fn stamped(
    descs: &[Descriptor],
    ring_id: RingId,
) -> impl ExactSizeIterator<Item = Descriptor> + '_ {
    descs.iter().map(move |&d| {
        let mut d = d;
        d.set_ring_id(ring_id);
        d
    })
}

/// Slots in a ring of `mask + 1`, as a length.
#[inline]
fn ring_len(mask: u32) -> usize {
    usize::try_from(mask).map_or(usize::MAX, |m| m.saturating_add(1))
}

/// The error of a slot past the storage (cold; inlinable, so callers see which error it is
/// and a loop of stores keeps its state in registers).
#[cold]
fn out_of_range(index: u32, capacity: usize) -> Error {
    Error::SlotOutOfRange { index, capacity }
}

impl DescStore for [Descriptor] {
    #[inline]
    fn store_slot(&mut self, index: u32, mask: u32, desc: Descriptor) -> Result<(), Error> {
        let cap = self.len();
        let ring = self
            .get_mut(..ring_len(mask))
            .ok_or_else(|| out_of_range(mask, cap))?;
        // `index & mask < mask + 1 == ring.len()`: the compiler drops this check.
        let slot = usize::try_from(index & mask)
            .ok()
            .and_then(|i| ring.get_mut(i))
            .ok_or_else(|| out_of_range(index, cap))?;
        *slot = desc;
        Ok(())
    }

    #[inline]
    fn load_slot(&self, index: u32, mask: u32) -> Result<Descriptor, Error> {
        let ring = self
            .get(..ring_len(mask))
            .ok_or_else(|| out_of_range(mask, self.len()))?;
        usize::try_from(index)
            .ok()
            .and_then(|i| ring.get(i))
            .copied()
            .ok_or_else(|| out_of_range(index, ring.len()))
    }

    #[inline]
    fn slots_mut(&mut self, start: u32, len: usize) -> Option<&mut [Descriptor]> {
        let s = usize::try_from(start).ok()?;
        self.get_mut(s..s.checked_add(len)?)
    }

    #[inline]
    fn capacity(&self) -> usize {
        self.len()
    }

    #[inline]
    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), Error> {
        let cap = self.len();
        let slot = usize::try_from(index)
            .ok()
            .and_then(|i| self.get_mut(i))
            .ok_or_else(|| out_of_range(index, cap))?;
        *slot = desc;
        Ok(())
    }

    #[inline]
    fn load(&self, index: u32) -> Result<Descriptor, Error> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.get(i))
            .copied()
            .ok_or_else(|| out_of_range(index, self.len()))
    }

    #[inline]
    fn store_iter<I: ExactSizeIterator<Item = Descriptor>>(
        &mut self,
        start: u32,
        descs: I,
    ) -> Result<(), Error> {
        let cap = self.len();
        let dst = self
            .slots_mut(start, descs.len())
            .ok_or_else(|| out_of_range(start, cap))?;
        for (slot, d) in dst.iter_mut().zip(descs) {
            *slot = d;
        }
        Ok(())
    }
}

impl<const N: usize> DescStore for [Descriptor; N] {
    #[inline]
    fn capacity(&self) -> usize {
        N
    }
    #[inline]
    fn store_slot(&mut self, index: u32, mask: u32, desc: Descriptor) -> Result<(), Error> {
        self.as_mut_slice().store_slot(index, mask, desc)
    }
    #[inline]
    fn load_slot(&self, index: u32, mask: u32) -> Result<Descriptor, Error> {
        self.as_slice().load_slot(index, mask)
    }
    #[inline]
    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), Error> {
        self.as_mut_slice().store(index, desc)
    }
    #[inline]
    fn load(&self, index: u32) -> Result<Descriptor, Error> {
        self.as_slice().load(index)
    }
    #[inline]
    fn store_run(
        &mut self,
        start: u32,
        descs: &[Descriptor],
        ring_id: RingId,
    ) -> Result<(), Error> {
        self.as_mut_slice().store_run(start, descs, ring_id)
    }
    #[inline]
    fn store_iter<I: ExactSizeIterator<Item = Descriptor>>(
        &mut self,
        start: u32,
        descs: I,
    ) -> Result<(), Error> {
        self.as_mut_slice().store_iter(start, descs)
    }
    #[inline]
    fn slots_mut(&mut self, start: u32, len: usize) -> Option<&mut [Descriptor]> {
        self.as_mut_slice().slots_mut(start, len)
    }
}

impl<S: DescStore + ?Sized> DescStore for &mut S {
    #[inline]
    fn capacity(&self) -> usize {
        (**self).capacity()
    }
    #[inline]
    fn store_slot(&mut self, index: u32, mask: u32, desc: Descriptor) -> Result<(), Error> {
        (**self).store_slot(index, mask, desc)
    }
    #[inline]
    fn load_slot(&self, index: u32, mask: u32) -> Result<Descriptor, Error> {
        (**self).load_slot(index, mask)
    }
    #[inline]
    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), Error> {
        (**self).store(index, desc)
    }
    #[inline]
    fn load(&self, index: u32) -> Result<Descriptor, Error> {
        (**self).load(index)
    }
    #[inline]
    fn store_run(
        &mut self,
        start: u32,
        descs: &[Descriptor],
        ring_id: RingId,
    ) -> Result<(), Error> {
        (**self).store_run(start, descs, ring_id)
    }
    #[inline]
    fn store_iter<I: ExactSizeIterator<Item = Descriptor>>(
        &mut self,
        start: u32,
        descs: I,
    ) -> Result<(), Error> {
        (**self).store_iter(start, descs)
    }
    #[inline]
    fn slots_mut(&mut self, start: u32, len: usize) -> Option<&mut [Descriptor]> {
        (**self).slots_mut(start, len)
    }
}
