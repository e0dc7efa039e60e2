//! `copy_from_user` / `copy_to_user` of the model.
//!
//! By default the model runs in the caller's address space, so "user memory" is ordinary
//! memory; the [`ndl_std::Kernel::ioctl`] contract makes the caller vouch for every address
//! it passes. [`EmulatedKernel::ioctl_for`](crate::EmulatedKernel::ioctl_for) serves a call
//! of *another* process instead: for its duration every copy goes through the
//! [`UserAccess`] it was given (e.g. `process_vm_readv`/`writev` on that process).
//! Null addresses fail with EFAULT, like a faulting copy.

use core::ffi::c_void;
use std::cell::RefCell;

use zerocopy::{FromBytes, Immutable, IntoBytes};

use ndl_std::Errno;

/// The memory of the process a call is served for.
pub trait UserAccess {
    /// Copies `dst.len()` bytes from user address `addr` (EFAULT when not readable).
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno>;
    /// Copies `src` to user address `addr` (EFAULT when not writable).
    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno>;
}

thread_local! {
    static USER: RefCell<Option<Box<dyn UserAccess>>> = const { RefCell::new(None) };
}

/// Runs `f` with every user copy on this thread going through `memory`.
pub(crate) fn scoped<R>(memory: Box<dyn UserAccess>, f: impl FnOnce() -> R) -> R {
    let prev = USER.with(|u| u.replace(Some(memory)));
    let out = f();
    USER.with(|u| u.replace(prev));
    out
}

/// `Some(result)` when a call is being served for another process.
fn remote<R>(f: impl FnOnce(&dyn UserAccess) -> R) -> Option<R> {
    USER.with(|u| u.borrow().as_deref().map(f))
}

/// Reads a `T` from the argument address (the driver's whole-struct copy-in).
///
/// # Safety
/// `arg` is null or valid for reading `size_of::<T>()` bytes (in this process; with a
/// [`UserAccess`] in scope, in the served process, which checks it itself).
pub(crate) unsafe fn read_arg<T: FromBytes>(arg: *const c_void) -> Result<T, Errno> {
    if arg.is_null() {
        return Err(Errno::FAULT);
    }
    if let Some(r) = remote(|m| {
        let mut b = vec![0u8; size_of::<T>()];
        m.read(arg as usize as u64, &mut b)?;
        T::read_from_bytes(&b).map_err(|_| Errno::FAULT)
    }) {
        return r;
    }
    // SAFETY: the caller guarantees the bytes are readable; any bit pattern is a valid `T`.
    Ok(unsafe { arg.cast::<T>().read_unaligned() })
}

/// Writes `value` to the argument address (the driver's copy-out).
///
/// # Safety
/// As [`read_arg`], for writing.
pub(crate) unsafe fn write_arg<T: IntoBytes + Immutable>(
    arg: *mut c_void,
    value: &T,
) -> Result<(), Errno> {
    // SAFETY: forwarded.
    unsafe { write_user(arg as usize as u64, value.as_bytes()) }
}

/// Copies `len` bytes from user address `addr`.
///
/// # Safety
/// `addr` is 0 or valid for reading `len` bytes (see [`read_arg`]).
pub(crate) unsafe fn read_user(addr: u64, len: usize) -> Result<Vec<u8>, Errno> {
    if addr == 0 && len != 0 {
        return Err(Errno::FAULT);
    }
    let mut out = vec![0u8; len];
    if len != 0 {
        if let Some(r) = remote(|m| m.read(addr, &mut out)) {
            return r.map(|()| out);
        }
        // SAFETY: the caller guarantees `len` readable bytes at `addr`.
        unsafe { std::ptr::copy_nonoverlapping(addr as usize as *const u8, out.as_mut_ptr(), len) };
    }
    Ok(out)
}

/// Copies `bytes` to user address `addr`.
///
/// # Safety
/// `addr` is 0 or valid for writing `bytes.len()` bytes (see [`read_arg`]).
pub(crate) unsafe fn write_user(addr: u64, bytes: &[u8]) -> Result<(), Errno> {
    if addr == 0 && !bytes.is_empty() {
        return Err(Errno::FAULT);
    }
    if !bytes.is_empty() {
        if let Some(r) = remote(|m| m.write(addr, bytes)) {
            return r;
        }
        // SAFETY: the caller guarantees `bytes.len()` writable bytes at `addr`.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), addr as usize as *mut u8, bytes.len())
        };
    }
    Ok(())
}

/// Reads a `T` from user address `addr`.
///
/// # Safety
/// `addr` is 0 or valid for reading `size_of::<T>()` bytes (see [`read_arg`]).
pub(crate) unsafe fn read_user_value<T: FromBytes>(addr: u64) -> Result<T, Errno> {
    // SAFETY: forwarded.
    unsafe { read_arg(addr as usize as *const c_void) }
}
