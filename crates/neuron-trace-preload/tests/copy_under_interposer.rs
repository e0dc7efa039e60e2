//! A driver-style copy (`neuron-tool copy --device <served node> --delivery copy-descriptors`)
//! run under `libneuron_trace.so` against a FUSE-served emulated kernel that records what it
//! answers (`serve --record`'s backend), on V2, V3 and V4:
//!
//! * the copy succeeds and every byte is verified (the interposer changed nothing); the
//!   client then asks for host memory with an alignment, which the driver refuses with EINVAL
//!   (`reference/dma-path.md` §2 and "Errors by step"), so both traces, and the golden, hold
//!   a failing call with its errno;
//! * the interposer's trace and the server's decode to the same calls (everything but the
//!   descriptor numbers, times and the open flags the kernel adds);
//! * both replay on the emulated kernel of the same generation without a divergence.
//!
//! Skips with one line where FUSE cannot be mounted. `NEURON_TRACE_BLESS=1` also stores the
//! V3 server trace as `ndl-trace`'s golden input (`crates/ndl-trace/tests/data/copy-v3.ntrace`).

mod common;

use std::ffi::CString;
use std::io::Cursor;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use khal::Generation;
use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_fuse::{EmulatedBackend, Server};
use ndl_trace::ids::{self, Kind, Loc};
use ndl_trace::replay::{Options, Replayer};
use ndl_trace::{Call, RecordingBackend, TraceReader, json};
use serde_json::{Value, json};
use zerocopy::FromZeros;

const ROLE: &str = "NEURON_TRACE_TEST_ROLE";
const MEMORY: u64 = 32 << 20;
const CAP: u32 = 1 << 20;
const LIMIT: Duration = Duration::from_secs(120);
/// The cap of the golden trace: small enough to check in, as `serve --record-cap 64`
/// would have recorded it (a recorder keeps the first `cap` bytes of each buffer).
const GOLDEN_CAP: u32 = 64;

/// The trace at `path` as a recorder with cap `cap` would have written it.
fn recapped(path: &Path, cap: u32) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    let mut header = r.header().clone();
    header.cap = cap;
    let mut w = ndl_trace::TraceWriter::new(Vec::new(), &header).unwrap();
    fn keep(b: Option<&[u8]>, cap: u32) -> Option<&[u8]> {
        b.map(|b| &b[..b.len().min(cap as usize)])
    }
    while let Some((_, mut e)) = r.next_event().unwrap() {
        if let Call::End { .. } = e.call {
            continue;
        }
        if let Call::Ioctl(io) = &mut e.call {
            for b in &mut io.buffers {
                b.before = keep(b.before, cap);
                b.after = keep(b.after, cap);
            }
        }
        w.write(&e).unwrap();
    }
    w.finish(header.pid).unwrap()
}

/// The client: `neuron-tool copy` on the node named by the environment, in this process
/// (re-executed under LD_PRELOAD).
fn client() {
    let device = std::env::var("NEURON_TRACE_TEST_DEVICE").unwrap();
    let cli = neuron_tool::cli::Cli::parse_from([
        "neuron-tool",
        "copy",
        "--device",
        &device,
        "--delivery",
        "copy-descriptors",
        "--size",
        "200KiB",
        "--ring-size",
        "32",
    ]);
    let mut out = Vec::new();
    neuron_tool::cmd::run(&cli.command, std::io::empty(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("every byte verified"), "{text}");
    refused_alloc(&device);
}

/// Host memory asked for with an alignment: "align must be 0 for host memory, else -EINVAL"
/// (`reference/dma-path.md` §2). Through the C library, so the interposer sees it.
fn refused_alloc(device: &str) {
    let node = CString::new(device).unwrap();
    // SAFETY: a NUL-terminated path.
    let fd = unsafe { libc::open(node.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    assert!(fd >= 0, "open {device}");
    let mut handle = 0u64;
    let mut arg = ndl_abi::MemAllocV2MemType64::new_zeroed();
    arg.size = 4096;
    arg.align = 4096;
    arg.host_memory = 1;
    arg.mem_type = 2;
    arg.mem_handle = ndl_abi::UserPtr::from_addr(std::ptr::from_mut(&mut handle) as u64);
    let request = libc::c_ulong::from(ndl_abi::MEM_ALLOC_V2MT64.code());
    // SAFETY: `arg` is MEM_ALLOC_V2MT64's argument; its `mem_handle` names `handle`, live
    // for the call.
    let r = unsafe { libc::ioctl(fd, request, std::ptr::from_mut(&mut arg)) };
    let errno = std::io::Error::last_os_error().raw_os_error();
    assert_eq!((r, errno), (-1, Some(libc::EINVAL)));
    assert_eq!(handle, 0, "no handle written");
    // SAFETY: the descriptor opened above.
    assert_eq!(unsafe { libc::close(fd) }, 0);
}

fn serve(
    generation: Generation,
    record: &Path,
) -> Option<(tempfile::TempDir, Server<RecordingBackend<EmulatedBackend>>)> {
    let dir = tempfile::tempdir().unwrap();
    let mut config = DeviceConfig::numbered(generation, 0);
    config.memory.hbm_bytes_per_channel = MEMORY;
    config.memory.host_bytes = MEMORY;
    let kernel = EmulatedKernel::with_devices(vec![config]).unwrap();
    let backend = RecordingBackend::create(
        EmulatedBackend::new(kernel),
        dir.path(),
        Some(generation.number()),
        ndl_abi::Release::DEFAULT,
        CAP,
        record,
    )
    .unwrap();
    match Server::start(dir.path(), backend) {
        Ok(s) => Some((dir, s)),
        Err(e) if e.is_unavailable() => {
            println!("SKIP: FUSE unavailable here ({e})");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

/// Every event of a trace as decode's JSON, without what differs between the recorders of
/// one call: the event number, times, the descriptor number (the server's is its file
/// handle, which an open returns) and the open flags (the kernel adds O_LARGEFILE and drops O_CLOEXEC on the way
/// to FUSE).
fn calls(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    let header = r.header().clone();
    let abi = header.release.abi();
    let mut out = Vec::new();
    while let Some((n, e)) = r.next_event().unwrap() {
        if matches!(e.call, Call::End { .. }) {
            continue;
        }
        let mut v = json::event(&header, abi, n, &e);
        let m = v.as_object_mut().unwrap();
        for k in ["event", "t_ns", "dur_ns", "fd", "fh", "flags"] {
            m.remove(k);
        }
        if matches!(e.call, Call::Open { .. }) {
            // An open returns the descriptor (or the server's handle).
            m.remove("ret");
        }
        out.push(v);
    }
    assert!(r.complete(), "{}: not complete", path.display());
    out
}

/// The trace as a driver that hands out other numbers would have recorded it: every memory
/// handle and mmap cookie shifted into the kernel-address range (the real driver's handles are
/// kernel pointers). Replay must learn the emulated kernel's values and give them back.
fn shifted(path: &Path) -> Vec<u8> {
    const SHIFT: u64 = 0xffff_8880_0000_0000;
    let bytes = std::fs::read(path).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    let header = r.header().clone();
    let abi = header.release.abi();
    let mut w = ndl_trace::TraceWriter::new(Vec::new(), &header).unwrap();
    let patch = |bytes: &mut Option<Vec<u8>>, base: u64, loc: &Loc| {
        let Some(b) = bytes else { return };
        let Some(off) = loc.addr.checked_sub(base).map(|o| o as usize) else {
            return;
        };
        let Some(field) = b.get_mut(off..off + 8) else {
            return;
        };
        let v = u64::from_le_bytes(field.try_into().unwrap());
        if v != 0 {
            field.copy_from_slice(&v.wrapping_add(SHIFT).to_le_bytes());
        }
    };
    while let Some((_, e)) = r.next_event().unwrap() {
        let Call::Ioctl(io) = &e.call else {
            if !matches!(e.call, Call::End { .. }) {
                w.write(&e).unwrap();
            }
            continue;
        };
        let (mut before, mut after) = (io.before.map(<[u8]>::to_vec), io.after.map(<[u8]>::to_vec));
        let mut bufs: Vec<_> = io
            .buffers
            .iter()
            .map(|b| (b.before.map(<[u8]>::to_vec), b.after.map(<[u8]>::to_vec)))
            .collect();
        for loc in ids::locate(abi, io) {
            if !matches!(loc.kind, Kind::Handle | Kind::Cookie) || loc.size != 8 {
                continue;
            }
            patch(&mut before, io.arg, &loc);
            patch(&mut after, io.arg, &loc);
            for (b, (x, y)) in io.buffers.iter().zip(&mut bufs) {
                if b.addr <= loc.addr && loc.addr < b.addr + b.captured() as u64 {
                    patch(x, b.addr, &loc);
                    patch(y, b.addr, &loc);
                }
            }
        }
        let buffers = io
            .buffers
            .iter()
            .zip(&bufs)
            .map(|(b, (x, y))| ndl_trace::Buffer {
                before: x.as_deref(),
                after: y.as_deref(),
                ..*b
            })
            .collect();
        let call = Call::Ioctl(ndl_trace::Ioctl {
            request: io.request,
            arg: io.arg,
            before: before.as_deref(),
            after: after.as_deref(),
            buffers,
        });
        w.write(&ndl_trace::Event {
            common: e.common,
            call,
        })
        .unwrap();
    }
    w.finish(header.pid).unwrap()
}

fn replay(path: &Path, generation: Generation) -> u64 {
    let bytes = std::fs::read(path).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    let abi = r.header().release.abi();
    let options = Options {
        generation,
        devices: 1,
        memory: MEMORY,
    };
    let mut replayer = Replayer::new(abi, &options).unwrap();
    let mut divergences = Vec::new();
    while let Some((n, e)) = r.next_event().unwrap() {
        divergences.extend(replayer.event(n, &e));
    }
    assert!(
        divergences.is_empty(),
        "{} on {generation}: {}",
        path.display(),
        divergences
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(replayer.inexact(), 0, "a buffer was capped");
    // Everything the copy allocated was freed again, in the replay too.
    assert_eq!(replayer.kernel().allocations(0), 0);
    replayer.replayed()
}

/// Runs the client (this test binary, re-executed) under the interposer against the served
/// node `dir/neuron0`, tracing to `trace`; waits for it.
fn run_client(dir: &Path, trace: &Path, test: &str) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(ROLE, "client")
        .env("NEURON_TRACE_TEST_DEVICE", dir.join("neuron0"))
        .env("LD_PRELOAD", common::library())
        .env("NEURON_TRACE", trace)
        .env("NEURON_TRACE_DIR", dir)
        .env("NEURON_TRACE_CAP", CAP.to_string())
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + LIMIT;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the client did not finish");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(
        status.success(),
        "the copy under the interposer failed: {status}"
    );
}

/// Waits until the client's files are released, writes the server's end record and stops
/// it; returns the events it recorded.
fn stop(server: Server<RecordingBackend<EmulatedBackend>>) -> u64 {
    // FUSE sends RELEASE after the client's close returns: wait for it before the end record.
    let deadline = Instant::now() + LIMIT;
    while server.backend().inner().open_handles() != 0 {
        assert!(Instant::now() < deadline, "the server kept a handle open");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.backend().inner().kernel().allocations(0), 0);
    let events = server.backend().finish().unwrap();
    assert_eq!(server.backend().lost(), 0);
    server.stop().unwrap();
    events
}

/// The two recorders' traces hold the same calls, in order: the copy's flow
/// (dma-path.md steps 2, 4, 6, 7, 9) and the refused allocation, with its errno.
fn check_same_calls(by_client: &[Value], by_server: &[Value], events: u64) {
    assert_eq!(
        by_client.len() as u64,
        events,
        "the server recorded {events} events"
    );
    for (i, (c, s)) in by_client.iter().zip(by_server).enumerate() {
        assert_eq!(c, s, "event {} differs between the two traces", i + 1);
    }
    assert_eq!(by_client.len(), by_server.len());
    let commands: Vec<&str> = by_client
        .iter()
        .filter_map(|v| v.get("command").and_then(Value::as_str))
        .collect();
    for want in [
        "MEM_ALLOC_V2MT64",
        "MEM_GET_EXTENDED_INFO",
        "DMA_QUEUE_INIT",
        "DMA_COPY_DESCRIPTORS64",
        "DMA_QUEUE_COPY_START",
        "DMA_ACK_COMPLETED",
        "MEM_FREE",
    ] {
        assert!(commands.contains(&want), "{want} missing from {commands:?}");
    }
    let failed: Vec<&Value> = by_client.iter().filter(|v| !v["errno"].is_null()).collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["command"], "MEM_ALLOC_V2MT64");
    assert_eq!(
        (&failed[0]["ret"], &failed[0]["errno"]),
        (&json!(-1), &json!("EINVAL"))
    );
    assert_eq!(failed[0]["fields"]["align"], 4096);
}

fn copy_traced_both_ways(generation: Generation, test: &str) {
    if std::env::var_os(ROLE).is_some() {
        client();
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let server_trace = work.path().join("server.ntrace");
    let client_trace = work.path().join("client.ntrace");
    let Some((dir, server)) = serve(generation, &server_trace) else {
        return;
    };
    run_client(dir.path(), &client_trace, test);
    let events = stop(server);

    let by_client = calls(&client_trace);
    check_same_calls(&by_client, &calls(&server_trace), events);
    let replayed_client = replay(&client_trace, generation);
    let replayed_server = replay(&server_trace, generation);
    assert_eq!(replayed_client, replayed_server);
    assert_eq!(replayed_client, events);
    // Handles and cookies the emulated kernel did not hand out replay through the remap.
    let remapped = work.path().join("shifted.ntrace");
    std::fs::write(&remapped, shifted(&client_trace)).unwrap();
    let shifted_calls = calls(&remapped);
    assert!(
        shifted_calls
            .iter()
            .any(|c| c["command"] == "MEM_FREE"
                && c["fields"]["mem_handle"] == 0xffff_8880_0000_1000u64),
        "the handles were shifted"
    );
    assert_eq!(replay(&remapped, generation), events);

    if generation == Generation::V3 && std::env::var_os("NEURON_TRACE_BLESS").is_some() {
        let golden =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../ndl-trace/tests/data/copy-v3.ntrace");
        std::fs::write(&golden, recapped(&server_trace, GOLDEN_CAP)).unwrap();
        println!("blessed {}", golden.display());
    }
}

#[test]
fn copy_v2_traced_both_ways() {
    copy_traced_both_ways(Generation::V2, "copy_v2_traced_both_ways");
}

#[test]
fn copy_v3_traced_both_ways() {
    copy_traced_both_ways(Generation::V3, "copy_v3_traced_both_ways");
}

#[test]
fn copy_v4_traced_both_ways() {
    copy_traced_both_ways(Generation::V4, "copy_v4_traced_both_ways");
}
