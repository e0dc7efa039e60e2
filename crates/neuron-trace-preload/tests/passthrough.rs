//! The interposer changes nothing a program sees and records what it did: a fixed script of
//! calls (opens that work and fail, ioctls the kernel refuses, an mmap and munmap, closes,
//! calls on untraced descriptors, and four threads of ioctls at once) runs twice, without and
//! with `LD_PRELOAD=libneuron_trace.so`, and must print the same results and errnos; the trace
//! must then hold exactly the script's calls on the node, each whole.
//!
//! The "node" is a plain file called `neuron0` in a temporary device directory: the kernel
//! answers every Neuron ioctl on it with ENOTTY, so this needs neither FUSE nor a device.

mod common;

use std::ffi::CString;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

use ndl_trace::{Call, Recorder, TraceReader};

const ROLE: &str = "NEURON_TRACE_TEST_ROLE";
const THREADS: u32 = 4;
const PER_THREAD: u32 = 250;
const REQUEST: u32 = ndl_abi::COMPATIBLE_VERSION.code();

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

fn open(path: &Path, flags: i32) -> (i32, i32) {
    let c = CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    let fd = unsafe { libc::open(c.as_ptr(), flags) };
    (fd, if fd < 0 { errno() } else { 0 })
}

fn ioctl(fd: i32) -> (i32, i32) {
    let mut v = [0u32; 2];
    // SAFETY: `v` is the 8-byte argument COMPATIBLE_VERSION names.
    let r = unsafe { libc::ioctl(fd, libc::c_ulong::from(REQUEST), v.as_mut_ptr()) };
    (r, if r < 0 { errno() } else { 0 })
}

fn close(fd: i32) -> (i32, i32) {
    // SAFETY: closing a descriptor this script opened (or a bad number, on purpose).
    let r = unsafe { libc::close(fd) };
    (r, if r < 0 { errno() } else { 0 })
}

/// The script; prints one line per call, with the result and errno it got (fds as opened or
/// not, so the two runs compare equal).
fn script() {
    let dir = PathBuf::from(std::env::var("NEURON_TRACE_DIR").unwrap());
    let node = dir.join("neuron0");
    let mut lines = Vec::new();
    let (fd, e) = open(&node, libc::O_RDWR | libc::O_CLOEXEC);
    lines.push(format!("open rdwr {} {e}", fd >= 0));
    let (missing, e) = open(&dir.join("neuron7"), libc::O_RDWR);
    lines.push(format!("open missing {missing} {e}"));
    let (wo, e) = open(&node, libc::O_WRONLY);
    lines.push(format!("open wronly {} {e}", wo >= 0));
    lines.push(format!("ioctl {:?}", ioctl(fd)));
    lines.push(format!("ioctl wronly {:?}", ioctl(wo)));
    lines.push(format!("ioctl bad fd {:?}", ioctl(9999)));
    let (null, _) = open(Path::new("/dev/null"), libc::O_RDWR);
    lines.push(format!("ioctl untraced {:?}", ioctl(null)));
    // SAFETY: a fresh shared mapping of the (empty) node, unmapped below, never touched.
    let map = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    let failed = map == libc::MAP_FAILED;
    lines.push(format!(
        "mmap {} {}",
        !failed,
        if failed { errno() } else { 0 }
    ));
    if !failed {
        // SAFETY: the mapping made above.
        let r = unsafe { libc::munmap(map, 4096) };
        lines.push(format!("munmap {r}"));
    }
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for _ in 0..PER_THREAD {
                    assert_eq!(ioctl(fd), (-1, libc::ENOTTY));
                }
            });
        }
    });
    lines.push(format!("close wronly {:?}", close(wo)));
    lines.push(format!("close {:?}", close(fd)));
    lines.push(format!("close again {:?}", close(fd)));
    lines.push(format!("close untraced {:?}", close(null)));
    println!("SCRIPT\n{}", lines.join("\n"));
}

fn run(dir: &Path, preload: Option<(&Path, &Path)>) -> String {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([
        "--exact",
        "calls_pass_through_unchanged_and_are_recorded",
        "--nocapture",
    ])
    .env(ROLE, "script")
    .env("NEURON_TRACE_DIR", dir)
    .env_remove("NEURON_TRACE")
    .env_remove("LD_PRELOAD");
    if let Some((lib, trace)) = preload {
        c.env("LD_PRELOAD", lib).env("NEURON_TRACE", trace);
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let at = text.find("SCRIPT\n").expect("the script ran");
    text[at..]
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("test "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn calls_pass_through_unchanged_and_are_recorded() {
    if std::env::var_os(ROLE).is_some() {
        script();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("neuron0"), b"").unwrap();
    let trace = dir.path().join("script.ntrace");
    let plain = run(dir.path(), None);
    let traced = run(dir.path(), Some((&common::library(), &trace)));
    assert_eq!(plain, traced, "the interposer changed a result or an errno");
    assert!(
        plain.contains("ioctl (-1, 25)"),
        "ENOTTY from a plain file: {plain}"
    );
    assert!(plain.contains("open missing -1 2"), "ENOENT: {plain}");

    let bytes = std::fs::read(&trace).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    assert_eq!(r.header().recorder, Recorder::Interposer);
    assert_eq!(r.header().device_dir, dir.path());
    let mut kinds = Vec::new();
    let mut per_tid = std::collections::HashMap::<u32, u32>::new();
    let main_pid = {
        let mut pid = 0;
        while let Some((_, e)) = r.next_event().unwrap() {
            pid = e.common.pid;
            match &e.call {
                Call::Ioctl(io) => {
                    assert_eq!(io.request, REQUEST);
                    // The 8-byte argument, before and after.
                    assert_eq!(io.before.map(<[u8]>::len), Some(8));
                    assert_eq!(io.after.map(<[u8]>::len), Some(8));
                    *per_tid.entry(e.common.tid).or_default() += 1;
                    kinds.push(format!("ioctl {} {}", e.common.ret, e.common.errno));
                }
                Call::Open { path, .. } => kinds.push(format!(
                    "open {} {} {}",
                    String::from_utf8_lossy(path).rsplit('/').next().unwrap(),
                    e.common.ret >= 0,
                    e.common.errno
                )),
                Call::Mmap { len, .. } => kinds.push(format!("mmap {len} {}", e.common.errno)),
                Call::Munmap { len, .. } => kinds.push(format!("munmap {len}")),
                Call::Close => kinds.push(format!("close {} {}", e.common.ret, e.common.errno)),
                Call::End { events } => kinds.push(format!("end {events}")),
            }
        }
        pid
    };
    assert!(r.complete(), "the process wrote its end record at exit");
    assert!(main_pid > 0);
    let threaded = THREADS * PER_THREAD;
    let ioctls = kinds.iter().filter(|k| k.starts_with("ioctl")).count() as u32;
    // Two single ioctls on the node's fds, then the threads'; not the bad or untraced fds.
    assert_eq!(ioctls, 2 + threaded);
    assert!(per_tid.values().filter(|&&n| n == PER_THREAD).count() as u32 >= THREADS);
    let others: Vec<&String> = kinds.iter().filter(|k| !k.starts_with("ioctl")).collect();
    let mmap_ok = plain.contains("mmap true");
    let mut want = vec![
        "open neuron0 true 0".to_string(),
        "open neuron7 false 2".into(),
        "open neuron0 true 0".into(),
    ];
    want.push(if mmap_ok {
        "mmap 4096 0".into()
    } else {
        "mmap 4096 19".into()
    });
    if mmap_ok {
        want.push("munmap 4096".into());
    }
    want.extend(["close 0 0".into(), "close 0 0".into()]);
    want.push(format!("end {}", 2 + threaded + want.len() as u32));
    assert_eq!(others, want.iter().collect::<Vec<_>>());
}

/// One trace per run: the pid each event and end record of `path` carries, with the count of
/// events (the end records not counted) each pid wrote.
fn events_by_pid(path: &Path) -> std::collections::BTreeMap<u32, (u32, u32)> {
    let mut r = TraceReader::new(Cursor::new(std::fs::read(path).unwrap())).unwrap();
    let mut by = std::collections::BTreeMap::<u32, (u32, u32)>::new();
    while let Some((_, e)) = r.next_event().unwrap() {
        let (calls, ends) = by.entry(e.common.pid).or_default();
        match e.call {
            Call::End { events } => {
                *ends += 1;
                assert_eq!(
                    events,
                    u64::from(*calls),
                    "an end record counts its own process's calls"
                );
            }
            _ => *calls += 1,
        }
    }
    by
}

/// interpose.rs: "later ones ... append their events" under one header, and `%p` in
/// NEURON_TRACE gives each process its own file.
#[test]
fn a_second_process_appends_and_percent_p_splits() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("neuron0"), b"").unwrap();
    let lib = common::library();
    let shared = dir.path().join("shared.ntrace");
    run(dir.path(), Some((&lib, &shared)));
    let once = std::fs::metadata(&shared).unwrap().len();
    run(dir.path(), Some((&lib, &shared)));
    let by = events_by_pid(&shared);
    assert_eq!(by.len(), 2, "two processes in one file: {by:?}");
    let counts: Vec<(u32, u32)> = by.values().copied().collect();
    assert_eq!(counts[0], counts[1], "the same script, the same calls");
    assert_eq!(counts[0].1, 1, "one end record per process");
    // The second run appended records only: no second header.
    let header = {
        let r = TraceReader::new(Cursor::new(std::fs::read(&shared).unwrap())).unwrap();
        r.header().clone()
    };
    assert_eq!(header.recorder, Recorder::Interposer);
    assert!(std::fs::metadata(&shared).unwrap().len() < 2 * once);

    let split = dir.path().join("run-%p.ntrace");
    run(dir.path(), Some((&lib, &split)));
    run(dir.path(), Some((&lib, &split)));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("/run-"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    for f in &files {
        let by = events_by_pid(f);
        let (&pid, &(calls, ends)) = by.iter().next().unwrap();
        assert_eq!((by.len(), ends), (1, 1), "{}", f.display());
        assert_eq!(calls, counts[0].0);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(name, format!("run-{pid}.ntrace"), "%p became the pid");
    }
}
