//! Arbitrary bytes as a trace: the reader must refuse them with an error or hand out events
//! that decode (text, JSON, stats, identifier walk) without a panic. Built with
//! `cfg(fuzzing)`, the reader skips the CRC check so mutations reach the field parsers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ndl_trace::stats::Stats;
use ndl_trace::text::Style;
use ndl_trace::{Call, TraceReader, ids, json};

fuzz_target!(|data: &[u8]| {
    let Ok(mut r) = TraceReader::new(data) else {
        return;
    };
    let header = r.header().clone();
    let abi = header.release.abi();
    let style = Style { header: &header, abi };
    let mut stats = Stats::default();
    let mut line = String::new();
    while let Ok(Some((n, e))) = r.next_event() {
        line.clear();
        style.line(&mut line, n, &e);
        let _ = json::event(&header, abi, n, &e);
        stats.add(abi, &e);
        if let Call::Ioctl(io) = &e.call {
            let _ = ids::locate(abi, io);
        }
    }
    let _ = stats.table();
});
