//! The running file system: a mount, its worker threads, and a handle that stops both.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use rustix::io::Errno;

use crate::backend::Backend;
use crate::error::Error;
use crate::mount::Mount;
use crate::session::Session;

/// Worker threads reading the channel. Two, not more: the emulated kernel serialises its
/// calls anyway, and every extra reader makes Linux hand requests round-robin to colder
/// threads (one ioctl round trip measured about 10 µs with one or two workers, 18-27 µs
/// with four). Not one: a request whose handler faults on the caller's memory, where that
/// memory is a private mapping of a served file, needs a second reader for the READ the
/// fault sends.
pub const DEFAULT_WORKERS: usize = 2;

/// A served mount. [`Server::stop`] (or dropping it) unmounts the directory (lazily),
/// stops the workers and closes the channel, which ends the connection: files still open
/// then fail with ENOTCONN.
pub struct Server<B: Backend> {
    session: Arc<Session<B>>,
    mount: Mount,
    workers: Vec<JoinHandle<()>>,
    /// The mount's root, held open: after the lazy unmount it still reaches the file
    /// system, so [`Server::stop`] can send the requests that wake the workers.
    root: Option<std::fs::File>,
}

impl<B: Backend> std::fmt::Debug for Server<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("dir", &self.mount.dir())
            .field("workers", &self.workers.len())
            .finish_non_exhaustive()
    }
}

impl<B: Backend> Server<B> {
    /// Mounts on `dir` (an existing directory) and serves `backend` with
    /// [`DEFAULT_WORKERS`] threads.
    pub fn start(dir: &Path, backend: B) -> Result<Self, Error> {
        Self::with_workers(dir, backend, DEFAULT_WORKERS)
    }

    /// As [`Server::start`] with `workers` threads (at least one).
    pub fn with_workers(dir: &Path, backend: B, workers: usize) -> Result<Self, Error> {
        let (mount, channel) = Mount::new(dir)?;
        let session = Arc::new(Session::new(channel, backend));
        let mut server = Self {
            session,
            mount,
            workers: Vec::new(),
            root: None,
        };
        for i in 0..workers.max(1) {
            let s = Arc::clone(&server.session);
            let h = std::thread::Builder::new()
                .name(format!("ndl-fuse-{i}"))
                .spawn(move || s.run())
                .map_err(Error::Thread)?;
            server.workers.push(h);
        }
        // Served by the workers just started (the kernel answers INIT first).
        server.root = Some(std::fs::File::open(dir).map_err(Error::Root)?);
        Ok(server)
    }

    /// The mount point.
    pub fn dir(&self) -> &Path {
        self.mount.dir()
    }

    /// Path of device node `index` (`DIR/neuron<index>`).
    pub fn node(&self, index: u32) -> PathBuf {
        self.dir().join(format!("neuron{index}"))
    }

    /// The backend being served.
    pub fn backend(&self) -> &B {
        self.session.backend()
    }

    /// Unmounts, stops the workers, closes the channel.
    pub fn stop(mut self) -> Result<(), Error> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), Error> {
        // Unmount first: no new opens; requests already queued are still served.
        let unmounted = self.mount.unmount();
        // Each worker blocks in read(2) and ends when it answers a STATFS of this thread:
        // one per worker, through the root still held open (each call returns once
        // answered, by a worker that then ends; other requests are still served meanwhile).
        // When the connection is already gone the calls fail at once, and the workers have
        // ended on the read error.
        let tid = rustix::thread::gettid().as_raw_nonzero().get();
        self.session
            .request_stop(u32::try_from(tid).unwrap_or(u32::MAX));
        let woken = self.root.take().is_some_and(|root| {
            (0..self.workers.len()).all(|_| {
                loop {
                    match rustix::fs::fstatfs(&root) {
                        Ok(_) => break true,
                        Err(Errno::INTR) => continue,
                        // The connection is gone: the workers ended on their read error.
                        Err(Errno::NOTCONN) => break true,
                        Err(_) => break false,
                    }
                }
            })
        });
        for w in self.workers.drain(..) {
            if woken {
                // Workers catch handler panics; a join error leaves nothing to clean up.
                let _ = w.join();
            }
            // Otherwise a worker may still block in read(2): leave it rather than hang.
        }
        unmounted
    }
}

impl<B: Backend> Drop for Server<B> {
    fn drop(&mut self) {
        // Errors were reportable through `stop`; when dropping there is nobody to tell.
        let _ = self.shutdown();
    }
}
