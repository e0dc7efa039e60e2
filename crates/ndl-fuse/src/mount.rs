//! Mounting: open `/dev/fuse`, `mount(2)` a `fuse` file system on the directory with that fd,
//! and `umount2(MNT_DETACH)` when the [`Mount`] drops.
//!
//! No `fusermount` helper is involved: this needs the right to call `mount(2)` (root, or
//! CAP_SYS_ADMIN), which is what EPERM from [`Mount::new`] means otherwise.

use std::ffi::CString;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

use crate::error::Error;

/// The FUSE device node.
pub const FUSE_DEVICE: &str = "/dev/fuse";

/// A mounted FUSE file system. Dropping it unmounts lazily (open files keep the connection
/// until they are closed or the channel [`Mount::new`] returned is closed, which ends the
/// connection).
#[derive(Debug)]
pub struct Mount {
    dir: PathBuf,
    mounted: bool,
}

impl Mount {
    /// Opens [`FUSE_DEVICE`] and mounts a `fuse` file system of type `neuron` on `dir`.
    ///
    /// Returns the mount and its channel (the `/dev/fuse` fd requests are read from and
    /// replies written to). The channel blocks: each request wakes exactly one reader.
    pub fn new(dir: &Path) -> Result<(Self, OwnedFd), Error> {
        let fd = rustix::fs::open(FUSE_DEVICE, OFlags::RDWR | OFlags::CLOEXEC, Mode::empty())
            .map_err(|source| Error::OpenDevice { source })?;
        let raw = rustix::fd::AsRawFd::as_raw_fd(&fd);
        let uid = rustix::process::getuid().as_raw();
        let gid = rustix::process::getgid().as_raw();
        // rootmode: the root is a directory (S_IFDIR, octal); user_id/group_id: the owner
        // allowed to use the mount (without allow_other, only this user's processes).
        let options = format!("fd={raw},rootmode=40000,user_id={uid},group_id={gid}");
        let target = c_path(dir)?;
        let options = CString::new(options).map_err(|_| Error::Path(dir.to_path_buf()))?;
        // SAFETY: every pointer is a NUL-terminated string that outlives the call; the data
        // argument is the option string the `fuse` file system type parses.
        let rc = unsafe {
            libc::mount(
                c"neuron".as_ptr(),
                target.as_ptr(),
                c"fuse".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                options.as_ptr().cast(),
            )
        };
        if rc != 0 {
            return Err(Error::Mount {
                dir: dir.to_path_buf(),
                source: Errno::from_io_error(&std::io::Error::last_os_error())
                    .unwrap_or(Errno::INVAL),
            });
        }
        let mount = Self {
            dir: dir.to_path_buf(),
            mounted: true,
        };
        Ok((mount, fd))
    }

    /// The mount point.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Detaches the mount (`umount2(MNT_DETACH)`): the directory is free at once; files
    /// still open keep the connection until they are closed or the channel closes.
    pub fn unmount(&mut self) -> Result<(), Error> {
        if !self.mounted {
            return Ok(());
        }
        self.mounted = false;
        let target = c_path(&self.dir)?;
        // SAFETY: `target` is a NUL-terminated path that outlives the call.
        let rc = unsafe { libc::umount2(target.as_ptr(), libc::MNT_DETACH) };
        if rc != 0 {
            return Err(Error::Unmount {
                dir: self.dir.clone(),
                source: Errno::from_io_error(&std::io::Error::last_os_error())
                    .unwrap_or(Errno::INVAL),
            });
        }
        Ok(())
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        // Nothing to do about a failure while dropping.
        let _ = self.unmount();
    }
}

fn c_path(dir: &Path) -> Result<CString, Error> {
    CString::new(dir.as_os_str().as_bytes()).map_err(|_| Error::Path(dir.to_path_buf()))
}
