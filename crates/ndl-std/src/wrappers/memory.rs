//! Driver memory: alloc, free, copies, memset, info, mmap pairing, engine programming.

use zerocopy::FromZeros;

use crate::compat::Family;
use crate::error::{Error, Result};
use crate::gateway::{Device, DeviceHandle, ioctl, ioctl_ptr};
use crate::kernel::Kernel;
use crate::mapping::Mapping;
use crate::wrappers::types::{MemHandle, MemLocation, ResourceInfo, u32_arg};
use ndl_abi::{
    MEM_ALLOC_V2, MEM_ALLOC_V2MT, MEM_ALLOC_V2MT64, MEM_BUF_COPY, MEM_BUF_COPY64,
    MEM_BUF_ZEROCOPY64_BATCHES, MEM_COPY, MEM_COPY64, MEM_FREE, MEM_GET_EXTENDED_INFO,
    MEM_MC_GET_INFO, MEM_MC_GET_INFO_V2, MEMSET, MEMSET64, PROGRAM_ENGINE_NC, PROGRAM_ENGINE_NC64,
    RESOURCE_MMAP_INFO,
};
use ndl_abi::{
    MemAllocV2, MemAllocV2MemType, MemAllocV2MemType64, MemBufCopy, MemBufCopy64,
    MemBufCopy64zcBatches, MemCopy, MemCopy64, MemFree, MemGetExtendedInfo, MemGetMcMmapInfo,
    MemGetMcMmapInfoV2, MemcpyBatch, Memset, Memset64, ProgramEngineNc, ProgramEngineNc64,
    ResourceMmapInfo, TensorBatchOp, UserPtr,
};

/// One piece of a host-to-device batch copy: `data` goes to `offset` past the batch's base.
#[derive(Clone, Copy, Debug)]
pub struct OpTo<'a> {
    /// Byte offset past the batch's `mem_offset`.
    pub offset: u64,
    /// Source bytes.
    pub data: &'a [u8],
}

/// One piece of a device-to-host batch copy: `data` is filled from `offset`.
#[derive(Debug)]
pub struct OpFrom<'a> {
    /// Byte offset past the batch's `mem_offset`.
    pub offset: u64,
    /// Destination bytes.
    pub data: &'a mut [u8],
}

/// A batch entry of MEM_BUF_ZEROCOPY64_BATCHES, host to device.
#[derive(Clone, Copy, Debug)]
pub struct BatchTo<'a> {
    /// The allocation (the shim's handle; rewritten to the kernel handle in the entry).
    pub mem: MemHandle,
    /// Base offset inside `mem`.
    pub mem_offset: u64,
    /// The pieces.
    pub ops: &'a [OpTo<'a>],
    /// Size below which the driver writes through BAR4 instead of DMA.
    pub bar4_wr_threshold: u16,
    /// Entry flags.
    pub flags: u16,
}

/// A batch entry of MEM_BUF_ZEROCOPY64_BATCHES, device to host.
#[derive(Debug)]
pub struct BatchFrom<'a, 'b> {
    /// The allocation (the shim's handle; rewritten to the kernel handle in the entry).
    pub mem: MemHandle,
    /// Base offset inside `mem`.
    pub mem_offset: u64,
    /// The pieces (their buffers are written).
    pub ops: &'a mut [OpFrom<'b>],
    /// Size below which the driver uses BAR4 instead of DMA.
    pub bar4_wr_threshold: u16,
    /// Entry flags.
    pub flags: u16,
}

/// MEM_MC_GET_INFO's answer: where a physical address can be mapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McInfo {
    /// The mmap cookie.
    pub mmap_offset: u64,
    /// Mappable size.
    pub size: u64,
    /// The allocation's handle (only the V2 form reports it).
    pub mem_handle: Option<MemHandle>,
}

/// One batch of either direction in ABI terms: (allocation, base offset, BAR4 threshold,
/// flags) and its op array.
type BatchParts = ((MemHandle, u64, u16, u16), Vec<TensorBatchOp>);

/// One piece of a batch in ABI form: `len` bytes at `buffer`, `offset` past the batch base.
fn tensor_op(offset: u64, buffer: UserPtr<u8>, len: usize) -> TensorBatchOp {
    TensorBatchOp {
        offset,
        size: len as u64,
        buffer,
    }
}

impl<K: Kernel> Device<'_, K> {
    /// MEM_ALLOC_V2MT64 (falling back to MEM_ALLOC_V2MT): allocates `size` bytes aligned to
    /// `align` at `location` for core `nc_id`, with memory type 0.
    pub fn mem_alloc(
        &self,
        size: u64,
        align: u64,
        location: MemLocation,
        nc_id: u32,
    ) -> Result<MemHandle> {
        self.mem_alloc_typed(size, align, location, nc_id, 0)
    }

    /// As [`Device::mem_alloc`] with an explicit `mem_type`.
    pub fn mem_alloc_typed(
        &self,
        size: u64,
        align: u64,
        location: MemLocation,
        nc_id: u32,
        mem_type: u32,
    ) -> Result<MemHandle> {
        let (host_memory, dram_channel, dram_region) = location.fields();
        self.compat(
            Family::MemAlloc,
            || {
                let mut handle = 0u64;
                let mut arg = MemAllocV2MemType64::new_zeroed();
                arg.size = size;
                arg.align = align;
                arg.host_memory = host_memory;
                arg.dram_channel = dram_channel;
                arg.dram_region = dram_region;
                arg.nc_id = nc_id;
                arg.mem_type = mem_type;
                arg.mem_handle = UserPtr::output(&mut handle);
                // SAFETY: `mem_handle` points to `handle`, writable for the call.
                unsafe { ioctl_ptr!(self, MEM_ALLOC_V2MT64, &mut arg) }?;
                Ok(MemHandle(handle))
            },
            || {
                // The older form signals no 64-bit size support.
                u32_arg(MEM_ALLOC_V2MT.name(), "size", size)?;
                let mut handle = 0u64;
                let mut arg = MemAllocV2MemType::new_zeroed();
                arg.size = size;
                arg.align = align;
                arg.host_memory = host_memory;
                arg.dram_channel = dram_channel;
                arg.dram_region = dram_region;
                arg.nc_id = nc_id;
                arg.mem_type = mem_type;
                arg.mem_handle = UserPtr::output(&mut handle);
                // SAFETY: as above.
                unsafe { ioctl_ptr!(self, MEM_ALLOC_V2MT, &mut arg) }?;
                Ok(MemHandle(handle))
            },
        )
    }

    /// MEM_ALLOC_V2: allocation without a memory type (older runtimes' call).
    pub fn mem_alloc_v2(
        &self,
        size: u64,
        align: u64,
        location: MemLocation,
        nc_id: u32,
    ) -> Result<MemHandle> {
        let (host_memory, dram_channel, dram_region) = location.fields();
        let mut handle = 0u64;
        let mut arg = MemAllocV2 {
            size,
            align,
            host_memory,
            dram_channel,
            dram_region,
            nc_id,
            mem_handle: UserPtr::output(&mut handle),
        };
        // SAFETY: `mem_handle` points to `handle`, writable for the call.
        unsafe { ioctl_ptr!(self, MEM_ALLOC_V2, &mut arg) }?;
        Ok(MemHandle(handle))
    }

    /// MEM_FREE.
    pub fn mem_free(&self, mem: MemHandle) -> Result<()> {
        let mut arg = MemFree { mem_handle: mem.0 };
        ioctl!(self, MEM_FREE, &mut arg)
    }

    /// MEM_GET_EXTENDED_INFO: location, mmap cookie, physical address, owner and size of an
    /// allocation; `version` is the struct version the caller speaks.
    pub fn mem_get_extended_info(
        &self,
        mem: MemHandle,
        version: u32,
    ) -> Result<MemGetExtendedInfo> {
        let mut arg = MemGetExtendedInfo::new_zeroed();
        arg.mem_handle = mem.0;
        arg.version = version;
        ioctl!(self, MEM_GET_EXTENDED_INFO, &mut arg)?;
        Ok(arg)
    }

    /// MEM_MC_GET_INFO_V2 (falling back to MEM_MC_GET_INFO): the mmap cookie of the
    /// allocation holding physical address `pa`.
    pub fn mem_mc_get_info(&self, pa: u64) -> Result<McInfo> {
        self.compat(
            Family::McGetInfo,
            || {
                let mut arg = MemGetMcMmapInfoV2::new_zeroed();
                arg.pa = pa;
                ioctl!(self, MEM_MC_GET_INFO_V2, &mut arg)?;
                Ok(McInfo {
                    mmap_offset: arg.mmap_offset,
                    size: arg.size,
                    mem_handle: Some(MemHandle(arg.mem_handle)),
                })
            },
            || {
                let mut arg = MemGetMcMmapInfo::new_zeroed();
                arg.pa = pa;
                ioctl!(self, MEM_MC_GET_INFO, &mut arg)?;
                Ok(McInfo {
                    mmap_offset: arg.mmap_offset,
                    size: arg.size,
                    mem_handle: None,
                })
            },
        )
    }

    /// RESOURCE_MMAP_INFO: the mmap cookie and size of a device resource.
    pub fn resource_mmap_info(
        &self,
        block: u32,
        block_id: u32,
        resource: u32,
    ) -> Result<ResourceInfo> {
        let mut arg = ResourceMmapInfo::new_zeroed();
        arg.block = block;
        arg.block_id = block_id;
        arg.resource = resource;
        ioctl!(self, RESOURCE_MMAP_INFO, &mut arg)?;
        Ok(ResourceInfo {
            offset: arg.offset,
            size: arg.size,
        })
    }

    /// PROGRAM_ENGINE_NC64 (falling back to PROGRAM_ENGINE_NC): DMAs `data` to engine
    /// address `dst + offset` of core `nc_id`.
    pub fn program_engine_nc(&self, nc_id: u32, dst: u64, offset: u64, data: &[u8]) -> Result<()> {
        let buffer = UserPtr::input_slice(data);
        let size = data.len() as u64;
        self.compat(
            Family::ProgramEngineNc,
            || {
                let mut arg = ProgramEngineNc64::new_zeroed();
                arg.nc_id = nc_id;
                arg.dst = dst;
                arg.buffer = buffer;
                arg.size = size;
                arg.offset = offset;
                // SAFETY: `buffer` points to `size` readable bytes of `data`.
                unsafe { ioctl_ptr!(self, PROGRAM_ENGINE_NC64, &mut arg) }
            },
            || {
                let cmd = PROGRAM_ENGINE_NC.name();
                let mut arg = ProgramEngineNc::new_zeroed();
                arg.nc_id = nc_id;
                arg.dst = dst;
                arg.buffer = buffer;
                arg.size = u32_arg(cmd, "size", size)?;
                arg.offset = u32_arg(cmd, "offset", offset)?;
                // SAFETY: as above.
                unsafe { ioctl_ptr!(self, PROGRAM_ENGINE_NC, &mut arg) }
            },
        )
    }
}

/// The copy, memset and buffer-copy commands go to the fd the device handle captured (the
/// seed's handle-cached path, §3), not through the per-device cache.
impl<K: Kernel> DeviceHandle<'_, K> {
    /// MEM_COPY64 (falling back to MEM_COPY): device-side copy between two allocations.
    pub fn mem_copy(
        &self,
        src: MemHandle,
        src_offset: u64,
        dst: MemHandle,
        dst_offset: u64,
        size: u64,
    ) -> Result<()> {
        self.compat(
            Family::MemCopy,
            || {
                let mut arg = MemCopy64 {
                    src_mem_handle: src.0,
                    dst_mem_handle: dst.0,
                    size,
                    src_offset,
                    dst_offset,
                };
                ioctl!(self, MEM_COPY64, &mut arg)
            },
            || {
                let cmd = MEM_COPY.name();
                let mut arg = MemCopy::new_zeroed();
                arg.src_mem_handle = src.0;
                arg.dst_mem_handle = dst.0;
                arg.size = u32_arg(cmd, "size", size)?;
                arg.src_offset = u32_arg(cmd, "src_offset", src_offset)?;
                arg.dst_offset = u32_arg(cmd, "dst_offset", dst_offset)?;
                ioctl!(self, MEM_COPY, &mut arg)
            },
        )
    }

    fn mem_buf_copy(
        &self,
        mem: MemHandle,
        offset: u64,
        buffer: UserPtr<u8>,
        size: u64,
        to_device: bool,
    ) -> Result<()> {
        let copy_to_mem_handle = u32::from(to_device);
        self.compat(
            Family::MemBufCopy,
            || {
                let mut arg = MemBufCopy64::new_zeroed();
                arg.mem_handle = mem.0;
                arg.buffer = buffer;
                arg.size = size;
                arg.offset = offset;
                arg.copy_to_mem_handle = copy_to_mem_handle;
                // SAFETY: the caller passed `buffer` valid for `size` bytes in the direction
                // `to_device` says (read when true, written when false).
                unsafe { ioctl_ptr!(self, MEM_BUF_COPY64, &mut arg) }
            },
            || {
                let cmd = MEM_BUF_COPY.name();
                let mut arg = MemBufCopy::new_zeroed();
                arg.mem_handle = mem.0;
                arg.buffer = buffer;
                arg.size = u32_arg(cmd, "size", size)?;
                arg.offset = u32_arg(cmd, "offset", offset)?;
                arg.copy_to_mem_handle = copy_to_mem_handle;
                // SAFETY: as above.
                unsafe { ioctl_ptr!(self, MEM_BUF_COPY, &mut arg) }
            },
        )
    }

    /// MEM_BUF_COPY64 (falling back to MEM_BUF_COPY): host buffer → allocation at `offset`.
    pub fn mem_buf_copy_to(&self, mem: MemHandle, offset: u64, data: &[u8]) -> Result<()> {
        self.mem_buf_copy(
            mem,
            offset,
            UserPtr::input_slice(data),
            data.len() as u64,
            true,
        )
    }

    /// MEM_BUF_COPY64 (falling back to MEM_BUF_COPY): allocation at `offset` → host buffer.
    pub fn mem_buf_copy_from(&self, mem: MemHandle, offset: u64, out: &mut [u8]) -> Result<()> {
        let len = out.len() as u64;
        self.mem_buf_copy(mem, offset, UserPtr::output_slice(out), len, false)
    }

    /// MEM_BUF_ZEROCOPY64_BATCHES, host to device: every piece of every batch in one call.
    pub fn mem_buf_zerocopy64_batches_to(
        &self,
        sequence_num: u64,
        h2t_qid: i32,
        batches: &[BatchTo<'_>],
    ) -> Result<()> {
        let parts = batches.iter().map(|b| {
            let op =
                |op: &OpTo<'_>| tensor_op(op.offset, UserPtr::input_slice(op.data), op.data.len());
            let head = (b.mem, b.mem_offset, b.bar4_wr_threshold, b.flags);
            (head, b.ops.iter().map(op).collect())
        });
        self.zerocopy_batches(sequence_num, h2t_qid, true, parts)
    }

    /// MEM_BUF_ZEROCOPY64_BATCHES, device to host: fills every piece's buffer.
    pub fn mem_buf_zerocopy64_batches_from(
        &self,
        sequence_num: u64,
        h2t_qid: i32,
        batches: &mut [BatchFrom<'_, '_>],
    ) -> Result<()> {
        let parts = batches.iter_mut().map(|b| {
            let op = |op: &mut OpFrom<'_>| {
                tensor_op(op.offset, UserPtr::output_slice(op.data), op.data.len())
            };
            let head = (b.mem, b.mem_offset, b.bar4_wr_threshold, b.flags);
            (head, b.ops.iter_mut().map(op).collect())
        });
        self.zerocopy_batches(sequence_num, h2t_qid, false, parts)
    }

    /// The one MEM_BUF_ZEROCOPY64_BATCHES call of both directions: builds the 0x28-byte ABI
    /// entries (each shim-level [`MemHandle`] becomes the kernel handle, `ops_ptr` points at
    /// that entry's op array) and the batch header over them.
    fn zerocopy_batches(
        &self,
        sequence_num: u64,
        h2t_qid: i32,
        to_device: bool,
        batches: impl Iterator<Item = BatchParts>,
    ) -> Result<()> {
        let cmd = MEM_BUF_ZEROCOPY64_BATCHES.name();
        // Collected first, so the op arrays stay where the entries point until the call ends.
        let batches: Vec<BatchParts> = batches.collect();
        let entries = batches
            .iter()
            .map(|((mem, mem_offset, bar4_wr_threshold, flags), ops)| {
                Ok(MemcpyBatch {
                    mem_handle: mem.0,
                    mem_handle_offset: *mem_offset,
                    ops_ptr: UserPtr::input_slice(ops),
                    num_ops: u32_arg(cmd, "ops per batch", ops.len() as u64)?,
                    bar4_wr_threshold: *bar4_wr_threshold,
                    flags: *flags,
                    context: UserPtr::null(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let mut arg = MemBufCopy64zcBatches::new_zeroed();
        arg.sequence_num = sequence_num;
        arg.batches_ptr = UserPtr::input_slice(&entries);
        arg.num_batches = u32_arg(cmd, "batches", entries.len() as u64)?;
        arg.is_copy_to_device = u16::from(to_device);
        arg.h2t_qid = h2t_qid;
        // SAFETY: `batches_ptr` points to `entries`, whose `ops_ptr`s point to the op arrays
        // in `batches`, whose buffers were borrowed shared (to device: read) or exclusively
        // (from device: written) by the callers above; all alive across the call.
        unsafe { ioctl_ptr!(self, MEM_BUF_ZEROCOPY64_BATCHES, &mut arg) }
    }

    /// MEMSET64 (falling back to MEMSET): fills `size` bytes at `offset` with `value`.
    pub fn memset(&self, mem: MemHandle, offset: u64, value: u32, size: u64) -> Result<()> {
        self.compat(
            Family::Memset,
            || {
                let mut arg = Memset64::new_zeroed();
                arg.mem_handle = mem.0;
                arg.offset = offset;
                arg.value = value;
                arg.size = size;
                ioctl!(self, MEMSET64, &mut arg)
            },
            || {
                let mut arg = Memset {
                    mem_handle: mem.0,
                    offset,
                    value,
                    size: u32_arg(MEMSET.name(), "size", size)?,
                };
                ioctl!(self, MEMSET, &mut arg)
            },
        )
    }
}

impl<'a, K: Kernel> DeviceHandle<'a, K> {
    /// Maps `len` bytes of the object behind `cookie` (from an info ioctl) on this handle's
    /// read-write fd; a writable shared mapping needs a read-write fd.
    pub fn map(&self, cookie: u64, len: u64) -> Result<Mapping<'a, K>> {
        // SAFETY: the handle's own fd, open until the handle drops, and `self` is borrowed
        // for the whole call.
        unsafe { Mapping::map(self.ndl().kernel(), self.fd(), cookie, len) }
    }

    /// RESOURCE_MMAP_INFO, then mmap of the whole resource.
    pub fn map_resource(&self, block: u32, block_id: u32, resource: u32) -> Result<Mapping<'a, K>> {
        let info = self.resource_mmap_info(block, block_id, resource)?;
        self.map(info.offset, info.size)
    }

    /// MEM_MC_GET_INFO(_V2) for `pa`, then mmap of the allocation holding it.
    pub fn map_pa(&self, pa: u64) -> Result<Mapping<'a, K>> {
        let info = self.mem_mc_get_info(pa)?;
        if info.size == 0 {
            let cmd = MEM_MC_GET_INFO_V2.name();
            return Err(Error::OutOfRange {
                cmd,
                what: "size",
                value: 0,
            });
        }
        self.map(info.mmap_offset, info.size)
    }
}
