//! `serve --record` and `trace decode|stats|export|replay`, driven as a user would: the model
//! served over FUSE with two devices and recording on, a driver-style copy through each node
//! (two processes, one per device), then every trace command on the recorded file — filters
//! checked against the events they must keep, replay against a trace whose results and whose
//! output bytes were tampered with, and the reader against a truncated file. Skips with one
//! line where FUSE cannot be mounted.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, Cursor};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use ndl_trace::{Buffer, Call, Event, Ioctl, TraceReader, TraceWriter};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

fn tool() -> Command {
    Command::new(cargo_bin("neuron-tool"))
}

/// `neuron-tool serve --record` of `devices` devices on a fresh directory, or None (one SKIP
/// line) without FUSE.
fn serve(arch: &str, devices: u32, record: &Path) -> Option<(tempfile::TempDir, Child)> {
    let dir = tempfile::tempdir().unwrap();
    let mut child = tool()
        .args(["serve", "--mount"])
        .arg(dir.path())
        .args(["--arch", arch, "--memory", "32MiB", "--record"])
        .arg(record)
        .args(["--record-cap", "1MiB", "--devices", &devices.to_string()])
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

/// `neuron-tool copy` of `size` through the served node `node`, as its own process.
fn copy(node: &Path, size: &str) {
    let copy = tool()
        .args(["copy", "--device"])
        .arg(node)
        .args(["--delivery", "copy-descriptors", "--size", size])
        .args(["--ring-size", "32"])
        .output()
        .unwrap();
    assert!(
        copy.status.success(),
        "{}",
        String::from_utf8_lossy(&copy.stderr)
    );
}

/// What the served session recorded.
struct Session {
    work: tempfile::TempDir,
    trace: PathBuf,
    /// Calls the server said it recorded (the end record not counted).
    recorded: usize,
    /// `trace decode --json` of every event, the end record last.
    objects: Vec<Value>,
}

/// Two V2 devices served with recording on; a 100 KiB copy through neuron0, then a 16 KiB
/// copy through neuron1, each by its own process.
fn record() -> Option<Session> {
    let work = tempfile::tempdir().unwrap();
    let trace = work.path().join("served.ntrace");
    let (dir, server) = serve("sunda", 2, &trace)?;
    copy(&dir.path().join("neuron0"), "100KiB");
    copy(&dir.path().join("neuron1"), "16KiB");
    // FUSE's RELEASE comes after close returns; give it a moment before stopping.
    std::thread::sleep(Duration::from_millis(200));
    let said = stop(server);
    let recorded: usize = said
        .lines()
        .find_map(|l| l.strip_prefix("recorded ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("serve did not say what it recorded: {said}"));
    let objects: Vec<Value> = ok(&["trace", "decode", "--json"], &trace)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), recorded + 1);
    assert_eq!(objects.last().unwrap()["call"], "end");
    Some(Session {
        work,
        trace,
        recorded,
        objects,
    })
}

/// The event numbers of decode's text lines (`#N ...`).
fn numbers(text: &str) -> Vec<u64> {
    text.lines()
        .map(|l| {
            let n = l.strip_prefix('#').and_then(|l| l.split(' ').next());
            n.and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("not a decode line: {l}"))
        })
        .collect()
}

/// The numbers of the events `keep` picks, from the unfiltered JSON.
fn picked(objects: &[Value], keep: impl Fn(&Value) -> bool) -> Vec<u64> {
    objects
        .iter()
        .filter(|o| keep(o))
        .map(|o| o["event"].as_u64().unwrap())
        .collect()
}

/// The file rewritten by `edit`, which gets each event (end records are dropped; the writer
/// writes its own).
fn rewritten(src: &Path, dst: &Path, mut edit: impl FnMut(u64, &Event<'_>) -> Option<Flip>) {
    let bytes = std::fs::read(src).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    let header = r.header().clone();
    let mut w = TraceWriter::new(Vec::new(), &header).unwrap();
    while let Some((n, mut e)) = r.next_event().unwrap() {
        if matches!(e.call, Call::End { .. }) {
            continue;
        }
        match edit(n, &e) {
            None => w.write(&e).unwrap(),
            Some(Flip::Result { ret, errno }) => {
                (e.common.ret, e.common.errno) = (ret, errno);
                w.write(&e).unwrap();
            }
            Some(Flip::After { buffer, byte }) => {
                let Call::Ioctl(io) = &e.call else {
                    panic!("event {n} is not an ioctl")
                };
                let (after, bufs) = flip_after(io, buffer, byte);
                let buffers = io
                    .buffers
                    .iter()
                    .zip(&bufs)
                    .map(|(b, a)| Buffer {
                        after: a.as_deref(),
                        ..*b
                    })
                    .collect();
                let call = Call::Ioctl(Ioctl {
                    after: after.as_deref(),
                    buffers,
                    ..io.clone()
                });
                w.write(&Event {
                    common: e.common,
                    call,
                })
                .unwrap();
            }
        }
    }
    std::fs::write(dst, w.finish(header.pid).unwrap()).unwrap();
}

/// How [`rewritten`] changes one event.
enum Flip {
    /// The recorded result and errno.
    Result { ret: i64, errno: i32 },
    /// Bit 0 of byte `byte` of the argument after the call (`buffer` None) or of the buffer
    /// labelled `buffer` after it.
    After {
        buffer: Option<&'static str>,
        byte: usize,
    },
}

/// The ioctl's argument-after and buffers-after bytes, owned, with one bit flipped.
fn flip_after(
    io: &Ioctl<'_>,
    buffer: Option<&str>,
    byte: usize,
) -> (Option<Vec<u8>>, Vec<Option<Vec<u8>>>) {
    let mut after = io.after.map(<[u8]>::to_vec);
    let mut bufs: Vec<Option<Vec<u8>>> = io
        .buffers
        .iter()
        .map(|b| b.after.map(<[u8]>::to_vec))
        .collect();
    let target = match buffer {
        None => after.as_mut(),
        Some(label) => io
            .buffers
            .iter()
            .position(|b| b.label == label)
            .and_then(|i| bufs[i].as_mut()),
    };
    target.expect("bytes kept after the call")[byte] ^= 1;
    (after, bufs)
}

/// The hex replay prints for up to 8 bytes from `at`.
fn hex8(bytes: &[u8], at: usize) -> String {
    bytes[at..(at + 8).min(bytes.len())]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
    let Some(s) = record() else {
        return;
    };
    decode_names_every_call(&s);
    filters_keep_exactly_their_events(&s);
    stats_count_the_calls(&s);
    export_is_a_timeline(&s);
    replay_matches_on_the_recorded_generation(&s);
    replay_names_a_changed_result(&s);
    replay_names_changed_output_bytes(&s);
    damaged_files_are_refused(&s);
}

/// decode: one line per event (the calls and the end record), numbered from 1, every
/// command named.
fn decode_names_every_call(s: &Session) {
    let text = ok(&["trace", "decode"], &s.trace);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), s.recorded + 1);
    let all: Vec<u64> = (1..=lines.len() as u64).collect();
    assert_eq!(numbers(&text), all);
    assert!(lines[0].contains("open \""), "{}", lines[0]);
    assert!(text.contains("ioctl DMA_QUEUE_INIT {eng_id="), "{text}");
    assert!(
        text.contains("ioctl DEVICE_INFO {architecture=0=>2 "),
        "V2 answers 2: {text}"
    );
    assert!(!text.contains("?0x"), "an unnamed request: {text}");
    // Every chunk a copy allocated it freed: as many MEM_FREE as MEM_ALLOC_V2MT64.
    let allocs = picked(&s.objects, |o| o["command"] == "MEM_ALLOC_V2MT64").len();
    assert!(
        allocs >= 10,
        "source, destination, two rings, completion, twice"
    );
    let frees = ok(&["trace", "decode", "--command", "mem_free"], &s.trace);
    assert_eq!(frees.lines().count(), allocs);
    assert!(
        frees
            .lines()
            .all(|l| l.contains(" ioctl MEM_FREE {mem_handle="))
    );
}

/// decode with `args` keeps exactly the events `keep` picks, in text and in JSON.
fn keeps(s: &Session, args: &[&str], keep: impl Fn(&Value) -> bool) -> Vec<u64> {
    let want = picked(&s.objects, keep);
    let text = ok(&[&["trace", "decode"][..], args].concat(), &s.trace);
    assert_eq!(numbers(&text), want, "{args:?}");
    let json = ok(
        &[&["trace", "decode", "--json"][..], args].concat(),
        &s.trace,
    );
    let got: Vec<u64> = json
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["event"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(got, want, "{args:?} --json");
    want
}

/// --pid, --device and --command, alone, repeated and combined: each list keeps the events
/// matching one of its entries; lists combine as "and".
fn filters_keep_exactly_their_events(s: &Session) {
    let pid_of = |device: u64| {
        let pids: HashSet<u64> = s
            .objects
            .iter()
            .filter(|o| o["device"] == device)
            .map(|o| o["pid"].as_u64().unwrap())
            .collect();
        assert_eq!(pids.len(), 1, "one process per device: {pids:?}");
        pids.into_iter().next().unwrap()
    };
    let (first, second) = (pid_of(0), pid_of(1));
    assert_ne!(first, second);
    let (p0, p1) = (first.to_string(), second.to_string());
    let by_first = keeps(s, &["--pid", &p0], |o| o["pid"] == first);
    let by_second = keeps(s, &["--pid", &p1], |o| o["pid"] == second);
    // Each process opened, called and closed.
    for kept in [&by_first, &by_second] {
        assert!(kept.len() > 20, "{kept:?}");
    }
    let on_1 = keeps(s, &["--device", "1"], |o| o["device"] == 1);
    assert_eq!(on_1, by_second, "neuron1 was the second process's");
    let both = keeps(s, &["--pid", &p0, "--pid", &p1], |o| o["call"] != "end");
    assert_eq!(both.len(), s.recorded);
    assert_eq!(
        keeps(s, &["--device", "0", "--device", "1"], |o| o["call"]
            != "end"),
        both
    );
    assert!(keeps(s, &["--pid", &p0, "--device", "1"], |_| false).is_empty());
    // The end record is the server's own (its pid, no device).
    let server = s.objects.last().unwrap()["pid"].as_u64().unwrap();
    let end = keeps(s, &["--pid", &server.to_string()], |o| o["call"] == "end");
    assert_eq!(end, [s.recorded as u64 + 1]);
    let frees0 = keeps(s, &["--command", "MEM_FREE", "--device", "0"], |o| {
        o["command"] == "MEM_FREE" && o["device"] == 0
    });
    assert!(!frees0.is_empty());
    let any_case = keeps(
        s,
        &[
            "--command",
            "neuron_ioctl_dma_queue_init",
            "--command",
            "CLOSE",
        ],
        |o| o["command"] == "DMA_QUEUE_INIT" || o["call"] == "close",
    );
    assert_eq!(any_case.len(), 4, "one queue init and one close per copy");
    let (success, out, err) = run(&["trace", "decode", "--command", "NO_SUCH"], &s.trace);
    assert!(!success && out.is_empty());
    assert!(
        err.starts_with("error: --command NO_SUCH") && err.lines().count() == 1,
        "{err}"
    );
}

/// stats: calls per command as decode counts them, and the filters apply.
fn stats_count_the_calls(s: &Session) {
    let allocs = picked(&s.objects, |o| o["command"] == "MEM_ALLOC_V2MT64").len();
    let stats = ok(&["trace", "stats"], &s.trace);
    let row = stats
        .lines()
        .find(|l| l.ends_with(" MEM_ALLOC_V2MT64"))
        .unwrap_or_else(|| panic!("{stats}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[4].parse::<usize>().unwrap(), allocs, "{row}");
    let total_calls = |stats: &str| -> usize {
        let total = stats.lines().last().unwrap();
        assert!(total.ends_with(" total"), "{total}");
        total.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    assert_eq!(total_calls(&stats), s.recorded, "{stats}");
    let on_1 = picked(&s.objects, |o| o["device"] == 1).len();
    let stats = ok(&["trace", "stats", "--device", "1"], &s.trace);
    assert_eq!(total_calls(&stats), on_1, "{stats}");
}

/// export: a Trace Event Format timeline, one slice per call.
fn export_is_a_timeline(s: &Session) {
    let chrome = s.work.path().join("timeline.json");
    let out = tool()
        .args(["trace", "export"])
        .arg(&s.trace)
        .arg("--chrome")
        .arg(&chrome)
        .output()
        .unwrap();
    assert!(out.status.success());
    let timeline: Value = serde_json::from_slice(&std::fs::read(&chrome).unwrap()).unwrap();
    check_chrome(&timeline, s.recorded);
}

/// replay on the generation the trace says (its header), or --arch: no divergence; on
/// another generation, the first DEVICE_INFO already differs.
fn replay_matches_on_the_recorded_generation(s: &Session) {
    let replay = ok(&["trace", "replay"], &s.trace);
    assert!(
        replay.ends_with("on V2 (SUNDA): 0 divergence(s)\n"),
        "{replay}"
    );
    assert_eq!(
        ok(&["trace", "replay", "--arch", "sunda"], &s.trace),
        replay
    );
    let info = picked(&s.objects, |o| o["command"] == "DEVICE_INFO")[0];
    let (success, out, _) = run(&["trace", "replay", "--arch", "cayman"], &s.trace);
    assert!(!success, "{out}");
    // `architecture` is DEVICE_INFO's first field, a __u32: 2 recorded, 3 replayed.
    let want = format!(
        "event {info} DEVICE_INFO: argument field architecture (byte 0): recorded 02000000"
    );
    assert!(out.starts_with(&want), "{out}");
    assert!(
        out.lines().next().unwrap().contains(", replayed 03000000"),
        "{out}"
    );
}

/// A trace whose DMA_QUEUE_INIT was recorded as failing diverges there, and only there.
fn replay_names_a_changed_result(s: &Session) {
    let init = picked(&s.objects, |o| o["command"] == "DMA_QUEUE_INIT")[0];
    let bad = s.work.path().join("tampered.ntrace");
    rewritten(&s.trace, &bad, |n, _| {
        (n == init).then_some(Flip::Result { ret: -1, errno: 22 })
    });
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
}

/// A trace whose output bytes were changed — `size` in the first MEM_GET_EXTENDED_INFO's
/// argument after the call, `max_queues` in the DMA_ENG_GET_STATE `state` buffer — diverges
/// at exactly those events, each line naming the field (or buffer and byte), the recorded and
/// the replayed bytes.
fn replay_names_changed_output_bytes(s: &Session) {
    let info = picked(&s.objects, |o| o["command"] == "MEM_GET_EXTENDED_INFO")[0];
    let state = picked(&s.objects, |o| o["command"] == "DMA_ENG_GET_STATE")[0];
    let abi = ndl_abi::Release::DEFAULT.abi();
    let offset = |c_name: &str, field: &str| {
        let layout = abi.struct_layout(c_name).unwrap();
        layout.field(field).unwrap().offset
    };
    let size_at = offset("neuron_ioctl_mem_get_extended_info", "size");
    let queues_at = offset("neuron_dma_eng_state", "max_queues");
    let bad = s.work.path().join("bytes.ntrace");
    let mut want = Vec::new();
    rewritten(&s.trace, &bad, |n, e| {
        let Call::Ioctl(io) = &e.call else {
            return None;
        };
        let (label, bytes, at) = if n == info {
            (None, io.after?, size_at)
        } else if n == state {
            (Some("state"), io.buffer("state")?.after?, queues_at)
        } else {
            return None;
        };
        let mut flipped = bytes.to_vec();
        flipped[at] ^= 1;
        let (recorded, replayed) = (hex8(&flipped, at), hex8(bytes, at));
        want.push(match label {
            None => format!(
                "event {n} MEM_GET_EXTENDED_INFO: argument field size (byte {at}): \
                 recorded {recorded}, replayed {replayed}"
            ),
            Some(l) => format!(
                "event {n} DMA_ENG_GET_STATE: buffer {l} byte {at}: \
                 recorded {recorded}, replayed {replayed}"
            ),
        });
        Some(Flip::After {
            buffer: label,
            byte: at,
        })
    });
    assert_eq!(want.len(), 2, "{want:?}");
    let (success, out, err) = run(&["trace", "replay"], &bad);
    assert!(!success, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let mut sorted = want.clone();
    sorted.sort_by_key(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap());
    assert_eq!(lines[..lines.len() - 1], sorted[..], "{out}");
    assert!(
        lines.last().unwrap().ends_with(": 2 divergence(s)"),
        "{out}"
    );
    assert_eq!(
        err.trim(),
        format!("error: replay of '{}' diverged 2 time(s)", bad.display())
    );
}

/// A cut file is refused with one sentence naming the event it cuts; a file that is no
/// trace, with one sentence saying so.
fn damaged_files_are_refused(s: &Session) {
    let bytes = std::fs::read(&s.trace).unwrap();
    let cut = s.work.path().join("cut.ntrace");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let (success, _, err) = run(&["trace", "decode"], &cut);
    assert!(!success);
    assert!(
        err.starts_with("error: ") && err.contains("truncated trace: event"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let not_a_trace = s.work.path().join("text.ntrace");
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
