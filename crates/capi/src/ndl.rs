//! The NDL gateways of seed 000 through `ndl-std`'s process-wide [`Ndl`]: the per-device
//! gateway (cached O_RDONLY fd), the misc gateway (one O_WRONLY fd), the handle-owned O_RDWR
//! fd and the info-ioctl + mmap pairing.

use core::ffi::{c_char, c_int, c_void};
use std::ffi::CStr;

use ndl_std::{DeviceHandle, Mapping, MemHandle, Ndl, RealKernel};

use crate::failure::{Failure, guard};
use crate::handle::{self, Kind};
use crate::types::{ndl_device, ndl_mapping};

/// What `struct ndl_device` stands for.
struct Device(DeviceHandle<'static, RealKernel>);

/// What `struct ndl_mapping` stands for.
struct Map(Mapping<'static, RealKernel>);

/// One ioctl(2) with a run-time request on `fd`: the handler's value or -errno (the
/// per-device convention of seed 000 §2).
///
/// # Safety
/// `arg` is valid for what `cmd` reads and writes.
unsafe fn raw_ioctl(fd: c_int, cmd: u32, arg: *mut c_void) -> Result<c_int, Failure> {
    // SAFETY: `fd` is pinned open by the caller; the caller vouches for `arg`.
    let rc = unsafe { libc::ioctl(fd, cmd as libc::Ioctl, arg) };
    if rc < 0 {
        let errno = std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO);
        return Err(Failure::Ioctl { cmd, errno });
    }
    Ok(rc)
}

/// Uses device nodes under `root` (a NUL-terminated directory, e.g. a FUSE mount of the
/// emulated driver) instead of `/dev`. Must come before any other `ndl_*` call of the
/// process: the NDL's state is process-wide. This project's function.
///
/// Returns 0, -EINVAL (NULL, not UTF-8), -EBUSY (the state already uses another root).
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
        Ndl::init_global(s).map_err(|e| match e {
            ndl_std::Error::GlobalRoot { .. } => Failure::Refused {
                errno: libc::EBUSY,
                what: "the NDL already uses another device root (set it before any other ndl_* call)",
            },
            other => Failure::Ndl(other),
        })?;
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
        let dev = Ndl::global().device(device_index)?;
        let fd = dev.pin()?;
        // SAFETY: the fd is pinned for the call; `arg` is the caller's.
        unsafe { raw_ioctl(fd.fd(), cmd, arg) }
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
        let misc = Ndl::global().misc();
        let fd = misc.pin()?;
        // SAFETY: the fd is pinned for the call; `arg` is the caller's.
        unsafe { raw_ioctl(fd.fd(), cmd, arg) }
    })
}

/// Opens device `device_index` O_RDWR into a handle that owns the fd (seed 000
/// `ndl_open_device`: the fd the handle-cached copy/memset paths and mmap use; the process
/// is attached through it). The handle is returned through `dev` (this project's signature).
///
/// Returns 0, -EINVAL (index above 63, NULL `dev`), the open's -errno, -ENOMEM.
///
/// # Safety
/// `dev` NULL or writable. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_open_device(device_index: u32, dev: *mut *mut ndl_device) -> c_int {
    guard("ndl_open_device", || {
        if dev.is_null() {
            return Err(Failure::null("dev out-pointer is NULL"));
        }
        let h = Ndl::global().open_device(device_index)?;
        let raw = handle::insert(Box::new(Device(h)), Kind::Device)?;
        // SAFETY: checked non-NULL; writable by the caller's contract.
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
    guard("ndl_close_device", || {
        drop(handle::remove::<Device>(dev as usize, "dev", Kind::Device)?);
        Ok(0)
    })
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
        let mut d = handle::acquire::<Device>(dev as usize, "dev", Kind::Device, false)?;
        let fd = d.get().0.fd();
        // SAFETY: the handle (and so its fd) is held for the call; `arg` is the caller's.
        unsafe { raw_ioctl(fd, cmd, arg) }
    })
}

fn publish_map(
    m: Mapping<'static, RealKernel>,
    out: *mut *mut ndl_mapping,
    addr: *mut *mut c_void,
    size: *mut u64,
) -> Result<c_int, Failure> {
    let (a, n) = (m.addr(), m.len() as u64);
    let raw = handle::insert(Box::new(Map(m)), Kind::Mapping)?;
    // SAFETY: all three checked non-NULL by the caller of this function; writable by the
    // C caller's contract.
    unsafe {
        out.write(raw as *mut ndl_mapping);
        addr.write(a as *mut c_void);
        size.write(n);
    }
    Ok(0)
}

fn check_outs(
    out: *mut *mut ndl_mapping,
    addr: *mut *mut c_void,
    size: *mut u64,
) -> Result<(), Failure> {
    for (null, what) in [
        (out.is_null(), "mapping out-pointer is NULL"),
        (addr.is_null(), "addr out-pointer is NULL"),
        (size.is_null(), "size out-pointer is NULL"),
    ] {
        if null {
            return Err(Failure::null(what));
        }
    }
    Ok(())
}

/// Maps a whole memory chunk of the process (seed 000 §1's mmap pairing: MEM_GET_EXTENDED_INFO
/// gives the chunk's `mmap_offset` and size, then mmap(2) of exactly that on the handle's
/// fd, MAP_SHARED): `*addr` and `*size` receive the mapping, `*map` its handle. This
/// project's signature.
///
/// Returns 0, -EINVAL (NULL out-pointer, a bad chunk), the ioctl's or mmap's -errno (a
/// FUSE-served node refuses shared mappings: -ENODEV).
///
/// # Safety
/// Out-pointers NULL or writable. `*addr` is valid until `ndl_munmap`; it is device-visible
/// memory the caller reads and writes at its own risk. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_mmap_mem(
    dev: *mut ndl_device,
    mem_handle: u64,
    map: *mut *mut ndl_mapping,
    addr: *mut *mut c_void,
    size: *mut u64,
) -> c_int {
    guard("ndl_mmap_mem", || {
        check_outs(map, addr, size)?;
        let mut d = handle::acquire::<Device>(dev as usize, "dev", Kind::Device, false)?;
        let h = &d.get().0;
        let info = h.mem_get_extended_info(MemHandle(mem_handle), 1)?;
        let m = h.map(info.mmap_offset, info.size)?;
        publish_map(m, map, addr, size)
    })
}

/// Maps a special resource (seed 000 `ndl_mmap_bar_region_`: RESOURCE_MMAP_INFO for
/// `block`/`block_id`/`resource` gives the cookie and size, then mmap(2)). Returns and
/// safety as `ndl_mmap_mem`.
///
/// # Safety
/// As `ndl_mmap_mem`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_mmap_resource(
    dev: *mut ndl_device,
    block: u32,
    block_id: u32,
    resource: u32,
    map: *mut *mut ndl_mapping,
    addr: *mut *mut c_void,
    size: *mut u64,
) -> c_int {
    guard("ndl_mmap_resource", || {
        check_outs(map, addr, size)?;
        let mut d = handle::acquire::<Device>(dev as usize, "dev", Kind::Device, false)?;
        let m = d.get().0.map_resource(block, block_id, resource)?;
        publish_map(m, map, addr, size)
    })
}

/// Unmaps a mapping; its address is invalid afterwards. Returns 0, -EINVAL, -EBADF,
/// munmap's -errno.
///
/// # Safety
/// Nothing may use the mapping's memory after the call. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_munmap(map: *mut ndl_mapping) -> c_int {
    guard("ndl_munmap", || {
        let m = handle::remove::<Map>(map as usize, "map", Kind::Mapping)?;
        m.0.unmap()?;
        Ok(0)
    })
}
