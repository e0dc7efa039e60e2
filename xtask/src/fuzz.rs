//! `cargo xtask fuzz [SECONDS]`: every cargo-fuzz target of `fuzz/` for `SECONDS` each
//! (default 30), on its work corpus (`fuzz/corpus/<target>`, gitignored, grows) and its
//! checked-in seeds (`fuzz/seeds/<target>`, read only), then a table of targets,
//! executions, time and result. A crash, a leak, a timeout or an out-of-memory of one
//! target does not stop the others; any of them fails the task. CI's `.ci/run` runs it with
//! a short time as a smoke test.
//!
//! * **Toolchain.** cargo-fuzz needs nightly features (`-Zsanitizer`, the sancov passes).
//!   The nightly toolchain is used when rustup has one; otherwise the default toolchain with
//!   `RUSTC_BOOTSTRAP=1`, which cargo-fuzz accepts as nightly (its `rustc_version.rs`) and
//!   whose `rust-std` ships the sanitizer runtimes (a machine that cannot download a second
//!   toolchain still fuzzes).
//! * **Build.** All targets are built once, in one cargo run (shared dependencies compile
//!   once), with debug assertions (`-a`): integer overflow panics, so an offset sum that
//!   wraps in a release build is found (issue 25 item 3).
//! * **Bounds.** `-timeout` per input ([`TIMEOUT_SECONDS`]): every target is bounded (the
//!   kernel harness caps a program's operations and sizes), so a slow input is a hang of the
//!   code under test. libFuzzer's default RSS and single-allocation limit (2 GiB) stays: an
//!   allocation a caller sized past it is a finding (issue 25 item 1).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Seconds one input may take before libFuzzer calls it a hang.
pub const TIMEOUT_SECONDS: u32 = 10;

/// How cargo is run for cargo-fuzz: `cargo +nightly`, or the default toolchain with
/// `RUSTC_BOOTSTRAP=1`.
fn fuzz_cargo(nightly: bool) -> Command {
    let mut c = Command::new("cargo");
    if nightly {
        c.arg("+nightly");
    } else {
        c.env("RUSTC_BOOTSTRAP", "1");
    }
    c.arg("fuzz");
    c.current_dir("fuzz");
    c
}

/// Whether rustup has a nightly toolchain.
fn have_nightly() -> bool {
    Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One target's run.
struct Outcome {
    target: String,
    runs: Option<u64>,
    seconds: f64,
    result: String,
}

/// The number of inputs libFuzzer reports it ran (`stat::number_of_executed_units: N`, or
/// the `Done N runs` line).
fn executions(log: &str) -> Option<u64> {
    let stat = log.lines().find_map(|l| {
        l.strip_prefix("stat::number_of_executed_units:")
            .and_then(|n| n.trim().parse().ok())
    });
    stat.or_else(|| {
        log.lines().find_map(|l| {
            l.strip_prefix("Done ")
                .and_then(|r| r.split_whitespace().next())
                .and_then(|n| n.parse().ok())
        })
    })
}

/// What stopped a failed run: libFuzzer's `==N== ERROR: libFuzzer: ...` (or `SUMMARY:`)
/// line, after the panic message for a Rust panic.
fn failure(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let error = lines
        .iter()
        .find(|l| l.contains("ERROR: libFuzzer:") || l.starts_with("SUMMARY:"))
        .map_or("failed (see the log above)", |l| l.trim());
    let panic = lines
        .iter()
        .position(|l| l.contains("panicked at"))
        .and_then(|i| lines.get(i + 1));
    match panic {
        Some(message) => {
            let short: String = message.trim().chars().take(160).collect();
            format!("panic: {short} | {error}")
        }
        None => error.to_string(),
    }
}

fn run_target(nightly: bool, target: &str, seconds: &str) -> Result<Outcome, String> {
    let corpus = format!("corpus/{target}");
    std::fs::create_dir_all(Path::new("fuzz").join(&corpus))
        .map_err(|e| format!("cannot create fuzz/{corpus}: {e}"))?;
    let mut c = fuzz_cargo(nightly);
    c.args(["run", "-a", target, &corpus]);
    let seeds = format!("seeds/{target}");
    if Path::new("fuzz").join(&seeds).is_dir() {
        c.arg(&seeds);
    }
    c.args([
        "--",
        &format!("-max_total_time={seconds}"),
        &format!("-timeout={TIMEOUT_SECONDS}"),
        "-print_final_stats=1",
    ]);
    eprintln!("xtask: fuzz {target}: {c:?}");
    let start = Instant::now();
    let out = c
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("fuzz {target}: cannot start: {e}"))?;
    let log = String::from_utf8_lossy(&out.stderr);
    // libFuzzer reports on stderr; show it as it would have appeared.
    eprint!("{log}");
    Ok(Outcome {
        target: target.to_string(),
        runs: executions(&log),
        seconds: start.elapsed().as_secs_f64(),
        result: if out.status.success() {
            "ok".into()
        } else {
            failure(&log)
        },
    })
}

/// Runs every target for `seconds`; see the module docs.
pub fn fuzz(seconds: &str) -> Result<(), String> {
    seconds
        .parse::<u32>()
        .map_err(|_| format!("fuzz: {seconds:?} is not a number of seconds"))?;
    let nightly = have_nightly();
    if !nightly {
        eprintln!(
            "xtask: fuzz: no nightly toolchain; using the default one with RUSTC_BOOTSTRAP=1"
        );
    }
    let list = fuzz_cargo(nightly)
        .arg("list")
        .output()
        .map_err(|e| format!("cargo fuzz list: {e} (install with `cargo install cargo-fuzz`)"))?;
    if !list.status.success() {
        return Err("cargo fuzz list failed (install with `cargo install cargo-fuzz`)".into());
    }
    let targets: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let start = Instant::now();
    let mut build = fuzz_cargo(nightly);
    build.args(["build", "-a"]);
    crate::run("fuzz build", build)?;
    eprintln!(
        "xtask: fuzz: built {} targets in {:.0} s",
        targets.len(),
        start.elapsed().as_secs_f64()
    );
    let mut outcomes = Vec::new();
    for t in &targets {
        outcomes.push(run_target(nightly, t, seconds)?);
    }
    report(&outcomes, start.elapsed().as_secs_f64())
}

fn report(outcomes: &[Outcome], total: f64) -> Result<(), String> {
    eprintln!(
        "xtask: fuzz: {:<14} {:>12} {:>8}  result",
        "target", "executions", "seconds"
    );
    for o in outcomes {
        let runs = o.runs.map_or_else(|| "?".into(), |r| r.to_string());
        eprintln!(
            "xtask: fuzz: {:<14} {runs:>12} {:>8.1}  {}",
            o.target, o.seconds, o.result
        );
    }
    eprintln!("xtask: fuzz: {total:.0} s in all, build included");
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.result != "ok")
        .map(|o| o.target.as_str())
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "fuzz: {} failed; inputs under fuzz/artifacts/<target>/",
            failed.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executions_come_from_the_final_stats_or_the_done_line() {
        let stats =
            "#1024\tpulse\nDone 5323 runs in 11 second(s)\nstat::number_of_executed_units: 5324\n";
        assert_eq!(executions(stats), Some(5324));
        assert_eq!(executions("Done 77 runs in 1 second(s)\n"), Some(77));
        assert_eq!(executions("==1== ERROR: libFuzzer: deadly signal\n"), None);
    }

    #[test]
    fn a_failure_is_named_by_libfuzzers_error_line() {
        let log = "INFO: seed\n==12== ERROR: libFuzzer: out-of-memory (malloc(34359738368))\n";
        assert_eq!(
            failure(log),
            "==12== ERROR: libFuzzer: out-of-memory (malloc(34359738368))"
        );
        assert_eq!(failure("nothing"), "failed (see the log above)");
        let panic = "thread '<unnamed>' panicked at src/run.rs:9:5:\nattempt to add with overflow\n\
                     ==7== ERROR: libFuzzer: deadly signal\n";
        assert_eq!(
            failure(panic),
            "panic: attempt to add with overflow | ==7== ERROR: libFuzzer: deadly signal"
        );
    }
}
