//! Errors of the per-arch pure functions.

use core::fmt;

/// A per-arch computation got an input outside the arch's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchError {
    /// NeuronCore index at or above `nc_per_device`.
    NcOutOfRange {
        /// The index given.
        nc: u32,
        /// Cores per device.
        limit: u32,
    },
    /// DMA engine id that is neither a core engine nor an H2T engine.
    EngineOutOfRange {
        /// The id given.
        engine: u32,
    },
    /// HBM channel at or above `dram_channels`.
    HbmOutOfRange {
        /// The channel given.
        hbm: u32,
        /// Channels per device.
        limit: u32,
    },
    /// Notification queue index or type out of range.
    NqOutOfRange {
        /// Index given.
        index: u32,
        /// Type given.
        nq_type: u32,
    },
    /// Event index at or above `event_count` (the vendor bound check lets `event_count` through).
    EventOutOfRange {
        /// Index given.
        event: u32,
        /// Events per core.
        limit: u32,
    },
    /// Fewer than 2 descriptors in a completion wait estimate (the vendor formula wraps).
    WaitCountTooSmall {
        /// Count given.
        count: u32,
    },
    /// A device address range that is not inside one HBM window (the end is exclusive and
    /// strict, as in the vendor test).
    NotInHbmWindow {
        /// Start address.
        addr: u64,
        /// Size in bytes.
        size: u64,
    },
}

impl fmt::Display for ArchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ArchError::NcOutOfRange { nc, limit } => {
                write!(f, "NeuronCore {nc} out of range (0..{limit})")
            }
            ArchError::EngineOutOfRange { engine } => write!(f, "DMA engine {engine} unknown"),
            ArchError::HbmOutOfRange { hbm, limit } => {
                write!(f, "HBM channel {hbm} out of range (0..{limit})")
            }
            ArchError::NqOutOfRange { index, nq_type } => {
                write!(
                    f,
                    "notification queue {index} of type {nq_type} out of range"
                )
            }
            ArchError::EventOutOfRange { event, limit } => {
                write!(f, "event {event} out of range (0..{limit})")
            }
            ArchError::WaitCountTooSmall { count } => {
                write!(
                    f,
                    "completion wait estimate needs at least 2 descriptors, got {count}"
                )
            }
            ArchError::NotInHbmWindow { addr, size } => {
                write!(f, "range {addr:#x}+{size:#x} is not inside one HBM window")
            }
        }
    }
}

impl core::error::Error for ArchError {}
