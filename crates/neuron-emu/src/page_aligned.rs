//! Zero-filled host memory whose first byte sits on a 4 KiB page boundary.
//!
//! A region's DMA addresses are page-aligned wherever the allocator puts them, so a buffer the
//! driver hands out 4 KiB-aligned should also be 4 KiB-aligned in the host memory that backs
//! it: otherwise every copy the model makes runs on whatever offset the host allocator picked
//! (glibc returns large blocks 16 bytes past a page start), and `memcpy` loses about a quarter
//! of its speed on buffers that are not 64-byte aligned (the copy bench, issue 13).
//!
//! Safe code only: one zeroed allocation `PAGE - 1` bytes longer than asked, viewed from its
//! first page boundary. A zeroed allocation stays lazily committed by the host OS, so an
//! untouched region still costs no memory.

use core::ops::{Deref, DerefMut};

/// Host page size the start is aligned to.
pub(crate) const PAGE: usize = 4096;

/// `len` zero bytes starting on a [`PAGE`] boundary.
pub(crate) struct PageAligned {
    storage: Box<[u8]>,
    start: usize,
    len: usize,
}

impl PageAligned {
    /// `len` zero bytes; `None` when `len + PAGE - 1` overflows.
    pub(crate) fn zeroed(len: usize) -> Option<Self> {
        let storage = vec![0u8; len.checked_add(PAGE - 1)?].into_boxed_slice();
        // `align_offset` may answer usize::MAX where it cannot compute; then fall back to an
        // unaligned start rather than fail (alignment is a speed matter, not a correctness one).
        let start = match storage.as_ptr().align_offset(PAGE) {
            off if off < PAGE => off,
            _ => 0,
        };
        Some(Self {
            storage,
            start,
            len,
        })
    }
}

impl Deref for PageAligned {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        // `start < PAGE` and `storage.len() == len + PAGE - 1`: always in bounds.
        self.storage
            .get(self.start..self.start + self.len)
            .unwrap_or_default()
    }
}

impl DerefMut for PageAligned {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        self.storage
            .get_mut(self.start..self.start + self.len)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_on_a_page_and_holds_exactly_len_zero_bytes() {
        for len in [0, 1, 4095, 4096, 1 << 20] {
            let b = PageAligned::zeroed(len).unwrap();
            assert_eq!(b.len(), len);
            assert_eq!(b.as_ptr() as usize % PAGE, 0, "len {len}");
            assert!(b.iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn an_overflowing_length_is_refused() {
        assert!(PageAligned::zeroed(usize::MAX).is_none());
    }
}
