//! Running a program: a fresh emulated kernel per input (so every input is deterministic
//! and independent), the operations issued through the entries a FUSE front end uses
//! ([`EmulatedKernel::open_as`], [`EmulatedKernel::ioctl_from`],
//! [`EmulatedKernel::mmap_as`], [`EmulatedKernel::release`]), each as the process the
//! program names, with that process's [`ByteMemory`].

use std::path::{Path, PathBuf};

use khal::Generation;
use mmio::Mmio;
use ndl_emu::{DeviceConfig, EmulatedKernel, EmulatedRegion, HOST_PHYS_BASE, mmap_special};
use ndl_std::{AccessMode, Errno, Kernel, MappedRegion, RawFd};
use neuron_emu::MemoryConfig;

use crate::memory::{ByteMemory, USER_BASE, USER_BYTES};
use crate::program::{Caller, MAX_BYTES, Op, PROCESSES, Place, Program, Ptr, Req, Setup};
use crate::requests;

/// Bytes per HBM channel and of host memory per device: room for the recorded flows'
/// rings and buffers, small enough that exhausting it is within a fuzzer's reach.
pub const DEVICE_BYTES: u64 = 1 << 20;
/// The pid of process 0 (process n is `PID_BASE + n`).
pub const PID_BASE: u32 = 2000;

/// The kernel a setup names: one or two devices of its generation with
/// [`DEVICE_BYTES`] of each memory, privileged or not, doorbells run as they are rung (so
/// every run is deterministic and single-threaded).
pub fn kernel(setup: &Setup) -> EmulatedKernel {
    let devices = 1 + u32::from(setup.two_devices);
    let configs = (0..devices)
        .map(|i| DeviceConfig {
            memory: MemoryConfig {
                hbm_bytes_per_channel: DEVICE_BYTES,
                host_bytes: DEVICE_BYTES,
                host_phys_base: HOST_PHYS_BASE,
            },
            ..DeviceConfig::numbered(setup.generation, i).with_privileged(setup.privileged)
        })
        .collect();
    // Every generation builds with these sizes (a unit test runs each setup).
    EmulatedKernel::with_devices(configs).expect("the harness's device configuration builds")
}

/// The node of device `n`.
pub fn node(n: u32) -> PathBuf {
    Path::new(ndl_std::DEFAULT_ROOT).join(format!("neuron{n}"))
}

/// The access mode an open's mode byte names.
pub fn access_mode(mode: u8) -> AccessMode {
    match mode % 3 {
        0 => AccessMode::ReadOnly,
        1 => AccessMode::WriteOnly,
        _ => AccessMode::ReadWrite,
    }
}

/// An open file of the run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct File {
    pub(crate) fd: RawFd,
    pub(crate) process: u8,
    pub(crate) device: u32,
    /// Other processes that called through it (bit n: process n), as a forked child or a
    /// process handed the fd does: each holds a descriptor of the file, so each one's
    /// close(2) reaches the driver as a FLUSH by that process before the file goes.
    pub(crate) holders: u8,
}

/// A program's run so far: the kernel, the processes' memories, the slots.
#[derive(Debug)]
pub struct Run {
    /// The kernel under test.
    pub kernel: EmulatedKernel,
    pub(crate) setup: Setup,
    pub(crate) memories: Vec<ByteMemory>,
    pub(crate) files: Vec<Option<File>>,
    pub(crate) maps: Vec<Option<EmulatedRegion>>,
    /// Successful notification-queue initialisations per device: each may leave a
    /// device-lifespan chunk the driver keeps after its process (`reference/mmap-README.md`).
    pub(crate) device_lifespan: Vec<usize>,
    /// Bytes allocated in each memory region of each device when the kernel was built.
    pub(crate) baseline: Vec<Vec<u64>>,
    /// The lowest fd number the kernel handed out.
    pub(crate) lowest_fd: Option<RawFd>,
    /// What each ioctl answered, in order.
    results: Vec<Result<i32, Errno>>,
}

/// Bytes allocated in each memory region of `device`.
pub(crate) fn allocated(k: &EmulatedKernel, device: u32) -> Vec<u64> {
    k.device(device).map_or_else(Vec::new, |d| {
        d.with_memory(|m| m.regions().iter().map(|r| r.allocated_bytes()).collect())
    })
}

fn pick<T>(slots: &[Option<T>], index: u8) -> Option<&T> {
    match slots.len() {
        0 => None,
        n => slots[usize::from(index) % n].as_ref(),
    }
}

impl Run {
    /// A fresh kernel for `setup`, nothing open.
    pub fn new(setup: Setup) -> Self {
        let kernel = kernel(&setup);
        let devices = 1 + u32::from(setup.two_devices);
        let baseline = (0..devices).map(|d| allocated(&kernel, d)).collect();
        Self {
            kernel,
            setup,
            memories: (0..PROCESSES).map(|_| ByteMemory::default()).collect(),
            files: Vec::new(),
            maps: Vec::new(),
            device_lifespan: vec![0; devices as usize],
            baseline,
            lowest_fd: None,
            results: Vec::new(),
        }
    }

    /// Runs every operation of `program` on a fresh kernel.
    pub fn program(program: &Program) -> Self {
        let mut run = Self::new(program.setup);
        for op in &program.ops {
            run.op(op);
        }
        run
    }

    /// The memory of process `p`.
    pub fn memory(&self, p: u8) -> &ByteMemory {
        &self.memories[usize::from(p % PROCESSES)]
    }

    fn pid(p: u8) -> u32 {
        PID_BASE + u32::from(p % PROCESSES)
    }

    /// The process a call on `file` comes from.
    fn caller(file: Option<&File>, c: Caller) -> u8 {
        match c {
            Caller::Opener => file.map_or(0, |f| f.process),
            Caller::Process(p) => p % PROCESSES,
        }
    }

    /// Runs one operation; failures are answers, not errors.
    pub fn op(&mut self, op: &Op) {
        match op {
            Op::Open {
                process,
                device,
                mode,
            } => self.open(*process, *device, *mode),
            Op::Close { fd } => {
                let n = self.files.len();
                if let Some(f) = self.files.get_mut(usize::from(*fd) % n.max(1)) {
                    if let Some(file) = f.take() {
                        self.close_file(file);
                    }
                }
            }
            Op::Poke {
                process,
                offset,
                bytes,
            } => self.memory(*process).poke(usize::from(*offset), bytes),
            Op::Move {
                process,
                from,
                to,
                len,
            } => {
                let m = self.memory(*process);
                let len = usize::from(*len).min(MAX_BYTES);
                m.poke(usize::from(*to), &m.peek(usize::from(*from), len));
            }
            Op::Ioctl {
                fd,
                caller,
                request,
                arg,
            } => self.ioctl(*fd, *caller, *request, *arg),
            Op::Mmap { fd, caller, place } => self.mmap(*fd, *caller, *place),
            Op::Unmap { .. } | Op::MapWrite { .. } | Op::MapRead { .. } | Op::Register { .. } => {
                self.map_op(op);
            }
        }
    }

    fn open(&mut self, process: u8, device: u8, mode: u8) {
        let device = u32::from(device % 4);
        let pid = Self::pid(process);
        if let Ok(fd) = self.kernel.open_as(&node(device), access_mode(mode), pid) {
            self.lowest_fd = Some(self.lowest_fd.map_or(fd, |l| l.min(fd)));
            self.files.push(Some(File {
                fd,
                process: process % PROCESSES,
                device,
                holders: 0,
            }));
        }
    }

    /// Every holder of `file` closes its descriptor (a FLUSH by each process that is not
    /// the opener), then the last reference goes (the driver's release).
    pub(crate) fn close_file(&self, file: File) {
        for p in 0..PROCESSES {
            if file.holders & (1 << p) != 0 {
                self.kernel.flush(file.fd, Self::pid(p));
            }
        }
        self.kernel.release(file.fd);
    }

    /// Process `p` called through file slot `fd`: if it is not the opener, it holds a
    /// descriptor of the file from now on.
    fn note_holder(&mut self, fd: u8, p: u8) {
        let n = self.files.len();
        if let Some(Some(f)) = self.files.get_mut(usize::from(fd) % n.max(1)) {
            if f.process != p {
                f.holders |= 1 << p;
            }
        }
    }

    fn ioctl(&mut self, fd: u8, caller: Caller, request: Req, arg: Ptr) {
        let file = pick(&self.files, fd).copied();
        let p = Self::caller(file.as_ref(), caller);
        self.note_holder(fd, p);
        let code = match request {
            Req::Catalog(i) => requests::nth(i),
            Req::Raw(code) => code,
            Req::Resized(i, size) => requests::resized(requests::nth(i), size),
        };
        let end = USER_BASE + USER_BYTES as u64;
        let addr = match arg {
            Ptr::User(o) => USER_BASE + u64::from(o),
            Ptr::Null => 0,
            Ptr::Raw(a) => a,
            Ptr::FromEnd(o) => end - u64::from(o),
        };
        // With nothing open the call still goes in, on an fd the kernel never handed out.
        let raw_fd = file.map_or(-1, |f| f.fd);
        let r = self
            .kernel
            .ioctl_from(raw_fd, code, addr, self.memory(p), Self::pid(p));
        self.results.push(r);
        if let (Ok(_), Some(f)) = (r, file) {
            if requests::keeps_device_lifespan_chunk(code) {
                self.device_lifespan[f.device as usize] += 1;
            }
        }
    }

    fn mmap(&mut self, fd: u8, caller: Caller, place: Place) {
        let Some(file) = pick(&self.files, fd).copied() else {
            return;
        };
        let p = Self::caller(Some(&file), caller);
        self.note_holder(fd, p);
        let (len, offset) = match place {
            Place::Raw { len, offset } => (len, offset),
            Place::Loaded { pages, at } => (
                u64::from(pages) * 4096,
                self.memory(p).load_u64(usize::from(at)),
            ),
            Place::Special(i) => {
                let entries: Vec<_> = mmap_special::entries(self.setup.generation).collect();
                match entries.get(usize::from(i) % entries.len().max(1)) {
                    Some(s) => (s.size, s.offset),
                    None => return,
                }
            }
        };
        let Ok(len) = usize::try_from(len) else {
            return;
        };
        if let Ok(region) = self.kernel.mmap_as(file.fd, len, offset, Self::pid(p)) {
            self.maps.push(Some(region));
        }
    }

    fn map_op(&mut self, op: &Op) {
        match *op {
            Op::Unmap { map } => {
                let n = self.maps.len();
                if let Some(slot) = self.maps.get_mut(usize::from(map) % n.max(1)) {
                    if let Some(region) = slot.take() {
                        // A region of this kernel: munmap must take it back.
                        self.kernel
                            .munmap(region)
                            .expect("munmap of a mapping the kernel made");
                    }
                }
            }
            Op::MapWrite {
                map,
                offset,
                ref bytes,
            } => {
                if let Some(r) = pick(&self.maps, map) {
                    let _ = r.write_bytes(offset as usize, bytes);
                }
            }
            Op::MapRead { map, offset, len } => {
                if let Some(r) = pick(&self.maps, map) {
                    let mut buf = vec![0u8; usize::from(len).min(MAX_BYTES)];
                    let _ = r.read_bytes(offset as usize, &mut buf);
                }
            }
            Op::Register { map, offset, write } => {
                if let Some(r) = pick(&self.maps, map) {
                    match write {
                        Some(v) => r.write32(offset as usize, v),
                        None => {
                            let _ = r.read32(offset as usize);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// What each ioctl of the program answered, in order.
    pub fn results(&self) -> &[Result<i32, Errno>] {
        &self.results
    }

    /// The generation the kernel was built with.
    pub fn generation(&self) -> Generation {
        self.setup.generation
    }
}
const _: () = assert!(PROCESSES <= 8, "File::holders has a bit per process");
