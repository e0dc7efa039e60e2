//! A mapped driver object (BAR resource, device memory, notification queue).

use core::ptr::NonNull;

use mmio::{Mmio, VolatileMmio};

use crate::error::{Error, Result};
use crate::kernel::{Kernel, RawFd};

/// The mmap half of the driver's "info ioctl gives a cookie, mmap the cookie" pairing.
///
/// The region is device memory: it is reached only through raw volatile accesses
/// ([`Mmio`], [`Mapping::read_bytes`], [`Mapping::write_bytes`]), never through a Rust
/// reference. It is unmapped when dropped.
#[derive(Debug)]
pub struct Mapping<'a, K: Kernel> {
    kernel: &'a K,
    base: NonNull<u8>,
    cookie: u64,
    regs: VolatileMmio,
}

// SAFETY: the mapping is a handle to shared device memory accessed only through volatile
// raw-pointer operations (no references), and the kernel it unmaps through is `Sync`.
unsafe impl<K: Kernel> Send for Mapping<'_, K> {}
// SAFETY: as for `Send`; every method takes `&self` and does volatile accesses only.
unsafe impl<K: Kernel> Sync for Mapping<'_, K> {}

impl<'a, K: Kernel> Mapping<'a, K> {
    /// Maps `len` bytes of the object behind `cookie` on `fd`.
    pub(crate) fn map(kernel: &'a K, fd: RawFd, cookie: u64, len: u64) -> Result<Self> {
        let err = |errno| Error::Mmap {
            offset: cookie,
            len,
            errno,
        };
        let size = usize::try_from(len).map_err(|_| err(rustix::io::Errno::NOMEM))?;
        // SAFETY: the caller holds `fd` open across this call; the new mapping is reached only
        // through `VolatileMmio` and the volatile byte copies below.
        let base = unsafe { kernel.mmap(fd, size, cookie) }.map_err(err)?;
        // SAFETY: mmap returns a page-aligned region valid for `size` bytes until `munmap`,
        // which only `Drop` calls; no reference to it is ever formed.
        let regs = unsafe { VolatileMmio::new(base, size) };
        Ok(Self {
            kernel,
            base,
            cookie,
            regs,
        })
    }

    /// Mapped length in bytes.
    pub fn len(&self) -> usize {
        self.regs.len()
    }

    /// True for an empty mapping.
    pub fn is_empty(&self) -> bool {
        self.regs.is_empty()
    }

    /// The cookie (mmap offset) the driver handed out for this object.
    pub fn cookie(&self) -> u64 {
        self.cookie
    }

    /// Base address (for handing to DMA descriptors or `UserPtr`; do not dereference).
    pub fn as_ptr(&self) -> *mut u8 {
        self.base.as_ptr()
    }

    /// The region as a register window.
    pub fn regs(&self) -> &VolatileMmio {
        &self.regs
    }

    fn range(&self, offset: usize, len: usize) -> Result<*mut u8> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len() => Ok(self.base.as_ptr().wrapping_add(offset)),
            _ => Err(Error::OutOfRange {
                cmd: "mmap",
                what: "offset + len",
                value: offset as u64 + len as u64,
            }),
        }
    }

    /// Copies bytes out of the mapping with volatile byte reads.
    pub fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> Result<()> {
        let p = self.range(offset, dst.len())?;
        for (i, b) in dst.iter_mut().enumerate() {
            // SAFETY: `range` checked `offset + i < len`; the region is live until drop.
            *b = unsafe { p.add(i).read_volatile() };
        }
        Ok(())
    }

    /// Copies bytes into the mapping with volatile byte writes.
    pub fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<()> {
        let p = self.range(offset, src.len())?;
        for (i, b) in src.iter().enumerate() {
            // SAFETY: as in `read_bytes`.
            unsafe { p.add(i).write_volatile(*b) };
        }
        Ok(())
    }
}

impl<K: Kernel> Mmio for Mapping<'_, K> {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        self.regs.read32(offset)
    }
    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        self.regs.write32(offset, value)
    }
}

impl<K: Kernel> Drop for Mapping<'_, K> {
    fn drop(&mut self) {
        // SAFETY: this is exactly the mapping `map` made, and `self` is its only handle.
        // An munmap failure leaves nothing to recover; the region is simply leaked.
        let _ = unsafe { self.kernel.munmap(self.base, self.len()) };
    }
}
