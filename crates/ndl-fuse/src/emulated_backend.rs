//! The emulated Neuron driver as a [`Backend`]: every open(2) of `DIR/neuronN` is an open
//! file of the emulated kernel, made by the calling process with the caller's access mode;
//! every ioctl runs the emulated dispatcher on the caller's memory; the last close releases
//! the file as the driver's release does.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};

use ndl_emu::EmulatedKernel;
use ndl_std::{AccessMode, RawFd};
use rustix::io::Errno;

use crate::backend::{Backend, Caller};
use crate::process_memory::ProcessMemory;

/// One open(2) as the emulated kernel knows it.
#[derive(Clone, Copy, Debug)]
struct Handle {
    fd: RawFd,
}

/// The emulated kernel behind a mount.
#[derive(Debug)]
pub struct EmulatedBackend {
    kernel: EmulatedKernel,
    devices: u32,
    files: Mutex<HashMap<u64, Handle>>,
    next_fh: Mutex<u64>,
}

impl EmulatedBackend {
    /// Serves every device of `kernel` (`neuron0` .. `neuron{N-1}`).
    pub fn new(kernel: EmulatedKernel) -> Self {
        let devices = (0u32..)
            .take_while(|&i| kernel.generation(i).is_some())
            .fold(0, |n, _| n + 1);
        Self {
            kernel,
            devices,
            files: Mutex::new(HashMap::new()),
            next_fh: Mutex::new(1),
        }
    }

    /// The emulated kernel (to inspect its state in tests).
    pub fn kernel(&self) -> &EmulatedKernel {
        &self.kernel
    }

    /// File handles currently open through the mount.
    pub fn open_handles(&self) -> usize {
        self.files().len()
    }

    fn files(&self) -> MutexGuard<'_, HashMap<u64, Handle>> {
        self.files.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn node(device: u32) -> PathBuf {
        // The emulated kernel's own node names (its default root).
        PathBuf::from(format!("{}/neuron{device}", ndl_std::DEFAULT_ROOT))
    }
}

/// The driver's lane test looks at bit 0 of the access mode: access mode 3 (Linux's
/// "ioctl only" mode) behaves as write-only (free-access lane, not mappable).
fn access_mode(flags: u32) -> AccessMode {
    match flags & 3 {
        0 => AccessMode::ReadOnly,
        2 => AccessMode::ReadWrite,
        _ => AccessMode::WriteOnly,
    }
}

impl Backend for EmulatedBackend {
    fn devices(&self) -> u32 {
        self.devices
    }

    fn open(&self, device: u32, flags: u32, caller: Caller) -> Result<u64, Errno> {
        let path = Self::node(device);
        let mode = access_mode(flags);
        let fd = self.kernel.open_as(&path, mode, caller.tgid)?;
        let fh = {
            let mut next = self.next_fh.lock().unwrap_or_else(PoisonError::into_inner);
            let fh = *next;
            *next += 1;
            fh
        };
        self.files().insert(fh, Handle { fd });
        Ok(fh)
    }

    fn ioctl(
        &self,
        fh: u64,
        request: u32,
        arg: u64,
        memory: &ProcessMemory,
        caller: Caller,
    ) -> Result<i32, Errno> {
        let handle = *self.files().get(&fh).ok_or(Errno::BADF)?;
        self.kernel
            .ioctl_from(handle.fd, request, arg, memory, caller.tgid)
    }

    fn flush(&self, fh: u64, caller: Caller) {
        let Some(fd) = self.files().get(&fh).map(|h| h.fd) else {
            return;
        };
        self.kernel.flush(fd, caller.tgid);
    }

    fn release(&self, fh: u64) {
        let Some(handle) = self.files().remove(&fh) else {
            return;
        };
        self.kernel.release(handle.fd);
    }
}
