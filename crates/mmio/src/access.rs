//! The register-access trait.

use crate::{BlockWindow, Placed, Register, Window, block_base};

/// What a read of an unmapped or misaligned offset returns.
///
/// A PCIe read that no device claims completes with all ones (an "unsupported request"
/// completion), so software already treats `0xFFFF_FFFF` as "the device is not there".
/// Implementations return it instead of panicking on a bad offset.
pub const BUS_ERROR_READ: u32 = 0xFFFF_FFFF;

/// 32-bit register access at a byte offset inside a register window.
///
/// Methods take `&self`: registers are shared hardware state, and a window is used from the
/// code that owns the engine as well as, for example, an interrupt path. Implementations must
/// perform each call as exactly one access, in program order (no merging, no elision), and must
/// never panic: an offset outside the window reads [`BUS_ERROR_READ`] and a write there is
/// dropped, as on a PCIe bus.
pub trait Mmio {
    /// Reads the 32-bit register at byte `offset`.
    fn read32(&self, offset: usize) -> u32;
    /// Writes `value` to the 32-bit register at byte `offset`.
    fn write32(&self, offset: usize, value: u32);

    /// The DMA write barrier before a write that starts DMA (a doorbell): every ordinary
    /// memory store before it is visible to the device before any write after it (see
    /// [`dma_write_barrier`](crate::dma_write_barrier), which the default calls). A window
    /// forwards it to the window it is cut from; a recording fake records where it fell.
    #[inline]
    fn write_barrier(&self) {
        crate::dma_write_barrier()
    }
}

impl<T: Mmio + ?Sized> Mmio for &T {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        (**self).read32(offset)
    }
    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        (**self).write32(offset, value)
    }
    #[inline]
    fn write_barrier(&self) {
        (**self).write_barrier()
    }
}

/// Conveniences over [`Mmio`], available on every implementation.
pub trait MmioExt: Mmio {
    /// Read-modify-write: reads `offset`, applies `f`, writes the result back; returns it.
    #[inline]
    fn modify32(&self, offset: usize, f: impl FnOnce(u32) -> u32) -> u32 {
        let value = f(self.read32(offset));
        self.write32(offset, value);
        value
    }

    /// Reads a typed register (its offset and value type come from `R`).
    #[inline]
    fn read<R: Register>(&self) -> R::Value {
        R::Value::from(self.read32(R::OFFSET))
    }

    /// Writes a typed register.
    #[inline]
    fn write<R: Register>(&self, value: R::Value) {
        self.write32(R::OFFSET, value.into())
    }

    /// A sub-window that starts `base` bytes into this one (a register block inside a BAR).
    #[inline]
    fn window(&self, base: usize) -> Window<&Self> {
        Window::new(self, base)
    }

    /// A typed window on block `index` of the block array `B` placed in this window (for a
    /// single block, index 0); `None` past `B::COUNT`.
    #[inline]
    fn block<B: Placed>(&self, index: usize) -> Option<BlockWindow<&Self, B>> {
        block_base::<B>(index).map(|base| BlockWindow::new(self, base))
    }
}

impl<T: Mmio + ?Sized> MmioExt for T {}
