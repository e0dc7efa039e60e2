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
    /// The caller's buffer is smaller than the driver's answer (the driver said EAGAIN and
    /// how many entries it needs).
    #[error("{cmd}: buffer of {given} entries, the driver needs {needed}")]
    BufferTooSmall {
        /// The command's macro name.
        cmd: &'static str,
        /// Entries the buffer had room for.
        given: u64,
        /// Entries the driver reported.
        needed: u64,
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
    /// The process-wide instance already exists with another device directory.
    #[error("the process-wide Ndl uses {in_use:?}, not {asked:?}")]
    GlobalRoot {
        /// The directory asked for.
        asked: PathBuf,
        /// The directory of the existing instance.
        in_use: PathBuf,
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
            Self::BufferTooSmall { .. } => Some(Errno::AGAIN),
            Self::Positive { .. } | Self::GlobalRoot { .. } => None,
        }
    }

    /// The bare OS error (`raw_os_error()` set) of [`Error::errno`], where there is one.
    pub fn os_error(&self) -> Option<std::io::Error> {
        self.errno()
            .map(|e| std::io::Error::from_raw_os_error(e.raw_os_error()))
    }
}

impl From<Error> for std::io::Error {
    /// An I/O error of the kind of [`Error::errno`] (as for any failed system call) whose
    /// message and inner error are the typed error, so the command name is kept; a positive
    /// handler return becomes [`std::io::ErrorKind::Other`]. [`Error::os_error`] gives the
    /// bare OS error instead.
    fn from(e: Error) -> Self {
        match e.errno() {
            Some(errno) => {
                let os = std::io::Error::from_raw_os_error(errno.raw_os_error());
                std::io::Error::new(os.kind(), e)
            }
            None => std::io::Error::other(e),
        }
    }
}

/// Result of the shim.
pub type Result<T, E = Error> = core::result::Result<T, E>;
