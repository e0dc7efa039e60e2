//! What the file system serves: a driver-like object behind the device files.
//!
//! The server turns each FUSE request on `DIR/neuronN` into one call here, with the caller
//! FUSE names. [`crate::EmulatedBackend`] is the emulated Neuron driver; tests plug in
//! their own.

use rustix::io::Errno;

use crate::process_memory::ProcessMemory;

/// The process behind a request: the thread FUSE reports and its thread group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Caller {
    /// Thread id (`fuse_in_header.pid`).
    pub tid: u32,
    /// Thread-group id (the process id the driver keys per-process state on).
    pub tgid: u32,
}

/// A driver served over FUSE. One open(2) is one file handle; every method is called from
/// the server's worker threads, concurrently.
pub trait Backend: Send + Sync + 'static {
    /// Device nodes served: `neuron0` .. `neuron{devices-1}`.
    fn devices(&self) -> u32;

    /// `open(2)` of `neuron<device>` with the caller's open flags (access mode included).
    /// Returns the file handle later requests name.
    fn open(&self, device: u32, flags: u32, caller: Caller) -> Result<u64, Errno>;

    /// `ioctl(2)` with request `request` and argument word `arg` on handle `fh`. `memory` is
    /// the caller's address space: the argument struct and the buffers it points to are read
    /// and written there. Returns the syscall's non-negative result.
    fn ioctl(
        &self,
        fh: u64,
        request: u32,
        arg: u64,
        memory: &ProcessMemory,
        caller: Caller,
    ) -> Result<i32, Errno>;

    /// `close(2)` of one file descriptor of the handle (the driver's `flush`).
    fn flush(&self, _fh: u64, _caller: Caller) {}

    /// The last descriptor of the handle is gone (the driver's `release`).
    fn release(&self, fh: u64);
}
