//! Decode speed on a 1-million-event trace (`cargo bench -p ndl-trace --bench decode`).
//!
//! The trace is generated: the recorded copy of `tests/data/copy-v3.ntrace` (a real mix of
//! driver-style copy calls, 64-byte cap) repeated until it holds 1,000,000 events, times
//! moving on, written to a temporary file. Then, reading it back from the file: the reader
//! alone, decode to text (what `trace decode` prints), to JSON, and stats, each timed once and
//! printed as events per second, with the trace's bytes per event. Set `DECODE_BENCH_KEEP=PATH`
//! to keep the file (to time `neuron-tool trace decode PATH > /dev/null` beside it). Under
//! `cargo test` it runs on 1,000 events as a smoke test.

use std::fs::File;
use std::io::{BufReader, BufWriter, Cursor};
use std::path::PathBuf;
use std::time::Instant;

use ndl_trace::stats::Stats;
use ndl_trace::text::Style;
use ndl_trace::{Call, TraceReader, TraceWriter, json};

fn golden() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/copy-v3.ntrace"
    ))
    .unwrap()
}

/// Writes `events` events made of the golden trace's calls to `path`; returns its size.
fn generate(path: &PathBuf, events: u64) -> u64 {
    let bytes = golden();
    let header = TraceReader::new(Cursor::new(&bytes))
        .unwrap()
        .header()
        .clone();
    let mut w = TraceWriter::new(BufWriter::new(File::create(path).unwrap()), &header).unwrap();
    let (mut written, mut shift, mut last) = (0u64, 0u64, 0u64);
    while written < events {
        // One lap of the recorded calls, later in time than the one before.
        let mut r = TraceReader::new(Cursor::new(&bytes)).unwrap();
        while let Some((_, mut e)) = r.next_event().unwrap() {
            if matches!(e.call, Call::End { .. }) || written == events {
                continue;
            }
            e.common.t_ns += shift;
            last = last.max(e.common.t_ns + e.common.dur_ns);
            w.write(&e).unwrap();
            written += 1;
        }
        shift = last + 1000 - header.start_mono_ns;
    }
    w.finish(header.pid).unwrap();
    std::fs::metadata(path).unwrap().len()
}

fn timed(label: &str, events: u64, f: impl FnOnce() -> u64) {
    let start = Instant::now();
    let check = f();
    let s = start.elapsed().as_secs_f64();
    println!(
        "{label:<22} {events} events in {s:.3} s: {:.0} events/s ({check} bytes of output)",
        events as f64 / s
    );
}

fn reader(path: &PathBuf) -> TraceReader<BufReader<File>> {
    TraceReader::new(BufReader::with_capacity(1 << 20, File::open(path).unwrap())).unwrap()
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let events: u64 = if full { 1_000_000 } else { 1_000 };
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var_os("DECODE_BENCH_KEEP")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.path().join("big.ntrace"));
    let size = generate(&path, events);
    println!(
        "trace: {events} events (+1 end record), {size} bytes, {:.1} bytes per event",
        size as f64 / events as f64
    );
    timed("read only", events, || {
        let mut r = reader(&path);
        let mut n = 0;
        while let Some((_, e)) = r.next_event().unwrap() {
            n += e.common.dur_ns & 1;
        }
        n
    });
    timed("decode (text)", events, || {
        let mut r = reader(&path);
        let header = r.header().clone();
        let style = Style {
            header: &header,
            abi: header.release.abi(),
        };
        let mut line = String::new();
        let mut out = 0u64;
        while let Some((n, e)) = r.next_event().unwrap() {
            line.clear();
            style.line(&mut line, n, &e);
            out += line.len() as u64 + 1;
        }
        out
    });
    timed("decode (json)", events, || {
        let mut r = reader(&path);
        let header = r.header().clone();
        let abi = header.release.abi();
        let mut out = 0u64;
        while let Some((n, e)) = r.next_event().unwrap() {
            out += json::event(&header, abi, n, &e).to_string().len() as u64 + 1;
        }
        out
    });
    timed("stats", events, || {
        let mut r = reader(&path);
        let abi = r.header().release.abi();
        let mut s = Stats::default();
        while let Some((_, e)) = r.next_event().unwrap() {
            s.add(abi, &e);
        }
        s.table().len() as u64
    });
}
