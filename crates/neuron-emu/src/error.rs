//! Error values of the model.
//!
//! A device model must never panic on what software (or a fuzzer) programs into it: every bad
//! address, size or layout becomes one of these values, and the engine turns bus errors into
//! the interrupt causes that real hardware would latch.

use thiserror::Error;

/// An access the memory fabric cannot complete: the AXI "decode error" / "slave error"
/// response that a real engine receives for an address no memory claims.
///
/// An access is accepted only when all of `[addr, addr + len)` lies inside one region; a range
/// that straddles two regions or a region's end is refused whole, so no byte is touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
#[error("AXI bus error: {len} bytes at DMA address {addr:#x} are not inside one mapped region")]
pub struct BusError {
    /// First DMA address of the refused access.
    pub addr: u64,
    /// Length of the refused access in bytes.
    pub len: u64,
}

/// A region that cannot be added to an [`AddressSpace`](crate::AddressSpace).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MapError {
    /// The region has no bytes.
    #[error("region {name:?} is empty")]
    Empty {
        /// Name of the refused region.
        name: String,
    },
    /// `base + size` does not fit in 64 bits, or `size` does not fit the host's `usize`.
    #[error("region {name:?} at {base:#x} with {size:#x} bytes overflows the address space")]
    Overflow {
        /// Name of the refused region.
        name: String,
        /// Requested base.
        base: u64,
        /// Requested size.
        size: u64,
    },
    /// The region overlaps one that is already mapped.
    #[error("region {name:?} [{base:#x}, +{size:#x}) overlaps region {other:?}")]
    Overlap {
        /// Name of the refused region.
        name: String,
        /// Requested base.
        base: u64,
        /// Requested size.
        size: u64,
        /// Name of the region it collides with.
        other: String,
    },
    /// The host would not give the region its memory (mmap(2) refused the anonymous
    /// mapping: ENOMEM for more than it will map).
    #[error("region {name:?} of {size:#x} bytes: the host has no memory for it (errno {errno})")]
    NoMemory {
        /// Name of the refused region.
        name: String,
        /// Requested size.
        size: u64,
        /// The host's errno (12, ENOMEM, for a size it will not map).
        errno: i32,
    },
}

impl MapError {
    /// The errno the host answered, for [`NoMemory`](Self::NoMemory); `None` for a map that
    /// is impossible whatever the host has.
    pub fn host_errno(&self) -> Option<i32> {
        match self {
            Self::NoMemory { errno, .. } => Some(*errno),
            Self::Empty { .. } | Self::Overflow { .. } | Self::Overlap { .. } => None,
        }
    }
}

/// A failed allocation or free in a region's allocator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum AllocError {
    /// No region has this id.
    #[error("no region with id {0}")]
    NoSuchRegion(usize),
    /// Size 0 was requested.
    #[error("zero-sized allocation")]
    ZeroSize,
    /// The alignment is not a power of two.
    #[error("alignment {0:#x} is not a power of two")]
    BadAlign(u64),
    /// No free range is large enough.
    #[error("out of memory: {size:#x} bytes aligned to {align:#x} do not fit in region {region}")]
    OutOfMemory {
        /// Region asked.
        region: usize,
        /// Bytes asked.
        size: u64,
        /// Alignment asked.
        align: u64,
    },
    /// `free` of an address that is not the start of a live allocation.
    #[error("{0:#x} is not the start of a live allocation")]
    NotAllocated(u64),
}

/// Why [`rules_after_init`](crate::rules_after_init) could not read an engine's walk rules.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// `khal` engine init refused the parameters or the model engine.
    #[error("engine init: {0}")]
    Init(#[from] khal::udma::UdmaError),
    /// The scratch device has no unit 0 (a model bug).
    #[error("the scratch device has no unit 0")]
    NoUnit,
}
