//! A mapped driver object (BAR resource, device memory, notification queue).

use mmio::Mmio;

use crate::error::{Error, Result};
use crate::kernel::{Kernel, MappedRegion, RawFd};

/// The mmap half of the driver's "info ioctl gives a cookie, mmap the cookie" pairing.
///
/// The region is device memory: it is reached only through [`Mmio`] 32-bit accesses and
/// the byte copies [`Mapping::read_bytes`] / [`Mapping::write_bytes`], never through a Rust
/// reference. Over Linux these are volatile accesses to the mapped pages; over the emulated
/// kernel they go into the device model, so a doorbell written here reaches the engine as it
/// happens. It is unmapped when dropped (or by [`Mapping::unmap`], which reports failure).
#[derive(Debug)]
pub struct Mapping<'a, K: Kernel> {
    kernel: &'a K,
    cookie: u64,
    region: K::Region,
}

impl<'a, K: Kernel> Mapping<'a, K> {
    /// Maps `len` bytes of the object behind `cookie` on `fd`.
    ///
    /// # Safety
    /// `fd` must be an fd of `kernel` that stays open for the duration of the call.
    pub(crate) unsafe fn map(kernel: &'a K, fd: RawFd, cookie: u64, len: u64) -> Result<Self> {
        let err = |errno| Error::Mmap {
            offset: cookie,
            len,
            errno,
        };
        let size = usize::try_from(len).map_err(|_| err(rustix::io::Errno::NOMEM))?;
        // SAFETY: forwarded from this function's contract (`fd` open across the call).
        let region = unsafe { kernel.mmap(fd, size, cookie) }.map_err(err)?;
        Ok(Self {
            kernel,
            cookie,
            region,
        })
    }

    /// Mapped length in bytes.
    pub fn len(&self) -> usize {
        self.region.len()
    }

    /// True for an empty mapping.
    pub fn is_empty(&self) -> bool {
        self.region.is_empty()
    }

    /// The cookie (mmap offset) the driver handed out for this object.
    pub fn cookie(&self) -> u64 {
        self.cookie
    }

    /// The mapping's user-space address (for DMABUF_FD; never dereference it).
    pub fn addr(&self) -> u64 {
        self.region.addr()
    }

    /// The backend's region.
    pub fn region(&self) -> &K::Region {
        &self.region
    }

    fn check(&self, offset: usize, len: usize) -> Result<()> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len() => Ok(()),
            _ => Err(Error::OutOfRange {
                cmd: "mmap",
                what: "offset + len",
                value: (offset as u64).saturating_add(len as u64),
            }),
        }
    }

    fn region_err(&self, errno: rustix::io::Errno) -> Error {
        Error::Mmap {
            offset: self.cookie,
            len: self.len() as u64,
            errno,
        }
    }

    /// Copies bytes out of the mapping.
    pub fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> Result<()> {
        self.check(offset, dst.len())?;
        self.region
            .read_bytes(offset, dst)
            .map_err(|e| self.region_err(e))
    }

    /// Copies bytes into the mapping.
    pub fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<()> {
        self.check(offset, src.len())?;
        self.region
            .write_bytes(offset, src)
            .map_err(|e| self.region_err(e))
    }

    /// Unmaps now, reporting the kernel's answer.
    pub fn unmap(self) -> Result<()> {
        let (offset, len) = (self.cookie, self.len() as u64);
        self.kernel
            .munmap(self.region)
            .map_err(|errno| Error::Mmap { offset, len, errno })
    }
}

impl<K: Kernel> Mmio for Mapping<'_, K> {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        self.region.read32(offset)
    }
    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        self.region.write32(offset, value)
    }
}
