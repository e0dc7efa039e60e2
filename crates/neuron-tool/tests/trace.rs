//! `serve --record` and `trace decode|stats|export|replay`, driven as a user would: the model
//! served over FUSE with recording on, a driver-style copy through the mount, then every trace
//! command on the recorded file, and on a tampered and a truncated copy of it. Skips with one
//! line where FUSE cannot be mounted.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, Cursor};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use ndl_trace::{Call, TraceReader, TraceWriter};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

fn tool() -> Command {
    Command::new(cargo_bin("neuron-tool"))
}

/// `neuron-tool serve --record` on a fresh directory, or None (one SKIP line) without FUSE.
fn serve(arch: &str, record: &Path) -> Option<(tempfile::TempDir, Child)> {
    let dir = tempfile::tempdir().unwrap();
    let mut child = tool()
        .args(["serve", "--mount"])
        .arg(dir.path())
        .args(["--arch", arch, "--memory", "32MiB", "--record"])
        .arg(record)
        .args(["--record-cap", "1MiB"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdout.read_line(&mut first).unwrap();
    if !first.starts_with("serving") {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        if err.contains("/dev/fuse") || err.contains("Operation not permitted") {
            println!("SKIP: FUSE unavailable here ({})", err.trim());
            return None;
        }
        panic!("serve printed '{first}': {err}");
    }
    child.stdout = Some(stdout.into_inner());
    Some((dir, child))
}

/// SIGTERM, then the rest of serve's stdout.
fn stop(mut child: Child) -> String {
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let deadline = Instant::now() + LIMIT;
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(Instant::now() < deadline, "serve did not stop");
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn run(args: &[&str], file: &Path) -> (bool, String, String) {
    let out = tool().args(args).arg(file).output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(args: &[&str], file: &Path) -> String {
    let (success, out, err) = run(args, file);
    assert!(success, "{args:?}: {err}");
    out
}

/// The file rewritten with event `target`'s result changed to -1 EINVAL.
fn tampered(src: &Path, dst: &Path, target: u64) {
    let bytes = std::fs::read(src).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    let header = r.header().clone();
    let mut w = TraceWriter::new(Vec::new(), &header).unwrap();
    while let Some((n, mut e)) = r.next_event().unwrap() {
        if n == target {
            e.common.ret = -1;
            e.common.errno = 22;
        }
        if !matches!(e.call, Call::End { .. }) {
            w.write(&e).unwrap();
        }
    }
    std::fs::write(dst, w.finish(header.pid).unwrap()).unwrap();
}

fn check_chrome(json: &Value, calls: usize) {
    // The Trace Event Format's JSON Object Format: {"traceEvents": [...]}, complete events
    // ("X": name, ts, dur in microseconds, pid, tid) and metadata events ("M") naming tracks.
    let events = json["traceEvents"].as_array().expect("traceEvents array");
    let mut slices = 0;
    let mut named = HashSet::new();
    let mut last: BTreeMap<(u64, u64), f64> = BTreeMap::new();
    for e in events {
        let pid = e["pid"].as_u64().expect("pid");
        let tid = e["tid"].as_u64().expect("tid");
        match e["ph"].as_str().expect("ph") {
            "M" => {
                let name = e["name"].as_str().unwrap();
                assert!(name == "process_name" || name == "thread_name", "{e}");
                assert!(e["args"]["name"].is_string(), "{e}");
                if name == "thread_name" {
                    named.insert((pid, tid));
                }
            }
            "X" => {
                slices += 1;
                assert!(e["name"].as_str().is_some_and(|n| !n.is_empty()), "{e}");
                let ts = e["ts"].as_f64().expect("ts");
                let dur = e["dur"].as_f64().expect("dur");
                assert!(ts >= 0.0 && dur >= 0.0, "{e}");
                // A thread's calls follow each other: slices of one track do not go back.
                let prev = last.insert((pid, tid), ts).unwrap_or(0.0);
                assert!(ts >= prev, "{e}");
                assert!(
                    named.contains(&(pid, tid)),
                    "track of {e} is not named first"
                );
                assert!(e["args"]["event"].is_u64(), "{e}");
            }
            other => panic!("unexpected phase {other}"),
        }
    }
    assert_eq!(slices, calls, "one slice per call");
}

#[test]
fn serve_record_then_every_trace_command() {
    let work = tempfile::tempdir().unwrap();
    let trace = work.path().join("served.ntrace");
    let Some((dir, server)) = serve("sunda", &trace) else {
        return;
    };
    let node = dir.path().join("neuron0");
    let copy = tool()
        .args(["copy", "--device"])
        .arg(&node)
        .args([
            "--delivery",
            "copy-descriptors",
            "--size",
            "100KiB",
            "--ring-size",
            "32",
        ])
        .output()
        .unwrap();
    assert!(
        copy.status.success(),
        "{}",
        String::from_utf8_lossy(&copy.stderr)
    );
    // FUSE's RELEASE comes after close returns; give it a moment before stopping.
    std::thread::sleep(Duration::from_millis(200));
    let said = stop(server);
    let recorded: usize = said
        .lines()
        .find_map(|l| l.strip_prefix("recorded ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("serve did not say what it recorded: {said}"));

    // decode: one line per event (the calls and the end record), numbered from 1.
    let text = ok(&["trace", "decode"], &trace);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), recorded + 1);
    for (i, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("#{} ", i + 1)), "{l}");
    }
    assert!(lines[0].contains("open \""), "{}", lines[0]);
    assert!(text.contains("ioctl DMA_QUEUE_INIT {eng_id="), "{text}");
    assert!(
        text.contains("ioctl DEVICE_INFO {architecture=0=>2 "),
        "V2 answers 2: {text}"
    );
    assert!(!text.contains("?0x"), "an unnamed request: {text}");

    // --json: the same events, one object per line.
    let json = ok(&["trace", "decode", "--json"], &trace);
    let objects: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), recorded + 1);
    let allocs = objects
        .iter()
        .filter(|o| o["command"] == "MEM_ALLOC_V2MT64")
        .count();
    assert!(allocs >= 5, "source, destination, two rings, completion");

    // Filters: every chunk the copy allocated it freed.
    let frees = ok(&["trace", "decode", "--command", "mem_free"], &trace);
    assert_eq!(frees.lines().count(), allocs);
    assert!(
        frees
            .lines()
            .all(|l| l.contains(" ioctl MEM_FREE {mem_handle="))
    );
    assert_eq!(ok(&["trace", "decode", "--device", "1"], &trace), "");
    assert_eq!(ok(&["trace", "decode", "--pid", "1"], &trace), "");
    let (success, out, err) = run(&["trace", "decode", "--command", "NO_SUCH"], &trace);
    assert!(!success && out.is_empty());
    assert!(
        err.starts_with("error: --command NO_SUCH") && err.lines().count() == 1,
        "{err}"
    );

    // stats: the same counts.
    let stats = ok(&["trace", "stats"], &trace);
    let row = stats
        .lines()
        .find(|l| l.ends_with(" MEM_ALLOC_V2MT64"))
        .unwrap_or_else(|| panic!("{stats}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[4].parse::<usize>().unwrap(), allocs, "{row}");
    let total = stats.lines().last().unwrap();
    assert!(total.ends_with(" total"), "{total}");
    assert_eq!(
        total
            .split_whitespace()
            .nth(2)
            .unwrap()
            .parse::<usize>()
            .unwrap(),
        recorded,
        "{total}"
    );

    // export: a Trace Event Format timeline.
    let chrome = work.path().join("timeline.json");
    let out = tool()
        .args(["trace", "export"])
        .arg(&trace)
        .arg("--chrome")
        .arg(&chrome)
        .output()
        .unwrap();
    assert!(out.status.success());
    let timeline: Value = serde_json::from_slice(&std::fs::read(&chrome).unwrap()).unwrap();
    check_chrome(&timeline, recorded);

    // replay on the generation the trace says (its header): no divergence.
    let replay = ok(&["trace", "replay"], &trace);
    assert!(
        replay.ends_with("on V2 (SUNDA): 0 divergence(s)\n"),
        "{replay}"
    );

    // A trace whose DMA_QUEUE_INIT was recorded as failing diverges there, and only there.
    let init = objects
        .iter()
        .find(|o| o["command"] == "DMA_QUEUE_INIT")
        .and_then(|o| o["event"].as_u64())
        .unwrap();
    let bad = work.path().join("tampered.ntrace");
    tampered(&trace, &bad, init);
    let (success, out, err) = run(&["trace", "replay"], &bad);
    assert!(!success, "{out}");
    assert!(
        out.starts_with(&format!(
            "event {init} DMA_QUEUE_INIT: recorded -1 EINVAL, replayed 0\n"
        )),
        "{out}"
    );
    assert!(out.contains(": 1 divergence(s)"), "{out}");
    assert_eq!(
        err.trim(),
        format!("error: replay of '{}' diverged 1 time(s)", bad.display())
    );

    // A cut file is refused with one sentence naming the event it cuts.
    let bytes = std::fs::read(&trace).unwrap();
    let cut = work.path().join("cut.ntrace");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let (success, _, err) = run(&["trace", "decode"], &cut);
    assert!(!success);
    assert!(
        err.starts_with("error: ") && err.contains("truncated trace: event"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let not_a_trace = work.path().join("text.ntrace");
    std::fs::write(&not_a_trace, b"hello, world\n").unwrap();
    let (success, _, err) = run(&["trace", "stats"], &not_a_trace);
    assert!(!success && err.contains("not a Neuron trace"), "{err}");
}

#[test]
fn trace_commands_refuse_a_missing_file() {
    let missing = PathBuf::from("/nonexistent/trace.ntrace");
    for args in [
        &["trace", "decode"][..],
        &["trace", "stats"],
        &["trace", "replay"],
    ] {
        let (success, out, err) = run(args, &missing);
        assert!(!success && out.is_empty(), "{args:?}");
        assert!(
            err.starts_with("error: cannot read '/nonexistent/trace.ntrace'"),
            "{err}"
        );
    }
}
