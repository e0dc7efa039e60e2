//! The real backend: Linux system calls through `rustix`.

use core::ffi::{c_int, c_void};
use core::ptr::{self, NonNull};
use std::os::fd::{BorrowedFd, FromRawFd, IntoRawFd, OwnedFd};
use std::path::Path;

use rustix::fs::{Mode, OFlags};
use rustix::ioctl::{Ioctl, IoctlOutput, Opcode};
use rustix::mm::{MapFlags, ProtFlags};

use crate::kernel::{AccessMode, Errno, Kernel, RawFd};

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

    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<NonNull<u8>, Errno> {
        // SAFETY: the caller guarantees `fd` is open.
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        let prot = ProtFlags::READ | ProtFlags::WRITE;
        // SAFETY: a fresh shared mapping at a kernel-chosen address overlaps no Rust object;
        // the caller accesses it only through volatile pointers.
        let p =
            unsafe { rustix::mm::mmap(ptr::null_mut(), len, prot, MapFlags::SHARED, fd, offset) }?;
        NonNull::new(p.cast::<u8>()).ok_or(Errno::FAULT)
    }

    unsafe fn munmap(&self, addr: NonNull<u8>, len: usize) -> Result<(), Errno> {
        // SAFETY: the caller guarantees this is exactly one live mapping nobody uses any more.
        unsafe { rustix::mm::munmap(addr.as_ptr().cast(), len) }
    }
}
