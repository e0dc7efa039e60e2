//! Developer tasks for the workspace: `cargo xtask <task>`.
//!
//! * `ci` — everything CI checks: fmt, clippy (`-D warnings`), the README's test command,
//!   the no_std link check, and rustdoc with warnings denied.
//! * `test` — the README's test command alone.
//! * `nostd` — build `nostd-check/`, a `#![no_std]` staticlib with its own `#[panic_handler]`
//!   that links every no_std crate: a crate (or a dependency feature) that drags in `std`
//!   makes it fail with a duplicate `panic_impl` lang item.
//! * `fuzz [SECONDS]` — run each cargo-fuzz target for a bounded time (nightly; not in `ci`).
//! * `bench` — `cargo bench` for the whole workspace.
//! * `commits` — every non-merge commit since the rule took effect has a subject of at most 72
//!   characters, a blank line and a body (the `.githooks/commit-msg` hook checks the same).
//! * `package` — every crate must be publishable on its own: no file of a crate reaches outside
//!   its directory (`include_str!` of `../..`), every table a crate carries is byte-identical to
//!   the project's `reference/` copy (the file under `reference/` named by the longest tail of
//!   its path, so `tables/abi/2.27.4.0/ioctl-commands.tsv` is checked against
//!   `reference/abi/2.27.4.0/ioctl-commands.tsv`), and `cargo package --workspace --no-verify`
//!   succeeds.
//! * `codegen [--check]` — writes `crates/ndl-abi/src/generated/` from the tables in
//!   `crates/ndl-abi/tables/`; `--check` regenerates in memory and fails on any difference
//!   (`ci` runs it first).

mod codegen;

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

/// The crate directories of the workspace (`crates/*`).
fn crate_dirs() -> Result<Vec<std::path::PathBuf>, String> {
    let mut dirs: Vec<_> = std::fs::read_dir("crates")
        .map_err(|e| format!("cannot list crates/: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Every file below `dir`, skipping build output.
fn files_below(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == "target") {
            continue;
        }
        if path.is_dir() {
            files_below(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The `reference/` file a crate's table copies: the one named by the longest tail of the
/// table's path inside the crate (`tests/data/ioctl-commands.tsv` -> `reference/ioctl-commands.tsv`,
/// `tables/abi/2.27.4.0/ioctl-commands.tsv` -> `reference/abi/2.27.4.0/ioctl-commands.tsv`).
fn reference_of(dir: &std::path::Path, file: &std::path::Path) -> Option<std::path::PathBuf> {
    let parts: Vec<_> = file.strip_prefix(dir).ok()?.components().collect();
    (0..parts.len())
        .map(|skip| {
            let tail: std::path::PathBuf = parts.iter().skip(skip).collect();
            std::path::Path::new("reference").join(tail)
        })
        .find(|p| p.is_file())
}

/// A crate is packaged from its own directory: a source that includes `../..` would not build
/// from the published tarball, and a table copied into a crate must stay the reference's bytes.
fn self_contained() -> Result<(), String> {
    let mut problems = Vec::new();
    for dir in crate_dirs()? {
        let mut files = Vec::new();
        files_below(&dir, &mut files);
        for file in files {
            let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext == "rs" {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                for (i, line) in text.lines().enumerate() {
                    if line.contains("\"/../") || line.contains("#[path = \"../") {
                        problems.push(format!(
                            "{}:{}: reaches outside the crate: {}",
                            file.display(),
                            i + 1,
                            line.trim()
                        ));
                    }
                }
            } else if matches!(ext, "tsv" | "md") {
                let Some(reference) = reference_of(&dir, &file) else {
                    continue;
                };
                if std::fs::read(&reference).ok() != std::fs::read(&file).ok() {
                    problems.push(format!(
                        "{}: differs from {} (copy the reference table again)",
                        file.display(),
                        reference.display()
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "crates are not self-contained:\n{}",
            problems.join("\n")
        ))
    }
}

fn package() -> Result<(), String> {
    self_contained()?;
    let mut c = cargo();
    c.args([
        "package",
        "--workspace",
        "--exclude",
        "xtask",
        "--no-verify",
        "--allow-dirty",
        "--quiet",
    ]);
    run("package", c)
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
    package()?;
    commits()
}

fn fuzz(seconds: &str) -> Result<(), String> {
    let list = Command::new("cargo")
        .args(["+nightly", "fuzz", "list"])
        .current_dir("fuzz")
        .output()
        .map_err(|e| format!("cargo fuzz list: {e} (install with `cargo install cargo-fuzz`)"))?;
    if !list.status.success() {
        return Err("cargo fuzz list failed (install with `cargo install cargo-fuzz`)".into());
    }
    for target in String::from_utf8_lossy(&list.stdout).split_whitespace() {
        // Work corpus first (gitignored, grows), then the checked-in seeds (read as input).
        let corpus = format!("corpus/{target}");
        let seeds = format!("seeds/{target}");
        std::fs::create_dir_all(format!("fuzz/{corpus}"))
            .map_err(|e| format!("cannot create fuzz/{corpus}: {e}"))?;
        let mut c = Command::new("cargo");
        c.args(["+nightly", "fuzz", "run", target, &corpus]);
        if std::path::Path::new("fuzz").join(&seeds).is_dir() {
            c.arg(&seeds);
        }
        c.args(["--", &format!("-max_total_time={seconds}")]);
        c.current_dir("fuzz");
        run(&format!("fuzz {target}"), c)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("test") => test(),
        Some("nostd") => nostd(),
        Some("package") => package(),
        Some("commits") => commits(),
        Some("codegen") => match args.get(1).map(String::as_str) {
            None => codegen::run(std::path::Path::new("."), false),
            Some("--check") => codegen::run(std::path::Path::new("."), true),
            Some(other) => Err(format!("codegen: unknown option {other} (use --check)")),
        },
        Some("fuzz") => fuzz(args.get(1).map(String::as_str).unwrap_or("30")),
        Some("bench") => {
            let mut c = cargo();
            c.args(["bench", "--workspace"]);
            run("bench", c)
        }
        _ => Err("usage: cargo xtask <ci|test|nostd|package|commits|codegen [--check]|fuzz [SECONDS]|bench>".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
