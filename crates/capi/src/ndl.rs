//! The NDL gateways of seed 000 through `ndl-std`'s [`Ndl`]: the per-device gateway (cached
//! O_RDONLY fd), the misc gateway (one O_WRONLY fd) and the handle-owned O_RDWR fd, over the
//! process's kernel (`ndl_backend`). The mmap pairing is `ndl_map`.

use core::ffi::{c_char, c_int, c_void};
use std::ffi::CStr;

use ndl_std::{DeviceHandle, Ndl};

use crate::engine::out_ptr;
use crate::failure::{Failure, guard};
use crate::handle;
use crate::ndl_backend::{CKernel, with_ndl};
use crate::types::ndl_device;

/// What `struct ndl_device` stands for: an open device over kernel `K`.
pub(crate) struct Device<K: CKernel>(pub(crate) DeviceHandle<'static, K>);

/// Acquires the device behind `dev` (a device handle over `K`).
pub(crate) fn device<K: CKernel>(
    dev: *mut ndl_device,
) -> Result<handle::Acquired<Device<K>>, Failure> {
    Ok(handle::acquire(dev as usize, "dev", K::DEVICE, false)?)
}

/// Uses device nodes under `root` (a NUL-terminated directory, e.g. a FUSE mount of the
/// emulated driver) instead of `/dev`. Must come before any other `ndl_*` call of the
/// process: the NDL's state is process-wide. This project's function.
///
/// Returns 0, -EINVAL (NULL, not UTF-8), -EBUSY (the state already uses another root, or
/// the emulated kernel).
///
/// # Safety
/// `root` is NULL or a NUL-terminated string. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_set_device_root(root: *const c_char) -> c_int {
    guard("ndl_set_device_root", || {
        if root.is_null() {
            return Err(Failure::null("root is NULL"));
        }
        // SAFETY: non-NULL and NUL-terminated by the caller's contract.
        let s = unsafe { CStr::from_ptr(root) }
            .to_str()
            .map_err(|_| Failure::invalid("root is not UTF-8", 0))?;
        crate::ndl_backend::use_root(s)?;
        Ok(0)
    })
}

/// Runs every `ndl_*` call of the process over an emulated driver in the process instead of
/// a device node: `devices` devices (1..=64) of generation `generation` (2, 3 or 4), each a
/// device model (`ndl-emu` over `neuron-emu`), answering every ioctl and mmap as the driver
/// 2.26.5.0 does (`reference/`). Must come before any other `ndl_*` call of the process.
/// Only in a library built with the `emulator` feature (declared when `NEURON_HAL_EMULATOR`
/// is defined); this project's function.
///
/// Over the emulated kernel a mapping's address (`ndl_mmap_mem`, `ndl_mmap_resource`) is a
/// synthetic address in the model: never dereference it; use `ndl_mapping_read` /
/// `ndl_mapping_write`.
///
/// Returns 0, -EINVAL (a generation or count outside those ranges), -EBUSY (the NDL already
/// chose its kernel), -ENOMEM (the model could not be built).
///
/// # Safety
/// None. Thread safety: any thread.
#[cfg(feature = "emulator")]
#[unsafe(no_mangle)]
pub extern "C" fn ndl_use_emulated_kernel(generation: u32, devices: u32) -> c_int {
    guard("ndl_use_emulated_kernel", || {
        crate::ndl_backend::use_emulated(generation, devices)?;
        Ok(0)
    })
}

/// The per-device gateway (seed 000 §2 `ndl_device_ioctl(device_index, cmd, arg)`): device
/// `device_index`'s fd, opened O_RDONLY on first use and cached for the process (the
/// privileged lane), then one ioctl(2).
///
/// Returns the handler's non-negative value, or -errno: -EINVAL for an index above 63, the
/// open's errno (e.g. -ENOENT), the ioctl's.
///
/// # Safety
/// `arg` is what `cmd` takes (NULL for `_IO` commands): valid for the reads and writes the
/// driver makes, including every user address inside it. Thread safety: any thread; the fd
/// cache is shared and lock-free.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_device_ioctl(device_index: u32, cmd: u32, arg: *mut c_void) -> c_int {
    guard("ndl_device_ioctl", || {
        with_ndl!(|ndl| {
            let dev = ndl.device(device_index)?;
            let fd = dev.pin()?;
            // SAFETY: the fd is pinned for the call; `arg` is the caller's.
            unsafe { ndl.kernel().ioctl_raw(fd.fd(), cmd, arg) }
        })
    })
}

/// The misc gateway (seed 000 §1 `ndl_misc_ioctl(cmd, arg)`): one process-wide fd opened
/// O_WRONLY on `neuron0` (the driver's free-access lane), then one ioctl(2).
///
/// Returns as `ndl_device_ioctl`.
///
/// # Safety
/// As `ndl_device_ioctl`. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_misc_ioctl(cmd: u32, arg: *mut c_void) -> c_int {
    guard("ndl_misc_ioctl", || {
        with_ndl!(|ndl| {
            let misc = ndl.misc();
            let fd = misc.pin()?;
            // SAFETY: the fd is pinned for the call; `arg` is the caller's.
            unsafe { ndl.kernel().ioctl_raw(fd.fd(), cmd, arg) }
        })
    })
}

/// Opens device `device_index` O_RDWR into a handle that owns the fd (seed 000
/// `ndl_open_device`: the fd the handle-cached copy/memset paths and mmap use; the process
/// is attached through it). The handle is returned through `dev` (this project's signature).
///
/// Returns 0, -EINVAL (index above 63, NULL or misaligned `dev`), the open's -errno, -ENOMEM.
///
/// # Safety
/// `dev` NULL or writable. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_open_device(device_index: u32, dev: *mut *mut ndl_device) -> c_int {
    guard("ndl_open_device", || {
        let dev = out_ptr(dev, "dev out-pointer is NULL")?;
        let raw = with_ndl!(|ndl| open(ndl, device_index))?;
        // SAFETY: checked non-NULL and aligned; writable by the caller's contract.
        unsafe { dev.write(raw as *mut ndl_device) };
        Ok(0)
    })
}

/// Closes a device handle and its fd. Mappings made through it stay valid (they hold
/// their own reference to the file).
///
/// Returns 0, -EINVAL, -EBADF (already closed), -EBUSY.
///
/// # Safety
/// None beyond the handle. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_close_device(dev: *mut ndl_device) -> c_int {
    guard("ndl_close_device", || with_ndl!(|ndl| close(ndl, dev)))
}

/// One ioctl(2) on the handle's own O_RDWR fd (seed 000 §3's handle-cached path,
/// `ioctl(handle->device->context.nd_fd, ...)`; this project's name). Unlike the seed's
/// path it returns -errno on failure, like the gateways.
///
/// # Safety
/// As `ndl_device_ioctl`. Thread safety: any thread; one call per handle at a time (else
/// -EBUSY).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_handle_ioctl(
    dev: *mut ndl_device,
    cmd: u32,
    arg: *mut c_void,
) -> c_int {
    guard("ndl_handle_ioctl", || {
        // SAFETY: forwarded from this function's contract.
        with_ndl!(|ndl| unsafe { handle_ioctl(ndl, dev, cmd, arg) })
    })
}

/// Opens device `index` O_RDWR on `ndl` into a new handle.
fn open<K: CKernel>(ndl: &'static Ndl<K>, index: u32) -> Result<usize, Failure> {
    let h = ndl.open_device(index)?;
    Ok(handle::insert(Box::new(Device(h)), K::DEVICE)?)
}

/// Closes the device handle `dev` (of `ndl`'s kernel).
fn close<K: CKernel>(_ndl: &'static Ndl<K>, dev: *mut ndl_device) -> Result<c_int, Failure> {
    drop(handle::remove::<Device<K>>(dev as usize, "dev", K::DEVICE)?);
    Ok(0)
}

/// One ioctl on the handle's own fd.
///
/// # Safety
/// `arg` is valid for what `cmd` reads and writes.
unsafe fn handle_ioctl<K: CKernel>(
    ndl: &'static Ndl<K>,
    dev: *mut ndl_device,
    cmd: u32,
    arg: *mut c_void,
) -> Result<c_int, Failure> {
    let mut d = device::<K>(dev)?;
    let fd = d.get().0.fd();
    // SAFETY: the handle (and so its fd) is held for the call; `arg` is the caller's.
    unsafe { ndl.kernel().ioctl_raw(fd, cmd, arg) }
}
