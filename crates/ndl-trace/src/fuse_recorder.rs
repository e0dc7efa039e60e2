//! The recorder of `neuron-tool serve --record`: a FUSE [`Backend`] that serves through
//! another and writes everything it answers — open, ioctl, close (FLUSH) — to a trace. The
//! caller's memory is read with the server's own `process_vm_readv` ([`ProcessMemory`]), by
//! the same capture rules as the interposer's, so both traces keep the same bytes of a call.
//! mmap(2) never reaches a FUSE server (the nodes are direct-I/O files), so no mmap event is
//! written; RELEASE is the server's bookkeeping, not a call of the process, and is left out.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use ndl_abi::Release;
use ndl_fuse::{Backend, Caller, ProcessMemory};
use rustix::io::Errno;

use crate::capture::{Capture, Memory};
use crate::clock::{monotonic_ns, wall_ns};
use crate::event::{Call, Common, Event, Header, Recorder};
use crate::writer::{TraceWriter, WriteError};

/// The calling process's memory, as the capture rules read it.
struct CallerMemory<'a>(&'a ProcessMemory);

impl Memory for CallerMemory<'_> {
    fn read(&self, addr: u64, dst: &mut [u8]) -> bool {
        self.0.read(addr, dst).is_ok()
    }
}

/// A backend that records what it answers. See the module docs.
pub struct RecordingBackend<B: Backend> {
    inner: B,
    dir: PathBuf,
    release: Release,
    cap: u32,
    files: Mutex<HashMap<u64, (u32, u32)>>,
    out: Mutex<Option<TraceWriter<File>>>,
    lost: AtomicU64,
}

impl<B: Backend> std::fmt::Debug for RecordingBackend<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordingBackend")
            .field("dir", &self.dir)
            .field("release", &self.release)
            .field("cap", &self.cap)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn errno_of(e: Errno) -> i32 {
    e.raw_os_error()
}

impl<B: Backend> RecordingBackend<B> {
    /// Records `inner`, served on mount `dir` with chip generation `generation`, into a new
    /// trace at `path` (truncated), decoding arguments by `release` and keeping at most `cap`
    /// bytes of each user buffer.
    pub fn create(
        inner: B,
        dir: &Path,
        generation: Option<u8>,
        release: Release,
        cap: u32,
        path: &Path,
    ) -> Result<Self, WriteError> {
        let header = Header {
            recorder: Recorder::Server,
            generation,
            release,
            cap: cap.min(crate::MAX_CAP),
            pid: std::process::id(),
            start_wall_ns: wall_ns(),
            start_mono_ns: monotonic_ns(),
            device_dir: dir.to_path_buf(),
        };
        let file = File::create(path)?;
        let writer = TraceWriter::new(file, &header)?;
        Ok(Self {
            inner,
            dir: dir.to_path_buf(),
            release,
            cap: header.cap,
            files: Mutex::new(HashMap::new()),
            out: Mutex::new(Some(writer)),
            lost: AtomicU64::new(0),
        })
    }

    /// The backend recorded.
    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// Events that could not be written (the sink failed).
    pub fn lost(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }

    /// Writes the end record and closes the trace; later calls are served but not recorded.
    pub fn finish(&self) -> Result<u64, WriteError> {
        let Some(w) = lock(&self.out).take() else {
            return Ok(0);
        };
        let events = w.events();
        w.finish(std::process::id())?;
        Ok(events)
    }

    fn write(&self, e: &Event<'_>) {
        if let Some(w) = lock(&self.out).as_mut() {
            if w.write(e).is_err() {
                self.lost.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    fn common(&self, fh: u64, caller: Caller, t0: u64) -> Common {
        let (device, flags) = lock(&self.files).get(&fh).copied().unzip();
        Common {
            pid: caller.tgid,
            tid: caller.tid,
            device,
            fd: i64::try_from(fh).unwrap_or(i64::MAX),
            open_flags: flags.unwrap_or(0),
            t_ns: t0,
            dur_ns: monotonic_ns().saturating_sub(t0),
            ret: 0,
            errno: 0,
        }
    }
}

impl<B: Backend> Backend for RecordingBackend<B> {
    fn devices(&self) -> u32 {
        self.inner.devices()
    }

    fn open(&self, device: u32, flags: u32, caller: Caller) -> Result<u64, Errno> {
        let t0 = monotonic_ns();
        let r = self.inner.open(device, flags, caller);
        let dur_ns = monotonic_ns().saturating_sub(t0);
        if let Ok(fh) = r {
            lock(&self.files).insert(fh, (device, flags));
        }
        let path = self.dir.join(format!("neuron{device}"));
        let (fd, errno) = match r {
            Ok(fh) => (i64::try_from(fh).unwrap_or(i64::MAX), 0),
            Err(e) => (-1, errno_of(e)),
        };
        self.write(&Event {
            common: Common {
                pid: caller.tgid,
                tid: caller.tid,
                device: Some(device),
                fd,
                open_flags: flags,
                t_ns: t0,
                dur_ns,
                ret: fd,
                errno,
            },
            call: Call::Open {
                path: path.as_os_str().as_encoded_bytes(),
                mode: 0,
            },
        });
        r
    }

    fn ioctl(
        &self,
        fh: u64,
        request: u32,
        arg: u64,
        memory: &ProcessMemory,
        caller: Caller,
    ) -> Result<i32, Errno> {
        let mem = CallerMemory(memory);
        let mut capture = Capture::before(self.release.abi(), request, arg, &mem, self.cap);
        let t0 = monotonic_ns();
        let r = self.inner.ioctl(fh, request, arg, memory, caller);
        let mut common = self.common(fh, caller, t0);
        capture.after(&mem);
        match r {
            Ok(v) => common.ret = i64::from(v),
            Err(e) => (common.ret, common.errno) = (-1, errno_of(e)),
        }
        self.write(&capture.event(common));
        r
    }

    fn flush(&self, fh: u64, caller: Caller) {
        let t0 = monotonic_ns();
        self.inner.flush(fh, caller);
        let common = self.common(fh, caller, t0);
        self.write(&Event {
            common,
            call: Call::Close,
        });
    }

    fn release(&self, fh: u64) {
        self.inner.release(fh);
        lock(&self.files).remove(&fh);
    }
}
