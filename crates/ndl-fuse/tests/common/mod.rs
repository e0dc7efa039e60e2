//! Shared by the integration tests: start a served emulated kernel or skip, raw ioctls,
//! child processes (this test binary re-executed) with a time limit.

#![allow(dead_code)]

use std::os::fd::AsRawFd;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use khal::Generation;
use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_fuse::{EmulatedBackend, Server};
use rustix::io::Errno;

/// Environment variable naming the role of a re-executed test binary.
pub const CHILD_ROLE: &str = "NDL_FUSE_CHILD";

/// Serves `devices` devices of `generation` on a fresh directory, or prints one SKIP line
/// and returns None where FUSE cannot be mounted (no /dev/fuse, mount(2) not permitted).
pub fn serve(
    generation: Generation,
    devices: u32,
) -> Option<(tempfile::TempDir, Server<EmulatedBackend>)> {
    serve_kernel(EmulatedKernel::new(generation, devices).unwrap())
}

/// As [`serve`] with `memory` bytes per HBM channel and of host memory (room for the
/// 64 MiB copies).
pub fn serve_big(
    generation: Generation,
    memory: u64,
) -> Option<(tempfile::TempDir, Server<EmulatedBackend>)> {
    let mut config = DeviceConfig::numbered(generation, 0);
    config.memory.hbm_bytes_per_channel = memory;
    config.memory.host_bytes = memory;
    serve_kernel(EmulatedKernel::with_devices(vec![config]).unwrap())
}

/// Serves `kernel` on a fresh directory, or SKIP as [`serve`] does.
pub fn serve_kernel(
    kernel: EmulatedKernel,
) -> Option<(tempfile::TempDir, Server<EmulatedBackend>)> {
    let dir = tempfile::tempdir().unwrap();
    match Server::start(dir.path(), EmulatedBackend::new(kernel)) {
        Ok(s) => Some((dir, s)),
        Err(e) if e.is_unavailable() => {
            println!("SKIP: FUSE unavailable here ({e})");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

/// ioctl(2) with a run-time request; the syscall's result or errno.
///
/// # Safety
/// `arg` is 0 or the address of memory valid for what `request` accesses.
pub unsafe fn ioctl(fd: &impl AsRawFd, request: u32, arg: u64) -> Result<i32, Errno> {
    // SAFETY: forwarded to the caller.
    let r = unsafe { libc::ioctl(fd.as_raw_fd(), libc::c_ulong::from(request), arg) };
    if r < 0 {
        Err(Errno::from_io_error(&std::io::Error::last_os_error()).unwrap_or(Errno::INVAL))
    } else {
        Ok(r)
    }
}

/// This test binary, re-executed to run only `test` with `role` in [`CHILD_ROLE`].
pub fn child(test: &str, role: &str) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD_ROLE, role)
        .stdin(Stdio::null());
    c
}

/// Waits at most `limit` for `child`; kills it and panics when it takes longer.
pub fn wait_limited(child: &mut Child, limit: Duration) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("child process did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Polls `cond` every 10 ms for at most `limit` (FUSE sends RELEASE asynchronously after
/// close). True when it held.
pub fn eventually(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
