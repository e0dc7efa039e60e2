//! The error type: which command failed, and how.

use std::path::PathBuf;

use crate::kernel::Errno;

/// Every failure of the shim names the command (or node) and the reason.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The ioctl failed with an errno.
    #[error("{cmd} failed: {errno}")]
    Ioctl {
        /// The command's macro name.
        cmd: &'static str,
        /// What the kernel said.
        errno: Errno,
    },
    /// The handler returned a positive value. Several Neuron handlers report failure that way
    /// (the count of bytes that failed to copy, or `+EINVAL` for a bad handle), so any
    /// non-zero result is a failure.
    #[error("{cmd} failed: handler returned {ret} (a positive value, not an errno)")]
    Positive {
        /// The command's macro name.
        cmd: &'static str,
        /// The raw return value.
        ret: i32,
    },
    /// Opening a device node failed.
    #[error("open {path:?} failed: {errno}")]
    Open {
        /// The node.
        path: PathBuf,
        /// What the kernel said.
        errno: Errno,
    },
    /// A device index outside the 64-entry table (the vendor shim answers EINVAL).
    #[error("device index {index} out of range 0..=63")]
    DeviceIndex {
        /// The index asked for.
        index: u32,
    },
    /// `mmap` of a driver cookie failed.
    #[error("mmap of {len} bytes at cookie {offset:#x} failed: {errno}")]
    Mmap {
        /// The cookie the info ioctl returned.
        offset: u64,
        /// Bytes asked for.
        len: u64,
        /// What the kernel said.
        errno: Errno,
    },
    /// An argument does not fit the command's field, or breaks a limit the driver enforces.
    #[error("{cmd}: {what} = {value} is out of range")]
    OutOfRange {
        /// The command's macro name.
        cmd: &'static str,
        /// Which argument.
        what: &'static str,
        /// Its value.
        value: u64,
    },
}

impl Error {
    /// The errno this failure corresponds to, where there is one (for callers that must
    /// report a C-style status). Out-of-range device indices and arguments map to `EINVAL`.
    pub fn errno(&self) -> Option<Errno> {
        match self {
            Self::Ioctl { errno, .. } | Self::Open { errno, .. } | Self::Mmap { errno, .. } => {
                Some(*errno)
            }
            Self::DeviceIndex { .. } | Self::OutOfRange { .. } => Some(Errno::INVAL),
            Self::Positive { .. } => None,
        }
    }
}

/// Result of the shim.
pub type Result<T, E = Error> = core::result::Result<T, E>;
