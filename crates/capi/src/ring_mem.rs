//! Caller-owned ring memory as a `udma_desc::DescStore`.

use core::ptr::NonNull;

use udma_desc::{DescStore, Descriptor, Error};

use crate::failure::Failure;
use crate::types::al_udma_desc;

/// `len` descriptor slots of C memory, checked non-NULL and 16-byte aligned at creation.
///
/// The caller's contract (header, `al_udma_q_params`): the memory stays valid and is not
/// written by the caller while the engine handle holds it. The device reads it; this side
/// only writes free slots and the engine reads published ones, so no slot is written by
/// both.
#[derive(Debug)]
pub(crate) struct RawRing {
    base: NonNull<Descriptor>,
    len: usize,
}

impl RawRing {
    /// Checks `ring` (non-NULL, aligned) for `size` slots.
    pub(crate) fn new(
        ring: *mut al_udma_desc,
        size: u32,
        what: &'static str,
    ) -> Result<Self, Failure> {
        let base = NonNull::new(ring.cast::<Descriptor>()).ok_or(Failure::null(what))?;
        if base.as_ptr().align_offset(align_of::<Descriptor>()) != 0 {
            return Err(Failure::invalid(
                "ring memory is not 16-byte aligned",
                base.as_ptr() as u64,
            ));
        }
        let len = usize::try_from(size).map_err(|_| Failure::invalid("ring size", size.into()))?;
        Ok(Self { base, len })
    }

    fn ptr(&self, index: u32) -> Result<*mut Descriptor, Error> {
        usize::try_from(index)
            .ok()
            .filter(|&i| i < self.len)
            // SAFETY: `i < len`, inside the caller's allocation of `len` slots.
            .map(|i| unsafe { self.base.as_ptr().add(i) })
            .ok_or(Error::SlotOutOfRange {
                index,
                capacity: self.len,
            })
    }
}

impl DescStore for RawRing {
    #[inline]
    fn capacity(&self) -> usize {
        self.len
    }

    #[inline]
    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), Error> {
        let p = self.ptr(index)?;
        // SAFETY: `p` is an aligned slot of the caller's ring (checked in `ptr`/`new`), which
        // nobody else writes while the handle is acquired (header contract).
        unsafe { p.write(desc) };
        Ok(())
    }

    #[inline]
    fn load(&self, index: u32) -> Result<Descriptor, Error> {
        let p = self.ptr(index)?;
        // SAFETY: as in `store`; any bit pattern is a valid `Descriptor`.
        Ok(unsafe { p.read() })
    }

    #[inline]
    fn slots_mut(&mut self, start: u32, len: usize) -> Option<&mut [Descriptor]> {
        let s = usize::try_from(start).ok()?;
        if s.checked_add(len)? > self.len {
            return None;
        }
        // SAFETY: `s + len <= self.len` slots of the caller's aligned ring; the returned
        // borrow is tied to `&mut self`, and the caller does not touch the ring meanwhile.
        Some(unsafe { core::slice::from_raw_parts_mut(self.base.as_ptr().add(s), len) })
    }

    #[inline]
    fn store_iter<I: ExactSizeIterator<Item = Descriptor>>(
        &mut self,
        start: u32,
        descs: I,
    ) -> Result<(), Error> {
        let cap = self.len;
        let dst = self
            .slots_mut(start, descs.len())
            .ok_or(Error::SlotOutOfRange {
                index: start,
                capacity: cap,
            })?;
        for (slot, d) in dst.iter_mut().zip(descs) {
            *slot = d;
        }
        Ok(())
    }
}
