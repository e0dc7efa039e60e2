//! `trace export --chrome`: the Trace Event Format that chrome://tracing and ui.perfetto.dev
//! open. One track per process and thread (`pid`/`tid`), one complete event (`"ph": "X"`) per
//! call with its start and duration in microseconds, and metadata events (`"ph": "M"`) that
//! name each track; the call's command, fd, device and result go in `args`.

use std::collections::BTreeSet;
use std::io::{self, Write};

use serde_json::json;

use crate::decode::command_name;
use crate::errno;
use crate::event::{Call, Event, Header};

/// Writes a Trace Event Format JSON object event by event.
#[derive(Debug)]
pub struct ChromeWriter<W: Write> {
    out: W,
    first: bool,
    tracks: BTreeSet<(u32, u32)>,
    origin: u64,
}

impl<W: Write> ChromeWriter<W> {
    /// Starts the object; times are relative to the trace's start.
    pub fn new(mut out: W, header: &Header) -> io::Result<Self> {
        out.write_all(b"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n")?;
        Ok(Self {
            out,
            first: true,
            tracks: BTreeSet::new(),
            origin: header.start_mono_ns,
        })
    }

    fn emit(&mut self, v: &serde_json::Value) -> io::Result<()> {
        if !self.first {
            self.out.write_all(b",\n")?;
        }
        self.first = false;
        serde_json::to_writer(&mut self.out, v).map_err(io::Error::other)
    }

    /// Adds event `n` (end records are not calls and are left out).
    pub fn add(&mut self, abi: &'static ndl_abi::Abi, n: u64, e: &Event<'_>) -> io::Result<()> {
        let c = &e.common;
        let name = match &e.call {
            Call::End { .. } => return Ok(()),
            Call::Ioctl(io) => command_name(abi, io.request),
            call => call.name().to_owned(),
        };
        if self.tracks.insert((c.pid, c.tid)) {
            if !self.tracks.iter().any(|&(p, t)| p == c.pid && t != c.tid) {
                self.emit(
                    &json!({"ph": "M", "name": "process_name", "pid": c.pid, "tid": c.tid,
                    "args": {"name": format!("pid {}", c.pid)}}),
                )?;
            }
            self.emit(
                &json!({"ph": "M", "name": "thread_name", "pid": c.pid, "tid": c.tid,
                "args": {"name": format!("tid {}", c.tid)}}),
            )?;
        }
        let ts = c.t_ns.saturating_sub(self.origin) as f64 / 1000.0;
        let dur = c.dur_ns as f64 / 1000.0;
        let cat = e.call.name();
        let result = match c.errno {
            0 => json!(c.ret),
            en => json!(errno::name(en).map_or_else(|| en.to_string(), str::to_owned)),
        };
        self.emit(&json!({
            "ph": "X", "name": name, "cat": cat, "pid": c.pid, "tid": c.tid,
            "ts": ts, "dur": dur,
            "args": {"event": n, "fd": c.fd, "device": c.device, "result": result},
        }))
    }

    /// Closes the object and returns the sink.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(b"\n]}\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}
