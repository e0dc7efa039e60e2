//! `neuron-tool ioctl list` and `neuron-tool ioctl decode`.

use std::io::Write;

use crate::cli::IoctlCommand;
use crate::error::{Result, ToolError};

/// `ioctl list | decode REQ`.
pub fn run(_cmd: &IoctlCommand, _out: &mut impl Write) -> Result<()> {
    Err(ToolError::NotAvailable(
        "the ioctl catalog is not in this build yet (ndl-std's catalog has not landed)".into(),
    ))
}
