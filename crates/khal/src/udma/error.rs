//! Errors of UDMA bring-up and configuration.

use core::fmt;

use crate::regs::queue::Dir;

/// A feature gated by UDMA revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RevisionFeature {
    /// Engine init (the reference sequence is revision 4's).
    EngineInit,
}

/// Why a UDMA operation was refused. Nothing is written to the hardware when one is
/// returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UdmaError {
    /// The engine's revision does not support the feature.
    UnsupportedRevision {
        /// What was asked for.
        feature: RevisionFeature,
        /// The revision of the engine.
        found: u8,
        /// The revision the feature needs.
        required: u8,
    },
    /// The revision read from the hardware differs from the arch's compile-time one.
    RevisionMismatch {
        /// Read from the hardware.
        hardware: u8,
        /// The arch's UDMA revision.
        arch: u8,
    },
    /// The userspace HAL's `al_udma_init` found a UDMA revision other than 4 (seed 004 §2:
    /// "unsupported DMA rev id: %d", -EINVAL): read from `m2s_feature.dma_version` by the
    /// ancestor's rule, or stated by the caller.
    UnsupportedDmaRevision {
        /// The revision (for a word below 4 read from the register: the word itself).
        value: u32,
        /// Where it came from.
        source: super::RevisionSource,
    },
    /// `al_udma_iofic_config_ex` (the caller's, for `iofic_mode`) failed (seed 004 §2:
    /// "failed configure iofic"; its return code is passed back).
    IoficConfigFailed {
        /// Its return code.
        rc: i32,
    },
    /// An S2M no-descriptor timeout wider than its 24-bit field.
    NoDescTimeoutTooWide {
        /// The timeout given.
        timeout: u32,
    },
    /// An S2M no-descriptor policy of "no drop, timeout 0", which waits forever (seed 004
    /// §2); use the explicit `set_s2m_no_desc_wait_forever`.
    NoDescWaitForever,
    /// The ancestor HAL's no-descriptor procedure refuses drop with a zero timeout (al-hal
    /// `g`: "drop with timeout 0 -> error -EINVAL, nothing written").
    NoDescDropWithoutTimeout,
    /// A completion-descriptor write burst other than 64, 128 or 256 bytes (al-hal `e`:
    /// `al_udma_s2m_compl_desc_burst_config`, -EINVAL).
    BadCompDescBurst {
        /// The burst given, in bytes.
        bytes: u32,
    },
    /// The TTT's `init_in_progress` bit did not clear within the poll bound.
    TttNotReady {
        /// Reads made.
        polls: u32,
    },
    /// The engine did not report the requested state within the poll bound.
    StateWaitTimeout {
        /// The state asked for.
        state: crate::udma::UdmaState,
        /// Rounds polled.
        polls: u32,
    },
    /// More queues requested than the engine has (16; 4 below UDMA revision 4), or none.
    BadQueueCount {
        /// The count given.
        requested: u8,
    },
    /// A queue id at or above the engine's configured queue count.
    QueueNotConfigured {
        /// The queue.
        queue: u8,
        /// Queues configured.
        count: u8,
    },
    /// Max descriptors per packet outside 8..=128.
    BadMaxDescsPerPacket {
        /// The value given.
        value: u32,
    },
    /// A ring base address that is not 256-byte aligned.
    RingMisaligned {
        /// Direction of the ring.
        dir: Dir,
        /// Its bus address.
        addr: u64,
    },
    /// A ring size (descriptors) that is not a power of two in 32..=2^23.
    BadRingSize {
        /// Direction of the ring.
        dir: Dir,
        /// Its size in descriptors.
        size: u32,
    },
    /// A ring size (descriptors) outside the kernel driver's DMA_QUEUE_INIT rule: a multiple
    /// of 16 in 32..=2^24-16
    /// ([`RingConfig::validate_driver_rules`](crate::udma::RingConfig::validate_driver_rules)).
    BadDriverRingSize {
        /// Direction of the ring.
        dir: Dir,
        /// Its size in descriptors.
        size: u32,
    },
    /// A ring whose end address does not fit in 64 bits.
    RingOverflow {
        /// Direction of the ring.
        dir: Dir,
        /// Its bus address.
        addr: u64,
    },
    /// A copy start with an RX count of 0: the kernel's doorbell helper refuses it with -1
    /// and writes nothing (`udma-notes.md` §6, §13; 2.25.4.0 crashed).
    DoorbellRxCountZero,
    /// A doorbell count that does not fit the 24-bit tail-increment field.
    DoorbellCountTooWide {
        /// Direction of the doorbell.
        dir: Dir,
        /// The count given.
        count: u32,
    },
    /// A state that software cannot request (IDLE, RESET).
    StateNotSettable {
        /// The state asked for.
        state: crate::udma::UdmaState,
    },
}

impl fmt::Display for UdmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UdmaError::UnsupportedRevision { .. }
            | UdmaError::RevisionMismatch { .. }
            | UdmaError::UnsupportedDmaRevision { .. }
            | UdmaError::IoficConfigFailed { .. }
            | UdmaError::StateWaitTimeout { .. }
            | UdmaError::BadQueueCount { .. }
            | UdmaError::QueueNotConfigured { .. }
            | UdmaError::StateNotSettable { .. } => self.fmt_engine(f),
            UdmaError::NoDescTimeoutTooWide { .. }
            | UdmaError::NoDescWaitForever
            | UdmaError::NoDescDropWithoutTimeout
            | UdmaError::TttNotReady { .. }
            | UdmaError::BadMaxDescsPerPacket { .. }
            | UdmaError::BadCompDescBurst { .. } => self.fmt_config(f),
            _ => self.fmt_ring(f),
        }
    }
}

impl UdmaError {
    /// Revision, bring-up, state and queue-count errors.
    fn fmt_engine(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UdmaError::UnsupportedRevision {
                feature,
                found,
                required,
            } => write!(
                f,
                "{feature:?} needs UDMA revision {required}, the engine is revision {found}"
            ),
            UdmaError::RevisionMismatch { hardware, arch } => {
                write!(
                    f,
                    "hardware reports UDMA revision {hardware}, the arch has {arch}"
                )
            }
            UdmaError::UnsupportedDmaRevision { value, source } => {
                let from = match source {
                    super::RevisionSource::Register => "read from m2s_feature.dma_version",
                    super::RevisionSource::Given => "given by the caller",
                };
                write!(
                    f,
                    "unsupported DMA rev id: {value:#x} ({from}; only revision 4 is initialised)"
                )
            }
            UdmaError::IoficConfigFailed { rc } => {
                write!(
                    f,
                    "failed to configure the IOFIC (al_udma_iofic_config_ex: {rc})"
                )
            }
            UdmaError::StateWaitTimeout { state, polls } => {
                write!(f, "engine did not report {state:?} after {polls} polls")
            }
            UdmaError::BadQueueCount { requested } => {
                write!(
                    f,
                    "queue count {requested} is not 1..=16 (1..=4 below revision 4) or 0xff"
                )
            }
            UdmaError::QueueNotConfigured { queue, count } => {
                write!(
                    f,
                    "queue {queue} is not among the {count} configured queues"
                )
            }
            UdmaError::StateNotSettable { state } => write!(f, "state {state:?} cannot be set"),

            _ => write!(f, "{self:?}"),
        }
    }

    /// Configuration-layer errors (no-descriptor, TTT, completion, packet limits).
    fn fmt_config(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UdmaError::NoDescTimeoutTooWide { timeout } => {
                write!(f, "no-descriptor timeout {timeout:#x} does not fit 24 bits")
            }
            UdmaError::NoDescWaitForever => write!(
                f,
                "no-descriptor timeout 0 without drop waits forever; opt in explicitly"
            ),
            UdmaError::NoDescDropWithoutTimeout => {
                write!(
                    f,
                    "no-descriptor drop with timeout 0 (the ancestor HAL refuses it)"
                )
            }
            UdmaError::TttNotReady { polls } => {
                write!(
                    f,
                    "TTT initialisation still in progress after {polls} polls"
                )
            }
            UdmaError::BadMaxDescsPerPacket { value } => {
                write!(f, "max descriptors per packet {value} is not in 8..=128")
            }
            UdmaError::BadCompDescBurst { bytes } => {
                write!(
                    f,
                    "completion-descriptor burst {bytes} bytes is not 64, 128 or 256"
                )
            }
            _ => write!(f, "{self:?}"),
        }
    }

    /// Ring and doorbell errors.
    fn fmt_ring(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UdmaError::RingMisaligned { dir, addr } => {
                write!(f, "{dir:?} ring at {addr:#x} is not 256-byte aligned")
            }
            UdmaError::BadRingSize { dir, size } => {
                write!(
                    f,
                    "{dir:?} ring size {size} is not a power of two in 32..=2^23"
                )
            }
            UdmaError::BadDriverRingSize { dir, size } => {
                write!(
                    f,
                    "{dir:?} ring size {size} is not a multiple of 16 in 32..=2^24-16"
                )
            }
            UdmaError::RingOverflow { dir, addr } => {
                write!(f, "{dir:?} ring at {addr:#x} wraps the address space")
            }
            UdmaError::DoorbellRxCountZero => {
                write!(f, "copy start with RX count 0 (RX is always rung)")
            }
            UdmaError::DoorbellCountTooWide { dir, count } => {
                write!(f, "{dir:?} doorbell count {count} does not fit 24 bits")
            }
            _ => write!(f, "{self:?}"),
        }
    }
}

impl core::error::Error for UdmaError {}
