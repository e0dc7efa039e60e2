//! Golden output, as umr and mesa's crashdec keep it: the exact text a command prints,
//! checked in under `tests/golden/`, compared line by line. `NEURON_TOOL_BLESS=1` rewrites
//! the files from what the commands print now (review the diff before committing it).

#![allow(dead_code)]

use std::path::PathBuf;

use clap::Parser;
use neuron_tool::cli::Cli;

/// The environment variable that rewrites golden files.
pub const BLESS: &str = "NEURON_TOOL_BLESS";

/// `tests/golden/<name>`.
pub fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Fails unless `actual` is the text of golden file `name` (or rewrites it under [`BLESS`]).
pub fn check(name: &str, actual: &str) {
    let p = path(name);
    if std::env::var_os(BLESS).is_some() {
        std::fs::write(&p, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (run with {BLESS}=1 to create it)", p.display()));
    if expected == actual {
        return;
    }
    let (e, a): (Vec<_>, Vec<_>) = (expected.lines().collect(), actual.lines().collect());
    let at = e
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(a.len()));
    panic!(
        "{name} differs from line {}:\n  golden: {:?}\n  now:    {:?}\n({} vs {} lines; \
         {BLESS}=1 rewrites it)",
        at + 1,
        e.get(at),
        a.get(at),
        e.len(),
        a.len()
    );
}

/// What `neuron-tool ARGS` prints on stdout, run in this process; or its error.
pub fn run(args: &[&str]) -> Result<String, neuron_tool::error::ToolError> {
    let (out, result) = run_both(args);
    result.map(|()| out)
}

/// What `neuron-tool ARGS` prints on stdout, and how it ends (stdout is kept on an error:
/// `queue inspect` prints its report and fails when something is wrong).
pub fn run_both(args: &[&str]) -> (String, Result<(), neuron_tool::error::ToolError>) {
    let cli = Cli::try_parse_from(std::iter::once("neuron-tool").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let mut out = Vec::new();
    let result = neuron_tool::cmd::run(&cli.command, std::io::empty(), &mut out);
    (String::from_utf8(out).unwrap(), result)
}

/// As [`run`], for a command that must succeed.
pub fn output(args: &[&str]) -> String {
    run(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}
