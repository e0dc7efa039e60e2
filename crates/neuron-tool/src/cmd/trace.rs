//! `neuron-tool trace decode|stats|export|replay`: the tracer's reader side, over `ndl-trace`.
//! A trace is recorded by `neuron-tool serve --record FILE` or by `libneuron_trace.so`
//! (`LD_PRELOAD=... NEURON_TRACE=FILE program`).

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::Path;

use khal::Generation;
use ndl_abi::{Abi, Release};
use ndl_trace::filter::Filter;
use ndl_trace::replay::{Options, Replayer, Scan};
use ndl_trace::stats::Stats;
use ndl_trace::text::Style;
use ndl_trace::{TraceError, TraceReader, chrome::ChromeWriter, json};

use crate::cli::{
    TraceCommand, TraceDecodeArgs, TraceExportArgs, TraceFilterArgs, TraceReplayArgs,
    TraceStatsArgs,
};
use crate::error::{Result, ToolError};

/// Read buffer of a trace (records are read whole; this only batches the reads).
const READ_BUFFER: usize = 1 << 20;

/// Runs a `trace` subcommand.
pub fn run(cmd: &TraceCommand, out: &mut impl Write) -> Result<()> {
    match cmd {
        TraceCommand::Decode(a) => decode(a, out),
        TraceCommand::Stats(a) => stats(a, out),
        TraceCommand::Export(a) => export(a, out),
        TraceCommand::Replay(a) => replay(a, out),
    }
}

type Reader = TraceReader<BufReader<File>>;

fn bad(path: &Path, source: TraceError) -> ToolError {
    ToolError::BadTrace {
        path: path.to_path_buf(),
        source,
    }
}

fn open(path: &Path) -> Result<Reader> {
    let file = File::open(path).map_err(|source| ToolError::ReadFile {
        path: path.to_path_buf(),
        source,
    })?;
    TraceReader::new(BufReader::with_capacity(READ_BUFFER, file)).map_err(|e| bad(path, e))
}

fn filter(args: &TraceFilterArgs, abi: &Abi) -> Result<Filter> {
    let f = Filter {
        pids: args.pids.clone(),
        commands: args.commands.clone(),
        devices: args.devices.clone(),
    };
    match f.unknown_commands(abi).first() {
        Some(c) => Err(ToolError::BadArgument(format!(
            "--command {c}: no such command in driver {} (nor open, close, mmap, munmap)",
            abi.release
        ))),
        None => Ok(f),
    }
}

/// Notes on stderr that the trace may be cut short (a recorder that did not finish).
fn note_incomplete(path: &Path, r: &Reader) {
    if !r.complete() {
        eprintln!(
            "note: {} has no end record for every writer: a recorder was killed or is still \
             running, so later calls may be missing",
            path.display()
        );
    }
}

fn decode(a: &TraceDecodeArgs, out: &mut impl Write) -> Result<()> {
    let mut r = open(&a.file)?;
    let header = r.header().clone();
    let release = match &a.release {
        Some(name) => Release::parse(name).map_err(|_| {
            ToolError::BadArgument(format!(
                "--release {name}: not a driver release this tool carries (2.24.7.0 .. 2.30.2.0)"
            ))
        })?,
        None => header.release,
    };
    let abi = release.abi();
    let keep = filter(&a.filter, abi)?;
    let style = Style {
        header: &header,
        abi,
    };
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let mut line = String::with_capacity(512);
    while let Some((n, e)) = r.next_event().map_err(|e| bad(&a.file, e))? {
        if !keep.keeps(abi, &e) {
            continue;
        }
        if a.json {
            serde_json::to_writer(&mut out, &json::event(&header, abi, n, &e))
                .map_err(std::io::Error::other)?;
            out.write_all(b"\n")?;
        } else {
            line.clear();
            style.line(&mut line, n, &e);
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
    }
    out.flush()?;
    note_incomplete(&a.file, &r);
    Ok(())
}

fn stats(a: &TraceStatsArgs, out: &mut impl Write) -> Result<()> {
    let mut r = open(&a.file)?;
    let abi = r.header().release.abi();
    let keep = filter(&a.filter, abi)?;
    let mut s = Stats::default();
    while let Some((_, e)) = r.next_event().map_err(|e| bad(&a.file, e))? {
        if keep.keeps(abi, &e) {
            s.add(abi, &e);
        }
    }
    if a.json {
        writeln!(out, "{}", s.json())?;
    } else {
        out.write_all(s.table().as_bytes())?;
    }
    note_incomplete(&a.file, &r);
    Ok(())
}

fn export(a: &TraceExportArgs, out: &mut impl Write) -> Result<()> {
    let mut r = open(&a.file)?;
    let header = r.header().clone();
    let abi = header.release.abi();
    let keep = filter(&a.filter, abi)?;
    let write_err = |source| ToolError::WriteFile {
        path: a.chrome.clone(),
        source,
    };
    let file = File::create(&a.chrome).map_err(write_err)?;
    let mut w = ChromeWriter::new(BufWriter::new(file), &header).map_err(write_err)?;
    let mut calls = 0u64;
    while let Some((n, e)) = r.next_event().map_err(|e| bad(&a.file, e))? {
        if keep.keeps(abi, &e) && !matches!(e.call, ndl_trace::Call::End { .. }) {
            w.add(abi, n, &e).map_err(write_err)?;
            calls += 1;
        }
    }
    w.finish().map_err(write_err)?;
    writeln!(
        out,
        "wrote {calls} calls to {} (open it in ui.perfetto.dev or chrome://tracing)",
        a.chrome.display()
    )?;
    note_incomplete(&a.file, &r);
    Ok(())
}

fn replay(a: &TraceReplayArgs, out: &mut impl Write) -> Result<()> {
    // First pass: the devices the trace uses and, if it says, their generation.
    let mut r = open(&a.file)?;
    let header = r.header().clone();
    let abi = header.release.abi();
    let mut scan = Scan::default();
    while let Some((_, e)) = r.next_event().map_err(|e| bad(&a.file, e))? {
        scan.add(abi, &e);
    }
    let generation = match a.arch {
        Some(arch) => arch.generation(),
        None => header
            .generation
            .or(scan.generation)
            .and_then(|g| Generation::from_number(g).ok())
            .ok_or_else(|| {
                ToolError::BadArgument(format!(
                    "{} does not say its chip generation (no DEVICE_INFO answer in it): give --arch",
                    a.file.display()
                ))
            })?,
    };
    let options = Options {
        generation,
        devices: scan.devices.max(1),
        memory: a.memory,
    };
    let mut replayer = Replayer::new(abi, &options).map_err(|e| ToolError::Device {
        device: "the emulated kernel".into(),
        why: e.to_string(),
    })?;
    let mut r = open(&a.file)?;
    let mut out = BufWriter::new(out);
    let mut diverged = 0u64;
    let mut events = 0u64;
    while let Some((n, e)) = r.next_event().map_err(|e| bad(&a.file, e))? {
        events = n;
        for d in replayer.event(n, &e) {
            diverged += 1;
            writeln!(out, "{d}")?;
        }
    }
    writeln!(
        out,
        "replayed {} calls of {events} events on {generation}: {diverged} divergence(s){}",
        replayer.replayed(),
        match replayer.inexact() {
            0 => String::new(),
            k => format!(
                ", {k} call(s) with capped input buffers (replayed with zeros past the kept bytes)"
            ),
        }
    )?;
    out.flush()?;
    note_incomplete(&a.file, &r);
    if diverged > 0 {
        return Err(ToolError::Diverged {
            path: a.file.clone(),
            count: diverged,
        });
    }
    Ok(())
}
