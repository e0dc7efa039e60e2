//! What can go wrong in a copy, and where.

use std::time::Duration;

use khal::udma::{UdmaError, UdmaState};

use ndl_std::Error;

/// A failed copy: the ioctl, khal or ring step that refused, the engine's abort, a timeout,
/// or a destination byte that differs from the source.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum CopyError {
    /// A driver call failed (it names the command).
    #[error(transparent)]
    Ndl(#[from] Error),
    /// khal refused the engine or queue setup.
    #[error("engine setup: {0}")]
    Udma(#[from] UdmaError),
    /// udma-desc refused a descriptor or ring operation.
    #[error("descriptor ring: {0}")]
    Desc(#[from] udma_desc::Error),
    /// DEVICE_INFO reported an architecture this build has no arch type for.
    #[error("the device reports architecture {0}, which this build does not support")]
    Arch(u32),
    /// The engine stopped on an error (a fault whose abort is armed).
    #[error("the DMA engine aborted (TX {tx:?}, RX {rx:?})")]
    Aborted {
        /// TX (M2S) state read back.
        tx: UdmaState,
        /// RX (S2M) state read back.
        rx: UdmaState,
    },
    /// The heads did not reach the posted descriptors in time.
    #[error(
        "timed out after {timeout:?}: heads at TX {tx_head} / RX {rx_head}, \
         expected {tx_expected} / {rx_expected}"
    )]
    Timeout {
        /// How long it waited.
        timeout: Duration,
        /// TX head index read last.
        tx_head: u32,
        /// RX head index read last.
        rx_head: u32,
        /// TX index the head had to reach.
        tx_expected: u32,
        /// RX index the head had to reach.
        rx_expected: u32,
    },
    /// The destination differs from the source.
    #[error("destination byte {offset} is {found:#04x}, the source has {expected:#04x}")]
    Mismatch {
        /// First differing byte.
        offset: u64,
        /// Source byte.
        expected: u8,
        /// Destination byte.
        found: u8,
    },
    /// The destination read back has another length than the source.
    #[error("read back {found} bytes where the source has {expected}")]
    LengthMismatch {
        /// Source length.
        expected: u64,
        /// Length read back.
        found: u64,
    },
    /// H2T_DMA_ALLOC_QUEUES succeeded but handed out no service queue.
    #[error("H2T_DMA_ALLOC_QUEUES gave core {nc} no service queue (bitmap {bmap:#x})")]
    NoServiceQueue {
        /// The core asked for.
        nc: u32,
        /// The service-queue bitmap written back.
        bmap: u32,
    },
    /// DMA_ENG_GET_STATE reports the engine stopped by an error (state 3, ABORT).
    #[error("engine {eng_id} is aborted (DMA_ENG_GET_STATE: TX {tx_state}, RX {rx_state})")]
    EngineAborted {
        /// The engine.
        eng_id: u32,
        /// TX state as the driver reports it (1 IDLE, 2 NORMAL, 3 ABORT).
        tx_state: u32,
        /// RX state as the driver reports it.
        rx_state: u32,
    },
    /// A copy offset this process cannot address (a source longer than its address space).
    #[error("copy offset {bytes} does not fit this process's address space")]
    TooLarge {
        /// The offset.
        bytes: u64,
    },
    /// A copy of zero bytes (a descriptor cannot carry it).
    #[error("nothing to copy")]
    Empty,
    /// The copy needs more descriptor pairs than the ring can ever hold at once.
    #[error("{needed} descriptor pairs do not fit a ring with room for {room}")]
    RingTooSmall {
        /// Pairs needed.
        needed: u64,
        /// Pairs the ring has room for.
        room: u32,
    },
}
