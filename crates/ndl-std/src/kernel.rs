//! The kernel boundary: the five system calls the shim needs, as a trait.
//!
//! [`crate::RealKernel`] forwards them to Linux through `rustix`; a model of the Neuron driver
//! ([`crate::model::ModelKernel`] now, the device-model-backed emulated kernel later) answers
//! them in-process, so everything above this trait is tested without hardware.

use core::ffi::{c_int, c_void};
use core::ptr::NonNull;
use std::path::Path;
use std::sync::Arc;

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
pub trait Kernel: Send + Sync {
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
    /// `fd` must be open. The mapping aliases device memory: the caller must access it only
    /// through raw volatile pointers, never through references.
    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<NonNull<u8>, Errno>;

    /// Unmaps a mapping made by [`Kernel::mmap`].
    ///
    /// # Safety
    /// `addr`/`len` must be exactly one earlier mapping of this kernel, and nothing may access
    /// it afterwards.
    unsafe fn munmap(&self, addr: NonNull<u8>, len: usize) -> Result<(), Errno>;
}

macro_rules! forward_kernel {
    ($($ty:ty),*) => {$(
        impl<K: Kernel + ?Sized> Kernel for $ty {
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
            unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<NonNull<u8>, Errno> {
                // SAFETY: forwarded with the caller's guarantees.
                unsafe { (**self).mmap(fd, len, offset) }
            }
            unsafe fn munmap(&self, addr: NonNull<u8>, len: usize) -> Result<(), Errno> {
                // SAFETY: forwarded with the caller's guarantees.
                unsafe { (**self).munmap(addr, len) }
            }
        }
    )*};
}

forward_kernel!(&K, Arc<K>);
