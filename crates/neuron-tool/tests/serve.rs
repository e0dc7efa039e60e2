//! `neuron-tool serve`: mounts the model as DIR/neuron0..N-1, answers real syscalls, and
//! unmounts on SIGTERM (skips with one line where FUSE cannot be mounted).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use ndl_std::Ndl;

const LIMIT: Duration = Duration::from_secs(60);

/// `neuron-tool serve --mount DIR ARGS...` as a child, its stdout lines on a channel, and
/// the first line it printed; `None` (one SKIP line) where FUSE cannot be mounted.
fn spawn_serve(dir: &std::path::Path, args: &[&str]) -> Option<(Child, Receiver<String>, String)> {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("neuron-tool"))
        .args(["serve", "--mount"])
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let Ok(first) = rx.recv_timeout(LIMIT) else {
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        if err.contains("/dev/fuse") || err.contains("Operation not permitted") {
            println!("SKIP: FUSE unavailable here ({})", err.trim());
            return None;
        }
        panic!("serve printed nothing: {err}");
    };
    Some((child, rx, first))
}

#[test]
fn serve_mounts_answers_and_unmounts_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let Some((mut child, rx, first)) = spawn_serve(
        dir.path(),
        &["--arch", "mariana", "--devices", "2", "--memory", "32MiB"],
    ) else {
        return;
    };
    assert!(first.starts_with("serving 2 V4 device(s)"), "{first}");

    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["neuron0", "neuron1"]);
    // The real-syscall backend against the served nodes.
    let ndl = Ndl::new().with_root(dir.path());
    let info = ndl.device(1).unwrap().device_info().unwrap();
    assert_eq!(info.architecture, 4);
    ndl.close_all();
    // `compat --device` asks the served driver: V4 reports V3's window, 10..11 (abi/README.md,
    // "Runtime-compatible window").
    let out = Command::new(assert_cmd::cargo::cargo_bin("neuron-tool"))
        .args(["compat", "--runtime-version", "11", "--device"])
        .arg(dir.path().join("neuron1"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("can run on") && said.contains("accepts versions 10..11"),
        "{said}"
    );

    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let deadline = Instant::now() + LIMIT;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("serve did not stop on SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success());
    let last = rx.recv_timeout(LIMIT).unwrap();
    assert!(last.starts_with("signal 15: unmounted"), "{last}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn serve_driver_refuses_an_unknown_release_and_an_arch_the_release_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let run = |driver: &str, arch: &str| {
        Command::new(assert_cmd::cargo::cargo_bin("neuron-tool"))
            .args(["serve", "--mount"])
            .arg(dir.path())
            .args(["--arch", arch, "--driver", driver, "--memory", "32MiB"])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = run("2.99.0.0", "cayman");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown driver release '2.99.0.0'"), "{err}");
    // V4 has no row of 2.24.7.0 in abi/compat.tsv: that driver does not support it.
    let out = run("2.24.7.0", "mariana");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("driver 2.24.7.0 does not support V4"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn serve_driver_and_isolate_reach_the_served_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let Some((mut child, _lines, first)) = spawn_serve(
        dir.path(),
        &["--driver", "2.24.7.0", "--isolate", "--memory", "32MiB"],
    ) else {
        return;
    };
    assert!(
        first.starts_with("serving 1 V3 device(s) as driver 2.24.7.0, processes isolated,"),
        "{first}"
    );
    // 2.24.7.0 predates GET_VA_PLACEMENT (new in 2.26.5.0, abi/README.md): unknown, so
    // EINVAL (a 2.26.5.0 server answers an unmapped address with ENXIO).
    let ndl = Ndl::new().with_root(dir.path());
    let placement = ndl.misc().get_va_placement(0x1000);
    assert_eq!(
        placement.err().and_then(|e| e.errno()),
        Some(ndl_std::Errno::INVAL)
    );
    ndl.close_all();
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let deadline = Instant::now() + LIMIT;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("serve did not stop on SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
