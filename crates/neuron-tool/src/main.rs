//! `neuron-tool`: see `neuron-tool --help`.

use std::io::Write;
use std::process::ExitCode;

use neuron_tool::error::ToolError;
use neuron_tool::usage::{self, Parsed};

fn main() -> ExitCode {
    let cli = match usage::parse(std::env::args_os()) {
        Parsed::Run(cli) => cli,
        Parsed::Shown(help) => help.exit(),
        Parsed::Refused(line, status) => {
            eprintln!("{line}");
            return ExitCode::from(status);
        }
    };
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
