//! Typed values the wrappers take and return.

/// A driver memory handle (the kernel's opaque 64-bit cookie for an allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemHandle(pub u64);

/// Where an allocation lives: the `host_memory` / `dram_channel` / `dram_region` triple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemLocation {
    /// Host memory the device can DMA to.
    Host,
    /// Device DRAM (HBM) on `channel`, `region`.
    Device {
        /// DRAM channel.
        channel: u32,
        /// Region inside the channel.
        region: u32,
    },
}

impl MemLocation {
    /// `(host_memory, dram_channel, dram_region)` as the driver takes them.
    pub const fn fields(self) -> (u32, u32, u32) {
        match self {
            Self::Host => (1, 0, 0),
            Self::Device { channel, region } => (0, channel, region),
        }
    }
}

/// Which ring of a queue (`enum neuron_dma_queue_type`, in header order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueueType {
    /// The transmit (read-from-memory) ring.
    Tx = 0,
    /// The receive (write-to-memory) ring.
    Rx = 1,
}

/// Where a resource lives in the device's mmap space (RESOURCE_MMAP_INFO's answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResourceInfo {
    /// The mmap cookie.
    pub offset: u64,
    /// Its size in bytes.
    pub size: u64,
}

/// The answer of CRWL_NC_RANGE_MARK: which cores the caller got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NcRangeMark {
    /// Cores still available in the range.
    pub max_nc_available: u32,
    /// Bitmap of the cores marked for the caller (one bit per core; 64 per word).
    pub bitmap: [u64; 8],
}

/// Narrows a 64-bit argument for a 32-bit field, naming the command and argument on failure.
pub(crate) fn u32_arg(cmd: &'static str, what: &'static str, value: u64) -> crate::Result<u32> {
    u32::try_from(value).map_err(|_| crate::Error::OutOfRange { cmd, what, value })
}
