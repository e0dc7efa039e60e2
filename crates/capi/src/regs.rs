//! `mmio::Mmio` over a C register block (two callbacks and a context).

use mmio::{BUS_ERROR_READ, Mmio};

use crate::failure::Failure;
use crate::types::neuron_hal_regs;

/// A checked copy of a caller's [`neuron_hal_regs`]: both callbacks present.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CRegs {
    ctx: *mut core::ffi::c_void,
    read32: unsafe extern "C" fn(*mut core::ffi::c_void, usize) -> u32,
    write32: unsafe extern "C" fn(*mut core::ffi::c_void, usize, u32),
    base: usize,
}

impl CRegs {
    /// Copies `*regs`, refusing NULL, a misaligned pointer and a block without both
    /// callbacks.
    ///
    /// # Safety
    /// `regs` is NULL or points to a readable `neuron_hal_regs`.
    pub(crate) unsafe fn from_ptr(regs: *const neuron_hal_regs) -> Result<Self, Failure> {
        // SAFETY: forwarded: a non-NULL `regs` is readable (`read_in` checks the rest).
        let r = unsafe { crate::engine::read_in(regs, "regs is NULL") }?;
        Self::new(&r)
    }

    /// Checks a block given by value.
    pub(crate) fn new(r: &neuron_hal_regs) -> Result<Self, Failure> {
        match (r.read32, r.write32) {
            (Some(read32), Some(write32)) => Ok(Self {
                ctx: r.ctx,
                read32,
                write32,
                base: r.base,
            }),
            (None, _) => Err(Failure::null("regs->read32 is NULL")),
            (_, None) => Err(Failure::null("regs->write32 is NULL")),
        }
    }
}

impl Mmio for CRegs {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        match self.base.checked_add(offset) {
            // SAFETY: the callback and its context are the caller's, who promised (header
            // contract of `neuron_hal_regs`) that they may be called with any offset of the
            // block from this thread; the callback cannot unwind.
            Some(at) => unsafe { (self.read32)(self.ctx, at) },
            None => BUS_ERROR_READ,
        }
    }

    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        if let Some(at) = self.base.checked_add(offset) {
            // SAFETY: as in `read32`.
            unsafe { (self.write32)(self.ctx, at, value) }
        }
    }
}
