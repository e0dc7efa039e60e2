//! Issue 25 item 5: the tool with bad input, through the built binary. Every case is bounded
//! input, one `error: ` sentence on stderr with the input quoted short and escaped, and a
//! non-zero exit.

use std::time::Duration;

use assert_cmd::Command;
use assert_cmd::assert::OutputAssertExt;
use neuron_tool::quote::QUOTE_MAX;

/// Far above what any case takes; only so that a regression fails instead of hanging.
const GUARD: Duration = Duration::from_secs(120);

fn tool() -> Command {
    let mut c = Command::cargo_bin("neuron-tool").unwrap();
    c.timeout(GUARD);
    c
}

/// Runs `cmd`, expects a non-zero exit and exactly `want` as the one line of stderr.
/// Returns stdout.
fn refused(cmd: &mut Command, want: &str) -> String {
    let a = cmd.assert().failure();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(err, format!("{want}\n"));
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

/// `'\0\0…'... (N bytes)`: what a message shows of `n` NUL bytes.
fn nuls(n: usize) -> String {
    format!("'{}'... ({n} bytes)", r"\0".repeat(QUOTE_MAX))
}

#[test]
fn batch_from_dev_zero_is_refused_at_line_max() {
    // Straight from the device (assert_cmd's pipe_stdin would read it whole first).
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("neuron-tool"));
    cmd.args(["desc", "build", "--batch"])
        .stdin(std::fs::File::open("/dev/zero").unwrap());
    let a = cmd.assert().failure();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(
        err,
        format!(
            "error: batch line 1 is longer than 2048 bytes (POSIX LINE_MAX; a well-formed line \
             is under 150), it starts {}",
            nuls(QUOTE_MAX + 1) + "\n"
        ),
    );
    assert_eq!(a.get_output().stdout, b"");
    // The lines before the long one are answered.
    let input = format!("1 1 0x10 0x20 16 0 0\n{}\n", "9".repeat(2049));
    let out = refused(
        tool().args(["desc", "build", "--batch"]).write_stdin(input),
        &format!(
            "error: batch line 2 is longer than 2048 bytes (POSIX LINE_MAX; a well-formed line \
             is under 150), it starts '{}'... (65 bytes)",
            "9".repeat(QUOTE_MAX)
        ),
    );
    assert!(out.starts_with("ok ") && out.lines().count() == 1, "{out}");
}

#[test]
fn batches_with_refused_lines_exit_non_zero() {
    let out = refused(
        tool()
            .args(["desc", "build", "--batch"])
            .write_stdin("garbage\n1 1 0x10\n"),
        "error: 2 of 2 batch line(s) refused; the first, line 1: field tx_ring 'garbage' is \
         not a 64-bit number (0x hex or decimal)",
    );
    assert_eq!(
        out,
        "err field tx_ring 'garbage' is not a 64-bit number (0x hex or decimal)\n\
         err missing field dst (expected: tx_ring rx_ring src dst size barrier int)\n"
    );
    // Partly bad: every line answered in place, and the exit says some were refused.
    let out = refused(
        tool()
            .args(["desc", "build", "--batch"])
            .write_stdin("1 1 0x10 0x20 16 0 0\n1 1 0x10 0x20 16 9 0\n1 1 0x10 0x20 16 0 0\n"),
        "error: 1 of 3 batch line(s) refused; the first, line 2: barrier 9 invalid (0 none, 1 \
         dmb, 2 write-barrier, 3 sow)",
    );
    assert_eq!(out.lines().filter(|l| l.starts_with("ok ")).count(), 2);
    // No lines, nothing refused.
    tool()
        .args(["desc", "build", "--batch"])
        .write_stdin("")
        .assert()
        .success()
        .stdout("");
}

#[test]
fn messages_quote_input_short_and_escaped() {
    // A field of NULs a megabyte long would be refused as too long; one under the line
    // bound still shows only QUOTE_MAX bytes of it.
    let line = format!("1 1 {} 0 1 0 0\n", "\0".repeat(2000));
    let out = refused(
        tool().args(["desc", "build", "--batch"]).write_stdin(line),
        &format!(
            "error: 1 of 1 batch line(s) refused; the first, line 1: field src {} is not a \
             64-bit number (0x hex or decimal)",
            nuls(2000)
        ),
    );
    assert!(!out.contains('\0'), "{out:?}");
    let hex = format!("{}\u{1b}[2J", "0".repeat(100_000));
    refused(
        tool().args(["desc", "decode", &hex]),
        &format!(
            "error: bad descriptor hex '{}'... (100004 bytes): more than 32 hex digits (a \
             descriptor is 16 bytes)",
            "0".repeat(QUOTE_MAX)
        ),
    );
    let long = "7".repeat(100_000);
    let q = format!("'{}'... (100000 bytes)", "7".repeat(QUOTE_MAX));
    let a = tool().args(["copy", "--size", &long]).assert().code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(
        err,
        format!("error: invalid value {q} for '--size <SIZE>': {q} is too large\n")
    );
}
