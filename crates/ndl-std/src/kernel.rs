//! The kernel boundary: the five system calls the shim needs, as a trait.
//!
//! [`crate::RealKernel`] forwards them to Linux through `rustix`; `ndl-emu`'s
//! `EmulatedKernel`, a model of the Neuron driver's dispatcher over the
//! `neuron-emu` device model, answers them in-process, so everything above this trait is
//! tested without hardware.

use core::ffi::{c_int, c_void};
use core::fmt;
use std::path::Path;
use std::sync::Arc;

use mmio::Mmio;

pub use rustix::io::Errno;

/// A file descriptor number as the kernel hands it out (`open`'s return value).
pub type RawFd = i32;

/// The access mode of `open(2)`.
///
/// The driver decides the ioctl path by bit 0 of the access mode (`(f_flags & O_WRONLY) == 1`):
/// write-only fds take the free-access lane (misc commands only, no attach), read-only and
/// read-write fds the privileged path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessMode {
    /// `O_RDONLY` (0): privileged path; used by the per-device gateway.
    ReadOnly,
    /// `O_WRONLY` (1): the free-access lane; used by the device-global misc gateway.
    WriteOnly,
    /// `O_RDWR` (2): privileged path; used by device handles.
    ReadWrite,
}

impl AccessMode {
    /// The `O_ACCMODE` bits.
    pub const fn bits(self) -> u32 {
        match self {
            Self::ReadOnly => 0,
            Self::WriteOnly => 1,
            Self::ReadWrite => 2,
        }
    }

    /// The driver's lane test: bit 0 of the access mode set.
    pub const fn is_free_access(self) -> bool {
        self.bits() & 1 == 1
    }
}

/// The system calls of the shim: open, close, ioctl, mmap, munmap.
///
/// Implementations must be usable from many threads at once (`Sync`), like the kernel.
/// Methods report failure as a typed [`Errno`]; an ioctl's non-negative return value is passed
/// through unchanged, because several Neuron handlers report failure with a positive value.
///
/// `mmap` hands out a [`MappedRegion`]: over Linux a volatile window on the mapped pages,
/// over the emulated kernel a window *into the device model* (registers or memory), so that a
/// doorbell written through it reaches the engine as it happens. Either way the region is
/// unmapped when dropped; [`Kernel::munmap`] does the same and reports the kernel's answer.
pub trait Kernel: Send + Sync {
    /// What `mmap` returns.
    type Region: MappedRegion;

    /// Opens `path` with `mode` (close-on-exec). Returns the new fd.
    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno>;

    /// Closes `fd`.
    ///
    /// # Safety
    /// `fd` must have come from [`Kernel::open`] on this kernel, must not have been closed, and
    /// must not be used again by anyone (the number may be reused by the next open).
    unsafe fn close(&self, fd: RawFd);

    /// Issues request `REQ` on `fd` with `arg` as the argument word, returning the handler's
    /// non-negative result.
    ///
    /// The request is a const generic so a backend can build a const-opcode call
    /// (`rustix::ioctl` patterns) and a model can dispatch on it like the driver.
    ///
    /// # Safety
    /// `arg` is null for `_IO` commands; otherwise it is the address of the argument struct of
    /// `REQ`, valid for reads and writes of the struct's full size (the size the driver copies,
    /// which is not the encoded size for pointer-form commands), and every user address inside
    /// it is valid for the accesses the command makes, until the call returns.
    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno>;

    /// Maps `len` bytes of the object behind `offset` (an mmap cookie the driver handed out)
    /// read-write and shared.
    ///
    /// # Safety
    /// `fd` must be open for the duration of the call.
    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<Self::Region, Errno>;

    /// Unmaps a region made by [`Kernel::mmap`] of this kernel, reporting failure (dropping
    /// the region unmaps it too, silently).
    fn munmap(&self, region: Self::Region) -> Result<(), Errno>;
}

/// A region handed out by [`Kernel::mmap`]: 32-bit register access through [`Mmio`] and
/// byte copies, never a Rust reference into it. Dropping it unmaps it.
pub trait MappedRegion: Mmio + Send + Sync + fmt::Debug {
    /// Mapped length in bytes.
    fn len(&self) -> usize;

    /// True for an empty region.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The user-space address of the mapping (what DMABUF_FD takes). Over the emulated
    /// kernel it is a synthetic address in the model's mmap space: never dereference it.
    fn addr(&self) -> u64;

    /// Copies `dst.len()` bytes from `offset`. EFAULT when the range is outside the region,
    /// EINVAL when the region cannot be accessed bytewise there (registers take aligned
    /// 32-bit words only).
    fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> Result<(), Errno>;

    /// Copies `src` to `offset`; errors as for [`MappedRegion::read_bytes`].
    fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<(), Errno>;
}

macro_rules! forward_kernel {
    ($($ty:ty),*) => {$(
        impl<K: Kernel + ?Sized> Kernel for $ty {
            type Region = K::Region;
            fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
                (**self).open(path, mode)
            }
            unsafe fn close(&self, fd: RawFd) {
                // SAFETY: forwarded with the caller's guarantees.
                unsafe { (**self).close(fd) }
            }
            unsafe fn ioctl<const REQ: u32>(
                &self,
                fd: RawFd,
                arg: *mut c_void,
            ) -> Result<c_int, Errno> {
                // SAFETY: forwarded with the caller's guarantees.
                unsafe { (**self).ioctl::<REQ>(fd, arg) }
            }
            unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<K::Region, Errno> {
                // SAFETY: forwarded with the caller's guarantees.
                unsafe { (**self).mmap(fd, len, offset) }
            }
            fn munmap(&self, region: K::Region) -> Result<(), Errno> {
                (**self).munmap(region)
            }
        }
    )*};
}

forward_kernel!(&K, Arc<K>);
