//! The interposer's cost per ioctl, beside the same client without it, in one run
//! (`cargo bench -p neuron-trace-preload`).
//!
//! The bench re-runs itself as the client: without `LD_PRELOAD`, with `libneuron_trace.so`
//! loaded but `NEURON_TRACE` unset (tracing off), and tracing. Each client times a loop of
//! COMPATIBLE_VERSION ioctls (an 8-byte argument the recorder reads before and after the call)
//! on one target, and the same loop on an untraced descriptor (`/dev/null`, the price every
//! other ioctl of a traced process pays). Targets:
//!
//! * a plain file named `neuron0` in a temporary device directory: the kernel answers ENOTTY
//!   at once, so the difference is the interposer's own cost (the peer: the same raw ioctl);
//! * `neuron0` of a FUSE-served emulated kernel (skipped where FUSE cannot be mounted): a
//!   real driver answer, the cost as a runtime sees it on the served node.
//!
//! It prints ns per call and the trace's bytes per event; nothing is asserted. Under
//! `cargo test` it runs a thousand calls as a smoke test.

use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ndl_emu::EmulatedKernel;
use ndl_fuse::{EmulatedBackend, Server};

const ROLE: &str = "NEURON_TRACE_BENCH_ROLE";

/// COMPATIBLE_VERSION of driver 2.26.5.0 (an 8-byte argument the driver writes).
const REQUEST: u32 = ndl_abi::COMPATIBLE_VERSION.code();

fn library() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    [deps.to_path_buf(), deps.parent()?.to_path_buf()]
        .into_iter()
        .map(|d| d.join("libneuron_trace.so"))
        .find(|p| p.is_file())
}

/// ns per ioctl on `path` (opened read-write), `calls` times.
fn time_ioctls(path: &Path, calls: u32) -> f64 {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .expect("open the target");
    let mut arg = [0u32; 2];
    let fd = file.as_raw_fd();
    let start = Instant::now();
    for _ in 0..calls {
        // SAFETY: `arg` is the 8-byte struct COMPATIBLE_VERSION writes; on a plain file the
        // kernel refuses the request without touching it.
        unsafe { libc::ioctl(fd, libc::c_ulong::from(REQUEST), arg.as_mut_ptr()) };
    }
    start.elapsed().as_nanos() as f64 / f64::from(calls)
}

fn child() {
    let target = PathBuf::from(std::env::var("BENCH_TARGET").expect("target"));
    let calls: u32 = std::env::var("BENCH_CALLS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100_000);
    let traced = time_ioctls(&target, calls);
    let untraced = time_ioctls(Path::new("/dev/null"), calls);
    println!("{traced:.1} {untraced:.1}");
}

struct Run<'a> {
    label: &'a str,
    lib: Option<&'a Path>,
    trace: Option<&'a Path>,
    dir: &'a Path,
    calls: u32,
}

fn run(r: &Run<'_>) {
    let mut c = Command::new(std::env::current_exe().expect("bench binary"));
    c.env(ROLE, "child")
        .env("NEURON_TRACE_DIR", r.dir)
        .env("BENCH_TARGET", r.dir.join("neuron0"))
        .env("BENCH_CALLS", r.calls.to_string())
        .env_remove("NEURON_TRACE");
    if let Some(lib) = r.lib {
        c.env("LD_PRELOAD", lib);
    }
    if let Some(t) = r.trace {
        let _ = std::fs::remove_file(t);
        c.env("NEURON_TRACE", t);
    }
    let out = c.output().expect("run the client");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut v = text.split_whitespace();
    let (node, untraced) = (v.next().unwrap_or("?"), v.next().unwrap_or("?"));
    print!(
        "{:<32} neuron0 {node:>9} ns/ioctl   /dev/null {untraced:>7} ns/ioctl",
        r.label
    );
    if let Some(t) = r.trace {
        let size = std::fs::metadata(t).map(|m| m.len()).unwrap_or(0);
        print!(
            "   trace {size} bytes, {:.1} bytes/event",
            size as f64 / f64::from(r.calls)
        );
    }
    println!();
}

fn main() {
    if std::env::var_os(ROLE).is_some() {
        child();
        return;
    }
    // `cargo bench` passes --bench; under `cargo test --all-targets` this is a smoke run.
    let (calls, served_calls) = if std::env::args().any(|a| a == "--bench") {
        (200_000, 20_000)
    } else {
        (1_000, 100)
    };
    let Some(lib) = library() else {
        println!("SKIP: libneuron_trace.so is not built next to the bench");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = dir.path().join("plain");
    std::fs::create_dir(&plain).expect("plain dir");
    std::fs::write(plain.join("neuron0"), b"").expect("plain node");
    let trace = dir.path().join("bench.ntrace");
    println!("plain file (the kernel answers ENOTTY at once):");
    for (label, l, t) in [
        ("  no LD_PRELOAD", None, None),
        ("  preloaded, NEURON_TRACE unset", Some(lib.as_path()), None),
        (
            "  preloaded, tracing",
            Some(lib.as_path()),
            Some(trace.as_path()),
        ),
    ] {
        run(&Run {
            label,
            lib: l,
            trace: t,
            dir: &plain,
            calls,
        });
    }
    let mount = tempfile::tempdir().expect("mount dir");
    let kernel = EmulatedKernel::new(khal::Generation::V3, 1).expect("kernel");
    match Server::start(mount.path(), EmulatedBackend::new(kernel)) {
        Ok(server) => {
            println!("FUSE-served emulated kernel (a real driver answer):");
            for (label, l, t) in [
                ("  no LD_PRELOAD", None, None),
                (
                    "  preloaded, tracing",
                    Some(lib.as_path()),
                    Some(trace.as_path()),
                ),
            ] {
                run(&Run {
                    label,
                    lib: l,
                    trace: t,
                    dir: server.dir(),
                    calls: served_calls,
                });
            }
            drop(server);
        }
        Err(e) => println!("served node skipped: {e}"),
    }
}
