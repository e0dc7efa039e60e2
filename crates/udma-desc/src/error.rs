//! The one error type of the crate: every rejected input says what was wrong and with which value.

use crate::{
    Direction, InvalidQueueId, MAX_TRANSFER_BYTES, RING_MAX_SIZE, RING_MIN_SIZE, RING_SIZE_MULTIPLE,
};

/// Why a descriptor, ring or request was refused.
///
/// Every variant carries the offending value so that a caller (or a CLI) can report it
/// without re-deriving it. No function of this crate panics; they return one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A transfer size of 0 bytes. The kernel driver silently encodes it as 64 KiB
    /// (length field 0); this crate refuses it.
    ZeroSize,
    /// A transfer size above 65,536 bytes (the 16-bit length field with 0 meaning 64 KiB).
    SizeTooLarge {
        /// The requested size in bytes.
        size: u32,
    },
    /// A barrier type that is not 0 (NONE), 1 (DMB), 2 (WRITE_BARRIER) or 3 (SOW).
    InvalidBarrier {
        /// The raw barrier value.
        value: u32,
    },
    /// A strong-ordered write (barrier SOW) was requested on an arch without it (V2).
    StrongOrderUnsupported,
    /// A notification mask was requested on an arch without it (before V4; seed 004 §1
    /// `build_packet`: "sdma notification mask is not supported on arch version", -EINVAL).
    NotificationMaskUnsupported,
    /// A notification mask was requested on V4, where it exists, but neither the seed nor
    /// the reference gives its bit positions in the TX meta word, so it cannot be encoded.
    NotificationMaskEncodingUnknown {
        /// The mask asked for.
        mask: u8,
    },
    /// A queue number out of range.
    InvalidQueue(InvalidQueueId),
    /// A narrow field (the 2-bit ring id and CME index, a 3-bit meta field) got a value
    /// above the largest it holds.
    ValueTooWide {
        /// Which field.
        field: &'static str,
        /// The value given.
        value: u32,
        /// The largest value the field holds.
        max: u32,
    },
    /// A ring size that is not a power of two.
    RingSizeNotPowerOfTwo {
        /// The size in descriptors.
        size: u32,
    },
    /// A ring size outside `32..=2^24-16` descriptors (or not a multiple of 16).
    RingSizeOutOfRange {
        /// The size in descriptors.
        size: u32,
    },
    /// The descriptor storage holds fewer descriptors than the ring needs.
    StorageTooSmall {
        /// Descriptors the storage holds.
        capacity: usize,
        /// Descriptors the ring needs.
        ring_size: u32,
    },
    /// A slot index outside the descriptor storage.
    SlotOutOfRange {
        /// The slot index.
        index: u32,
        /// Descriptors the storage holds.
        capacity: usize,
    },
    /// Not enough free slots on a ring (the 16-slot cache-line reserve counts as used).
    RingFull {
        /// Which ring of the pair.
        ring: Direction,
        /// Slots the request needs.
        needed: u32,
        /// Slots free right now.
        available: u32,
    },
    /// More completions acknowledged than descriptors outstanding.
    AckTooMany {
        /// Descriptors acknowledged.
        count: u32,
        /// Descriptors outstanding when the ack was tried.
        outstanding: u32,
    },
    /// A doorbell count above the ring size.
    DoorbellCountTooLarge {
        /// Which ring.
        ring: Direction,
        /// The count given.
        count: u32,
        /// The ring size.
        ring_size: u32,
    },
    /// A start with an RX count of 0, which the kernel refuses before any write
    /// ([`start_refuses_rx_count`](crate::start_refuses_rx_count)).
    DoorbellRxCountZero,
    /// A bulk write whose descriptor count differs from its reservation.
    ReservationMismatch {
        /// Slots reserved.
        reserved: u32,
        /// Descriptors given.
        given: usize,
    },
    /// A packet with no data block.
    EmptyPacket,
    /// A packet with more TX descriptors than the arch allows (`PacketCaps::MAX_TX_DESCS_PER_PACKET`).
    PacketTooManyDescriptors {
        /// The arch limit.
        max: u32,
    },
    /// A packet whose bytes exceed the engine's maximum packet size (`m2s.cfg_len` MAX_PKT_SIZE).
    PacketTooLarge {
        /// Bytes in the packet so far.
        bytes: u64,
        /// The limit.
        max: u32,
    },
    /// A scatter-gather packet whose destination segments do not add up to its source bytes
    /// (the project's check: the engine's RX buffers are to hold exactly the packet).
    PacketSidesDiffer {
        /// Bytes the TX descriptors read.
        tx_bytes: u64,
        /// Bytes the RX descriptors offer.
        rx_bytes: u64,
    },
    /// A ring dump whose length is not a multiple of 16 bytes.
    PartialDescriptor {
        /// Bytes in the dump.
        len: usize,
        /// Bytes after the last whole descriptor.
        trailing: usize,
    },
}

impl Error {
    /// `value` if a field whose largest value is `max` holds it, else
    /// [`Error::ValueTooWide`] naming `field`: the one range check of every narrow field.
    pub(crate) const fn check_width(field: &'static str, value: u8, max: u8) -> Result<u8, Error> {
        if value <= max {
            Ok(value)
        } else {
            Err(Error::ValueTooWide {
                field,
                value: value as u32,
                max: max as u32,
            })
        }
    }
}

impl From<InvalidQueueId> for Error {
    fn from(e: InvalidQueueId) -> Self {
        Error::InvalidQueue(e)
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Error::ZeroSize => write!(f, "transfer size 0 (must be 1..={MAX_TRANSFER_BYTES})"),
            Error::SizeTooLarge { size } => {
                write!(f, "transfer size {size} above {MAX_TRANSFER_BYTES}")
            }
            Error::InvalidBarrier { value } => {
                write!(
                    f,
                    "barrier type {value} invalid (0 NONE, 1 DMB, 2 WRITE_BARRIER, 3 SOW)"
                )
            }
            Error::StrongOrderUnsupported => {
                f.write_str("strong-ordered write (SOW) not supported on this arch")
            }
            Error::NotificationMaskUnsupported => {
                f.write_str("notification mask not supported on this arch")
            }
            Error::NotificationMaskEncodingUnknown { mask } => write!(
                f,
                "notification mask {mask:#04x}: its bit positions in the TX meta word are not \
                 known (no source gives them), so it cannot be encoded"
            ),
            Error::InvalidQueue(e) => write!(f, "{e}"),
            Error::ValueTooWide { field, value, max } => {
                write!(f, "{field} {value} above {max}")
            }
            Error::RingSizeNotPowerOfTwo { size } => {
                write!(f, "ring size {size} is not a power of two")
            }
            Error::RingSizeOutOfRange { size } => write!(
                f,
                "ring size {size} outside {RING_MIN_SIZE}..={RING_MAX_SIZE} descriptors or not \
                 a multiple of {RING_SIZE_MULTIPLE}"
            ),
            Error::StorageTooSmall { .. }
            | Error::SlotOutOfRange { .. }
            | Error::RingFull { .. }
            | Error::AckTooMany { .. }
            | Error::DoorbellCountTooLarge { .. }
            | Error::DoorbellRxCountZero
            | Error::ReservationMismatch { .. }
            | Error::EmptyPacket
            | Error::PacketTooManyDescriptors { .. }
            | Error::PacketTooLarge { .. }
            | Error::PacketSidesDiffer { .. }
            | Error::PartialDescriptor { .. } => self.fmt_ring(f),
        }
    }
}

impl Error {
    /// The ring, storage, packet and dump errors' sentences.
    fn fmt_ring(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Error::StorageTooSmall {
                capacity,
                ring_size,
            } => write!(
                f,
                "descriptor storage holds {capacity} descriptors, ring needs {ring_size}"
            ),
            Error::SlotOutOfRange { index, capacity } => {
                write!(f, "slot {index} outside storage of {capacity} descriptors")
            }
            Error::RingFull {
                ring,
                needed,
                available,
            } => write!(
                f,
                "{ring} ring full: {needed} slots needed, {available} available"
            ),
            Error::AckTooMany { count, outstanding } => write!(
                f,
                "ack of {count} descriptors but only {outstanding} outstanding"
            ),
            Error::DoorbellCountTooLarge {
                ring,
                count,
                ring_size,
            } => write!(
                f,
                "{ring} doorbell count {count} above ring size {ring_size}"
            ),
            Error::DoorbellRxCountZero => f.write_str(
                "RX doorbell count 0: the kernel always rings RX and refuses a start with none",
            ),
            Error::ReservationMismatch { reserved, given } => write!(
                f,
                "{given} descriptors written to a reservation of {reserved}"
            ),
            Error::EmptyPacket => f.write_str("packet without data blocks"),
            Error::PacketTooManyDescriptors { max } => {
                write!(f, "packet needs more than {max} TX descriptors")
            }
            Error::PacketTooLarge { bytes, max } => {
                write!(f, "packet of {bytes} bytes above the {max}-byte maximum")
            }
            Error::PacketSidesDiffer { tx_bytes, rx_bytes } => write!(
                f,
                "packet reads {tx_bytes} bytes but its destination segments hold {rx_bytes}"
            ),
            Error::PartialDescriptor { len, trailing } => write!(
                f,
                "ring dump of {len} bytes ends with a partial descriptor of {trailing} bytes"
            ),
            // Not reached: `fmt` sends only the variants above here.
            _ => core::fmt::Debug::fmt(self, f),
        }
    }
}

impl core::error::Error for Error {}
