//! decode, `--json` and stats of a recorded trace against golden files: `tests/data/copy-v3.ntrace`
//! is the FUSE server's trace of a driver-style copy on V3 (written by neuron-trace-preload's
//! end-to-end test under `NEURON_TRACE_BLESS=1`, kept at a 64-byte cap); `NEURON_TRACE_BLESS=1
//! cargo test -p ndl-trace --test golden` rewrites the `.txt`/`.jsonl` goldens from it.

use std::io::Cursor;
use std::path::PathBuf;

use ndl_trace::stats::Stats;
use ndl_trace::text::Style;
use ndl_trace::{TraceReader, json};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn check(name: &str, got: &str) {
    let path = data(name);
    if std::env::var_os("NEURON_TRACE_BLESS").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (NEURON_TRACE_BLESS=1 writes it)", path.display()));
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        assert_eq!(w, g, "{name} line {}", i + 1);
    }
    assert_eq!(
        want.lines().count(),
        got.lines().count(),
        "{name}: line count"
    );
}

#[test]
fn decode_matches_the_golden_files() {
    let bytes = std::fs::read(data("copy-v3.ntrace")).unwrap();
    let mut r = TraceReader::new(Cursor::new(bytes)).unwrap();
    let header = r.header().clone();
    let abi = header.release.abi();
    let style = Style {
        header: &header,
        abi,
    };
    let (mut text, mut lines, mut stats) = (String::new(), String::new(), Stats::default());
    while let Some((n, e)) = r.next_event().unwrap() {
        style.line(&mut text, n, &e);
        text.push('\n');
        lines.push_str(&json::event(&header, abi, n, &e).to_string());
        lines.push('\n');
        stats.add(abi, &e);
    }
    assert!(r.complete());
    check("copy-v3.decode.txt", &text);
    check("copy-v3.decode.jsonl", &lines);
    // The stats table without the times (which are the recording's, not decode's).
    let counts: String = stats
        .rows()
        .iter()
        .map(|r| format!("{} {} {}\n", r.command, r.calls, r.errors))
        .collect();
    check("copy-v3.stats.txt", &counts);
}
