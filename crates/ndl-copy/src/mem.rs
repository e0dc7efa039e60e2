//! [`DeviceMem`]: driver memory (MEM_ALLOC) owned from the moment the driver hands it out,
//! given back with MEM_FREE when dropped — the way `kvm-ioctls` wraps an fd in its owner as
//! soon as the kernel returns it. Both copy paths allocate only through it, so no path frees
//! by hand and none can leak a chunk on an error.

use ndl_std::{DeviceHandle, Error, Kernel, Mapping, MemHandle, MemLocation};

/// MEM_ALLOC's `mem_type` accounting categories the driver-style copy uses
/// (`reference/dma-path.md` step 2): DMA rings and tensors, host or device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemType {
    /// The category the register-level copy and older runtimes pass: 0.
    Unspecified,
    /// A descriptor ring or the completion word pair.
    Ring,
    /// A source or destination buffer.
    Tensor,
}

impl MemType {
    /// The driver's category number for this use at `location` (dma-path.md step 2: 17/18
    /// host/device DMA rings, 2/9 host/device tensors).
    pub const fn value(self, location: MemLocation) -> u32 {
        match (self, location) {
            (Self::Unspecified, _) => 0,
            (Self::Ring, MemLocation::Host) => 17,
            (Self::Ring, MemLocation::Device { .. }) => 18,
            (Self::Tensor, MemLocation::Host) => 2,
            (Self::Tensor, MemLocation::Device { .. }) => 9,
        }
    }
}

/// What to allocate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemSpec {
    /// Bytes.
    pub size: u64,
    /// Alignment for device memory (host memory takes none: the driver refuses one with
    /// EINVAL, and its chunks are page-aligned anyway).
    pub align: u64,
    /// Host or device memory.
    pub location: MemLocation,
    /// The core the memory is accounted to.
    pub nc_id: u32,
    /// The accounting category.
    pub mem_type: MemType,
    /// The arch's PCIe host window (`pci_host_base`), OR-ed into a host chunk's bus address.
    pub host_window: u64,
}

/// A chunk from MEM_ALLOC with its bus address and mmap cookie (MEM_GET_EXTENDED_INFO),
/// given back with MEM_FREE when dropped — on success and on every error path.
#[derive(Debug)]
pub struct DeviceMem<'r, 'a, K: Kernel> {
    dev: &'r DeviceHandle<'a, K>,
    mem: MemHandle,
    dma_addr: u64,
    cookie: u64,
    size: u64,
}

impl<'r, 'a, K: Kernel> DeviceMem<'r, 'a, K> {
    /// Allocates what `spec` says on `dev` and looks its addresses up.
    pub fn alloc(dev: &'r DeviceHandle<'a, K>, spec: MemSpec) -> Result<Self, Error> {
        let align = match spec.location {
            MemLocation::Host => 0,
            MemLocation::Device { .. } => spec.align,
        };
        let mem_type = spec.mem_type.value(spec.location);
        let mem = dev.mem_alloc_typed(spec.size, align, spec.location, spec.nc_id, mem_type)?;
        // Owned from here on: dropping `owned` frees the handle, also when the info call
        // below fails.
        let mut owned = Self {
            dev,
            mem,
            dma_addr: 0,
            cookie: 0,
            size: spec.size,
        };
        let info = dev.mem_get_extended_info(mem, 0)?;
        // The 2.26.5.0 driver already includes the host window in `pa`; OR-ing is idempotent
        // and covers drivers that report the bare physical address.
        owned.dma_addr = if info.host_memory != 0 {
            info.pa | spec.host_window
        } else {
            info.pa
        };
        owned.cookie = info.mmap_offset;
        owned.size = info.size.max(spec.size);
        Ok(owned)
    }

    /// The driver handle.
    pub fn mem(&self) -> MemHandle {
        self.mem
    }

    /// What descriptors address: MEM_GET_EXTENDED_INFO's `pa`, with the arch's host window
    /// OR-ed in for host chunks.
    pub fn dma_addr(&self) -> u64 {
        self.dma_addr
    }

    /// The chunk's mmap cookie.
    pub fn cookie(&self) -> u64 {
        self.cookie
    }

    /// The chunk's size as the driver reports it (rounded up to a page): what a mapping
    /// must cover exactly.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Maps the whole chunk (the driver requires the mapping length to equal the chunk size)
    /// on the handle's read-write fd.
    pub fn map(&self) -> Result<Mapping<'a, K>, Error> {
        self.dev.map(self.cookie, self.size)
    }

    /// MEM_BUF_COPY of `data` to `offset` in the chunk.
    pub fn write(&self, offset: u64, data: &[u8]) -> Result<(), Error> {
        self.dev.mem_buf_copy_to(self.mem, offset, data)
    }

    /// MEM_BUF_COPY of the chunk's bytes from `offset` into `out`.
    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), Error> {
        self.dev.mem_buf_copy_from(self.mem, offset, out)
    }
}

impl<K: Kernel> Drop for DeviceMem<'_, '_, K> {
    fn drop(&mut self) {
        // Nothing to report to: a failed free leaves the chunk to the driver, which frees
        // what is left when the process's last fd is flushed.
        let _ = self.dev.mem_free(self.mem);
    }
}
