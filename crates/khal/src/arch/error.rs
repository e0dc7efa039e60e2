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
    /// A perf-counter BAR0 offset that does not fit the address space.
    CounterOffsetOutOfRange {
        /// The low word's offset.
        offset: u64,
    },
    /// A PE row group at or above `pe_row_grp_count`.
    RowGroupOutOfRange {
        /// The row group given.
        row: u32,
        /// Row groups.
        limit: u32,
    },
    /// A logical-to-physical map of a type other than 0 (the kernel: -EINVAL).
    NcMapTypeUnsupported {
        /// The type asked for.
        mapping_type: u32,
    },
    /// A logical-to-physical map entry at or above 128.
    NcMapEntryOutOfRange {
        /// The entry asked for.
        entry: u16,
    },
    /// The arch has no logical-to-physical map (V2: the ioctl reports unsupported).
    NcMapUnsupported,
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
            ArchError::CounterOffsetOutOfRange { offset } => {
                write!(
                    f,
                    "perf counter offset {offset:#x} out of the address space"
                )
            }
            ArchError::RowGroupOutOfRange { row, limit } => {
                write!(f, "PE row group {row} out of range (0..{limit})")
            }
            ArchError::NcMapTypeUnsupported { mapping_type } => {
                write!(f, "NC map type {mapping_type} not supported (only 0)")
            }
            ArchError::NcMapEntryOutOfRange { entry } => {
                write!(f, "NC map entry {entry} out of range (0..128)")
            }
            ArchError::NcMapUnsupported => write!(f, "this arch has no logical-to-physical NC map"),
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
