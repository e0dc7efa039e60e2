//! Developer tasks for the workspace: `cargo xtask <task>`.
//!
//! * `ci` — everything CI checks: fmt, clippy (`-D warnings`), the README's test command,
//!   the no_std link check, and rustdoc with warnings denied.
//! * `test` — the README's test command alone.
//! * `nostd` — build `nostd-check/`, a `#![no_std]` staticlib with its own `#[panic_handler]`
//!   that links every no_std crate: a crate (or a dependency feature) that drags in `std`
//!   makes it fail with a duplicate `panic_impl` lang item.
//! * `fuzz [SECONDS]` — build every cargo-fuzz target once, run each for `SECONDS` and report
//!   executions and results (see [`fuzz`]; nightly or `RUSTC_BOOTSTRAP`, and cargo-fuzz). Not
//!   in `ci`: `.ci/run` runs it after `ci` as a short smoke test.
//! * `bench` — `cargo bench` for the whole workspace; `bench main-job [BYTES] [ROUNDS]` — the
//!   main job (`neuron-tool copy`) beside its floor, whole processes taking turns (see
//!   [`main_job`]).
//! * `commits` — every non-merge commit since the rule took effect has a subject of at most 72
//!   characters, a blank line and a body (the `.githooks/commit-msg` hook checks the same).
//! * `package` — every crate can be published, in dependency order (see [`package`]): crates
//!   are self-contained, `#![no_std]` roots keep the no-panic rule, the metadata is complete,
//!   the order computed from `cargo metadata` exists, and a `cargo publish --dry-run` of each
//!   crate in that order succeeds (`--verify`: each also compiled from its packaged sources,
//!   as `cargo publish` would; `ci` skips that second build of the workspace).
//! * `codegen [--check]` — writes `crates/ndl-abi/src/generated/` from the tables in
//!   `crates/ndl-abi/tables/`; `--check` regenerates in memory and fails on any difference
//!   (`ci` runs it first).

mod codegen;
mod fuzz;
mod main_job;
mod package;

use std::process::{Command, ExitCode};

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn run(what: &str, mut cmd: Command) -> Result<(), String> {
    eprintln!("xtask: {what}: {cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// The README's test command.
fn test() -> Result<(), String> {
    let mut c = cargo();
    c.args(["test", "--workspace", "--all-targets"]);
    run("tests", c)?;
    let mut c = cargo();
    c.args(["test", "--workspace", "--doc"]);
    run("doc tests", c)
}

fn nostd() -> Result<(), String> {
    let mut c = cargo();
    c.args([
        "build",
        "--release",
        "--manifest-path",
        "nostd-check/Cargo.toml",
    ]);
    run("no_std check", c)
}

/// The first commit under the commit-message rule; older history is left as it was.
const COMMIT_RULE_SINCE: &str = "07e8f0a";

/// Subject <= 72 characters, blank second line, a body (merges are exempt).
fn commits() -> Result<(), String> {
    let out = Command::new("git")
        .args([
            "log",
            "--no-merges",
            "--format=%h%x1f%B%x1e",
            &format!("{COMMIT_RULE_SINCE}^..HEAD"),
        ])
        .output()
        .map_err(|e| format!("git log: {e}"))?;
    if !out.status.success() {
        // A shallow clone without the rule's first commit has nothing to check.
        eprintln!("xtask: commits: history before HEAD not available; skipped");
        return Ok(());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut problems = Vec::new();
    for record in text.split('\x1e').map(str::trim).filter(|r| !r.is_empty()) {
        let (hash, message) = record.split_once('\x1f').unwrap_or((record, ""));
        let mut lines = message.lines();
        let subject = lines.next().unwrap_or("");
        let blank = lines.next().unwrap_or("");
        let body = lines.any(|l| !l.trim().is_empty());
        let chars = subject.chars().count();
        if chars > 72 {
            problems.push(format!(
                "{hash}: subject is {chars} characters (at most 72)"
            ));
        }
        if !blank.trim().is_empty() || !body {
            problems.push(format!(
                "{hash}: needs a blank line and a body that says why"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("commit messages:\n{}", problems.join("\n")))
    }
}

fn ci() -> Result<(), String> {
    codegen::run(std::path::Path::new("."), true)?;
    let mut c = cargo();
    c.args(["fmt", "--all", "--check"]);
    run("fmt", c)?;
    let mut c = cargo();
    c.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]);
    run("clippy", c)?;
    test()?;
    nostd()?;
    let mut c = cargo();
    c.args(["doc", "--workspace", "--no-deps"]);
    c.env("RUSTDOCFLAGS", "-D warnings");
    run("docs", c)?;
    package::package(false)?;
    commits()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("test") => test(),
        Some("nostd") => nostd(),
        Some("package") => package::package(args.get(1).is_some_and(|a| a == "--verify")),
        Some("commits") => commits(),
        Some("codegen") => match args.get(1).map(String::as_str) {
            None => codegen::run(std::path::Path::new("."), false),
            Some("--check") => codegen::run(std::path::Path::new("."), true),
            Some(other) => Err(format!("codegen: unknown option {other} (use --check)")),
        },
        Some("fuzz") => fuzz::fuzz(args.get(1).map(String::as_str).unwrap_or("30")),
        Some("bench") => match args.get(1).map(String::as_str) {
            None => {
                let mut c = cargo();
                c.args(["bench", "--workspace"]);
                run("bench", c)
            }
            Some("main-job") => main_job::main_job(
                args.get(2).map(String::as_str),
                args.get(3).map(String::as_str),
            ),
            Some(other) => Err(format!("bench: unknown part {other} (use main-job)")),
        },
        _ => Err("usage: cargo xtask <ci|test|nostd|package [--verify]|commits|codegen [--check]|fuzz [SECONDS]|bench [main-job [BYTES] [ROUNDS]]>".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
