//! `neuron-tool`: see `neuron-tool --help`.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use neuron_tool::cli::Cli;
use neuron_tool::error::ToolError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = neuron_tool::cmd::run(&cli.command, std::io::stdin().lock(), &mut out)
        .and_then(|()| out.flush().map_err(ToolError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // Piped into `head`: the reader left, nothing to report.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
