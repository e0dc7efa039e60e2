//! Backing memory of the model: allocations, rings, register blocks.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;

use crate::kernel::Errno;

/// Page size of the model's mmap space.
pub const PAGE: usize = 4096;

/// A zeroed, page-aligned block of memory standing in for device or DMA memory.
///
/// Handlers copy in and out of it under the model's lock; mappings hand its address to
/// user space, which reaches it only through volatile accesses (as with real device memory,
/// a handler and a mapping touching the same bytes at the same time is a race the caller
/// must avoid).
#[derive(Debug)]
pub(crate) struct Region {
    base: NonNull<u8>,
    len: usize,
}

// SAFETY: the region owns its allocation and is only accessed through raw pointers (never
// references), under the model's lock or by volatile mapping accesses.
unsafe impl Send for Region {}
// SAFETY: as for `Send`.
unsafe impl Sync for Region {}

impl Region {
    /// A zeroed region of `len` bytes (at least one page is reserved).
    pub(crate) fn new(len: usize) -> Result<Self, Errno> {
        let layout = Layout::from_size_align(len.max(1), PAGE).map_err(|_| Errno::NOMEM)?;
        // SAFETY: `layout` has a non-zero size.
        let p = unsafe { alloc_zeroed(layout) };
        let base = NonNull::new(p).ok_or(Errno::NOMEM)?;
        Ok(Self { base, len })
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn base(&self) -> NonNull<u8> {
        self.base
    }

    fn span(&self, offset: u64, len: usize) -> Result<*mut u8, Errno> {
        let off = usize::try_from(offset).map_err(|_| Errno::INVAL)?;
        match off.checked_add(len) {
            Some(end) if end <= self.len => Ok(self.base.as_ptr().wrapping_add(off)),
            _ => Err(Errno::INVAL),
        }
    }

    /// Copies `dst.len()` bytes from `offset` (EINVAL when out of bounds).
    pub(crate) fn read(&self, offset: u64, dst: &mut [u8]) -> Result<(), Errno> {
        let p = self.span(offset, dst.len())?;
        // SAFETY: `span` checked the range lies inside the allocation; `dst` is a distinct
        // Rust buffer.
        unsafe { std::ptr::copy_nonoverlapping(p, dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }

    /// Copies `src` to `offset` (EINVAL when out of bounds).
    pub(crate) fn write(&self, offset: u64, src: &[u8]) -> Result<(), Errno> {
        let p = self.span(offset, src.len())?;
        // SAFETY: as in `read`.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), p, src.len()) };
        Ok(())
    }

    /// Fills `len` bytes at `offset` with `byte`.
    pub(crate) fn fill(&self, offset: u64, len: usize, byte: u8) -> Result<(), Errno> {
        let p = self.span(offset, len)?;
        // SAFETY: as in `read`.
        unsafe { std::ptr::write_bytes(p, byte, len) };
        Ok(())
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if let Ok(layout) = Layout::from_size_align(self.len.max(1), PAGE) {
            // SAFETY: allocated in `new` with this very layout; dropped once.
            unsafe { dealloc(self.base.as_ptr(), layout) };
        }
    }
}
