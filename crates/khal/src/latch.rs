//! The host-wide, first-wins generation latch.
//!
//! The vendor driver stores the first probed device's arch in a global and silently ignores
//! later probes, so a second device of another generation would be driven with the first
//! one's constants. Here the first [`bind`](ArchLatch::bind) wins (one lock-free
//! compare-and-swap) and a later device of another generation is an error.

use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::{Generation, UnknownDeviceId};

/// Latch value meaning "no device bound yet" (the driver's INVALID arch).
const UNBOUND: u8 = 0;

/// A first-wins latch of the host generation. `const`-constructible, so it can be a `static`.
#[derive(Debug)]
pub struct ArchLatch(AtomicU8);

/// How a [`bind`](ArchLatch::bind) that succeeded went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// This call latched the generation.
    First(Generation),
    /// The latch already held the same generation.
    Same(Generation),
}

impl Bound {
    /// The latched generation.
    pub const fn generation(self) -> Generation {
        match self {
            Bound::First(g) | Bound::Same(g) => g,
        }
    }
}

/// Why a device could not be bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LatchError {
    /// The PCI device id is not a known Neuron device.
    UnknownDevice(UnknownDeviceId),
    /// The host is already bound to another generation.
    Mismatch {
        /// Generation latched by the first device.
        latched: Generation,
        /// Generation of the device that was refused.
        device: Generation,
    },
}

impl fmt::Display for LatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LatchError::UnknownDevice(e) => e.fmt(f),
            LatchError::Mismatch { latched, device } => {
                write!(f, "host is bound to {latched}; refusing a {device} device")
            }
        }
    }
}

impl core::error::Error for LatchError {}

impl From<UnknownDeviceId> for LatchError {
    fn from(e: UnknownDeviceId) -> Self {
        LatchError::UnknownDevice(e)
    }
}

impl Default for ArchLatch {
    fn default() -> Self {
        Self::new()
    }
}

impl ArchLatch {
    /// An unbound latch.
    pub const fn new() -> Self {
        Self(AtomicU8::new(UNBOUND))
    }

    /// Binds `generation` if nothing is bound; otherwise checks it matches.
    ///
    /// ```
    /// use khal::{ArchLatch, Bound, Generation, LatchError};
    /// static HOST: ArchLatch = ArchLatch::new();
    /// assert_eq!(HOST.bind(Generation::V3), Ok(Bound::First(Generation::V3)));
    /// assert_eq!(HOST.bind(Generation::V3), Ok(Bound::Same(Generation::V3)));
    /// assert_eq!(
    ///     HOST.bind(Generation::V4),
    ///     Err(LatchError::Mismatch { latched: Generation::V3, device: Generation::V4 })
    /// );
    /// ```
    pub fn bind(&self, generation: Generation) -> Result<Bound, LatchError> {
        // AcqRel/Acquire: a thread that sees the latched value also sees whatever the
        // winner published before binding.
        match self.0.compare_exchange(
            UNBOUND,
            generation.number(),
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => Ok(Bound::First(generation)),
            Err(current) => match Generation::from_number(current) {
                Ok(latched) if latched == generation => Ok(Bound::Same(generation)),
                Ok(latched) => Err(LatchError::Mismatch {
                    latched,
                    device: generation,
                }),
                // Only `bind` stores, and it stores only valid numbers.
                Err(_) => Err(LatchError::UnknownDevice(UnknownDeviceId(0))),
            },
        }
    }

    /// Maps a probed PCI device id to its generation and binds it.
    pub fn bind_pci_device(&self, pci_device_id: u16) -> Result<Bound, LatchError> {
        self.bind(Generation::from_pci_device_id(pci_device_id)?)
    }

    /// The latched generation, if any device was bound (reading it early is `None`, not a
    /// kernel BUG as in the vendor driver).
    pub fn get(&self) -> Option<Generation> {
        Generation::from_number(self.0.load(Ordering::Acquire)).ok()
    }
}
