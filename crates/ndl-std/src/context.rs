//! The shared state every gateway works on: kernel backend, node root, fd caches, compat
//! latch.
//!
//! It sits below both [`crate::Ndl`] (which owns one and hands out gateways) and the
//! gateways (which borrow it), so neither module depends on the other.

use std::path::{Path, PathBuf};

use crate::compat::CompatLatch;
use crate::error::{Error, Result};
use crate::fd_slot::FdSlot;
use crate::kernel::{AccessMode, Kernel, RawFd};

/// Devices the per-device table can hold (the vendor shim's limit: `ndl_device_ioctl`
/// answers EINVAL for an index above 63).
pub const MAX_DEVICES: usize = 64;

/// Where device nodes live unless configured otherwise.
pub const DEFAULT_ROOT: &str = "/dev";

/// One process's shim state (see [`crate::Ndl`], which owns it).
#[derive(Debug)]
pub(crate) struct Context<K: Kernel> {
    kernel: K,
    root: PathBuf,
    misc_device: u32,
    devices: [FdSlot; MAX_DEVICES],
    misc: FdSlot,
    compat: CompatLatch,
}

impl<K: Kernel> Context<K> {
    pub(crate) fn new(kernel: K) -> Self {
        Self {
            kernel,
            root: PathBuf::from(DEFAULT_ROOT),
            misc_device: 0,
            devices: std::array::from_fn(|_| FdSlot::new()),
            misc: FdSlot::new(),
            compat: CompatLatch::new(),
        }
    }

    pub(crate) fn set_root(&mut self, root: PathBuf) {
        self.root = root;
    }

    pub(crate) fn set_misc_device(&mut self, index: u32) {
        self.misc_device = index;
    }

    /// The kernel backend.
    pub(crate) fn kernel(&self) -> &K {
        &self.kernel
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    pub(crate) fn compat(&self) -> &CompatLatch {
        &self.compat
    }

    /// `<root>/neuron<index>`.
    pub(crate) fn device_path(&self, index: u32) -> PathBuf {
        self.root.join(format!("neuron{index}"))
    }

    /// Opens node `index` with `mode`, naming the path on failure.
    pub(crate) fn open_node(&self, index: u32, mode: AccessMode) -> Result<RawFd> {
        self.kernel
            .open(&self.device_path(index), mode)
            .map_err(|errno| Error::Open {
                path: self.device_path(index),
                errno,
            })
    }

    pub(crate) fn slot(&self, index: u32) -> Result<&FdSlot> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.devices.get(i))
            .ok_or(Error::DeviceIndex { index })
    }

    pub(crate) fn misc_slot(&self) -> &FdSlot {
        &self.misc
    }

    pub(crate) fn misc_device(&self) -> u32 {
        self.misc_device
    }

    pub(crate) fn close_all(&self) {
        for slot in &self.devices {
            slot.close(&self.kernel);
        }
        self.misc.close(&self.kernel);
    }
}
