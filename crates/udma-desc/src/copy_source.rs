//! What the batch copy path reads of each request, so that a request array of another
//! layout (the C ABI's `al_udma_m2m_copy_req`) is built from in place, with no second pass
//! to convert it first.

use crate::{Barrier, CopyRequest, Error};

/// The fields of one copy as the batch path ([`RingPair::copy_prepare_batch`]) reads them:
/// plain values, checked by the batch for the whole run at once.
///
/// [`CopyRequest`] implements it (its barrier is valid by construction); a foreign layout
/// implements it over its own fields and gives its raw barrier number unchecked.
///
/// ```
/// use udma_desc::{CopyRequest, CopySource};
/// let q = CopyRequest::new(0x1000, 0x2000, 64);
/// assert_eq!((q.src(), q.dst(), q.size(), q.barrier_raw(), q.dst_interrupt_raw()), (0x1000, 0x2000, 64, 0, 0));
/// assert_eq!(q.request(), Ok(q));
/// ```
///
/// [`RingPair::copy_prepare_batch`]: crate::RingPair::copy_prepare_batch
pub trait CopySource {
    /// Whether [`barrier_raw`](Self::barrier_raw) is always `0..=3`, so the batch skips its
    /// range check (true for [`CopyRequest`], whose barrier is an enum). Claim it only for a
    /// type that guarantees the range: a larger number would then not be refused, and its
    /// descriptors would carry the barrier of its low two bits.
    const BARRIER_IN_RANGE: bool = false;

    /// Source bus address (TX buffer).
    fn src(&self) -> u64;
    /// Destination bus address (RX buffer).
    fn dst(&self) -> u64;
    /// Bytes; the batch refuses anything outside `1..=65536`.
    fn size(&self) -> u32;
    /// The vendor's raw barrier number ([`Barrier::raw`]); the batch refuses anything above
    /// 3 (and SOW on an arch without strong ordering).
    fn barrier_raw(&self) -> u32;
    /// Non-zero: raise the destination (RX) interrupt.
    fn dst_interrupt_raw(&self) -> u32;
    /// The request as a [`CopyRequest`], its barrier number checked
    /// ([`Error::InvalidBarrier`]): the batch's slow path names a refused request with it.
    #[inline]
    fn request(&self) -> Result<CopyRequest, Error> {
        Ok(CopyRequest::new(self.src(), self.dst(), self.size())
            .with_barrier(Barrier::from_raw(self.barrier_raw())?)
            .with_dst_interrupt(self.dst_interrupt_raw() != 0))
    }
}

impl CopySource for CopyRequest {
    const BARRIER_IN_RANGE: bool = true;

    #[inline(always)]
    fn src(&self) -> u64 {
        self.src
    }
    #[inline(always)]
    fn dst(&self) -> u64 {
        self.dst
    }
    #[inline(always)]
    fn size(&self) -> u32 {
        self.size
    }
    #[inline(always)]
    fn barrier_raw(&self) -> u32 {
        self.barrier.raw()
    }
    #[inline(always)]
    fn dst_interrupt_raw(&self) -> u32 {
        u32::from(self.dst_interrupt)
    }
    #[inline]
    fn request(&self) -> Result<CopyRequest, Error> {
        Ok(*self)
    }
}
