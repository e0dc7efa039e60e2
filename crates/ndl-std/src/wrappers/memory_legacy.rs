//! The older memory commands (device lane): legacy allocation, physical address and mmap
//! cookie queries, engine programming by address, and the allocator's chunk dump.

use zerocopy::FromZeros;

use crate::error::{Error, Result};
use crate::gateway::{Device, ioctl_ptr};
use crate::kernel::{Errno, Kernel};
use crate::wrappers::types::{MemHandle, MemLocation, u32_arg};
use ndl_abi::{DUMP_MEM_CHUNKS, MEM_ALLOC, MEM_GET_INFO, MEM_GET_PA, PROGRAM_ENGINE};
use ndl_abi::{
    DumpMemChunks, MemAlloc, MemChunkInfo, MemGetInfo, MemGetPa, ProgramEngine, UserPtr,
};

impl<K: Kernel> Device<'_, K> {
    /// MEM_ALLOC, the legacy (compat-mode) allocation: no alignment, no memory type; the
    /// driver writes the handle through the struct's pointer field.
    pub fn mem_alloc_cm(&self, size: u64, location: MemLocation, nc_id: u32) -> Result<MemHandle> {
        let (host_memory, dram_channel, dram_region) = location.fields();
        let mut handle = 0u64;
        let mut arg = MemAlloc {
            size,
            host_memory,
            dram_channel,
            dram_region,
            nc_id,
            mem_handle: UserPtr::output(&mut handle),
        };
        // SAFETY: `mem_handle` points to `handle`, writable for the call.
        unsafe { ioctl_ptr!(self, MEM_ALLOC, &mut arg) }?;
        Ok(MemHandle(handle))
    }

    /// MEM_GET_PA (deprecated): the physical address of an allocation.
    pub fn mem_get_pa(&self, mem: MemHandle) -> Result<u64> {
        let mut pa = 0u64;
        let mut arg = MemGetPa {
            mem_handle: mem.0,
            pa: UserPtr::output(&mut pa),
        };
        // SAFETY: `pa` points to a writable u64 that outlives the call.
        unsafe { ioctl_ptr!(self, MEM_GET_PA, &mut arg) }?;
        Ok(pa)
    }

    /// MEM_GET_INFO (deprecated): `(mmap cookie, physical address)` of an allocation.
    pub fn mem_get_info(&self, mem: MemHandle) -> Result<(u64, u64)> {
        let (mut mmap_offset, mut pa) = (0u64, 0u64);
        let mut arg = MemGetInfo {
            mem_handle: mem.0,
            mmap_offset: UserPtr::output(&mut mmap_offset),
            pa: UserPtr::output(&mut pa),
        };
        // SAFETY: both pointers name writable u64s that outlive the call.
        unsafe { ioctl_ptr!(self, MEM_GET_INFO, &mut arg) }?;
        Ok((mmap_offset, pa))
    }

    /// PROGRAM_ENGINE (the legacy nr-27 form): DMAs `data` to engine address `dst + offset`
    /// after the driver's region check. 32-bit size and offset.
    pub fn program_engine(&self, dst: u64, offset: u64, data: &[u8]) -> Result<()> {
        let cmd = PROGRAM_ENGINE.name();
        let mut arg = ProgramEngine {
            dst,
            buffer: UserPtr::input_slice(data),
            size: u32_arg(cmd, "size", data.len() as u64)?,
            offset: u32_arg(cmd, "offset", offset)?,
        };
        // SAFETY: `buffer` points to `size` readable bytes of `data`.
        unsafe { ioctl_ptr!(self, PROGRAM_ENGINE, &mut arg) }
    }

    /// DUMP_MEM_CHUNKS: fills `out` with the allocator's chunks of HBM `hbm_index`; returns
    /// how many it wrote. When `out` is too small the driver answers EAGAIN with the count it
    /// needs, reported as [`Error::BufferTooSmall`].
    pub fn dump_mem_chunks(&self, hbm_index: u32, out: &mut [MemChunkInfo]) -> Result<usize> {
        let cmd = DUMP_MEM_CHUNKS.name();
        let mut arg = DumpMemChunks::new_zeroed();
        arg.hbm_index = hbm_index;
        arg.num_entries_in = u32_arg(cmd, "num_entries_in", out.len() as u64)?;
        arg.data = UserPtr::output_slice(out);
        // SAFETY: `data` points to `num_entries_in` writable records of `out`.
        match unsafe { ioctl_ptr!(self, DUMP_MEM_CHUNKS, &mut arg) } {
            Ok(()) => Ok((arg.num_entries_out as usize).min(out.len())),
            Err(Error::Ioctl {
                errno: Errno::AGAIN,
                ..
            }) => Err(Error::BufferTooSmall {
                cmd,
                given: out.len() as u64,
                needed: arg.num_entries_out.into(),
            }),
            Err(e) => Err(e),
        }
    }
}
