//! decode, `--json` and stats of a recorded trace against golden files: `tests/data/copy-v3.ntrace`
//! is the FUSE server's trace of a driver-style copy on V3, then of one allocation the driver
//! refuses (written by neuron-trace-preload's end-to-end test under `NEURON_TRACE_BLESS=1`,
//! kept at a 64-byte cap); `NEURON_TRACE_BLESS=1 cargo test -p ndl-trace --test golden`
//! rewrites the `.txt`/`.jsonl` goldens from it.

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
    errno_is_named(&text, &lines);
    check("copy-v3.decode.txt", &text);
    check("copy-v3.decode.jsonl", &lines);
    // The stats table without the times (which are the recording's, not decode's).
    let counts: String = stats
        .rows()
        .iter()
        .map(|r| format!("{} {} {}\n", r.command, r.calls, r.errors))
        .collect();
    check("copy-v3.stats.txt", &counts);
    assert!(counts.contains("MEM_ALLOC_V2MT64 6 1\n"), "{counts}");
}

/// The one failing call, MEM_ALLOC_V2MT64 of host memory with an alignment ("align must be 0
/// for host memory, else -EINVAL": `reference/dma-path.md` §2), decodes with its errno named:
/// `= -1 EINVAL (Invalid argument)` in text (the C library's message), `"errno":"EINVAL"` in
/// JSON. Every other call has no errno.
fn errno_is_named(text: &str, lines: &str) {
    let failed: Vec<&str> = text.lines().filter(|l| l.contains(" = -1 ")).collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    let line = failed[0];
    assert!(
        line.contains(" ioctl MEM_ALLOC_V2MT64 {size=4096 align=4096 host_memory=1 "),
        "{line}"
    );
    let (_, result) = line.rsplit_once("} = ").unwrap();
    assert!(
        result.starts_with("-1 EINVAL (Invalid argument) <"),
        "{line}"
    );
    let objects: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let failed: Vec<&serde_json::Value> =
        objects.iter().filter(|o| !o["errno"].is_null()).collect();
    // The end record carries no result at all.
    assert_eq!(failed.len(), 1, "{failed:?}");
    let o = failed[0];
    assert_eq!(o["errno"], "EINVAL");
    assert_eq!(o["ret"], -1);
    assert_eq!(o["command"], "MEM_ALLOC_V2MT64");
    assert_eq!(o["fields"]["align"], 4096);
    assert_eq!(o["fields"]["mem_handle"]["value"], 0, "no handle written");
}
