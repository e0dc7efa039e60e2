//! Faults the engines detect, and the interrupt cause each one latches.

use iofic::{M2sCause, S2mCause};
use udma_desc::{Direction, RingId};

/// A fault detected while running a queue pair. Each variant latches one secondary IOFIC cause
/// (group A for M2S, group B for S2M; bit in [`Fault::cause_bit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// A TX descriptor could not be fetched (ring outside memory): M2S PREFETCH_AXI_RESP.
    #[error("TX descriptor fetch at slot {slot} ({addr:#x}) hit a bus error")]
    TxPrefetchBus {
        /// Ring slot.
        slot: u32,
        /// DMA address of the slot.
        addr: u64,
    },
    /// A TX descriptor's ring id is not the phase the engine expects: M2S PREFETCH_RING_ID.
    #[error("TX slot {slot}: ring id {found}, expected {expected}")]
    TxRingId {
        /// Ring slot.
        slot: u32,
        /// Phase the engine expected.
        expected: RingId,
        /// Ring id found in the descriptor.
        found: RingId,
    },
    /// A packet's first descriptor lacks FIRST: M2S PREFETCH_FIRST.
    #[error("TX slot {slot}: packet does not start with FIRST")]
    TxFirst {
        /// Ring slot.
        slot: u32,
    },
    /// A new packet (FIRST) starts before the previous one saw LAST: M2S PREFETCH_LAST.
    #[error("TX slot {slot}: FIRST inside an open packet (LAST missing)")]
    TxLast {
        /// Ring slot of the unexpected FIRST.
        slot: u32,
    },
    /// More descriptors in one packet than the prefetch limit: M2S PREFETCH_MAX_DESC.
    #[error("TX packet longer than {limit} descriptors")]
    TxMaxDesc {
        /// Programmed limit (descriptors per packet).
        limit: u32,
    },
    /// Packet longer than `cfg_len` MAX_PKT_SIZE: M2S PKT_LEN.
    #[error("TX packet of {len} bytes exceeds the maximum {max}")]
    TxPacketLen {
        /// Packet length so far.
        len: u64,
        /// Programmed maximum.
        max: u64,
    },
    /// Source data outside memory: M2S DATA_AXI_RESP.
    #[error("TX data read of {len} bytes at {addr:#x} hit a bus error")]
    TxDataBus {
        /// Source address.
        addr: u64,
        /// Bytes.
        len: u64,
    },
    /// An RX descriptor could not be fetched: S2M PREFETCH_AXI_RESP.
    #[error("RX descriptor fetch at slot {slot} ({addr:#x}) hit a bus error")]
    RxPrefetchBus {
        /// Ring slot.
        slot: u32,
        /// DMA address of the slot.
        addr: u64,
    },
    /// An RX descriptor's ring id is not the expected phase: S2M PREFETCH_RING_ID.
    #[error("RX slot {slot}: ring id {found}, expected {expected}")]
    RxRingId {
        /// Ring slot.
        slot: u32,
        /// Phase the engine expected.
        expected: RingId,
        /// Ring id found in the descriptor.
        found: RingId,
    },
    /// The RX buffers of a packet hold fewer bytes than the TX packet: S2M PKT_LEN.
    #[error("RX buffers hold {rx_capacity} bytes, the TX packet has {packet_len}")]
    RxShort {
        /// TX packet length.
        packet_len: u64,
        /// Total length of the RX descriptors paired with it.
        rx_capacity: u64,
    },
    /// Destination outside memory: S2M DATA_AXI_RESP.
    #[error("RX data write of {len} bytes at {addr:#x} hit a bus error")]
    RxDataBus {
        /// Destination address.
        addr: u64,
        /// Bytes.
        len: u64,
    },
}

impl Fault {
    /// The direction (TX = M2S, RX = S2M) whose secondary group latches the cause (and which
    /// aborts).
    pub const fn direction(&self) -> Direction {
        match self {
            Self::TxPrefetchBus { .. }
            | Self::TxRingId { .. }
            | Self::TxFirst { .. }
            | Self::TxLast { .. }
            | Self::TxMaxDesc { .. }
            | Self::TxPacketLen { .. }
            | Self::TxDataBus { .. } => Direction::Tx,
            Self::RxPrefetchBus { .. }
            | Self::RxRingId { .. }
            | Self::RxShort { .. }
            | Self::RxDataBus { .. } => Direction::Rx,
        }
    }

    /// The ring slot the fault names, when it names one (the packet limits and data bus
    /// errors name a length or an address instead).
    pub const fn slot(&self) -> Option<u32> {
        match *self {
            Self::TxPrefetchBus { slot, .. }
            | Self::TxRingId { slot, .. }
            | Self::TxFirst { slot }
            | Self::TxLast { slot }
            | Self::RxPrefetchBus { slot, .. }
            | Self::RxRingId { slot, .. } => Some(slot),
            Self::TxMaxDesc { .. }
            | Self::TxPacketLen { .. }
            | Self::TxDataBus { .. }
            | Self::RxShort { .. }
            | Self::RxDataBus { .. } => None,
        }
    }

    /// The cause bit in secondary group A (M2S) or B (S2M), per `reference/iofic.tsv`.
    pub const fn cause_bit(&self) -> u32 {
        match self {
            Self::TxPrefetchBus { .. } => M2sCause::PREFETCH_AXI_RESP.bits(),
            Self::TxRingId { .. } => M2sCause::PREFETCH_RING_ID.bits(),
            Self::TxFirst { .. } => M2sCause::PREFETCH_FIRST.bits(),
            Self::TxLast { .. } => M2sCause::PREFETCH_LAST.bits(),
            Self::TxMaxDesc { .. } => M2sCause::PREFETCH_MAX_DESC.bits(),
            Self::TxPacketLen { .. } => M2sCause::PKT_LEN.bits(),
            Self::TxDataBus { .. } => M2sCause::DATA_AXI_RESP.bits(),
            Self::RxPrefetchBus { .. } => S2mCause::PREFETCH_AXI_RESP.bits(),
            Self::RxRingId { .. } => S2mCause::PREFETCH_RING_ID.bits(),
            Self::RxShort { .. } => S2mCause::PKT_LEN.bits(),
            Self::RxDataBus { .. } => S2mCause::DATA_AXI_RESP.bits(),
        }
    }
}
