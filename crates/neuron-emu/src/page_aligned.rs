//! Zero-filled host memory for a region: an anonymous mapping, page-aligned, lazily
//! committed, fallible, and committed in one call where the model hands memory out.
//!
//! A region's DMA addresses are page-aligned wherever the allocator puts them, so a buffer the
//! driver hands out 4 KiB-aligned is also 4 KiB-aligned in the host memory that backs it (a
//! mapping starts on a page): `memcpy` loses about a quarter of its speed on buffers that are
//! not 64-byte aligned (the copy bench, issue 13).
//!
//! The mapping can fail (a `--memory` or `--size` larger than the host will map): the error
//! comes back to the caller instead of aborting the process, as a `Vec` of that size would.
//! Untouched memory costs nothing.
//!
//! A copy of N bytes makes the model touch 2 N bytes of fresh memory, and at 1 GiB most of
//! its time was the host faulting that in 4 KiB at a time (issue 23). [`prefault`] commits a
//! range the model has just handed out in one `madvise(MADV_POPULATE_WRITE)` (Linux 5.14),
//! which fills the page tables without a fault per page (on this VM 2 GiB: 0.64 s against
//! 0.87-0.91 s faulted in, C, same run). The driver's MEM_ALLOC hands out committed memory
//! too. Transparent huge pages (`MADV_HUGEPAGE`) were measured and are not used: where the
//! host has no free 2 MiB blocks (a busy machine, its memory in page cache), every huge-page
//! fault waits for the host to compact memory, and a 1 GiB copy took 5-6 s instead of 1.6 s.
//!
//! Safe code only: `memmap2`'s anonymous mapping and its advice.
//!
//! [`prefault`]: PageAligned::prefault

use core::ops::{Deref, DerefMut};

use memmap2::{Advice, MmapMut};

/// Host page size the start is aligned to (at least; a mapping starts on a page).
#[cfg(test)]
pub(crate) const PAGE: usize = 4096;

/// Ranges at least this long are committed in one call when handed out; shorter ones fault
/// in as they are touched (the call would cost more than the faults it saves).
const PREFAULT_MIN: usize = 2 << 20;

/// `len` zero bytes starting on a page boundary.
pub(crate) struct PageAligned {
    map: MmapMut,
}

impl PageAligned {
    /// `len` zero bytes, or the host's refusal (ENOMEM for a length it will not map).
    pub(crate) fn zeroed(len: usize) -> std::io::Result<Self> {
        Ok(Self {
            map: MmapMut::map_anon(len)?,
        })
    }

    /// Commits the `len` bytes at `off` (still zero) in one call, when the range is long
    /// enough to gain from it. Advice only: an older host (EINVAL) or one short of memory
    /// (ENOMEM) leaves the pages to fault in as they are touched, as before.
    pub(crate) fn prefault(&self, off: usize, len: usize) {
        if len >= PREFAULT_MIN {
            let _ = self.map.advise_range(Advice::PopulateWrite, off, len);
        }
    }
}

impl Deref for PageAligned {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl DerefMut for PageAligned {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_on_a_page_and_holds_exactly_len_zero_bytes() {
        for len in [1, 4095, 4096, 1 << 20, PREFAULT_MIN + 1] {
            let b = PageAligned::zeroed(len).unwrap();
            b.prefault(0, len);
            assert_eq!(b.len(), len);
            assert_eq!(b.as_ptr() as usize % PAGE, 0, "len {len}");
            assert!(b.iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn a_length_the_host_will_not_map_is_an_error() {
        // No host maps 2^62 bytes (the address space is 2^47 or 2^56 bytes); mmap(2)
        // answers ENOMEM (12 in asm-generic/errno-base.h).
        let e = PageAligned::zeroed(1 << 62).err().unwrap();
        assert_eq!(e.raw_os_error(), Some(12));
    }
}
