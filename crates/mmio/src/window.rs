//! A sub-window of a register window.

use crate::Mmio;

/// A register block that starts `base` bytes into another window.
///
/// Offsets given to the window are relative to `base`; the sum that would overflow `usize`
/// is an unmapped access (reads [`crate::BUS_ERROR_READ`], writes dropped), never a panic.
#[derive(Clone, Copy, Debug)]
pub struct Window<M> {
    inner: M,
    base: usize,
}

impl<M: Mmio> Window<M> {
    /// A window `base` bytes into `inner`.
    pub const fn new(inner: M, base: usize) -> Self {
        Self { inner, base }
    }

    /// Where this window starts inside the underlying one.
    pub const fn base(&self) -> usize {
        self.base
    }

    /// The underlying window.
    pub fn inner(&self) -> &M {
        &self.inner
    }
}

impl<M: Mmio> Mmio for Window<M> {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        match self.base.checked_add(offset) {
            Some(abs) => self.inner.read32(abs),
            None => crate::BUS_ERROR_READ,
        }
    }
    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        if let Some(abs) = self.base.checked_add(offset) {
            self.inner.write32(abs, value)
        }
    }
    #[inline]
    fn write_barrier(&self) {
        self.inner.write_barrier()
    }
}
