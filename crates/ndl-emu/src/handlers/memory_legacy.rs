//! Legacy memory commands (`ndl-std` family `memory_legacy`): the first MEM_ALLOC, the
//! deprecated handle queries, PROGRAM_ENGINE without a core, and the allocator's chunk dump.

use zerocopy::FromZeros;

use ndl_abi::{DumpMemChunks, MemAlloc, MemChunkInfo, MemGetInfo, MemGetPa, ProgramEngine};
use ndl_std::Errno;
use neuron_emu::RegionKind;

use super::memory::{alloc_with, program_at};
use super::{Answer, DONE, Reply, location};
use crate::state::{Call, DeviceState};

/// MEM_ALLOC: "legacy allocation (no align); handle stored through the user pointer field".
pub(crate) fn alloc(d: &mut DeviceState, call: &Call<'_>, a: &mut MemAlloc) -> Answer {
    let at = location(a.host_memory, a.dram_channel, a.dram_region);
    alloc_with(d, call, (a.size, 0), at, a.mem_handle.addr())?;
    DONE
}

/// MEM_GET_PA: the physical address, through the user pointer.
pub(crate) fn get_pa(d: &mut DeviceState, call: &Call<'_>, a: &mut MemGetPa) -> Answer {
    let pa = d.mem(a.mem_handle)?.pa;
    call.mem.copy_out(a.pa.addr(), &pa)?;
    DONE
}

/// MEM_GET_INFO: the physical address, and the mmap offset when its pointer is given.
pub(crate) fn get_info(d: &mut DeviceState, call: &Call<'_>, a: &mut MemGetInfo) -> Answer {
    let m = *d.mem(a.mem_handle)?;
    call.mem.copy_out(a.pa.addr(), &m.pa)?;
    if !a.mmap_offset.is_null() {
        call.mem.copy_out(a.mmap_offset.addr(), &m.cookie)?;
    }
    DONE
}

/// PROGRAM_ENGINE: writes the user buffer at `dst + offset` inside one allocation.
pub(crate) fn program_engine(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut ProgramEngine,
) -> Answer {
    let user = (a.buffer.addr(), u64::from(a.size));
    program_at(d, call, (a.dst, a.offset.into()), user)
}

/// DUMP_MEM_CHUNKS: the chunks of HBM channel `hbm_index`; when the caller's array is too
/// small, the need goes back in `num_entries_out` with EAGAIN.
pub(crate) fn dump_mem_chunks(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut DumpMemChunks,
) -> Answer {
    let channel = u8::try_from(a.hbm_index).map_err(|_| Errno::INVAL)?;
    let kind = RegionKind::Device { channel };
    let chunks: Vec<MemChunkInfo> = d
        .allocs
        .values()
        .filter(|m| m.kind == kind)
        .map(|m| {
            let mut e = MemChunkInfo::new_zeroed();
            e.pa = m.pa;
            e.size = m.size;
            e
        })
        .collect();
    a.num_entries_out = u32::try_from(chunks.len()).map_err(|_| Errno::INVAL)?;
    if chunks.len() > a.num_entries_in as usize {
        return Ok(Reply::FailAfterWrite(Errno::AGAIN));
    }
    call.mem.copy_out(a.data.addr(), chunks.as_slice())?;
    DONE
}
