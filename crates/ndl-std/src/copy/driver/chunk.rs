//! One driver memory chunk (MEM_ALLOC), freed on drop.

use crate::error::Result;
use crate::gateway::DeviceHandle;
use crate::kernel::Kernel;
use crate::mapping::Mapping;
use crate::wrappers::{MemHandle, MemLocation};

/// MEM_ALLOC's `mem_type` accounting categories the copy uses (`reference/dma-path.md`
/// step 2): DMA rings and tensors, host or device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemType {
    /// A descriptor ring or the completion word pair.
    Ring,
    /// A source or destination buffer.
    Tensor,
}

impl MemType {
    /// The driver's category number for this use at `location`.
    const fn value(self, location: MemLocation) -> u32 {
        match (self, location) {
            (Self::Ring, MemLocation::Host) => 17,
            (Self::Ring, MemLocation::Device { .. }) => 18,
            (Self::Tensor, MemLocation::Host) => 2,
            (Self::Tensor, MemLocation::Device { .. }) => 9,
        }
    }
}

/// A chunk from MEM_ALLOC with its bus address and mmap cookie (MEM_GET_EXTENDED_INFO),
/// given back with MEM_FREE when dropped — on success and on every error path.
#[derive(Debug)]
pub(crate) struct Chunk<'r, 'a, K: Kernel> {
    dev: &'r DeviceHandle<'a, K>,
    /// The driver handle.
    pub(crate) mem: MemHandle,
    /// What descriptors address: MEM_GET_EXTENDED_INFO's `pa`, with the arch's host window
    /// OR-ed in for host chunks (the 2.26.5.0 driver already includes it; OR-ing is
    /// idempotent and covers drivers that report the bare physical address).
    pub(crate) bus_addr: u64,
    /// The mmap offset of the chunk.
    pub(crate) cookie: u64,
    /// Chunk size as the driver reports it (rounded up to a page): what a mapping must
    /// cover exactly.
    pub(crate) size: u64,
}

impl<'r, 'a, K: Kernel> Chunk<'r, 'a, K> {
    /// Allocates `size` bytes at `location` for core `nc_id`. Host memory takes no
    /// alignment (the driver refuses one with EINVAL); chunks are page-aligned anyway, which
    /// covers the 256-byte ring alignment.
    pub(crate) fn alloc(
        dev: &'r DeviceHandle<'a, K>,
        size: u64,
        location: MemLocation,
        nc_id: u32,
        use_: MemType,
        host_window: u64,
    ) -> Result<Self> {
        let mem = dev.mem_alloc_typed(size, 0, location, nc_id, use_.value(location))?;
        // From here on, dropping `chunk` frees the handle (also when the info call fails).
        let mut chunk = Self {
            dev,
            mem,
            bus_addr: 0,
            cookie: 0,
            size,
        };
        let info = dev.mem_get_extended_info(mem, 0)?;
        chunk.bus_addr = if info.host_memory != 0 {
            info.pa | host_window
        } else {
            info.pa
        };
        chunk.cookie = info.mmap_offset;
        chunk.size = info.size.max(size);
        Ok(chunk)
    }

    /// Maps the whole chunk (the driver requires the mapping length to equal the chunk size)
    /// on the handle's read-write fd.
    pub(crate) fn map(&self) -> Result<Mapping<'a, K>> {
        self.dev.map(self.cookie, self.size)
    }
}

impl<K: Kernel> Drop for Chunk<'_, '_, K> {
    fn drop(&mut self) {
        // Nothing to report to: a failed free leaves the chunk to the driver, which frees
        // what is left when the process's last fd is flushed.
        let _ = self.dev.mem_free(self.mem);
    }
}
