//! The one error type of the tool: every failure becomes one sentence on stderr.

use std::io;
use std::path::PathBuf;

use crate::quote::{quote_path, quote_str};

/// Why a command failed. `main` prints `error: <Display>` and exits non-zero; no variant
/// is ever a panic, so bad input never shows a backtrace.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// A descriptor was refused by `udma-desc` (size 0, size above 64 KiB, SOW on V2, ...).
    #[error("descriptor refused: {0}")]
    Desc(#[from] udma_desc::Error),
    /// Descriptor bytes given in hex that are not 32 hex digits.
    #[error("bad descriptor hex {}: {why}", quote_str(text))]
    BadHex {
        /// What the user typed.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// A value given on the command line that is out of range.
    #[error("{0}")]
    BadArgument(String),
    /// A PCI device id that is no Neuron device.
    #[error("{0} (known: 0x7164 trn1, 0x7264 inf2, 0x7364 trn2, 0x7564/0x7565 trn3)")]
    UnknownDeviceId(#[from] khal::UnknownDeviceId),
    /// An input file that could not be read.
    #[error("cannot read {}: {source}", quote_path(path))]
    ReadFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file that is no ring dump (empty, not whole descriptors, larger than any ring).
    #[error("ring dump {} {source}", quote_path(path))]
    Dump {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: crate::dump::DumpError,
    },
    /// A head or posted count that does not fit the dumped ring.
    #[error("{0}")]
    Walk(#[from] crate::cmd::ring::WalkError),
    /// The decoded ring makes the engine fault (the decode on stdout shows where).
    #[error("the engine faults: {0}")]
    EngineFaults(neuron_emu::Fault),
    /// `queue inspect` found something wrong (its report on stdout says where).
    #[error("{0}")]
    QueueWrong(String),
    /// A batch line too long to hold: the batch ends there.
    #[error("{0}")]
    BatchLine(crate::batch::BatchError),
    /// Batch lines were refused (each has its `err` line on stdout, in place).
    #[error(
        "{failed} of {lines} batch line(s) refused; the first, line {first_line}: {first_reason}"
    )]
    BatchRefused {
        /// Lines refused.
        failed: u64,
        /// Lines read.
        lines: u64,
        /// The first refused line (from 1).
        first_line: u64,
        /// Why it was refused.
        first_reason: String,
    },
    /// `--device PATH` leads to no device node.
    #[error(
        "no Neuron device at {} ({why}; leave --device out to use the built-in device model)",
        quote_path(path)
    )]
    NoDevice {
        /// The node looked for.
        path: PathBuf,
        /// What the system said.
        why: String,
    },
    /// The device (or the built-in model) refused a step of the copy.
    #[error("{device}: {why}")]
    Device {
        /// The device (`/dev/neuron0`, `the built-in device model`).
        device: String,
        /// The step and the reason.
        why: String,
    },
    /// The copy finished but the destination differs from the source.
    #[error(
        "copy verification failed: {mismatches} byte(s) differ, the first at offset {first:#x}"
    )]
    VerifyFailed {
        /// Offset of the first differing byte.
        first: u64,
        /// How many bytes differ.
        mismatches: u64,
    },
    /// `compat`'s answer when the runtime cannot run there: the sentence says why.
    #[error("{0}")]
    Incompatible(String),
    /// A trace file the reader refuses (truncated, corrupt, not a trace).
    #[error("trace {} {source}", quote_path(path))]
    BadTrace {
        /// The file.
        path: PathBuf,
        /// Why.
        source: ndl_trace::TraceError,
    },
    /// An output file that could not be written.
    #[error("cannot write {}: {source}", quote_path(path))]
    WriteFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A replay whose calls did not all do what the trace recorded (each was printed).
    #[error("replay of {} diverged {count} time(s)", quote_path(path))]
    Diverged {
        /// The trace.
        path: PathBuf,
        /// Divergences.
        count: u64,
    },
    /// Writing to stdout or reading stdin failed.
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

impl From<crate::batch::BatchError> for ToolError {
    fn from(e: crate::batch::BatchError) -> Self {
        match e {
            crate::batch::BatchError::Io(e) => ToolError::Io(e),
            e => ToolError::BatchLine(e),
        }
    }
}

impl ToolError {
    /// True when the error is a closed stdout (e.g. piped into `head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, ToolError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Result of a command.
pub type Result<T, E = ToolError> = std::result::Result<T, E>;
