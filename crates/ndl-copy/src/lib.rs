//! `ndl-copy`: memory-to-memory DMA copies through a Neuron device, verified byte for byte,
//! over `ndl-std`'s wrappers and generic over its [`Kernel`] and the caller's arch set.
//!
//! * [`driver`] — **the default path**, on the driver's terms (`reference/dma-path.md`): the
//!   driver programs the queue, copies or lets the process map its descriptors, and rings
//!   the doorbells; user space only builds descriptors and watches a completion marker.
//!   Runs on real hardware.
//! * `register_level` (feature `register-level`) — the opt-in that programs the engine's
//!   registers itself through a mapped BAR0, for the device model and privileged tooling;
//!   the real driver refuses it.
//!
//! Both allocate driver memory only as [`DeviceMem`], which gives it back with MEM_FREE when
//! dropped (on success and on every error path), keep descriptor rings in [`RingMemory`],
//! report with [`CopyReport`] and fail with [`CopyError`].
//!
//! ```
//! use ndl_copy::{CopyError, verify};
//!
//! assert_eq!(verify(b"abc", b"abc"), Ok(()));
//! assert!(matches!(verify(b"abc", b"abd"), Err(CopyError::Mismatch { offset: 2, .. })));
//! ```

pub mod driver;
mod error;
mod mem;
#[cfg(feature = "register-level")]
pub mod register_level;
mod ring_memory;
mod source;

use khal::Generation;
use ndl_std::{Device, Kernel};

pub use driver::{
    CopyOptions, DataMove, Delivery, QueueChoice, UNMAPPABLE, copy, copy_on, copy_source,
    copy_source_on,
};
pub use error::CopyError;
pub use mem::{DeviceMem, MemSpec, MemType};
pub use ring_memory::RingMemory;
pub use source::{STREAM_BYTES, Source, verify_piece};

/// What a copy did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyReport {
    /// The device's generation (from DEVICE_INFO).
    pub generation: Generation,
    /// The DMA engine (the driver's global id).
    pub engine: u32,
    /// The queue of the engine (for an H2T service queue, the one the driver handed out).
    pub queue: u8,
    /// Bytes copied and verified.
    pub bytes: u64,
    /// Descriptor pairs used (one per 64 KiB or less).
    pub descriptors: u64,
    /// Doorbell rounds (batches of pairs started and waited for).
    pub batches: u32,
    /// How descriptors reached the rings ([`Delivery::Mmap`] or
    /// [`Delivery::CopyDescriptors`]; what [`Delivery::Auto`] chose).
    pub delivery: Delivery,
    /// When [`Delivery::Auto`] fell back to the ioctls: the errno the mapping got.
    pub mmap_refused: Option<ndl_std::Errno>,
}

/// The generation DEVICE_INFO reports for `dev`.
pub fn generation<K: Kernel>(dev: &Device<'_, K>) -> Result<Generation, CopyError> {
    let arch = dev.device_info()?.architecture;
    u8::try_from(arch)
        .ok()
        .and_then(|a| Generation::from_number(a).ok())
        .ok_or(CopyError::Arch(arch))
}

/// Compares source and destination; the first differing byte is the error.
pub fn verify(expected: &[u8], found: &[u8]) -> Result<(), CopyError> {
    match expected.iter().zip(found).position(|(a, b)| a != b) {
        Some(i) => Err(CopyError::Mismatch {
            offset: i as u64,
            expected: expected.get(i).copied().unwrap_or(0),
            found: found.get(i).copied().unwrap_or(0),
        }),
        None if expected.len() != found.len() => Err(CopyError::LengthMismatch {
            expected: expected.len() as u64,
            found: found.len() as u64,
        }),
        None => Ok(()),
    }
}
