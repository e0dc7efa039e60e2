//! The NDL's mmap pairing (seed 000 §1, gateway three: an info ioctl gives the cookie and
//! size, then mmap(2) of exactly that on the handle's fd) and bounds-checked access to what
//! it mapped. What the driver lets a process map (`reference/mmap-README.md`): its own
//! memory chunks (read-write; another process's read-only) and the arch's special resources
//! (exact key and size; RESOURCE_ALL read-only); anything else is refused.

use core::ffi::{c_int, c_void};

use ndl_std::{Mapping, MemHandle, Ndl};

use crate::engine::out_ptr;
use crate::failure::{Failure, guard};
use crate::handle;
use crate::ndl::device;
use crate::ndl_backend::{CKernel, with_ndl};
use crate::types::{NEURON_DM_RESOURCE_ALL, ndl_device, ndl_mapping};

/// What `struct ndl_mapping` stands for: a mapping over kernel `K`, and whether the driver
/// made it read-only where that is known from the request alone (a RESOURCE_ALL entry,
/// `reference/mmap-README.md`): a write is then refused instead of faulting.
struct Map<K: CKernel> {
    m: Mapping<'static, K>,
    read_only: bool,
}

/// Refuses a NULL or misaligned out-pointer before anything is mapped.
fn check_outs(
    out: *mut *mut ndl_mapping,
    addr: *mut *mut c_void,
    size: *mut u64,
) -> Result<(), Failure> {
    out_ptr(out, "mapping out-pointer is NULL")?;
    out_ptr(addr, "addr out-pointer is NULL")?;
    out_ptr(size, "size out-pointer is NULL")?;
    Ok(())
}

/// Stores `m` in a new handle and writes the three outputs (checked by `check_outs`).
fn publish<K: CKernel>(
    map: Map<K>,
    out: *mut *mut ndl_mapping,
    addr: *mut *mut c_void,
    size: *mut u64,
) -> Result<c_int, Failure> {
    let (a, n) = (map.m.addr(), map.m.len() as u64);
    let raw = handle::insert(Box::new(map), K::MAPPING)?;
    // SAFETY: all three checked non-NULL and aligned by `check_outs`; writable by the C
    // caller's contract.
    unsafe {
        out.write(raw as *mut ndl_mapping);
        addr.write(a as *mut c_void);
        size.write(n);
    }
    Ok(0)
}

fn map_mem<K: CKernel>(
    _ndl: &'static Ndl<K>,
    dev: *mut ndl_device,
    mem_handle: u64,
) -> Result<Map<K>, Failure> {
    let mut d = device::<K>(dev)?;
    let h = &d.get().0;
    let info = h.mem_get_extended_info(MemHandle(mem_handle), 1)?;
    Ok(Map {
        m: h.map(info.mmap_offset, info.size)?,
        read_only: false,
    })
}

fn map_resource<K: CKernel>(
    _ndl: &'static Ndl<K>,
    dev: *mut ndl_device,
    (block, block_id, resource): (u32, u32, u32),
) -> Result<Map<K>, Failure> {
    let mut d = device::<K>(dev)?;
    Ok(Map {
        m: d.get().0.map_resource(block, block_id, resource)?,
        read_only: resource == NEURON_DM_RESOURCE_ALL,
    })
}

/// Maps a whole memory chunk of the process (seed 000 §1's mmap pairing: MEM_GET_EXTENDED_INFO
/// gives the chunk's `mmap_offset` and size, then mmap(2) of exactly that on the handle's
/// fd, read-write, MAP_SHARED): `*addr` and `*size` receive the mapping, `*map` its handle.
/// The driver maps the caller's own chunk writable and another process's chunk read-only
/// (`reference/mmap-README.md`). This project's signature.
///
/// Returns 0, -EINVAL (NULL or misaligned out-pointer, a bad handle), the ioctl's -errno (a chunk the
/// driver does not know), mmap's -errno (a FUSE-served node refuses shared mappings:
/// -ENODEV). On failure nothing is written and `neuron_hal_last_error` names the step.
///
/// # Safety
/// Out-pointers NULL or writable. `*addr` is valid until `ndl_munmap`; it is device-visible
/// memory the caller reads and writes at its own risk (writing a read-only mapping faults).
/// Over the emulated kernel it is synthetic: use `ndl_mapping_read` / `_write`.
/// Thread safety: any thread; one call per device handle at a time (else -EBUSY).
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
        with_ndl!(|ndl| publish(map_mem(ndl, dev, mem_handle)?, map, addr, size))
    })
}

/// Maps a special resource (seed 000 `ndl_mmap_bar_region_`: RESOURCE_MMAP_INFO for
/// `block`/`block_id`/`resource` gives the cookie and the exact size, then mmap(2)): the
/// arch's `dm_mmap_special` entries (`reference/mmap-special.tsv`: semaphores, state
/// buffers, TOP_SP blocks, HBM windows); RESOURCE_ALL entries are mapped read-only.
///
/// Returns 0, -EINVAL (NULL or misaligned out-pointer; no entry for the triple: the ioctl's -EINVAL),
/// mmap's -errno. Otherwise as `ndl_mmap_mem`.
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
        with_ndl!(|ndl| {
            let m = map_resource(ndl, dev, (block, block_id, resource))?;
            publish(m, map, addr, size)
        })
    })
}

fn unmap<K: CKernel>(_ndl: &'static Ndl<K>, map: *mut ndl_mapping) -> Result<c_int, Failure> {
    let m = handle::remove::<Map<K>>(map as usize, "map", K::MAPPING)?;
    m.m.unmap()?;
    Ok(0)
}

/// Unmaps a mapping; its address and handle are invalid afterwards (this project's function:
/// the seed's helpers keep the address). Returns 0, -EINVAL, -EBADF, munmap's -errno.
///
/// # Safety
/// Nothing may use the mapping's memory after the call. Thread safety: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_munmap(map: *mut ndl_mapping) -> c_int {
    guard("ndl_munmap", || with_ndl!(|ndl| unmap(ndl, map)))
}

/// Copies between a mapping and a buffer: `len` bytes at byte `offset` of the mapping.
///
/// # Safety
/// `buf` is NULL or valid for `len` bytes of the direction's access.
unsafe fn access<K: CKernel>(
    _ndl: &'static Ndl<K>,
    map: *mut ndl_mapping,
    offset: u64,
    (buf, len): (*mut u8, usize),
    write: bool,
) -> Result<c_int, Failure> {
    if buf.is_null() && len > 0 {
        return Err(Failure::null("buf is NULL"));
    }
    if isize::try_from(len).is_err() {
        return Err(Failure::invalid("len above the largest object", len as u64));
    }
    let offset = usize::try_from(offset)
        .map_err(|_| Failure::invalid("offset beyond the address space", offset))?;
    let mut acquired = handle::acquire::<Map<K>>(map as usize, "map", K::MAPPING, false)?;
    let Map { m, read_only } = acquired.get();
    if write && *read_only {
        return Err(Failure::Refused {
            errno: libc::EACCES,
            what: "the driver maps a RESOURCE_ALL entry read-only",
        });
    }
    if len == 0 {
        return Ok(0);
    }
    if write {
        // SAFETY: non-NULL, readable for `len` bytes by the caller's contract, and not the
        // mapping itself (the mapping is reached only through `Mapping`'s volatile copies).
        let src = unsafe { core::slice::from_raw_parts(buf.cast_const(), len) };
        m.write_bytes(offset, src)?;
    } else {
        // SAFETY: non-NULL, writable for `len` bytes by the caller's contract, not aliased
        // during the call.
        let dst = unsafe { core::slice::from_raw_parts_mut(buf, len) };
        m.read_bytes(offset, dst)?;
    }
    Ok(0)
}

/// Copies `len` bytes at byte `offset` of a mapping into `buf`, with volatile accesses
/// (this project's function: the bounds-checked way to read a mapping, and the only one over
/// the emulated kernel, whose addresses are synthetic).
///
/// Returns 0, -EINVAL (NULL `buf` with `len` > 0, a range outside the mapping, a register
/// window of the emulated kernel read other than in aligned 32-bit words), -EBADF (unmapped),
/// -EBUSY. A range outside the mapping copies nothing.
///
/// # Safety
/// `buf` is writable for `len` bytes and is not inside the mapping. Thread safety: any
/// thread; one call per mapping at a time (else -EBUSY).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_mapping_read(
    map: *mut ndl_mapping,
    offset: u64,
    buf: *mut c_void,
    len: usize,
) -> c_int {
    guard("ndl_mapping_read", || {
        // SAFETY: forwarded from this function's contract.
        with_ndl!(|ndl| unsafe { access(ndl, map, offset, (buf.cast(), len), false) })
    })
}

/// Copies `len` bytes from `buf` to byte `offset` of a mapping, with volatile accesses. As
/// `ndl_mapping_read`, and: -EACCES for a read-only mapping where the library knows it is one
/// (a RESOURCE_ALL entry; over the emulated kernel also another process's chunk). A write
/// to another process's chunk on a device node faults, as a write through the address
/// would.
///
/// # Safety
/// `buf` is readable for `len` bytes and is not inside the mapping. Thread safety: as
/// `ndl_mapping_read`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ndl_mapping_write(
    map: *mut ndl_mapping,
    offset: u64,
    buf: *const c_void,
    len: usize,
) -> c_int {
    guard("ndl_mapping_write", || {
        // SAFETY: forwarded from this function's contract.
        with_ndl!(|ndl| unsafe { access(ndl, map, offset, (buf.cast_mut().cast(), len), true) })
    })
}
