//! Memory (`ndl-std` family `memory`): allocation and free, copies between handles and
//! between a user buffer and a handle, memset, the handle queries, engine programming by
//! core, RESOURCE_MMAP_INFO and the batched zero-copy. The shared move (`program_at`) are used by the legacy and async families too.

use ndl_abi::v2_28_0_0::MemAllocV2MemType64Pa;
use ndl_abi::{
    MemAllocV2, MemAllocV2MemType, MemAllocV2MemType64, MemBufCopy64zcBatches, MemFree,
    MemGetExtendedInfo, MemGetMcMmapInfo, MemGetMcMmapInfoV2, MemcpyBatch, Memset, Memset64,
    ProgramEngineNc, ProgramEngineNc64, ResourceMmapInfo, TensorBatchOp,
};
use ndl_std::{Errno, MemLocation};

use super::buf_copy::buf_copy;
use super::{Answer, DONE, Reply, len, location};
use crate::resource;
use crate::state::{Alloc, Backing, Call, DeviceState, Lifespan, Object, ObjectKind};

/// Allocates for the caller and stores the handle through `out`; a failed store frees it.
/// Host memory takes no alignment (EINVAL); device memory honours it.
pub(crate) fn alloc_with(
    d: &mut DeviceState,
    call: &Call<'_>,
    (size, align): (u64, u64),
    at: MemLocation,
    out: u64,
) -> Result<u64, Errno> {
    if at == MemLocation::Host && align != 0 {
        return Err(Errno::INVAL);
    }
    let h = d.alloc(size, align, at, call.tgid, Lifespan::Process)?;
    if let Err(e) = call.mem.write(out, &h.to_ne_bytes()) {
        d.free(h)?;
        return Err(e);
    }
    Ok(h)
}

/// MEM_ALLOC_V2 (nr-102 family, picked by exact cmd).
pub(crate) fn alloc_v2(d: &mut DeviceState, call: &Call<'_>, a: &mut MemAllocV2) -> Answer {
    let at = location(a.host_memory, a.dram_channel, a.dram_region);
    alloc_with(d, call, (a.size, a.align), at, a.mem_handle.addr())?;
    DONE
}

/// MEM_ALLOC_V2MT: adds `mem_type`, which the model does not distinguish.
pub(crate) fn alloc_v2mt(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut MemAllocV2MemType,
) -> Answer {
    let at = location(a.host_memory, a.dram_channel, a.dram_region);
    alloc_with(d, call, (a.size, a.align), at, a.mem_handle.addr())?;
    DONE
}

/// MEM_ALLOC_V2MT64: the trailing pad only changes the size.
pub(crate) fn alloc_v2mt64(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut MemAllocV2MemType64,
) -> Answer {
    let at = location(a.host_memory, a.dram_channel, a.dram_region);
    alloc_with(d, call, (a.size, a.align), at, a.mem_handle.addr())?;
    DONE
}

/// MEM_ALLOC_V2MT64_PA (2.28.0.0): as V2MT64, then the whole struct is written back with
/// `pa` the chunk's physical address (host memory ORed with the arch's PCI host base, as
/// EXTENDED_INFO reports it); "if either copy-out fails the chunk is freed" — the store
/// through `mem_handle` is checked here; the struct's write-back is the dispatcher's, so a
/// failure there leaves the chunk to the process (the model's one difference).
pub(crate) fn alloc_v2mt64_pa(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut MemAllocV2MemType64Pa,
) -> Answer {
    let at = location(a.host_memory, a.dram_channel, a.dram_region);
    let h = alloc_with(d, call, (a.size, a.align), at, a.mem_handle.addr())?;
    a.pa = reported_pa(d, d.mem(h)?);
    DONE
}

/// The physical address the driver reports for a chunk: host chunks carry the arch's host
/// window bits (the coherent-DMA address descriptors use), as 2.26.5.0 reports them.
fn reported_pa(d: &DeviceState, m: &Alloc) -> u64 {
    if m.host() {
        m.pa | d.facts.scalars.pci_host_base
    } else {
        m.pa
    }
}

/// MEM_FREE.
pub(crate) fn free(d: &mut DeviceState, _: &Call<'_>, a: &mut MemFree) -> Answer {
    // An unknown handle (or, isolated, another process's) answers EINVAL.
    d.mem(a.mem_handle)?;
    d.free(a.mem_handle)?;
    DONE
}

/// MEM_GET_EXTENDED_INFO: the whole struct back; "bad handle returns +EINVAL (positive,
/// not an errno)".
pub(crate) fn extended_info(
    d: &mut DeviceState,
    _: &Call<'_>,
    a: &mut MemGetExtendedInfo,
) -> Answer {
    let Ok(m) = d.mem(a.mem_handle) else {
        return Ok(Reply::Bare(Errno::INVAL.raw_os_error()));
    };
    a.host_memory = u32::from(m.host());
    a.mmap_offset = m.cookie;
    a.pa = reported_pa(d, m);
    a.pid = u64::from(m.pid);
    a.size = m.size;
    DONE
}

fn memset(d: &DeviceState, (handle, offset): (u64, u64), value: u32, size: u64) -> Answer {
    let at = d.mem(handle)?.span(offset, size)?;
    let byte = value.to_le_bytes()[0];
    d.emu
        .with_memory(|m| m.fill(at, len(size)?, byte).map_err(|_| Errno::FAULT))?;
    DONE
}

/// MEMSET (32-bit size): the low byte of `value`.
pub(crate) fn memset32(d: &mut DeviceState, _: &Call<'_>, a: &mut Memset) -> Answer {
    memset(d, (a.mem_handle, a.offset), a.value, a.size.into())
}

/// MEMSET64.
pub(crate) fn memset64(d: &mut DeviceState, _: &Call<'_>, a: &mut Memset64) -> Answer {
    memset(d, (a.mem_handle, a.offset), a.value, a.size)
}

/// MEM_MC_GET_INFO (nr 111, `_IOC_SIZE` 24): the chunk holding `pa`.
pub(crate) fn mc_get_info(d: &mut DeviceState, _: &Call<'_>, a: &mut MemGetMcMmapInfo) -> Answer {
    let (_, m) = d.by_pa(a.pa)?;
    a.mmap_offset = m.cookie;
    a.size = m.size;
    DONE
}

/// MEM_MC_GET_INFO_V2 (nr 111, `_IOC_SIZE` 32): adds the handle.
pub(crate) fn mc_get_info_v2(
    d: &mut DeviceState,
    _: &Call<'_>,
    a: &mut MemGetMcMmapInfoV2,
) -> Answer {
    let (h, m) = d.by_pa(a.pa)?;
    a.mmap_offset = m.cookie;
    a.size = m.size;
    a.mem_handle = h;
    DONE
}

/// PROGRAM_ENGINE's work without a core: writes the user buffer at `dst + offset` after the
/// region check (the address must lie in one allocation).
pub(crate) fn program_at(
    d: &DeviceState,
    call: &Call<'_>,
    (dst, offset): (u64, u64),
    (buffer, size): (u64, u64),
) -> Answer {
    let at = dst.checked_add(offset).ok_or(Errno::INVAL)?;
    let (_, m) = d.by_pa(at)?;
    let bare = if m.host() {
        at & !d.facts.scalars.pci_host_base
    } else {
        at
    };
    let at = m.span(bare - m.pa, size)?;
    let bytes = call.mem.copy_in_bytes(buffer, len(size)?)?;
    d.write(at, &bytes)?;
    DONE
}

/// PROGRAM_ENGINE_NC (32-bit sizes): a core check, then PROGRAM_ENGINE's write.
pub(crate) fn program_nc(d: &mut DeviceState, call: &Call<'_>, a: &mut ProgramEngineNc) -> Answer {
    d.check_nc(a.nc_id)?;
    program_at(
        d,
        call,
        (a.dst, a.offset.into()),
        (a.buffer.addr(), a.size.into()),
    )
}

/// PROGRAM_ENGINE_NC64.
pub(crate) fn program_nc64(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut ProgramEngineNc64,
) -> Answer {
    d.check_nc(a.nc_id)?;
    program_at(d, call, (a.dst, a.offset), (a.buffer.addr(), a.size))
}

/// RESOURCE_MMAP_INFO: the arch's special-resource table first, as the driver answers it
/// (mmap then serves the entry for exactly this offset and size); then the emulator-only
/// register windows of a privileged kernel ([`resource`]).
pub(crate) fn resource_mmap_info(
    d: &mut DeviceState,
    _: &Call<'_>,
    a: &mut ResourceMmapInfo,
) -> Answer {
    let key = (a.block, a.block_id, a.resource);
    if let Some(sp) =
        crate::mmap_special::lookup(d.facts.generation, a.block, a.block_id, a.resource)
    {
        a.offset = sp.offset;
        a.size = sp.size;
        return DONE;
    }
    let object = resource_object(d, key)?;
    let cookie = match d.resources.get(&key) {
        Some(c) => *c,
        None => {
            let c = d.new_cookie(object);
            d.resources.insert(key, c);
            c
        }
    };
    a.offset = cookie;
    a.size = object.len;
    DONE
}

/// What an emulator-only resource key maps (see [`resource`]): served by a privileged
/// kernel only; EINVAL for anything else, as for a key the driver's table lacks.
fn resource_object(d: &DeviceState, key: (u32, u32, u32)) -> Result<Object, Errno> {
    if !d.config.privileged {
        return Err(Errno::INVAL);
    }
    match key {
        (resource::BLOCK_BAR0, 0, 0) => Ok(Object {
            backing: Backing::Registers { base: 0 },
            len: d.bar0_size,
            kind: ObjectKind::EmulatorRegisters,
        }),
        (resource::BLOCK_UDMA, engine, 0) => {
            let base = usize::try_from(engine)
                .ok()
                .and_then(|e| d.emu.unit_base(e))
                .ok_or(Errno::INVAL)?;
            Ok(Object {
                backing: Backing::Registers { base },
                len: khal::regs::unit::UNIT_SIZE as u64,
                kind: ObjectKind::EmulatorRegisters,
            })
        }
        _ => Err(Errno::INVAL),
    }
}

/// Most operations one MEM_BUF_ZEROCOPY64_BATCHES call carries, over all its batches. The
/// driver states no bound (`reference/`); the model's own, so that no call holds the
/// kernel's one lock for a time the caller picks (issue 25): a call over it answers E2BIG,
/// the errno the driver gives DMA_QUEUE_INIT_BATCH's count over its limit.
pub(crate) const BATCH_OPS_MAX: u64 = 1 << 16;

/// One operation of a batch, read before any runs.
struct BatchOp {
    handle: u64,
    at: u64,
    user: (u64, u64),
}

/// Every operation of the call, read once and bounded: at most [`BATCH_OPS_MAX`]
/// operations, and (the model's second bound, for the same reason) at most the device's
/// whole memory in bytes, since a copy cannot need more; E2BIG beyond either.
fn batch_ops(
    d: &DeviceState,
    call: &Call<'_>,
    a: &MemBufCopy64zcBatches,
) -> Result<Vec<BatchOp>, Errno> {
    if u64::from(a.num_batches) > BATCH_OPS_MAX {
        return Err(Errno::TOOBIG);
    }
    let mut batches = Vec::new();
    batches
        .try_reserve_exact(a.num_batches as usize)
        .map_err(|_| Errno::NOMEM)?;
    let mut count = 0u64;
    for i in 0..u64::from(a.num_batches) {
        let b: MemcpyBatch = call.mem.copy_in_at(a.batches_ptr.addr(), i)?;
        count += u64::from(b.num_ops);
        if count > BATCH_OPS_MAX {
            return Err(Errno::TOOBIG);
        }
        batches.push(b);
    }
    let mut ops = Vec::new();
    ops.try_reserve_exact(count as usize)
        .map_err(|_| Errno::NOMEM)?;
    let (mut bytes, most) = (0u64, d.memory_bytes());
    for b in &batches {
        d.mem(b.mem_handle)?;
        for j in 0..u64::from(b.num_ops) {
            let op: TensorBatchOp = call.mem.copy_in_at(b.ops_ptr.addr(), j)?;
            bytes = bytes.saturating_add(op.size);
            if bytes > most {
                return Err(Errno::TOOBIG);
            }
            let at = b.mem_handle_offset.checked_add(op.offset);
            ops.push(BatchOp {
                handle: b.mem_handle,
                at: at.ok_or(Errno::INVAL)?,
                user: (op.buffer.addr(), op.size),
            });
        }
    }
    Ok(ops)
}

/// MEM_BUF_ZEROCOPY64_BATCHES: every op of every batch, a buffer copy at the batch's handle
/// and `mem_handle_offset + op.offset`. Element addresses are overflow-checked: an array
/// wrapping past the top of the address space is a failed copy (EFAULT). Every batch and
/// operation is read and counted ([`batch_ops`]) before any op runs.
pub(crate) fn zerocopy64_batches(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut MemBufCopy64zcBatches,
) -> Answer {
    let to_device = a.is_copy_to_device != 0;
    for op in batch_ops(d, call, a)? {
        buf_copy(d, call, (op.handle, op.at), op.user, to_device)?;
    }
    DONE
}
