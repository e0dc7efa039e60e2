//! `ndl-emu`: the emulated kernel, a model of the Neuron driver's ioctl dispatcher whose devices are
//! `neuron-emu` device models.
//!
//! **Dispatch** is the driver's (see [`ndl_abi::kernel::route`]): an fd whose access mode
//! has bit 0 set takes the free-access lane and reaches only the misc chain; other fds attach
//! the opening process and take the device chain, where the attach-checked requests answer
//! EACCES to a process that is not attached and unmatched requests fall through to the misc
//! chain. nr-matched families pick their layout by exact cmd or by `_IOC_SIZE`, as the
//! reference says, and unknown sizes answer EINVAL. Handlers copy the whole argument struct
//! (also for pointer-form commands, whose encoded size is 8) and answer with the errno, or
//! the positive value, the driver would. The routing is that of the emulated driver release
//! ([`EmulatedKernel::with_release`]; 2.26.5.0 by default), and every command reaches its
//! handler through one table checked against each release's catalog: the argument struct is
//! copied in and out in one place, and each handler (one file per command family, the
//! families of `ndl-std`'s wrappers) is a function of the device state, the call and the
//! typed argument.
//!
//! **Hardware** is the device model, one [`neuron_emu::Device`] per `/dev/neuronN`, of the
//! generation its [`DeviceConfig`] names (mapped to an arch type through khal's one dispatch
//! point). Memory handles are allocations in the model's HBM or host regions (by
//! `host_memory` and `dram_channel`); copies, buffer copies and memsets move bytes in the
//! model's address space; engine state and queue setup are khal's register sequences on the
//! model's BAR0; DMA_QUEUE_COPY_START rings khal's doorbells, and the model's engines run the
//! descriptors in ring memory. Every engine is brought up at probe, as the driver does when
//! it initialises a device. The kernel keeps only the driver's own bookkeeping (attached
//! processes, handles, cookies, which rings a queue was given, semaphores, locks ...).
//!
//! **Refusals** are the driver's (2.26.5.0, `reference/`): BAR_WRITE refuses the offsets of
//! `khal::Arch::is_bar0_write_blocked` (the driver's `ndma_is_bar0_write_blocked`, pinned to
//! `reference/bar0-write-block.tsv` by this crate's tests; EINVAL, nothing at or after the
//! entry written); the DMA commands refuse
//! what `dma-path.md` lists (EALREADY on an H2T queue the driver uses, -1 for ring counts
//! that are not a multiple of 16 or for a completion ring, COPY_START above the ring size or
//! with no RX descriptors, ...); MEM_ALLOC refuses an alignment for host memory.
//!
//! **Mappings** ([`EmulatedRegion`]) are windows into the model, served on the driver's
//! three paths: the caller's memory chunks (the whole page-rounded chunk; another process's
//! chunk read-only), the arch's special resources of [`mmap_special`] (exact key and size;
//! RESOURCE_ALL read-only), and raw device memory only when the device is configured
//! [privileged](DeviceConfig::privileged) (standing for CAP_SYS_RAWIO; EPERM otherwise).
//! The register windows of [`resource`] are **emulator-only** and exist only in privileged
//! mode, for the register-level copy and privileged tooling on the model. A register write
//! through a mapping reaches the engine as it happens.
//!
//! ```
//! use khal::Generation;
//! use ndl_emu::EmulatedKernel;
//! use ndl_abi::COMPATIBLE_VERSION;
//! use ndl_std::{AccessMode, Kernel};
//! use std::path::Path;
//!
//! let k = EmulatedKernel::new(Generation::V3, 1)?;
//! let fd = k.open(Path::new("/dev/neuron0"), AccessMode::WriteOnly)?;
//! let mut v = [0u32; 2];
//! // SAFETY: `v` is the 8-byte `neuron_ioctl_compatible_version` the command writes.
//! let ret = unsafe { k.ioctl::<{ COMPATIBLE_VERSION.code() }>(fd, v.as_mut_ptr().cast()) }?;
//! assert_eq!(ret, 0);
//! // (max, min): V3's window in arch-scalars.tsv, "runtime compatible version" min 10, max 11.
//! assert_eq!(v, [11, 10]);
//! // SAFETY: `fd` came from `open` above.
//! unsafe { k.close(fd) };
//! assert_eq!((k.opens(), k.closes()), (1, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod arch;
mod config;
mod dispatch;
mod handlers;
pub mod hardware_only;
pub mod mmap_special;
mod printk_log;
mod region;
pub mod resource;
mod state;
mod user;

use core::ffi::{c_int, c_void};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

pub use config::{BuildError, DeviceConfig, Execution, HOST_PHYS_BASE};
pub use region::EmulatedRegion;
pub use user::{InProcessMemory, UserMemory};

use khal::Generation;
use neuron_emu::{BackgroundEngine, Device, ExecMode};

use ndl_abi::{Command, DriverArch, Release};
use ndl_std::{AccessMode, Errno, Kernel, RawFd};
use state::{
    Backing, DeviceState, FileKind, Lifespan, MapRec, Object, ObjectKind, OpenFile, State,
};

/// The arch types the emulated kernel builds device models of (khal's one dispatch point
/// turns a device's generation into one of them): V2 SUNDA, V3 CAYMAN, V4 MARIANA.
pub type Arches = (
    khal_sunda::Sunda,
    khal_cayman::Cayman,
    khal_mariana::Mariana,
);

/// errno the driver's `-ENOTSUPP` reaches user space as (defined once, in `ndl-std`).
pub use ndl_std::ENOTSUPP;

thread_local! {
    static TGID: Cell<Option<u32>> = const { Cell::new(None) };
}

/// The process id the model sees for calls on this thread.
pub(crate) fn current_tgid() -> u32 {
    TGID.with(Cell::get).unwrap_or_else(std::process::id)
}

/// The kernel's shared state; mappings hold a weak reference to unmap themselves.
#[derive(Debug)]
pub(crate) struct Inner {
    state: Mutex<State>,
    /// Engine threads of background devices (stopped when the kernel drops).
    _engines: Vec<BackgroundEngine>,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking handler leaves consistent state (each handler validates before it
        // mutates), so a poisoned lock is still usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn unmap(&self, device: u32, va: u64) -> bool {
        self.lock().device_mut(device).is_some_and(|d| d.unmap(va))
    }
}

/// The emulated kernel. See the module docs.
#[derive(Debug, Clone)]
pub struct EmulatedKernel {
    inner: Arc<Inner>,
}

impl EmulatedKernel {
    /// A driver with `devices` devices of `generation` (defaults of
    /// [`DeviceConfig::numbered`]) under `/dev`.
    pub fn new(generation: Generation, devices: u32) -> Result<Self, BuildError> {
        Self::with_devices(
            (0..devices)
                .map(|i| DeviceConfig::numbered(generation, i))
                .collect(),
        )
    }

    /// A driver with the given devices (`/dev/neuron0` is the first) under `/dev`.
    pub fn with_devices(devices: Vec<DeviceConfig>) -> Result<Self, BuildError> {
        let mut states = Vec::with_capacity(devices.len());
        let mut engines = Vec::new();
        for (index, config) in (0u32..).zip(devices) {
            let generation = config.generation;
            let unsupported = || BuildError::Unsupported { index, generation };
            let facts = arch::Facts::of(generation).ok_or_else(unsupported)?;
            let emu = arch::build(generation, &config.memory)
                .ok_or_else(unsupported)?
                .map_err(|source| BuildError::Memory { index, source })?;
            // Probe: the driver brings every engine up before the node can be opened.
            arch::bring_up_all(generation, &emu).map_err(|(engine, reason)| {
                BuildError::BringUp {
                    index,
                    engine,
                    reason,
                }
            })?;
            match config.execution {
                Execution::OnDoorbell => emu.set_exec_mode(ExecMode::OnDoorbell),
                Execution::Manual => emu.set_exec_mode(ExecMode::Manual),
                Execution::Background => {
                    emu.set_exec_mode(ExecMode::Manual);
                    engines.push(
                        emu.start_background()
                            .ok_or(BuildError::Background { index })?,
                    );
                }
            }
            states.push(DeviceState::new(config, facts, emu));
        }
        Ok(Self {
            inner: Arc::new(Inner {
                state: Mutex::new(State::new(states)),
                _engines: engines,
            }),
        })
    }

    /// Serves nodes under `root` instead of `/dev`.
    pub fn with_root(self, root: impl Into<PathBuf>) -> Self {
        self.lock().root = root.into();
        self
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner.lock()
    }

    /// The device model behind `/dev/neuron<index>` (for tests and tools that step, inspect
    /// or fault it directly).
    pub fn device(&self, index: u32) -> Option<Device> {
        self.lock().device(index).map(|d| d.emu.clone())
    }

    /// The generation of device `index`.
    pub fn generation(&self, index: u32) -> Option<Generation> {
        self.lock().device(index).map(|d| d.facts.generation)
    }

    /// Answers as driver release `release` (by default [`Release::DEFAULT`], 2.26.5.0):
    /// requests that release's dispatcher does not route answer EINVAL as on that driver
    /// (its misc chain ends so: `ioctl-README.md`, "Lanes": "anything else gets -EINVAL"),
    /// its own commands reach the model's handlers, and COMPATIBLE_VERSION reports its
    /// window (`abi/compat.tsv`). Handlers follow the 2.26.5.0 handler notes where a later
    /// release changed an answer (the 2.29.0.0 errno changes are not modelled). Fails when a
    /// device's arch is one the release does not support (V4 before 2.25.4.0).
    pub fn with_release(self, release: Release) -> Result<Self, BuildError> {
        {
            let mut st = self.lock();
            for (index, d) in (0u32..).zip(&st.devices) {
                let generation = d.facts.generation;
                let arch = DriverArch::from_number(generation.number());
                if arch.and_then(|a| release.abi().compat(a)).is_none() {
                    return Err(BuildError::Release {
                        index,
                        generation,
                        release,
                    });
                }
            }
            st.release = release;
        }
        Ok(self)
    }

    /// The driver release the kernel answers as.
    pub fn driver_release(&self) -> Release {
        self.lock().release
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

    /// Memory handles allocated on device `index` (0 for a device that does not exist).
    pub fn allocations(&self, index: u32) -> usize {
        self.lock()
            .device(index)
            .map_or(0, DeviceState::allocations)
    }

    /// Live mmaps.
    pub fn mappings(&self) -> usize {
        self.lock().mappings()
    }

    /// Messages received through PRINTK, oldest first: the newest 128 KiB of text, as a
    /// kernel log ring keeps them.
    pub fn printk_log(&self) -> Vec<String> {
        self.lock().printk.lines()
    }

    /// Runs `f` with this thread's calls appearing to come from process `tgid` (to model,
    /// for example, a forked child using its parent's fd).
    pub fn as_process<R>(tgid: u32, f: impl FnOnce() -> R) -> R {
        let prev = TGID.with(|t| t.replace(Some(tgid)));
        let out = f();
        TGID.with(|t| t.set(prev));
        out
    }

    fn device_of(root: &Path, path: &Path) -> Option<u32> {
        if path.parent()? != root {
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

/// The driver's three mmap paths, in order (`reference/mmap-README.md`): a memory chunk
/// (the mapping length must be the chunk's size, page-rounded), a special resource of the
/// arch's table (offset and length exactly an entry's), then raw device memory, which needs
/// CAP_SYS_RAWIO: served only by a [privileged](DeviceConfig::privileged) kernel, EPERM
/// otherwise. The emulator-only register windows of [`resource`] are cookies of a
/// privileged kernel.
fn mmap_object(dev: &DeviceState, offset: u64, len: u64) -> Result<Object, Errno> {
    if let Some(object) = dev.cookies.get(&offset) {
        if !matches!(object.kind, ObjectKind::Chunk { .. })
            && object
                .len
                .checked_next_multiple_of(state::PAGE)
                .is_some_and(|max| len <= max)
        {
            return Ok(*object);
        }
    }
    // Any offset inside a chunk finds it; the mapping is the whole chunk from its start and
    // must be exactly as long.
    if let Some(chunk) = dev.chunk_at(offset) {
        if len == chunk.len {
            return Ok(chunk);
        }
    }
    if let Some(sp) = mmap_special::by_key(dev.facts.generation, offset, len) {
        let backing = if sp.bar == 0 {
            Backing::Registers {
                base: usize::try_from(sp.bar_offset).map_err(|_| Errno::INVAL)?,
            }
        } else {
            // BAR4 windows the device memory: the entry's key is the channel's device
            // address.
            Backing::Memory { addr: sp.offset }
        };
        return Ok(Object {
            backing,
            len: sp.size,
            kind: ObjectKind::Special {
                read_only: sp.read_only,
            },
        });
    }
    if dev.config.privileged {
        // Raw device memory at the offset, as the root path maps BAR4.
        return Ok(Object {
            backing: Backing::Memory { addr: offset },
            len,
            kind: ObjectKind::EmulatorRegisters,
        });
    }
    Err(Errno::PERM)
}

impl EmulatedKernel {
    /// The driver's `open` for process `pid`: a privileged open (access mode bit 0 clear)
    /// attaches `pid` to the device (EBUSY when no slot is free). For front ends that serve
    /// other processes (FUSE/CUSE); [`Kernel::open`] is this with the calling process.
    pub fn open_as(&self, path: &Path, mode: AccessMode, pid: u32) -> Result<RawFd, Errno> {
        let mut st = self.lock();
        let device = Self::device_of(&st.root, path).ok_or(Errno::NOENT)?;
        let dev = st.device_mut(device).ok_or(Errno::NOENT)?;
        if !mode.is_free_access() {
            dev.attach(pid)?;
        }
        Ok(st.new_fd(OpenFile {
            device,
            kind: FileKind::Node { mode },
            tgid: pid,
        }))
    }

    /// The driver's `release` of an open file (its per-process cleanup runs as for
    /// [`Kernel::close`]). Safe: the model's fd table is its own, no OS fd is closed.
    pub fn release(&self, fd: RawFd) {
        self.lock().close(fd);
    }

    /// The driver's `flush` of open file `fd` by process `pid` (one close(2) of a
    /// descriptor of it, as a FUSE/CUSE front end sees it): a process that never opened the
    /// device itself (a forked child using its parent's fd) has what it holds there released.
    /// The opener's cleanup runs at [`release`](Self::release).
    pub fn flush(&self, fd: RawFd, pid: u32) {
        self.lock().flush(fd, pid);
    }

    /// The driver's ioctl entry, for any caller: request `request` on open file `fd`, whose
    /// argument word is the user address `arg` in the memory `mem` of process `pid`.
    ///
    /// Dispatch is the driver's: the lane by the file's access mode, the attach check by
    /// `pid`, then the device or misc chain. Handlers reach `arg` and every user buffer only
    /// through `mem`. [`Kernel::ioctl`] is this with [`InProcessMemory`] and the calling
    /// process; a FUSE/CUSE front end passes its own [`UserMemory`] (e.g. over
    /// `process_vm_readv`) and the requesting process's pid.
    pub fn ioctl_from(
        &self,
        fd: RawFd,
        request: u32,
        arg: u64,
        mem: &dyn UserMemory,
        pid: u32,
    ) -> Result<c_int, Errno> {
        dispatch::ioctl(&mut self.lock(), fd, (request, arg), mem, pid)
    }

    /// The driver's mmap for process `pid` (whose chunks it maps writable; another process's
    /// read-only), for front ends that act for other processes (a replay of a trace);
    /// [`Kernel::mmap`] is this with the calling process. Safe: the region is a window into
    /// the model, not memory of this process.
    pub fn mmap_as(
        &self,
        fd: RawFd,
        len: usize,
        offset: u64,
        pid: u32,
    ) -> Result<EmulatedRegion, Errno> {
        // mmap(2) itself refuses an offset that is not page-aligned before the driver sees
        // the call (mmap-README.md, refusals: "offset not page-aligned | EINVAL (mmap(2))").
        if offset % state::PAGE != 0 {
            return Err(Errno::INVAL);
        }
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
        let dev = st.device_mut(file.device).ok_or(Errno::NODEV)?;
        dev.caller = pid;
        let dev = &*dev;
        let len64 = u64::try_from(len).map_err(|_| Errno::INVAL)?;
        if len == 0 {
            return Err(Errno::INVAL);
        }
        let object = mmap_object(dev, offset, len64)?;
        let read_only = match object.kind {
            ObjectKind::Chunk {
                pid: owner,
                lifespan,
            } => lifespan == Lifespan::Process && owner != pid,
            ObjectKind::Special { read_only } => read_only,
            ObjectKind::EmulatorRegisters => false,
        };
        // A page-rounded tail past the object is not backed by it: clamp the window.
        let window = usize::try_from(len64.min(object.len)).map_err(|_| Errno::INVAL)?;
        let device = dev.emu.clone();
        let va = st.new_va(len64)?;
        let dev = st.device_mut(file.device).ok_or(Errno::NODEV)?;
        let tgid = pid;
        dev.maps.insert(
            va,
            MapRec {
                object,
                len: len64,
                tgid,
            },
        );
        Ok(EmulatedRegion {
            device,
            read_only,
            backing: object.backing,
            len: window,
            va,
            index: file.device,
            kernel: Arc::downgrade(&self.inner),
        })
    }
}

impl Kernel for EmulatedKernel {
    type Region = EmulatedRegion;

    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        self.open_as(path, mode, current_tgid())
    }

    unsafe fn close(&self, fd: RawFd) {
        self.release(fd);
    }

    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        // SAFETY: the `Kernel::ioctl` contract is `InProcessMemory`'s: `arg` and every user
        // address in it are valid for the accesses the command makes until we return.
        let mem = unsafe { InProcessMemory::new() };
        self.ioctl_from(fd, REQ, arg as usize as u64, &mem, current_tgid())
    }

    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<EmulatedRegion, Errno> {
        self.mmap_as(fd, len, offset, current_tgid())
    }

    fn munmap(&self, region: EmulatedRegion) -> Result<(), Errno> {
        let ours = region
            .kernel
            .upgrade()
            .is_some_and(|k| Arc::ptr_eq(&k, &self.inner));
        // Dropping unmaps it from whichever kernel made it.
        drop(region);
        if ours { Ok(()) } else { Err(Errno::INVAL) }
    }
}
