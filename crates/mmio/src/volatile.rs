//! Volatile access to a mapped BAR: the one place with `unsafe` for MMIO.

use core::ptr::NonNull;

use crate::{BUS_ERROR_READ, Mmio};

/// A register window over mapped device memory (a PCI BAR mapped with `mmap`, or any memory
/// the caller vouches for), accessed only through `read_volatile` / `write_volatile`.
///
/// Offsets are bounds- and alignment-checked: an access outside `len` bytes or not 4-byte
/// aligned behaves like an unclaimed bus access (reads [`BUS_ERROR_READ`], writes dropped).
///
/// # What it orders, and what it does not
///
/// * **Each call is one 32-bit access, never merged, split, repeated or elided**, and the
///   accesses through it are emitted in program order relative to each other (and to any
///   other volatile access): that is what `read_volatile` / `write_volatile` promise.
/// * **The hardware keeps them in that order** only because of how the BAR is mapped: the
///   driver maps register space uncached (`reference/mmap-README.md`: special resources are
///   "always forced uncached"), and uncached (x86 UC) or Device (Arm) accesses to one device
///   are performed in program order. This type cannot check the mapping it is given.
/// * **Ordinary memory accesses are not ordered against them**, by the compiler or by the
///   CPU: descriptors written to a DMA ring with plain stores may reach the device after a
///   doorbell written here. Volatile MMIO cannot start DMA safely on its own (tock-registers
///   warns the same); call [`write_barrier`](Mmio::write_barrier) (the
///   [`dma_write_barrier`](crate::dma_write_barrier)) between the descriptors and the
///   doorbell.
/// * **A write is not complete when the call returns**: PCIe MMIO writes are posted. A read
///   from the same device is what waits for earlier writes to arrive.
/// * **It is not a lock**: two threads writing through one window interleave their accesses
///   in some order; making multi-register sequences atomic is the caller's business.
#[derive(Debug)]
pub struct VolatileMmio {
    base: NonNull<u8>,
    len: usize,
}

// SAFETY: the window is a handle to device registers, not to Rust-owned data; 32-bit aligned
// volatile accesses are single bus transactions, so using them from several threads cannot tear
// and creates no data race in the Rust sense (no references are ever formed).
unsafe impl Send for VolatileMmio {}
// SAFETY: as for `Send`: all access goes through `&self` volatile reads/writes of aligned u32s.
unsafe impl Sync for VolatileMmio {}

impl VolatileMmio {
    /// Wraps `len` bytes of mapped registers starting at `base`.
    ///
    /// # Safety
    /// `base` must be 4-byte aligned and valid for volatile 32-bit reads and writes over `len`
    /// bytes for the whole life of the returned value (for a BAR: until it is unmapped), and no
    /// Rust reference may be formed to that memory while this value exists.
    pub const unsafe fn new(base: NonNull<u8>, len: usize) -> Self {
        Self { base, len }
    }

    /// Size of the window in bytes.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// True when the window is empty.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The register pointer for `offset`, or `None` when it is outside or misaligned.
    #[inline]
    fn reg(&self, offset: usize) -> Option<*mut u32> {
        let end = offset.checked_add(4)?;
        if end > self.len || offset % 4 != 0 {
            return None;
        }
        // `offset + 4 <= len`, so the pointer stays inside the mapping given to `new`.
        Some(self.base.as_ptr().wrapping_add(offset).cast::<u32>())
    }
}

impl Mmio for VolatileMmio {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        match self.reg(offset) {
            // SAFETY: `reg` checked bounds and alignment against the region `new`'s caller
            // guaranteed valid for volatile access.
            Some(p) => unsafe { p.read_volatile() },
            None => BUS_ERROR_READ,
        }
    }

    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        if let Some(p) = self.reg(offset) {
            // SAFETY: as in `read32`.
            unsafe { p.write_volatile(value) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_plain_memory_and_rejects_bad_offsets() {
        let mut backing = [0u32; 4];
        {
            let ptr = NonNull::from(&mut backing).cast::<u8>();
            // SAFETY: `backing` outlives `m` (this block), is aligned, 16 bytes long, and is
            // only touched through `m` inside the block.
            let m = unsafe { VolatileMmio::new(ptr, 16) };
            m.write32(4, 0xdead_beef);
            assert_eq!(m.read32(4), 0xdead_beef);
            assert_eq!(m.read32(16), BUS_ERROR_READ, "past the end");
            assert_eq!(m.read32(2), BUS_ERROR_READ, "misaligned");
            assert_eq!(m.read32(usize::MAX - 1), BUS_ERROR_READ, "overflowing end");
            m.write32(16, 1); // dropped, no panic
            m.write32(12, 7);
        }
        assert_eq!(backing, [0, 0xdead_beef, 0, 7]);
    }
}
