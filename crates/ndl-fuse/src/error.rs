//! Errors of starting and stopping the server.

use std::path::PathBuf;

use rustix::io::Errno;

/// Why the server could not start or stop.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `/dev/fuse` could not be opened (missing, or no permission).
    #[error("cannot open /dev/fuse: {source}")]
    OpenDevice {
        /// The open(2) errno.
        source: Errno,
    },
    /// `mount(2)` refused (EPERM: not root / no CAP_SYS_ADMIN).
    #[error("cannot mount a fuse file system on {dir}: {source}")]
    Mount {
        /// The mount point.
        dir: PathBuf,
        /// The mount(2) errno.
        source: Errno,
    },
    /// `umount2(2)` refused.
    #[error("cannot unmount {dir}: {source}")]
    Unmount {
        /// The mount point.
        dir: PathBuf,
        /// The umount2(2) errno.
        source: Errno,
    },
    /// The path holds a NUL byte.
    #[error("path {0} contains a NUL byte")]
    Path(PathBuf),
    /// The mount's root could not be opened (the kernel did not complete the handshake).
    #[error("cannot open the mounted root: {0}")]
    Root(std::io::Error),
    /// A worker thread could not be started.
    #[error("cannot start a worker thread: {0}")]
    Thread(std::io::Error),
}

impl Error {
    /// True when FUSE is unavailable on this machine or to this user (no `/dev/fuse`, or
    /// mount(2) not permitted): tests skip on it.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Self::OpenDevice { source } => {
                matches!(
                    *source,
                    Errno::NOENT | Errno::ACCESS | Errno::PERM | Errno::NODEV
                )
            }
            Self::Mount { source, .. } => matches!(*source, Errno::PERM | Errno::NODEV),
            _ => false,
        }
    }
}
