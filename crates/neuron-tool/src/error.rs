//! The one error type of the tool: every failure becomes one sentence on stderr.

use std::io;
use std::path::PathBuf;

/// Why a command failed. `main` prints `error: <Display>` and exits non-zero; no variant
/// is ever a panic, so bad input never shows a backtrace.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// A descriptor was refused by `udma-desc` (size 0, size above 64 KiB, SOW on V2, ...).
    #[error("descriptor refused: {0}")]
    Desc(#[from] udma_desc::Error),
    /// Descriptor bytes given in hex that are not 32 hex digits.
    #[error("bad descriptor hex '{text}': {why}")]
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
    #[error("cannot read '{}': {source}", path.display())]
    ReadFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// `--device PATH` leads to no device node.
    #[error(
        "no Neuron device at {} ({why}; leave --device out to use the built-in device model)",
        path.display()
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
    /// A trace file the reader refuses (truncated, corrupt, not a trace).
    #[error("{}: {source}", path.display())]
    BadTrace {
        /// The file.
        path: PathBuf,
        /// Why.
        source: ndl_trace::TraceError,
    },
    /// An output file that could not be written.
    #[error("cannot write '{}': {source}", path.display())]
    WriteFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A replay whose calls did not all do what the trace recorded (each was printed).
    #[error("replay of {} diverged {count} time(s)", path.display())]
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

impl ToolError {
    /// True when the error is a closed stdout (e.g. piped into `head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, ToolError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Result of a command.
pub type Result<T, E = ToolError> = std::result::Result<T, E>;
