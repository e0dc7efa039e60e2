//! `neuron-tool trace ...`: the grammar of the tracer's commands.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{ArchName, parse_size_arg};

/// `neuron-tool trace ...`.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// One line per event: the command named, every argument field decoded, errno named.
    Decode(TraceDecodeArgs),
    /// Calls, errors and time per command.
    Stats(TraceStatsArgs),
    /// Write a Chrome/Perfetto timeline (one track per pid/tid, one slice per call).
    Export(TraceExportArgs),
    /// Replay the calls against the emulated kernel; report every divergence (exit status
    /// 0 only when none diverge).
    Replay(TraceReplayArgs),
}

/// Which events to keep.
#[derive(Debug, Args, Default)]
pub struct TraceFilterArgs {
    /// Only events of this process (repeatable).
    #[arg(long = "pid")]
    pub pids: Vec<u32>,
    /// Only this command, e.g. MEM_ALLOC_V2MT64 (or open, close, mmap, munmap; repeatable).
    #[arg(long = "command")]
    pub commands: Vec<String>,
    /// Only this device, neuronN's N (repeatable).
    #[arg(long = "device")]
    pub devices: Vec<u32>,
}

/// `neuron-tool trace decode`.
#[derive(Debug, Args)]
pub struct TraceDecodeArgs {
    /// The trace file.
    pub file: PathBuf,
    /// Filters.
    #[command(flatten)]
    pub filter: TraceFilterArgs,
    /// One JSON object per event and line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Decode arguments with this driver release's ABI instead of the trace's.
    #[arg(long)]
    pub release: Option<String>,
}

/// `neuron-tool trace stats`.
#[derive(Debug, Args)]
pub struct TraceStatsArgs {
    /// The trace file.
    pub file: PathBuf,
    /// Filters.
    #[command(flatten)]
    pub filter: TraceFilterArgs,
    /// JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `neuron-tool trace export`.
#[derive(Debug, Args)]
pub struct TraceExportArgs {
    /// The trace file.
    pub file: PathBuf,
    /// The Trace Event Format JSON to write (opens in ui.perfetto.dev and chrome://tracing).
    #[arg(long)]
    pub chrome: PathBuf,
    /// Filters.
    #[command(flatten)]
    pub filter: TraceFilterArgs,
}

/// `neuron-tool trace replay`.
#[derive(Debug, Args)]
pub struct TraceReplayArgs {
    /// The trace file.
    pub file: PathBuf,
    /// Chip generation of the emulated devices (default: the trace's, as its header or a
    /// recorded DEVICE_INFO says).
    #[arg(long, value_enum)]
    pub arch: Option<ArchName>,
    /// Memory of each emulated device: bytes per HBM channel and of host memory (as
    /// `serve --memory`; device addresses replay exactly when it matches the recording's).
    #[arg(long, default_value = "256MiB", value_parser = parse_size_arg)]
    pub memory: u64,
}
