//! The per-process context ([`Ndl::global`] is the process-wide one): owns the shared state
//! and hands out the three gateways.

use core::ffi::c_int;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::compat::CompatLatch;
use crate::context::{Context, DEFAULT_ROOT};
use crate::error::{Error, Result};
use crate::fd_slot::FdSlot;
use crate::gateway::{Device, DeviceHandle, Misc};
use crate::kernel::{AccessMode, Kernel, RawFd};
use crate::real_kernel::RealKernel;

/// The shim's state for one process: one per-device fd table, one misc fd, one compat latch.
///
/// Every fd it caches is closed by [`Ndl::close_all`] (and on drop), safely against calls in
/// flight on other threads.
///
/// ```
/// use ndl_std::{Ndl, Error};
///
/// let ndl = Ndl::new(); // real kernel, /dev
/// assert_eq!(ndl.device(64).unwrap_err(), Error::DeviceIndex { index: 64 });
/// assert_eq!(ndl.device_path(3), std::path::Path::new("/dev/neuron3"));
/// ```
#[derive(Debug)]
pub struct Ndl<K: Kernel = RealKernel> {
    ctx: Context<K>,
}

/// The process-wide instance ([`Ndl::global`]).
static GLOBAL: OnceLock<Ndl<RealKernel>> = OnceLock::new();

unsafe extern "C" {
    /// libc's `atexit(3)`: runs `f` at normal process exit.
    fn atexit(f: extern "C" fn()) -> c_int;
}

/// The exit hook: closes the process-wide instance's fds, as the NDL's atexit closer does
/// (seed 000, §1: the misc gateway "registers an atexit closer").
extern "C" fn close_global_at_exit() {
    if let Some(ndl) = GLOBAL.get() {
        ndl.close_all();
    }
}

impl Ndl<RealKernel> {
    /// The real kernel with nodes under `/dev`.
    pub fn new() -> Self {
        Self::with_kernel(RealKernel)
    }

    /// The process-wide instance over the real kernel, like the NDL's globals (one fd table,
    /// one misc fd per process): created on first use with nodes under `/dev` (or under the
    /// root given to [`Ndl::init_global`] first), its fds opened lazily, and every cached fd
    /// closed at process exit.
    pub fn global() -> &'static Ndl<RealKernel> {
        GLOBAL.get_or_init(Self::new_global_at(DEFAULT_ROOT))
    }

    /// Creates the process-wide instance with nodes under `root`. Fails, naming the root in
    /// use, when the instance already exists with another root.
    pub fn init_global(root: impl Into<PathBuf>) -> Result<&'static Ndl<RealKernel>> {
        let root = root.into();
        let ndl = GLOBAL.get_or_init(Self::new_global_at(root.clone()));
        if ndl.root() == root {
            Ok(ndl)
        } else {
            Err(Error::GlobalRoot {
                asked: root,
                in_use: ndl.root().to_path_buf(),
            })
        }
    }

    fn new_global_at(root: impl Into<PathBuf>) -> impl FnOnce() -> Ndl<RealKernel> {
        let root = root.into();
        move || {
            // SAFETY: `atexit` takes any `extern "C" fn()`; the hook only reads the static.
            // Registration fails only when libc's table is full; the fds then close with
            // the process, as every fd does.
            let _ = unsafe { atexit(close_global_at_exit) };
            Self::new().with_root(root)
        }
    }
}

impl Default for Ndl<RealKernel> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Kernel> Ndl<K> {
    /// A context over `kernel` with nodes under `/dev`.
    pub fn with_kernel(kernel: K) -> Self {
        Self {
            ctx: Context::new(kernel),
        }
    }

    /// Looks for `neuron<N>` nodes under `root` instead of `/dev`.
    pub fn with_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.ctx.set_root(root.into());
        self
    }

    /// Opens the misc (device-global) fd on `neuron<index>` instead of `neuron0` (the
    /// default is the project's choice: no source names the node, see [`Misc`]).
    pub fn with_misc_device(mut self, index: u32) -> Self {
        self.ctx.set_misc_device(index);
        self
    }

    /// The kernel backend.
    pub fn kernel(&self) -> &K {
        self.ctx.kernel()
    }

    /// The node root.
    pub fn root(&self) -> &Path {
        self.ctx.root()
    }

    /// The fallback latch.
    pub fn compat(&self) -> &CompatLatch {
        self.ctx.compat()
    }

    /// `<root>/neuron<index>`.
    pub fn device_path(&self, index: u32) -> PathBuf {
        self.ctx.device_path(index)
    }

    /// The per-device gateway for device `index` (< 64). Its fd, opened read-only on first
    /// use, is cached and shared by every thread.
    pub fn device(&self, index: u32) -> Result<Device<'_, K>> {
        Ok(Device::cached(&self.ctx, index, self.ctx.slot(index)?))
    }

    /// The device-global gateway: one write-only fd (the driver's free-access lane), opened
    /// on first use.
    pub fn misc(&self) -> Misc<'_, K> {
        Misc::new(&self.ctx)
    }

    /// Opens device `index` read-write into a handle that owns the fd (copy/memset paths,
    /// mmap). The fd closes when the handle drops.
    pub fn open_device(&self, index: u32) -> Result<DeviceHandle<'_, K>> {
        self.ctx.slot(index)?;
        let fd = self.ctx.open_node(index, AccessMode::ReadWrite)?;
        Ok(DeviceHandle::new(&self.ctx, index, fd))
    }

    /// The cached per-device fd of `index`, if open (for inspection).
    pub fn cached_fd(&self, index: u32) -> Option<RawFd> {
        self.ctx.slot(index).ok().and_then(FdSlot::cached)
    }

    /// The cached misc fd, if open (for inspection).
    pub fn cached_misc_fd(&self) -> Option<RawFd> {
        self.ctx.misc_slot().cached()
    }

    /// Closes every cached fd. Safe against calls in flight: a pinned fd is closed by the
    /// last call using it, never under it. Later calls reopen lazily.
    pub fn close_all(&self) {
        self.ctx.close_all();
    }
}

impl<K: Kernel> Drop for Ndl<K> {
    fn drop(&mut self) {
        self.close_all();
    }
}
