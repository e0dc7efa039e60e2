//! The real backend: Linux system calls through `rustix`.

use core::ffi::{c_int, c_void};
use core::mem::ManuallyDrop;
use core::ptr::{self, NonNull};
use std::os::fd::{BorrowedFd, FromRawFd, IntoRawFd, OwnedFd};
use std::path::Path;

use rustix::fs::{Mode, OFlags};
use rustix::ioctl::{Ioctl, IoctlOutput, Opcode};
use rustix::mm::{MapFlags, ProtFlags};

use mmio::{Mmio, VolatileMmio};

use crate::kernel::{AccessMode, Errno, Kernel, MappedRegion, RawFd};

/// Linux itself: `open`/`close`/`ioctl`/`mmap`/`munmap` on real device nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RealKernel;

/// A const-opcode ioctl in rustix's "updater" pattern (the kernel may read and write the
/// argument) that, unlike `rustix::ioctl::Updater`, keeps the handler's return value: Neuron
/// handlers report some failures as positive returns, which `Updater` would discard.
struct Call<const REQ: u32> {
    arg: *mut c_void,
}

// SAFETY: the opcode and argument come from `Kernel::ioctl`, whose caller guarantees that `arg`
// is null or the address of the request's argument struct, valid for the accesses the command
// makes; the output is the raw return value, built without touching `arg`. The kernel may
// write through `arg`, so the call is declared mutating.
unsafe impl<const REQ: u32> Ioctl for Call<REQ> {
    type Output = c_int;
    const IS_MUTATING: bool = true;

    fn opcode(&self) -> Opcode {
        // Identity (`c_uint`) or widening (`c_ulong`), depending on rustix's backend.
        Opcode::from(REQ)
    }

    fn as_ptr(&mut self) -> *mut c_void {
        self.arg
    }

    unsafe fn output_from_ptr(out: IoctlOutput, _arg: *mut c_void) -> rustix::io::Result<c_int> {
        Ok(out)
    }
}

impl Kernel for RealKernel {
    type Region = RealRegion;

    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        let access = match mode {
            AccessMode::ReadOnly => OFlags::RDONLY,
            AccessMode::WriteOnly => OFlags::WRONLY,
            AccessMode::ReadWrite => OFlags::RDWR,
        };
        let fd = rustix::fs::open(path, access | OFlags::CLOEXEC, Mode::empty())?;
        Ok(fd.into_raw_fd())
    }

    unsafe fn close(&self, fd: RawFd) {
        // SAFETY: the caller guarantees `fd` is an open fd from `open` that nobody uses again,
        // so taking ownership and dropping it closes it exactly once.
        drop(unsafe { OwnedFd::from_raw_fd(fd) });
    }

    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        // SAFETY: the caller guarantees `fd` is open for the duration of the call.
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        // SAFETY: `Call` forwards the caller's argument contract (see its `Ioctl` impl).
        unsafe { rustix::ioctl::ioctl(fd, Call::<REQ> { arg }) }
    }

    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<RealRegion, Errno> {
        // SAFETY: the caller guarantees `fd` is open.
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        let prot = ProtFlags::READ | ProtFlags::WRITE;
        // SAFETY: a fresh shared mapping at a kernel-chosen address overlaps no Rust object;
        // it is reached only through the region's volatile accesses.
        let p =
            unsafe { rustix::mm::mmap(ptr::null_mut(), len, prot, MapFlags::SHARED, fd, offset) }?;
        let base = NonNull::new(p.cast::<u8>()).ok_or(Errno::FAULT)?;
        // SAFETY: mmap returned a page-aligned region valid for `len` bytes until `munmap`,
        // which only the region's drop (or `Kernel::munmap`) calls; no reference to it is
        // ever formed.
        let regs = unsafe { VolatileMmio::new(base, len) };
        Ok(RealRegion { base, regs })
    }

    fn munmap(&self, region: RealRegion) -> Result<(), Errno> {
        region.unmap()
    }
}

/// A shared mapping made by [`RealKernel`]: volatile accesses only, unmapped on drop.
#[derive(Debug)]
pub struct RealRegion {
    base: NonNull<u8>,
    regs: VolatileMmio,
}

// SAFETY: the region is a handle to shared (device) memory reached only through volatile
// raw-pointer accesses, never references; `munmap` may run on any thread.
unsafe impl Send for RealRegion {}
// SAFETY: as for `Send`; every method takes `&self` and does volatile accesses only.
unsafe impl Sync for RealRegion {}

impl RealRegion {
    /// The byte range `[offset, offset + len)`, checked against the mapping.
    fn range(&self, offset: usize, len: usize) -> Result<*mut u8, Errno> {
        match offset.checked_add(len) {
            Some(end) if end <= self.regs.len() => Ok(self.base.as_ptr().wrapping_add(offset)),
            _ => Err(Errno::FAULT),
        }
    }

    fn unmap(self) -> Result<(), Errno> {
        let this = ManuallyDrop::new(self);
        // SAFETY: this is exactly the mapping `mmap` made; `self` was its only handle and is
        // consumed without running its drop, so the pages are unmapped exactly once.
        unsafe { rustix::mm::munmap(this.base.as_ptr().cast(), this.regs.len()) }
    }
}

impl Mmio for RealRegion {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        self.regs.read32(offset)
    }
    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        self.regs.write32(offset, value)
    }
}

impl MappedRegion for RealRegion {
    fn len(&self) -> usize {
        self.regs.len()
    }

    fn addr(&self) -> u64 {
        self.base.as_ptr() as u64
    }

    fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> Result<(), Errno> {
        let p = self.range(offset, dst.len())?;
        for (i, b) in dst.iter_mut().enumerate() {
            // SAFETY: `range` checked `offset + i < len`; the mapping lives until drop.
            *b = unsafe { p.add(i).read_volatile() };
        }
        Ok(())
    }

    fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<(), Errno> {
        let p = self.range(offset, src.len())?;
        for (i, b) in src.iter().enumerate() {
            // SAFETY: as in `read_bytes`.
            unsafe { p.add(i).write_volatile(*b) };
        }
        Ok(())
    }
}

impl Drop for RealRegion {
    fn drop(&mut self) {
        // SAFETY: this is exactly the mapping `mmap` made, and `self` is its only handle.
        // An munmap failure leaves nothing to recover; the range is simply leaked.
        let _ = unsafe { rustix::mm::munmap(self.base.as_ptr().cast(), self.regs.len()) };
    }
}
