//! An in-process model of the Neuron driver's ioctl interface: the test kernel of this
//! crate, and the start of the emulated kernel that will sit on the device model.
//!
//! It dispatches like the driver (see [`crate::ioctl_codes::route`]): an fd whose access mode
//! has bit 0 set takes the free-access lane and reaches only the misc chain; other fds attach
//! the opening process and take the device chain, where the attach-checked requests answer
//! EACCES to a process that is not attached, and where unmatched requests fall through to the
//! misc chain. nr-matched families pick their layout by exact cmd or by `_IOC_SIZE`, as the
//! reference says, and unknown sizes answer EINVAL. Handlers copy the whole argument struct
//! (also for pointer-form commands, whose encoded size is 8) and keep real state: memory
//! allocations with backing bytes, DMA queues and rings, semaphores, events, core locks,
//! core-range marks, mmap cookies.
//!
//! ```
//! use ndl_std::model::ModelKernel;
//! use ndl_std::{AccessMode, Kernel, ioctl_codes::COMPATIBLE_VERSION};
//! use std::path::Path;
//!
//! let k = ModelKernel::new(1);
//! let fd = k.open(Path::new("/dev/neuron0"), AccessMode::WriteOnly)?;
//! let mut v = [0u32; 2];
//! // SAFETY: `v` is the 8-byte `neuron_ioctl_compatible_version` the command writes.
//! let ret = unsafe { k.ioctl::<{ COMPATIBLE_VERSION.code() }>(fd, v.as_mut_ptr().cast()) }?;
//! assert_eq!(ret, 0);
//! assert!(v[1] <= v[0]); // (max, min)
//! // SAFETY: `fd` came from `open` above.
//! unsafe { k.close(fd) };
//! assert_eq!((k.opens(), k.closes()), (1, 1));
//! # Ok::<(), ndl_std::Errno>(())
//! ```

mod device_chain;
mod misc_chain;
mod region;
mod state;
mod user;

use core::ffi::{c_int, c_void};
use core::ptr::NonNull;
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

pub use state::DeviceConfig;

use crate::ioctl_codes::{self, Chain, Command, Match};
use crate::kernel::{AccessMode, Errno, Kernel, RawFd};
use state::{FileKind, OpenFile, State};

/// errno the driver's `-ENOTSUPP` reaches user space as (a kernel-internal value, 524).
pub const ENOTSUPP: Errno = Errno::from_raw_os_error(524);

thread_local! {
    static TGID: Cell<Option<u32>> = const { Cell::new(None) };
}

/// The process id the model sees for calls on this thread.
pub(crate) fn current_tgid() -> u32 {
    TGID.with(Cell::get).unwrap_or_else(std::process::id)
}

/// The driver model. See the module docs.
#[derive(Debug)]
pub struct ModelKernel {
    root: PathBuf,
    state: Mutex<State>,
}

impl ModelKernel {
    /// A driver with `devices` identical devices (default [`DeviceConfig`]) under `/dev`.
    pub fn new(devices: u32) -> Self {
        Self::with_devices((0..devices).map(DeviceConfig::numbered).collect())
    }

    /// A driver with the given devices under `/dev`.
    pub fn with_devices(devices: Vec<DeviceConfig>) -> Self {
        Self {
            root: PathBuf::from(crate::DEFAULT_ROOT),
            state: Mutex::new(State::new(devices)),
        }
    }

    /// Serves nodes under `root` instead of `/dev`.
    pub fn with_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = root.into();
        self
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking handler leaves consistent state (each handler validates before it
        // mutates), so a poisoned lock is still usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Makes the model behave like an older driver without `cmd`: its request is then
    /// unknown (EINVAL), as on a kernel that predates it.
    pub fn retire(&self, cmd: &Command) {
        self.lock().retired.insert(cmd.code());
    }

    /// Successful opens so far (including dma-buf fds).
    pub fn opens(&self) -> usize {
        self.lock().opens
    }

    /// Closes so far.
    pub fn closes(&self) -> usize {
        self.lock().closes
    }

    /// Fds currently open.
    pub fn open_fds(&self) -> usize {
        self.lock().files.len()
    }

    /// Device index and access mode of an open fd.
    pub fn fd_info(&self, fd: RawFd) -> Option<(u32, AccessMode)> {
        self.lock().files.get(&fd).and_then(|f| match f.kind {
            FileKind::Node { mode } => Some((f.device, mode)),
            FileKind::Dmabuf => None,
        })
    }

    /// Live mmaps.
    pub fn mappings(&self) -> usize {
        self.lock().mappings.len()
    }

    /// Messages received through PRINTK.
    pub fn printk_log(&self) -> Vec<String> {
        self.lock().printk.clone()
    }

    /// Runs `f` with this thread's calls appearing to come from process `tgid` (to model,
    /// for example, a forked child using its parent's fd).
    pub fn as_process<R>(tgid: u32, f: impl FnOnce() -> R) -> R {
        let prev = TGID.with(|t| t.replace(Some(tgid)));
        let out = f();
        TGID.with(|t| t.set(prev));
        out
    }

    fn device_of(&self, path: &Path) -> Option<u32> {
        if path.parent()? != self.root {
            return None;
        }
        let name = path.file_name()?.to_str()?;
        let digits = name.strip_prefix("neuron")?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }
}

impl Kernel for ModelKernel {
    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        let device = self.device_of(path).ok_or(Errno::NOENT)?;
        let mut st = self.lock();
        let dev = st.device_mut(device).ok_or(Errno::NOENT)?;
        if !mode.is_free_access() {
            // The privileged path attaches the opening process (EBUSY when no slot is free).
            dev.attach(current_tgid())?;
        }
        Ok(st.new_fd(OpenFile {
            device,
            kind: FileKind::Node { mode },
            tgid: current_tgid(),
        }))
    }

    unsafe fn close(&self, fd: RawFd) {
        let mut st = self.lock();
        st.close(fd);
    }

    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        let mut st = self.lock();
        let file = *st.files.get(&fd).ok_or(Errno::BADF)?;
        let FileKind::Node { mode } = file.kind else {
            return Err(Errno::NOTTY);
        };
        let route = ioctl_codes::route(REQ, mode.is_free_access()).ok_or(Errno::INVAL)?;
        if route.attach_check
            && !st
                .device(file.device)
                .is_some_and(|d| d.is_attached(current_tgid()))
        {
            return Err(Errno::ACCESS);
        }
        if st.retired.contains(&REQ) {
            // An older driver: an exact cmd it lacks falls through to misc, which rejects
            // it; an unknown size in an nr family is rejected by the family's handler.
            return Err(Errno::INVAL);
        }
        let call = state::Call {
            device: file.device,
            code: REQ,
            arg,
            tgid: current_tgid(),
        };
        // SAFETY: the caller's `Kernel::ioctl` contract covers `arg` and its user addresses.
        unsafe {
            match (route.chain, route.by) {
                (Chain::Device, Match::Exact) => device_chain::exact(&mut st, &call),
                (Chain::Device, Match::Nr) => device_chain::by_nr(&mut st, &call),
                (Chain::Misc, Match::Exact) => misc_chain::exact(&mut st, &call),
                (Chain::Misc, Match::Nr) => misc_chain::by_nr(&mut st, &call),
            }
        }
    }

    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<NonNull<u8>, Errno> {
        let mut st = self.lock();
        let file = *st.files.get(&fd).ok_or(Errno::BADF)?;
        // A shared writable mapping needs an fd opened for reading and writing.
        if file.kind
            != (FileKind::Node {
                mode: AccessMode::ReadWrite,
            })
        {
            return Err(Errno::ACCESS);
        }
        let region = st
            .device(file.device)
            .and_then(|d| d.cookies.get(&offset).cloned())
            .ok_or(Errno::INVAL)?;
        if len == 0 || len > region.len().next_multiple_of(region::PAGE) {
            return Err(Errno::INVAL);
        }
        let base = region.base();
        st.mappings.insert(
            base.as_ptr() as usize,
            state::MappingRec {
                _region: region,
                len,
                device: file.device,
            },
        );
        Ok(base)
    }

    unsafe fn munmap(&self, addr: NonNull<u8>, len: usize) -> Result<(), Errno> {
        let mut st = self.lock();
        match st.mappings.get(&(addr.as_ptr() as usize)) {
            Some(m) if m.len == len => {
                st.mappings.remove(&(addr.as_ptr() as usize));
                Ok(())
            }
            _ => Err(Errno::INVAL),
        }
    }
}
