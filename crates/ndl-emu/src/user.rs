//! `copy_from_user` / `copy_to_user` of the model.
//!
//! The model runs in the caller's address space, so "user memory" is ordinary memory; the
//! [`ndl_std::Kernel::ioctl`] contract makes the caller vouch for every address it passes.
//! Null addresses fail with EFAULT, like a faulting copy.

use core::ffi::c_void;

use zerocopy::{FromBytes, Immutable, IntoBytes};

use ndl_std::Errno;

/// Reads a `T` from the argument address (the driver's whole-struct copy-in).
///
/// # Safety
/// `arg` is null or valid for reading `size_of::<T>()` bytes.
pub(crate) unsafe fn read_arg<T: FromBytes>(arg: *const c_void) -> Result<T, Errno> {
    if arg.is_null() {
        return Err(Errno::FAULT);
    }
    // SAFETY: the caller guarantees the bytes are readable; any bit pattern is a valid `T`.
    Ok(unsafe { arg.cast::<T>().read_unaligned() })
}

/// Writes `value` to the argument address (the driver's copy-out).
///
/// # Safety
/// `arg` is null or valid for writing `size_of::<T>()` bytes.
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
/// `addr` is 0 or valid for reading `len` bytes.
pub(crate) unsafe fn read_user(addr: u64, len: usize) -> Result<Vec<u8>, Errno> {
    if addr == 0 && len != 0 {
        return Err(Errno::FAULT);
    }
    let mut out = vec![0u8; len];
    if len != 0 {
        // SAFETY: the caller guarantees `len` readable bytes at `addr`.
        unsafe { std::ptr::copy_nonoverlapping(addr as usize as *const u8, out.as_mut_ptr(), len) };
    }
    Ok(out)
}

/// Copies `bytes` to user address `addr`.
///
/// # Safety
/// `addr` is 0 or valid for writing `bytes.len()` bytes.
pub(crate) unsafe fn write_user(addr: u64, bytes: &[u8]) -> Result<(), Errno> {
    if addr == 0 && !bytes.is_empty() {
        return Err(Errno::FAULT);
    }
    if !bytes.is_empty() {
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
/// `addr` is 0 or valid for reading `size_of::<T>()` bytes.
pub(crate) unsafe fn read_user_value<T: FromBytes>(addr: u64) -> Result<T, Errno> {
    // SAFETY: forwarded.
    unsafe { read_arg(addr as usize as *const c_void) }
}
