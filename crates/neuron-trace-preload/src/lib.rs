//! `libneuron_trace.so`: strace for `/dev/neuron`, as an `LD_PRELOAD` library.
//!
//! ```text
//! LD_PRELOAD=target/release/libneuron_trace.so NEURON_TRACE=run.ntrace my-runtime ...
//! neuron-tool trace decode run.ntrace
//! ```
//!
//! It exports `open`, `open64`, `openat`, `openat64`, their fortified `__open_2` ..
//! `__openat64_2`, `close`, `ioctl`, `mmap`, `mmap64` and `munmap`. Each calls the next
//! definition (`dlsym(RTLD_NEXT)`, the C library's) with the caller's arguments unchanged and
//! returns its result with its errno; around the call, for paths under the Neuron device
//! directory and the descriptors and mappings they gave, it writes one event to
//! `NEURON_TRACE`. Everything it decides and writes is `ndl_trace::interpose` (safe code,
//! configured by `NEURON_TRACE_DIR`, `NEURON_TRACE_CAP`, `NEURON_TRACE_RELEASE`); this crate
//! holds only the C symbols, the calls of the real functions, errno, and the read of the
//! process's own memory, which goes through `process_vm_readv` so that a bad address in an
//! argument fails the read instead of faulting.
//!
//! Per call on an untraced descriptor it costs one atomic load; per traced ioctl, two reads
//! of the argument (before and after), one per buffer, two clock reads and one `write(2)`
//! (the README's Measured table has the figures). No panic crosses into C: every call into
//! Rust code is inside `catch_unwind`, and the real call happens exactly once whatever it does.
//!
//! Programs that reach the kernel without the C library (raw `syscall`, Rust's `rustix` on
//! its default backend) are invisible to it; the workspace builds `rustix` with `use-libc`
//! for that reason. `dup`/`fcntl(F_DUPFD)` copies of a node's descriptor and
//! `fopen` are not followed.

use std::cell::Cell;
use std::ffi::{CStr, c_char, c_int, c_uint, c_ulong, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, Ordering};

use ndl_trace::capture::Memory;
use ndl_trace::clock::monotonic_ns;
use ndl_trace::interpose::{Config, PathMatch, Tracer, match_path};

static TRACER: OnceLock<Option<Tracer>> = OnceLock::new();

fn tracer() -> Option<&'static Tracer> {
    TRACER
        .get_or_init(|| Tracer::new(Config::from_env()))
        .as_ref()
}

thread_local! {
    /// Set while this thread runs tracing code: calls it makes itself (opening the trace
    /// file) pass straight through.
    static BUSY: Cell<bool> = const { Cell::new(false) };
}

struct Busy;

fn enter() -> Option<Busy> {
    BUSY.try_with(|b| (!b.replace(true)).then_some(Busy))
        .ok()
        .flatten()
}

impl Drop for Busy {
    fn drop(&mut self) {
        let _ = BUSY.try_with(|b| b.set(false));
    }
}

/// Runs tracing code; a panic in it is caught here and the call goes on untraced.
fn quietly<T>(f: impl FnOnce() -> T) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}

/// Makes the real call once, timed: its result, the errno it left, and the clock before and
/// after.
fn timed<T>(call: impl FnOnce() -> T) -> (T, c_int, u64, u64) {
    let t0 = monotonic_ns();
    let r = call();
    let e = errno();
    (r, e, t0, monotonic_ns())
}

fn errno() -> c_int {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

fn set_errno(e: c_int) {
    // SAFETY: `__errno_location` returns this thread's errno, valid for the thread's life.
    unsafe { *libc::__errno_location() = e };
}

/// Memory of this process, read with `process_vm_readv`: the kernel checks the range and
/// fails (EFAULT) where a plain read would fault.
struct SelfMemory;

impl Memory for SelfMemory {
    fn read(&self, addr: u64, dst: &mut [u8]) -> bool {
        if dst.is_empty() {
            return true;
        }
        let Ok(remote) = usize::try_from(addr) else {
            return false;
        };
        if remote == 0 {
            return false;
        }
        let local = libc::iovec {
            iov_base: dst.as_mut_ptr().cast(),
            iov_len: dst.len(),
        };
        let remote = libc::iovec {
            iov_base: remote as *mut c_void,
            iov_len: dst.len(),
        };
        // SAFETY: the local iovec covers `dst`, which is exclusively borrowed; the remote
        // range is only read, by the kernel, which checks it.
        let n = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
        usize::try_from(n) == Ok(dst.len())
    }
}

/// The next definition of a C library function, looked up once.
macro_rules! real {
    ($name:literal as $ty:ty) => {{
        static P: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());
        let mut p = P.load(Ordering::Acquire);
        if p.is_null() {
            // SAFETY: dlsym with RTLD_NEXT and a NUL-terminated name has no other contract.
            p = unsafe { libc::dlsym(libc::RTLD_NEXT, concat!($name, "\0").as_ptr().cast()) };
            P.store(p, Ordering::Release);
        }
        if p.is_null() {
            None
        } else {
            // SAFETY: `p` is the C library's `$name`, whose C type `$ty` spells.
            Some(unsafe { std::mem::transmute::<*mut c_void, $ty>(p) })
        }
    }};
}

type OpenFn = unsafe extern "C" fn(*const c_char, c_int, ...) -> c_int;
type OpenatFn = unsafe extern "C" fn(c_int, *const c_char, c_int, ...) -> c_int;
type Open2Fn = unsafe extern "C" fn(*const c_char, c_int) -> c_int;
type Openat2Fn = unsafe extern "C" fn(c_int, *const c_char, c_int) -> c_int;
type CloseFn = unsafe extern "C" fn(c_int) -> c_int;
type IoctlFn = unsafe extern "C" fn(c_int, c_ulong, ...) -> c_int;
type MmapFn = unsafe extern "C" fn(*mut c_void, usize, c_int, c_int, c_int, i64) -> *mut c_void;
type MunmapFn = unsafe extern "C" fn(*mut c_void, usize) -> c_int;

/// The raw system call, for a symbol the C library does not have (never on glibc).
fn sys(r: libc::c_long) -> c_int {
    c_int::try_from(r).unwrap_or(-1)
}

extern "C" fn at_exit() {
    quietly(|| {
        if let Some(sink) = TRACER
            .get()
            .and_then(Option::as_ref)
            .and_then(Tracer::opened_sink)
        {
            sink.finish();
        }
    });
}

fn register_exit_hook() {
    // SAFETY: `at_exit` is an `extern "C" fn()` that never unwinds (its body is caught).
    unsafe { libc::atexit(at_exit) };
}

/// The path a new descriptor names (`/proc/self/fd/N`).
fn resolved(fd: c_int) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/self/fd/{fd}")).ok()
}

/// An open of any flavour: `call` makes the real call once; traced when the path is a node.
///
/// # Safety
/// `path` is null or a NUL-terminated string (open(2)'s contract).
unsafe fn opening(
    path: *const c_char,
    flags: c_int,
    mode: c_uint,
    call: impl FnOnce() -> c_int,
) -> c_int {
    let Some(t) = tracer() else { return call() };
    if path.is_null() {
        return call();
    }
    // SAFETY: open(2)'s contract: `path` is a NUL-terminated string; it is only read.
    let bytes = unsafe { CStr::from_ptr(path) }.to_bytes();
    if match_path(&t.config().dir, bytes) == PathMatch::No {
        return call();
    }
    let Some(_busy) = enter() else { return call() };
    let (fd, e, t0, t1) = timed(call);
    quietly(|| {
        if let Some(device) = t.device_of(bytes, || resolved(fd)) {
            let flags = u32::from_ne_bytes(flags.to_ne_bytes());
            t.opened(
                device,
                bytes,
                flags,
                mode,
                fd,
                e,
                t0,
                t1,
                register_exit_hook,
            );
        }
    });
    set_errno(e);
    fd
}

/// open(2) by `f` (the C library's), or by the system call when it has none.
///
/// # Safety
/// open(2)'s contract.
unsafe fn open_by(f: Option<OpenFn>, path: *const c_char, flags: c_int, mode: c_uint) -> c_int {
    match f {
        // SAFETY: the caller's open(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(path, flags, mode) },
        // SAFETY: as above, by the raw system call.
        None => sys(unsafe { libc::syscall(libc::SYS_openat, libc::AT_FDCWD, path, flags, mode) }),
    }
}

/// openat(2) by `f`, or by the system call.
///
/// # Safety
/// openat(2)'s contract.
unsafe fn openat_by(
    f: Option<OpenatFn>,
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mode: c_uint,
) -> c_int {
    match f {
        // SAFETY: the caller's openat(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(dirfd, path, flags, mode) },
        // SAFETY: as above, by the raw system call.
        None => sys(unsafe { libc::syscall(libc::SYS_openat, dirfd, path, flags, mode) }),
    }
}

/// The fortified open(2) (`__open_2`, `_FORTIFY_SOURCE`: no mode) by `f`, or the system
/// call.
///
/// # Safety
/// open(2)'s contract.
unsafe fn open2_by(f: Option<Open2Fn>, path: *const c_char, flags: c_int, _: c_uint) -> c_int {
    match f {
        // SAFETY: the caller's open(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(path, flags) },
        // SAFETY: as above, by the raw system call.
        None => sys(unsafe { libc::syscall(libc::SYS_openat, libc::AT_FDCWD, path, flags, 0) }),
    }
}

/// The fortified openat(2) by `f`, or the system call.
///
/// # Safety
/// openat(2)'s contract.
unsafe fn openat2_by(
    f: Option<Openat2Fn>,
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    _: c_uint,
) -> c_int {
    match f {
        // SAFETY: the caller's openat(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(dirfd, path, flags) },
        // SAFETY: as above, by the raw system call.
        None => sys(unsafe { libc::syscall(libc::SYS_openat, dirfd, path, flags, 0) }),
    }
}

/// Defines the exported open(2)-family symbols: each calls the C library's own through
/// `$by`, traced by [`opening`]. The fortified forms take no mode (0 is recorded).
macro_rules! opens {
    ($($name:ident($($dirfd:ident)?; $($mode:ident)?) => $by:ident($sym:literal as $ty:ty);)*) => {$(
        #[doc = concat!("# Safety\n", $sym, "(2)'s contract.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            $($dirfd: c_int,)? path: *const c_char, flags: c_int $(, $mode: c_uint)?
        ) -> c_int {
            let mode: c_uint = 0 $(+ $mode)?;
            let f = real!($sym as $ty);
            // SAFETY: the caller's contract, forwarded unchanged to the real function.
            unsafe {
                opening(path, flags, mode, || $by(f, $($dirfd,)? path, flags, mode))
            }
        }
    )*};
}

opens! {
    open(; mode) => open_by("open" as OpenFn);
    open64(; mode) => open_by("open64" as OpenFn);
    openat(dirfd; mode) => openat_by("openat" as OpenatFn);
    openat64(dirfd; mode) => openat_by("openat64" as OpenatFn);
    __open_2(;) => open2_by("__open_2" as Open2Fn);
    __open64_2(;) => open2_by("__open64_2" as Open2Fn);
    __openat_2(dirfd;) => openat2_by("__openat_2" as Openat2Fn);
    __openat64_2(dirfd;) => openat2_by("__openat64_2" as Openat2Fn);
}

/// # Safety
/// close(2).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn close(fd: c_int) -> c_int {
    let real_close = || match real!("close" as CloseFn) {
        // SAFETY: the caller's close(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(fd) },
        // SAFETY: as above, by the raw system call.
        None => sys(unsafe { libc::syscall(libc::SYS_close, fd) }),
    };
    let Some(t) = tracer() else {
        return real_close();
    };
    let Some(was) = t.closing(fd) else {
        return real_close();
    };
    let _busy = enter();
    let (r, e, t0, t1) = timed(real_close);
    quietly(|| t.closed(fd, was, r, e, t0, t1));
    set_errno(e);
    r
}

/// # Safety
/// ioctl(2): `arg` is what `request` expects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ioctl(fd: c_int, request: c_ulong, arg: *mut c_void) -> c_int {
    let real_ioctl = || match real!("ioctl" as IoctlFn) {
        // SAFETY: the caller's ioctl(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(fd, request, arg) },
        // SAFETY: as above, by the raw system call.
        None => sys(unsafe { libc::syscall(libc::SYS_ioctl, fd, request, arg) }),
    };
    let Some(t) = tracer() else {
        return real_ioctl();
    };
    if t.traced(fd).is_none() {
        return real_ioctl();
    }
    let Some(_busy) = enter() else {
        return real_ioctl();
    };
    // The kernel takes the request as a 32-bit `unsigned int`.
    let code = u32::try_from(request & 0xFFFF_FFFF).unwrap_or(0);
    let addr = arg as usize as u64;
    let pending = quietly(|| t.ioctl_before(fd, code, addr, &SelfMemory)).flatten();
    let (r, e, t0, t1) = timed(real_ioctl);
    if let Some(p) = pending {
        quietly(|| t.ioctl_after(p, r, e, t0, t1, &SelfMemory));
    }
    set_errno(e);
    r
}

fn mapping(
    fd: c_int,
    call: (u64, u64, u32, u32, u64),
    real_mmap: impl FnOnce() -> *mut c_void,
) -> *mut c_void {
    let Some(t) = tracer() else {
        return real_mmap();
    };
    let Some(was) = (fd >= 0).then(|| t.traced(fd)).flatten() else {
        return real_mmap();
    };
    let Some(_busy) = enter() else {
        return real_mmap();
    };
    let (r, e, t0, t1) = timed(real_mmap);
    let ret = if r == libc::MAP_FAILED {
        u64::MAX
    } else {
        r as usize as u64
    };
    quietly(|| t.mapped(fd, was, call, ret, e, t0, t1));
    set_errno(e);
    r
}

fn bits(v: c_int) -> u32 {
    u32::from_ne_bytes(v.to_ne_bytes())
}

/// mmap(2) by `f`, or by the system call.
///
/// # Safety
/// mmap(2)'s contract.
unsafe fn mmap_by(
    f: Option<MmapFn>,
    addr: *mut c_void,
    len: usize,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: i64,
) -> *mut c_void {
    match f {
        // SAFETY: the caller's mmap(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(addr, len, prot, flags, fd, offset) },
        // SAFETY: as above, by the raw system call.
        None => unsafe {
            libc::syscall(libc::SYS_mmap, addr, len, prot, flags, fd, offset) as *mut c_void
        },
    }
}

/// Defines the exported mmap(2) symbols (`mmap64` is the same function on 64-bit targets).
macro_rules! mmaps {
    ($($name:ident => $sym:literal;)*) => {$(
        #[doc = concat!("# Safety\n", $sym, "(2)'s contract.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            offset: i64,
        ) -> *mut c_void {
            let call = (addr as usize as u64, len as u64, bits(prot), bits(flags), offset as u64);
            let f = real!($sym as MmapFn);
            // SAFETY: the caller's mmap(2) contract, forwarded unchanged.
            mapping(fd, call, || unsafe { mmap_by(f, addr, len, prot, flags, fd, offset) })
        }
    )*};
}

mmaps! {
    mmap => "mmap";
    mmap64 => "mmap64";
}

/// # Safety
/// munmap(2).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn munmap(addr: *mut c_void, len: usize) -> c_int {
    let real_munmap = || match real!("munmap" as MunmapFn) {
        // SAFETY: the caller's munmap(2) contract, forwarded unchanged.
        Some(f) => unsafe { f(addr, len) },
        // SAFETY: as above, by the raw system call.
        None => sys(unsafe { libc::syscall(libc::SYS_munmap, addr, len) }),
    };
    let Some(t) = tracer() else {
        return real_munmap();
    };
    let (a, l) = (addr as usize as u64, len as u64);
    let Some(m) = quietly(|| t.unmapping(a, l)).flatten() else {
        return real_munmap();
    };
    let _busy = enter();
    let (r, e, t0, t1) = timed(real_munmap);
    quietly(|| t.unmapped(m, a, l, r, e, t0, t1));
    set_errno(e);
    r
}
