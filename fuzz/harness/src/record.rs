//! Real call sequences as programs: [`Recorder`] is an [`ndl_std::Kernel`] over the harness's
//! kernel, so any `ndl-std` or `ndl-copy` flow runs on it unchanged, and it writes down each
//! call as the operations that replay it.
//!
//! An ioctl's user memory is watched while the kernel handles it (the private `Tap`):
//! every range the kernel reads or writes gets a place in the caller's
//! [`ByteMemory`](crate::ByteMemory) (each range 8-aligned), the bytes it read are stored
//! there before the call ([`Op::Poke`]), and every aligned 64-bit value inside them that
//! points into a watched range is rewritten to the range's new place, so nested pointers
//! (batch arrays, user buffers) follow. Mappings are watched the same way: stores, loads and
//! register accesses through them, and their unmapping, become operations on their slot.

use std::cell::RefCell;
use std::ffi::c_void;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use mmio::Mmio;
use ndl_emu::{EmulatedKernel, EmulatedRegion, InProcessMemory, UserMemory};
use ndl_std::{AccessMode, Errno, Kernel, MappedRegion, RawFd};

use crate::memory::{USER_BASE, USER_BYTES};
use crate::program::{Caller, MAX_BYTES, MAX_OPS, Op, Place, Program, Ptr, Req, Setup};
use crate::{requests, run};

/// What a recording wrote down so far.
#[derive(Debug, Default)]
struct Log {
    ops: Vec<Op>,
    /// The fd of each open slot (`None` once closed).
    fds: Vec<Option<RawFd>>,
    /// Mapping slots handed out.
    maps: usize,
    /// The process calls come from.
    process: u8,
    /// Why the recording cannot be a program (it touched too much user memory).
    overflow: Option<String>,
    /// What each ioctl answered, in order.
    results: Vec<Result<i32, Errno>>,
}

impl Log {
    fn slot(&self, fd: RawFd) -> u8 {
        let i = self.fds.iter().rposition(|f| *f == Some(fd));
        i.and_then(|i| u8::try_from(i).ok()).unwrap_or(u8::MAX)
    }
}

type Shared = Arc<Mutex<Log>>;

fn lock(log: &Shared) -> MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A kernel that runs every call on the harness's kernel and records it.
#[derive(Debug)]
pub struct Recorder {
    kernel: EmulatedKernel,
    setup: Setup,
    log: Shared,
}

/// A recording that does not fit a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooBig(pub String);

impl fmt::Display for TooBig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TooBig {}

impl Recorder {
    /// Records over a fresh kernel built as `setup` says, as process 0.
    pub fn new(setup: Setup) -> Self {
        Self {
            kernel: run::kernel(&setup),
            setup,
            log: Shared::default(),
        }
    }

    /// The kernel the calls run on.
    pub fn kernel(&self) -> &EmulatedKernel {
        &self.kernel
    }

    /// Later calls come from process `p`.
    pub fn as_process(&self, p: u8) {
        lock(&self.log).process = p;
    }

    /// What each recorded ioctl answered, in order.
    pub fn results(&self) -> Vec<Result<i32, Errno>> {
        lock(&self.log).results.clone()
    }

    /// The program that replays everything recorded so far.
    pub fn program(&self) -> Result<Program, TooBig> {
        let log = lock(&self.log);
        if let Some(why) = &log.overflow {
            return Err(TooBig(why.clone()));
        }
        if log.ops.len() > MAX_OPS {
            return Err(TooBig(format!(
                "{} operations (a program runs at most {MAX_OPS})",
                log.ops.len()
            )));
        }
        Ok(Program {
            setup: self.setup,
            ops: log.ops.clone(),
        })
    }
}

/// The device number of a node path (`neuronN`); 255 (no such device) for anything else.
fn device_of(path: &Path) -> u8 {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("neuron"))
        .and_then(|d| d.parse().ok())
        .unwrap_or(u8::MAX)
}

impl Kernel for Recorder {
    type Region = TapRegion;

    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        let mut log = lock(&self.log);
        let process = log.process;
        log.ops.push(Op::Open {
            process,
            device: device_of(path),
            mode: u8::try_from(mode.bits()).unwrap_or(0),
        });
        let fd = self
            .kernel
            .open_as(path, mode, run::PID_BASE + u32::from(process))?;
        log.fds.push(Some(fd));
        Ok(fd)
    }

    unsafe fn close(&self, fd: RawFd) {
        let mut log = lock(&self.log);
        let slot = log.slot(fd);
        log.ops.push(Op::Close { fd: slot });
        if let Some(f) = log.fds.get_mut(usize::from(slot)) {
            *f = None;
        }
        self.kernel.release(fd);
    }

    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<i32, Errno> {
        // SAFETY: `Kernel::ioctl`'s contract is `InProcessMemory`'s: `arg` and every user
        // address in it are valid for the accesses the command makes until we return.
        let tap = Tap::new(unsafe { InProcessMemory::new() });
        let mut log = lock(&self.log);
        let process = log.process;
        let pid = run::PID_BASE + u32::from(process);
        let addr = arg as usize as u64;
        let r = self.kernel.ioctl_from(fd, REQ, addr, &tap, pid);
        let request = requests::index_of(REQ).map_or(Req::Raw(REQ), Req::Catalog);
        let slot = log.slot(fd);
        match tap.replay(process, addr) {
            Ok((pokes, arg)) => {
                log.ops.extend(pokes);
                log.ops.push(Op::Ioctl {
                    fd: slot,
                    caller: Caller::Process(process),
                    request,
                    arg,
                });
            }
            Err(why) => log.overflow = Some(why),
        }
        log.results.push(r);
        r
    }

    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<TapRegion, Errno> {
        let mut log = lock(&self.log);
        let process = log.process;
        let slot = log.slot(fd);
        log.ops.push(Op::Mmap {
            fd: slot,
            caller: Caller::Process(process),
            place: Place::Raw {
                len: len as u64,
                offset,
            },
        });
        let pid = run::PID_BASE + u32::from(process);
        let region = self.kernel.mmap_as(fd, len, offset, pid)?;
        let index = u8::try_from(log.maps).unwrap_or(u8::MAX);
        log.maps += 1;
        Ok(TapRegion {
            inner: Some(region),
            index,
            log: Arc::clone(&self.log),
        })
    }

    fn munmap(&self, mut region: TapRegion) -> Result<(), Errno> {
        let inner = region.take();
        inner.map_or(Err(Errno::INVAL), |r| self.kernel.munmap(r))
    }
}

/// One access the kernel made to user memory.
#[derive(Debug)]
struct Access {
    addr: u64,
    len: usize,
    /// The bytes, for a read.
    read: Option<Vec<u8>>,
}

/// The caller's memory, watched.
struct Tap {
    inner: InProcessMemory,
    accesses: RefCell<Vec<Access>>,
}

/// A watched range's new place: `[start, end)` moves to user offset `at`.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u64,
    end: u64,
    at: u64,
}

impl Tap {
    fn new(inner: InProcessMemory) -> Self {
        Self {
            inner,
            accesses: RefCell::new(Vec::new()),
        }
    }

    /// Places every watched range in the caller's memory.
    fn layout(&self) -> Result<Vec<Span>, String> {
        let mut ranges: Vec<(u64, u64)> = self
            .accesses
            .borrow()
            .iter()
            .map(|a| (a.addr, a.addr.saturating_add(a.len as u64)))
            .collect();
        ranges.sort_unstable();
        let mut spans: Vec<Span> = Vec::new();
        let mut cursor = 0u64;
        for (start, end) in ranges {
            if let Some(last) = spans.last_mut() {
                if start <= last.end {
                    cursor += end.saturating_sub(last.end);
                    last.end = last.end.max(end);
                    continue;
                }
            }
            // 8-aligned, not at the address's own alignment: where a static or a stack
            // buffer sits mod 8 changes from build to build, and the seeds must not.
            let at = cursor.next_multiple_of(8);
            cursor = at + (end - start);
            spans.push(Span { start, end, at });
        }
        if cursor > USER_BYTES as u64 {
            return Err(format!(
                "one call touches {cursor} bytes of user memory (a process has {USER_BYTES})"
            ));
        }
        Ok(spans)
    }

    /// The operations that replay the call: pokes of what it read, then its argument.
    fn replay(&self, process: u8, arg: u64) -> Result<(Vec<Op>, Ptr), String> {
        let spans = self.layout()?;
        let moved = |v: u64| {
            spans
                .iter()
                .find(|s| s.start <= v && v < s.end)
                .map(|s| s.at + (v - s.start))
        };
        let mut pokes = Vec::new();
        // Earliest read last, so where the call read a range twice its first view wins.
        for a in self.accesses.borrow().iter().rev() {
            let (Some(bytes), Some(at)) = (&a.read, moved(a.addr)) else {
                continue;
            };
            let bytes = retarget(a.addr, bytes, |v| moved(v).map(|o| USER_BASE + o));
            for (i, piece) in bytes.chunks(MAX_BYTES).enumerate() {
                let offset = at + (i * MAX_BYTES) as u64;
                pokes.push(Op::Poke {
                    process,
                    offset: u16::try_from(offset).map_err(|_| "poke past 64 KiB")?,
                    bytes: piece.to_vec(),
                });
            }
        }
        let arg = match (arg, moved(arg)) {
            (0, _) => Ptr::Null,
            (_, Some(o)) => Ptr::User(u16::try_from(o).map_err(|_| "argument past 64 KiB")?),
            (a, None) => Ptr::Raw(a),
        };
        Ok((pokes, arg))
    }
}

/// `bytes` (read at `addr`) with each 8-aligned 64-bit value that `to` moves replaced.
fn retarget(addr: u64, bytes: &[u8], to: impl Fn(u64) -> Option<u64>) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let first = usize::try_from(addr.next_multiple_of(8) - addr).unwrap_or(0);
    let mut i = first;
    while i + 8 <= out.len() {
        let word: [u8; 8] = out[i..i + 8].try_into().unwrap_or_default();
        if let Some(new) = to(u64::from_le_bytes(word)) {
            out[i..i + 8].copy_from_slice(&new.to_le_bytes());
        }
        i += 8;
    }
    out
}

impl UserMemory for Tap {
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
        self.inner.read(addr, dst)?;
        if !dst.is_empty() {
            self.accesses.borrow_mut().push(Access {
                addr,
                len: dst.len(),
                read: Some(dst.to_vec()),
            });
        }
        Ok(())
    }

    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno> {
        self.inner.write(addr, src)?;
        if !src.is_empty() {
            self.accesses.borrow_mut().push(Access {
                addr,
                len: src.len(),
                read: None,
            });
        }
        Ok(())
    }
}

/// A mapping of the recorder: every access through it is recorded on its slot.
#[derive(Debug)]
pub struct TapRegion {
    inner: Option<EmulatedRegion>,
    index: u8,
    log: Shared,
}

impl TapRegion {
    /// The region, recording its unmapping (once).
    fn take(&mut self) -> Option<EmulatedRegion> {
        let r = self.inner.take();
        if r.is_some() {
            lock(&self.log).ops.push(Op::Unmap { map: self.index });
        }
        r
    }

    fn record(&self, op: Op) {
        lock(&self.log).ops.push(op);
    }
}

impl Drop for TapRegion {
    fn drop(&mut self) {
        drop(self.take());
    }
}

impl Mmio for TapRegion {
    fn read32(&self, offset: usize) -> u32 {
        self.record(Op::Register {
            map: self.index,
            offset: u32::try_from(offset).unwrap_or(u32::MAX),
            write: None,
        });
        self.inner
            .as_ref()
            .map_or(mmio::BUS_ERROR_READ, |r| r.read32(offset))
    }

    fn write32(&self, offset: usize, value: u32) {
        self.record(Op::Register {
            map: self.index,
            offset: u32::try_from(offset).unwrap_or(u32::MAX),
            write: Some(value),
        });
        if let Some(r) = &self.inner {
            r.write32(offset, value);
        }
    }
}

impl MappedRegion for TapRegion {
    fn len(&self) -> usize {
        self.inner.as_ref().map_or(0, MappedRegion::len)
    }

    fn addr(&self) -> u64 {
        self.inner.as_ref().map_or(0, MappedRegion::addr)
    }

    fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> Result<(), Errno> {
        for (i, piece) in dst.chunks(MAX_BYTES).enumerate() {
            self.record(Op::MapRead {
                map: self.index,
                offset: u32::try_from(offset + i * MAX_BYTES).unwrap_or(u32::MAX),
                len: u16::try_from(piece.len()).unwrap_or(0),
            });
        }
        let r = self.inner.as_ref().ok_or(Errno::INVAL)?;
        r.read_bytes(offset, dst)
    }

    fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<(), Errno> {
        for (i, piece) in src.chunks(MAX_BYTES).enumerate() {
            self.record(Op::MapWrite {
                map: self.index,
                offset: u32::try_from(offset + i * MAX_BYTES).unwrap_or(u32::MAX),
                bytes: piece.to_vec(),
            });
        }
        let r = self.inner.as_ref().ok_or(Errno::INVAL)?;
        r.write_bytes(offset, src)
    }
}
