//! The safe half of the `LD_PRELOAD` interposer (`libneuron_trace.so`, crate
//! `neuron-trace-preload`): which paths are Neuron nodes, which descriptors and mappings are
//! traced, the trace file shared by every process and thread, and the events. The other half,
//! in that crate, is only the exported C symbols and the calls of the real functions.
//!
//! Configuration, read once from the environment:
//!
//! * `NEURON_TRACE=FILE`: trace to FILE (`%p` in it becomes the process id). Unset: nothing
//!   is traced and every call costs one load and a branch more.
//! * `NEURON_TRACE_DIR=DIR`: the Neuron device directory (default `/dev`); nodes are
//!   `DIR/neuronN`.
//! * `NEURON_TRACE_CAP=BYTES`: bytes kept of each user buffer (default 4096, at most
//!   [`MAX_CAP`]).
//! * `NEURON_TRACE_RELEASE=2.x.y.z`: the driver release whose ABI says which buffers an
//!   argument names (default 2.26.5.0).
//!
//! The file is appended to: the first process creates it and writes the header (under an
//! exclusive `flock`), later ones (a forked or exec'd child with the same environment) append
//! their events, each one `write(2)` of a whole record on an `O_APPEND` descriptor, so
//! threads and processes never interleave inside a record. An appending process adopts the
//! header's cap and release. Each process writes its end record when it exits normally.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use ndl_abi::Release;
use rustix::fs::{FlockOperation, flock};

use crate::capture::{Capture, Memory};
use crate::clock::{monotonic_ns, wall_ns};
use crate::event::{Call, Common, Event, Header, Recorder};
use crate::format::{MAX_CAP, encode_event, encode_header};
use crate::reader::TraceReader;

/// Default bytes kept per buffer.
pub const DEFAULT_CAP: u32 = 4096;
/// Default device directory.
pub const DEFAULT_DIR: &str = "/dev";

/// The interposer's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The trace file (`None`: tracing is off).
    pub trace: Option<PathBuf>,
    /// The device directory, without a trailing `/`.
    pub dir: PathBuf,
    /// Bytes kept per buffer.
    pub cap: u32,
    /// The ABI release.
    pub release: Release,
}

impl Config {
    /// From `NEURON_TRACE`, `NEURON_TRACE_DIR`, `NEURON_TRACE_CAP`, `NEURON_TRACE_RELEASE`
    /// (a value that does not parse keeps the default).
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let trace = std::env::var_os("NEURON_TRACE")
            .filter(|v| !v.is_empty())
            .map(|v| {
                let text = v.to_string_lossy();
                if text.contains("%p") {
                    PathBuf::from(text.replace("%p", &std::process::id().to_string()))
                } else {
                    PathBuf::from(v)
                }
            });
        let dir = var("NEURON_TRACE_DIR").unwrap_or_else(|| DEFAULT_DIR.into());
        let dir = PathBuf::from(dir.trim_end_matches('/'));
        let cap = var("NEURON_TRACE_CAP")
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(DEFAULT_CAP)
            .min(MAX_CAP);
        let release = var("NEURON_TRACE_RELEASE")
            .and_then(|v| Release::parse(&v).ok())
            .unwrap_or(Release::DEFAULT);
        Self {
            trace,
            dir,
            cap,
            release,
        }
    }
}

/// The index of a node called `neuronN` (digits only, as the driver names them).
pub fn device_index(name: &[u8]) -> Option<u32> {
    let digits = name.strip_prefix(b"neuron")?;
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) || digits.len() > 9 {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// The mode an open(2) event records: the caller's `mode` when `flags` ask to create a file
/// (`O_CREAT`, or `O_TMPFILE`), else 0. open(2): "if neither O_CREAT nor O_TMPFILE is
/// specified, then mode is ignored" — a caller then passes no mode at all, and what the
/// variadic argument reads is whatever its register held.
pub fn open_mode(flags: u32, mode: u32) -> u32 {
    let creat = u32::from_ne_bytes(libc::O_CREAT.to_ne_bytes());
    let tmpfile = u32::from_ne_bytes(libc::O_TMPFILE.to_ne_bytes());
    if flags & creat != 0 || flags & tmpfile == tmpfile {
        mode
    } else {
        0
    }
}

/// What an open(2) path says about the node it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathMatch {
    /// `DIR/neuronN`, spelled out: device N.
    Device(u32),
    /// A relative or unusual spelling whose last part is `neuronN`: resolve the descriptor
    /// it gave (`/proc/self/fd/FD`) to know.
    Resolve,
    /// Not a Neuron node.
    No,
}

/// Matches `path` (the bytes the caller passed) against device directory `dir`: a plain
/// absolute `DIR/neuronN` matches at once; other spellings ending in `neuronN` need the
/// resolved path; everything else is passed through untraced without another look.
pub fn match_path(dir: &Path, path: &[u8]) -> PathMatch {
    let name_at = path.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let Some(device) = path.get(name_at..).and_then(device_index) else {
        return PathMatch::No;
    };
    let parent = path.get(..name_at.saturating_sub(1)).unwrap_or_default();
    let dir = dir.as_os_str().as_encoded_bytes();
    let plain = path.first() == Some(&b'/')
        && !path
            .get(..name_at)
            .unwrap_or_default()
            .windows(2)
            .any(|w| w == b"//")
        && !parent
            .split(|&b| b == b'/')
            .any(|c| c == b"." || c == b"..");
    if plain && parent == dir {
        PathMatch::Device(device)
    } else if plain {
        // An absolute, normalised path elsewhere: not the device directory (a symlink to a
        // node is not followed).
        PathMatch::No
    } else {
        PathMatch::Resolve
    }
}

/// Fds below this are tracked in a lock-free table; larger ones in a map behind a lock.
const SMALL_FDS: usize = 1024;
const TRACED: u64 = 1 << 63;

/// The traced descriptors: their device and open flags.
#[derive(Debug)]
pub struct FdTable {
    small: Box<[AtomicU64]>,
    big: Mutex<HashMap<i32, u64>>,
    any_big: AtomicBool,
}

impl Default for FdTable {
    fn default() -> Self {
        Self {
            small: (0..SMALL_FDS).map(|_| AtomicU64::new(0)).collect(),
            big: Mutex::new(HashMap::new()),
            any_big: AtomicBool::new(false),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn pack(device: u32, flags: u32) -> u64 {
    TRACED | (u64::from(device & 0x7FFF_FFFF) << 32) | u64::from(flags)
}

fn unpack(v: u64) -> Option<(u32, u32)> {
    (v & TRACED != 0).then(|| {
        let device = u32::try_from((v >> 32) & 0x7FFF_FFFF).unwrap_or(0);
        let flags = u32::try_from(v & 0xFFFF_FFFF).unwrap_or(0);
        (device, flags)
    })
}

impl FdTable {
    /// Starts tracing `fd` (an open that just returned it).
    pub fn insert(&self, fd: i32, device: u32, flags: u32) {
        let v = pack(device, flags);
        match usize::try_from(fd).ok().and_then(|i| self.small.get(i)) {
            Some(slot) => slot.store(v, Ordering::Release),
            None => {
                lock(&self.big).insert(fd, v);
                self.any_big.store(true, Ordering::Release);
            }
        }
    }

    /// The device and flags of a traced `fd`.
    pub fn get(&self, fd: i32) -> Option<(u32, u32)> {
        match usize::try_from(fd).ok().and_then(|i| self.small.get(i)) {
            Some(slot) => unpack(slot.load(Ordering::Acquire)),
            None if !self.any_big.load(Ordering::Acquire) => None,
            None => lock(&self.big).get(&fd).copied().and_then(unpack),
        }
    }

    /// Stops tracing `fd`, before the close that frees its number (so an open racing with
    /// the close cannot have its new entry removed), and returns what it was.
    pub fn take(&self, fd: i32) -> Option<(u32, u32)> {
        match usize::try_from(fd).ok().and_then(|i| self.small.get(i)) {
            Some(slot) => {
                // Only a traced slot is written: an untraced close costs one load.
                if slot.load(Ordering::Acquire) & TRACED == 0 {
                    return None;
                }
                unpack(slot.swap(0, Ordering::AcqRel))
            }
            None if !self.any_big.load(Ordering::Acquire) => None,
            None => lock(&self.big).remove(&fd).and_then(unpack),
        }
    }
}

/// One traced mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mapped {
    /// Start.
    pub addr: u64,
    /// Length.
    pub len: u64,
    /// Its device.
    pub device: u32,
    /// The descriptor it was made from.
    pub fd: i32,
    /// That descriptor's open flags.
    pub flags: u32,
}

/// The live mappings of traced descriptors (munmap of anything else is not traced).
#[derive(Debug, Default)]
pub struct MapTable {
    count: AtomicUsize,
    maps: Mutex<Vec<Mapped>>,
}

impl MapTable {
    /// Records a mapping.
    pub fn insert(&self, m: Mapped) {
        let mut maps = lock(&self.maps);
        maps.push(m);
        self.count.store(maps.len(), Ordering::Release);
    }

    /// The first traced mapping that `[addr, addr + len)` overlaps; mappings it covers
    /// whole are forgotten (an munmap).
    pub fn unmap(&self, addr: u64, len: u64) -> Option<Mapped> {
        if self.count.load(Ordering::Acquire) == 0 {
            return None;
        }
        let end = addr.saturating_add(len);
        let mut maps = lock(&self.maps);
        let hit = maps
            .iter()
            .copied()
            .find(|m| m.addr < end && addr < m.addr.saturating_add(m.len));
        maps.retain(|m| !(addr <= m.addr && m.addr.saturating_add(m.len) <= end));
        self.count.store(maps.len(), Ordering::Release);
        hit
    }
}

/// The trace file, shared by every thread (and every process that appends to it).
#[derive(Debug)]
pub struct Sink {
    file: File,
    header: Header,
    /// The process the event count belongs to (a forked child starts its own count).
    pid: AtomicU32,
    events: AtomicU64,
    lost: AtomicU64,
}

/// Why the trace file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// open/lock/read/write failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file exists and is not a trace this version writes.
    #[error("{}: not a trace to append to ({why})", path.display())]
    NotATrace {
        /// The file.
        path: PathBuf,
        /// The reader's refusal.
        why: String,
    },
}

impl Sink {
    /// Opens (creating) the trace at `path` for appending; writes `header` when the file is
    /// empty, else adopts the header it has.
    pub fn open(path: &Path, header: Header) -> Result<Self, SinkError> {
        let io = |source| SinkError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        flock(&file, FlockOperation::LockExclusive).map_err(|e| io(e.into()))?;
        let len = file.metadata().map_err(io)?.len();
        let header = if len == 0 {
            let mut bytes = Vec::new();
            encode_header(&header, &mut bytes).map_err(|e| io(std::io::Error::other(e)))?;
            file.write_all(&bytes).map_err(io)?;
            header
        } else {
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            TraceReader::new((&file).take(len))
                .map(|r| r.header().clone())
                .map_err(|e| SinkError::NotATrace {
                    path: path.to_path_buf(),
                    why: e.to_string(),
                })?
        };
        flock(&file, FlockOperation::Unlock).map_err(|e| io(e.into()))?;
        Ok(Self {
            file,
            header,
            pid: AtomicU32::new(std::process::id()),
            events: AtomicU64::new(0),
            lost: AtomicU64::new(0),
        })
    }

    /// The header in force (this process's, or the one the file already had).
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Writes one event as one record.
    pub fn write(&self, e: &Event<'_>) {
        let mut record = Vec::with_capacity(256);
        if encode_event(e, &mut record).is_err() || (&self.file).write_all(&record).is_err() {
            self.lost.fetch_add(1, Ordering::Relaxed);
            return;
        }
        // The event's pid is the caller's: no second getpid.
        let pid = e.common.pid;
        if self.pid.swap(pid, Ordering::AcqRel) != pid {
            // A forked child: its count starts at this event.
            self.events.store(0, Ordering::Release);
        }
        self.events.fetch_add(1, Ordering::AcqRel);
    }

    /// Writes this process's end record (at exit).
    pub fn finish(&self) {
        let pid = std::process::id();
        let events = if self.pid.load(Ordering::Acquire) == pid {
            self.events.load(Ordering::Acquire)
        } else {
            0
        };
        let common = Common {
            pid,
            tid: tid(),
            fd: -1,
            t_ns: monotonic_ns(),
            ..Common::default()
        };
        let mut record = Vec::new();
        if encode_event(
            &Event {
                common,
                call: Call::End { events },
            },
            &mut record,
        )
        .is_ok()
        {
            let _ = (&self.file).write_all(&record);
        }
    }

    /// Events this process could not write.
    pub fn lost(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }
}

/// The calling thread's id.
pub fn tid() -> u32 {
    u32::try_from(rustix::thread::gettid().as_raw_nonzero().get()).unwrap_or(0)
}

/// An ioctl on a traced descriptor between [`Tracer::ioctl_before`] and
/// [`Tracer::ioctl_after`].
#[derive(Debug)]
pub struct PendingIoctl {
    capture: Capture,
    fd: i32,
    device: u32,
    flags: u32,
}

/// Everything the interposer keeps: configuration, traced descriptors and mappings, the
/// sink (opened at the first traced call).
#[derive(Debug)]
pub struct Tracer {
    config: Config,
    fds: FdTable,
    maps: MapTable,
    sink: OnceLock<Option<Sink>>,
}

impl Tracer {
    /// A tracer for `config`; `None` when tracing is off.
    pub fn new(config: Config) -> Option<Self> {
        config.trace.as_ref()?;
        Some(Self {
            config,
            fds: FdTable::default(),
            maps: MapTable::default(),
            sink: OnceLock::new(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The sink, opened on first use; `None` when the file cannot be used (one line on
    /// stderr says why, once). `first_open` runs once, right after it opened (the
    /// interposer registers its exit hook there).
    pub fn sink(&self, first_open: impl FnOnce()) -> Option<&Sink> {
        self.sink
            .get_or_init(|| {
                let path = self.config.trace.as_ref()?;
                let header = Header {
                    recorder: Recorder::Interposer,
                    generation: None,
                    release: self.config.release,
                    cap: self.config.cap,
                    pid: std::process::id(),
                    start_wall_ns: wall_ns(),
                    start_mono_ns: monotonic_ns(),
                    device_dir: self.config.dir.clone(),
                };
                match Sink::open(path, header) {
                    Ok(s) => {
                        first_open();
                        Some(s)
                    }
                    Err(e) => {
                        eprintln!("libneuron_trace: tracing off: {e}");
                        None
                    }
                }
            })
            .as_ref()
    }

    /// The sink if it is open (the exit hook).
    pub fn opened_sink(&self) -> Option<&Sink> {
        self.sink.get().and_then(Option::as_ref)
    }

    /// Which device `path` opens, if it is a node: `resolve` gives the path the new
    /// descriptor really names when the spelling alone does not tell.
    pub fn device_of(&self, path: &[u8], resolve: impl FnOnce() -> Option<PathBuf>) -> Option<u32> {
        match match_path(&self.config.dir, path) {
            PathMatch::Device(d) => Some(d),
            PathMatch::No => None,
            PathMatch::Resolve => {
                let real = resolve()?;
                match match_path(&self.config.dir, real.as_os_str().as_encoded_bytes()) {
                    PathMatch::Device(d) => Some(d),
                    PathMatch::No | PathMatch::Resolve => None,
                }
            }
        }
    }

    /// True when `fd` is traced (the cheap test every ioctl/close/mmap makes first).
    pub fn traced(&self, fd: i32) -> Option<(u32, u32)> {
        self.fds.get(fd)
    }

    fn common(&self, device: Option<u32>, fd: i64, flags: u32, t0: u64, t1: u64) -> Common {
        Common {
            pid: std::process::id(),
            tid: tid(),
            device,
            fd,
            open_flags: flags,
            t_ns: t0,
            dur_ns: t1.saturating_sub(t0),
            ret: 0,
            errno: 0,
        }
    }

    /// An open(2) of `device` returned `fd` (negative: failed with `errno`).
    #[allow(clippy::too_many_arguments)]
    pub fn opened(
        &self,
        device: u32,
        path: &[u8],
        flags: u32,
        mode: u32,
        fd: i32,
        errno: i32,
        t0: u64,
        t1: u64,
        on_first: impl FnOnce(),
    ) {
        let Some(sink) = self.sink(on_first) else {
            return;
        };
        if fd >= 0 {
            self.fds.insert(fd, device, flags);
        }
        let mut common = self.common(Some(device), i64::from(fd), flags, t0, t1);
        common.ret = i64::from(fd);
        common.errno = if fd < 0 { errno } else { 0 };
        let path = path
            .get(..path.len().min(crate::MAX_PATH))
            .unwrap_or_default();
        sink.write(&Event {
            common,
            call: Call::Open {
                path,
                mode: open_mode(flags, mode),
            },
        });
    }

    /// Before close(2) of a traced `fd`: forgets it, returns what it was.
    pub fn closing(&self, fd: i32) -> Option<(u32, u32)> {
        self.fds.take(fd)
    }

    /// A close(2) of a traced descriptor returned `ret` (`errno` when -1).
    pub fn closed(&self, fd: i32, was: (u32, u32), ret: i32, errno: i32, t0: u64, t1: u64) {
        let Some(sink) = self.opened_sink() else {
            return;
        };
        let mut common = self.common(Some(was.0), i64::from(fd), was.1, t0, t1);
        common.ret = i64::from(ret);
        common.errno = if ret < 0 { errno } else { 0 };
        sink.write(&Event {
            common,
            call: Call::Close,
        });
    }

    /// Before an ioctl on a traced `fd`: captures the argument and the buffers it names.
    pub fn ioctl_before(
        &self,
        fd: i32,
        request: u32,
        arg: u64,
        mem: &dyn Memory,
    ) -> Option<PendingIoctl> {
        let (device, flags) = self.fds.get(fd)?;
        let sink = self.opened_sink()?;
        let h = sink.header();
        Some(PendingIoctl {
            capture: Capture::before(h.release.abi(), request, arg, mem, h.cap),
            fd,
            device,
            flags,
        })
    }

    /// After that ioctl returned `ret` (`errno` when -1): captures what it wrote, writes the
    /// event.
    pub fn ioctl_after(
        &self,
        mut p: PendingIoctl,
        ret: i32,
        errno: i32,
        t0: u64,
        t1: u64,
        mem: &dyn Memory,
    ) {
        let Some(sink) = self.opened_sink() else {
            return;
        };
        p.capture.after(mem);
        let mut common = self.common(Some(p.device), i64::from(p.fd), p.flags, t0, t1);
        common.ret = i64::from(ret);
        common.errno = if ret < 0 { errno } else { 0 };
        sink.write(&p.capture.event(common));
    }

    /// An mmap(2) of a traced descriptor returned `ret` (`u64::MAX`, MAP_FAILED, with
    /// `errno`).
    #[allow(clippy::too_many_arguments)]
    pub fn mapped(
        &self,
        fd: i32,
        was: (u32, u32),
        call: (u64, u64, u32, u32, u64),
        ret: u64,
        errno: i32,
        t0: u64,
        t1: u64,
    ) {
        let Some(sink) = self.opened_sink() else {
            return;
        };
        let (addr, len, prot, flags, offset) = call;
        let failed = ret == u64::MAX;
        if !failed {
            self.maps.insert(Mapped {
                addr: ret,
                len,
                device: was.0,
                fd,
                flags: was.1,
            });
        }
        let mut common = self.common(Some(was.0), i64::from(fd), was.1, t0, t1);
        common.ret = if failed {
            -1
        } else {
            i64::from_ne_bytes(ret.to_ne_bytes())
        };
        common.errno = if failed { errno } else { 0 };
        sink.write(&Event {
            common,
            call: Call::Mmap {
                addr,
                len,
                prot,
                flags,
                offset,
            },
        });
    }

    /// Before munmap(2): the traced mapping the range touches, if any.
    pub fn unmapping(&self, addr: u64, len: u64) -> Option<Mapped> {
        self.maps.unmap(addr, len)
    }

    /// That munmap returned `ret`.
    #[allow(clippy::too_many_arguments)]
    pub fn unmapped(&self, m: Mapped, addr: u64, len: u64, ret: i32, errno: i32, t0: u64, t1: u64) {
        let Some(sink) = self.opened_sink() else {
            return;
        };
        let mut common = self.common(Some(m.device), i64::from(m.fd), m.flags, t0, t1);
        common.ret = i64::from(ret);
        common.errno = if ret < 0 { errno } else { 0 };
        sink.write(&Event {
            common,
            call: Call::Munmap { addr, len },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_paths() {
        let dev = Path::new("/dev");
        assert_eq!(match_path(dev, b"/dev/neuron0"), PathMatch::Device(0));
        assert_eq!(match_path(dev, b"/dev/neuron12"), PathMatch::Device(12));
        assert_eq!(match_path(dev, b"/dev/neuron"), PathMatch::No);
        assert_eq!(match_path(dev, b"/dev/neuron0x"), PathMatch::No);
        assert_eq!(match_path(dev, b"/dev/null"), PathMatch::No);
        assert_eq!(match_path(dev, b"/tmp/neuron0"), PathMatch::No);
        assert_eq!(match_path(dev, b"neuron0"), PathMatch::Resolve);
        assert_eq!(match_path(dev, b"/dev//neuron0"), PathMatch::Resolve);
        assert_eq!(match_path(dev, b"/tmp/../dev/neuron1"), PathMatch::Resolve);
        assert_eq!(
            match_path(Path::new("/tmp/m"), b"/tmp/m/neuron3"),
            PathMatch::Device(3)
        );
        assert_eq!(device_index(b"neuron4294967296"), None);
    }

    #[test]
    fn mode_only_with_a_file_to_create() {
        let (rdwr, creat) = (libc::O_RDWR as u32, libc::O_CREAT as u32);
        assert_eq!(open_mode(rdwr, 0o644), 0);
        assert_eq!(open_mode(rdwr | creat, 0o644), 0o644);
        assert_eq!(open_mode(rdwr | libc::O_TMPFILE as u32, 0o600), 0o600);
        // O_DIRECTORY shares O_TMPFILE's bits but creates nothing.
        assert_eq!(open_mode(libc::O_DIRECTORY as u32, 0o600), 0);
    }

    #[test]
    fn fd_table_small_and_big() {
        let t = FdTable::default();
        assert_eq!(t.get(3), None);
        t.insert(3, 1, 2);
        t.insert(5000, 7, 0o2000002);
        assert_eq!(t.get(3), Some((1, 2)));
        assert_eq!(t.get(5000), Some((7, 0o2000002)));
        assert_eq!(t.take(3), Some((1, 2)));
        assert_eq!(t.take(3), None);
        assert_eq!(t.take(5000), Some((7, 0o2000002)));
        assert_eq!(t.get(-1), None);
    }

    #[test]
    fn maps_are_found_by_overlap_and_forgotten_when_covered() {
        let m = MapTable::default();
        assert_eq!(m.unmap(0x1000, 0x1000), None);
        let a = Mapped {
            addr: 0x10000,
            len: 0x2000,
            device: 0,
            fd: 3,
            flags: 2,
        };
        m.insert(a);
        assert_eq!(m.unmap(0x0, 0x1000), None);
        // Part of it: found, kept.
        assert_eq!(m.unmap(0x11000, 0x1000), Some(a));
        // All of it: found, forgotten.
        assert_eq!(m.unmap(0x10000, 0x2000), Some(a));
        assert_eq!(m.unmap(0x10000, 0x2000), None);
    }
}
