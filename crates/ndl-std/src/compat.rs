//! The 64-bit/legacy fallback latch.
//!
//! Newer drivers take 64-bit siblings of several commands (MEM_COPY64, MEMSET64, ...); an
//! older driver's nr handler does not know their size and answers -EINVAL. The shim tries
//! the new form first, and when the legacy form then succeeds (or fails with anything but
//! EINVAL, which proves the driver knows it), it latches legacy mode for that family: every
//! later call goes straight to the legacy form. A second EINVAL means the arguments were bad,
//! not the driver old, so nothing is latched. Latches never clear: the driver cannot change
//! under a running process.

use crate::error::{Error, Result};
use crate::kernel::Errno;
use crate::sync::{AtomicU32, Ordering};

/// A command family with a newer and an older form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// MEM_COPY64 → MEM_COPY.
    MemCopy,
    /// MEM_BUF_COPY64 → MEM_BUF_COPY.
    MemBufCopy,
    /// MEMSET64 → MEMSET.
    Memset,
    /// DMA_COPY_DESCRIPTORS64 → DMA_COPY_DESCRIPTORS.
    DmaCopyDescriptors,
    /// PROGRAM_ENGINE_NC64 → PROGRAM_ENGINE_NC.
    ProgramEngineNc,
    /// MEM_ALLOC_V2MT64 → MEM_ALLOC_V2MT.
    MemAlloc,
    /// MEM_COPY_ASYNC64 → MEM_COPY_ASYNC.
    MemCopyAsync,
    /// MEM_MC_GET_INFO_V2 → MEM_MC_GET_INFO.
    McGetInfo,
    /// POD_STATUS_V2 → POD_STATUS.
    PodStatus,
}

impl Family {
    /// Every family, for iteration.
    pub const ALL: [Family; 9] = [
        Self::MemCopy,
        Self::MemBufCopy,
        Self::Memset,
        Self::DmaCopyDescriptors,
        Self::ProgramEngineNc,
        Self::MemAlloc,
        Self::MemCopyAsync,
        Self::McGetInfo,
        Self::PodStatus,
    ];

    const fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// The per-process set of families latched to their legacy form.
#[derive(Debug)]
pub struct CompatLatch {
    legacy: AtomicU32,
}

impl Default for CompatLatch {
    fn default() -> Self {
        Self::new()
    }
}

impl CompatLatch {
    /// Nothing latched.
    pub fn new() -> Self {
        Self {
            legacy: AtomicU32::new(0),
        }
    }

    /// True once `family` has been latched to its legacy form.
    pub fn is_legacy(&self, family: Family) -> bool {
        self.legacy.load(Ordering::Relaxed) & family.bit() != 0
    }

    /// Latches `family` (idempotent). Returns `true` for the call that set it.
    pub fn latch(&self, family: Family) -> bool {
        self.legacy.fetch_or(family.bit(), Ordering::Relaxed) & family.bit() == 0
    }
}

/// Runs `modern`; on EINVAL tries `legacy` and latches `family` when the driver took it.
pub(crate) fn with_fallback<T>(
    latch: &CompatLatch,
    family: Family,
    modern: impl FnOnce() -> Result<T>,
    legacy: impl FnOnce() -> Result<T>,
) -> Result<T> {
    if latch.is_legacy(family) {
        return legacy();
    }
    match modern() {
        Err(
            first @ Error::Ioctl {
                errno: Errno::INVAL,
                ..
            },
        ) => match legacy() {
            // The legacy form is unknown too, or cannot carry the arguments: the arguments
            // are at fault, not the driver's age.
            Err(
                Error::Ioctl {
                    errno: Errno::INVAL,
                    ..
                }
                | Error::OutOfRange { .. },
            ) => Err(first),
            other => {
                latch.latch(family);
                other
            }
        },
        other => other,
    }
}
