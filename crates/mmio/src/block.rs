//! A window on one register block, typed by the block's kind.

use core::marker::PhantomData;

use crate::{Contains, Mmio, MmioExt, Register, RegisterBlock, Window};

/// A window on one block of kind `B` (one queue's registers, say): typed reads and writes of
/// exactly the registers `B` holds, its own and those of the blocks it includes.
///
/// Built with [`MmioExt::block`](crate::MmioExt::block) from the window that holds the
/// blocks. Raw offsets still work through its [`Mmio`] impl (relative to the block start).
#[derive(Clone, Copy, Debug)]
pub struct BlockWindow<M, B> {
    regs: Window<M>,
    block: PhantomData<B>,
}

impl<M: Mmio, B: RegisterBlock> BlockWindow<M, B> {
    /// A window on the block that starts `base` bytes into `regs`.
    pub const fn new(regs: M, base: usize) -> Self {
        Self {
            regs: Window::new(regs, base),
            block: PhantomData,
        }
    }

    /// Where the block starts inside the underlying window.
    pub const fn base(&self) -> usize {
        self.regs.base()
    }

    /// Reads register `R` of the block.
    #[inline]
    pub fn read<R: Register>(&self) -> R::Value
    where
        B: Contains<R::Block>,
    {
        self.regs.read::<R>()
    }

    /// Writes register `R` of the block.
    #[inline]
    pub fn write<R: Register>(&self, value: R::Value)
    where
        B: Contains<R::Block>,
    {
        self.regs.write::<R>(value)
    }

    /// Read-modify-write of register `R`; returns the value written.
    #[inline]
    pub fn modify<R: Register>(&self, f: impl FnOnce(R::Value) -> R::Value) -> R::Value
    where
        B: Contains<R::Block>,
    {
        let value = f(self.read::<R>());
        self.write::<R>(value);
        value
    }
}

impl<M: Mmio, B> Mmio for BlockWindow<M, B> {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        self.regs.read32(offset)
    }
    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        self.regs.write32(offset, value)
    }
    #[inline]
    fn write_barrier(&self) {
        self.regs.write_barrier()
    }
}
