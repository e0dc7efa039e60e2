//! Issue 25 item 5: the tool with bad input, through the built binary. Every case is bounded
//! input, one `error: ` sentence on stderr with the input quoted short and escaped, and a
//! non-zero exit.

use std::io::Write;
use std::time::Duration;

use assert_cmd::Command;
use assert_cmd::assert::OutputAssertExt;
use neuron_tool::memory_bound::HostMemory;
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

fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(bytes).unwrap();
    f.flush().unwrap();
    f
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().unwrap()
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
             is under 150), it starts '{}'\n",
            r"\0".repeat(QUOTE_MAX)
        ),
    );
    assert_eq!(a.get_output().stdout, b"");
    // The lines before the long one are answered.
    let input = format!("1 1 0x10 0x20 16 0 0\n{}\n", "9".repeat(2049));
    let out = refused(
        tool().args(["desc", "build", "--batch"]).write_stdin(input),
        &format!(
            "error: batch line 2 is longer than 2048 bytes (POSIX LINE_MAX; a well-formed line \
             is under 150), it starts '{}'",
            "9".repeat(QUOTE_MAX)
        ),
    );
    assert!(out.starts_with("ok ") && out.lines().count() == 1, "{out}");
}

#[test]
fn ring_dumps_larger_than_the_largest_ring_are_refused() {
    let bound = "holds more than 268435200 bytes, the largest ring (16777200 descriptors of 16 \
                 bytes, the driver's DMA_QUEUE_INIT limit)";
    refused(
        tool().args(["ring", "decode", "/dev/zero", "--arch", "cayman"]),
        &format!("error: ring dump '/dev/zero' {bound}"),
    );
    let big = tempfile::NamedTempFile::new().unwrap();
    big.as_file().set_len(300 << 20).unwrap();
    refused(
        tool().args(["ring", "decode", path(&big), "--arch", "cayman"]),
        &format!("error: ring dump '{}' {bound}", path(&big)),
    );
}

/// 32 META | FIRST | LAST descriptors: packets the phase check skips, so only the posted
/// count bounds the walk.
fn meta_ring() -> tempfile::NamedTempFile {
    file(&[0x00, 0x00, 0x80, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0].repeat(32))
}

#[test]
fn ring_posted_is_bounded_by_the_ring() {
    let f = meta_ring();
    let decode = |posted| {
        let mut c = tool();
        c.args([
            "ring",
            "decode",
            path(&f),
            "--arch",
            "cayman",
            "--posted",
            posted,
        ]);
        c
    };
    for posted in ["33", "5000000000", "18446744073709551615"] {
        refused(
            &mut decode(posted),
            &format!(
                "error: --posted {posted} is more than the ring's 32 descriptors (the engine's \
                 tail is at most one ring ahead of its head; the driver refuses a doorbell \
                 count above the ring size)"
            ),
        );
    }
    let a = decode("32").assert().success();
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    assert!(
        out.contains("taken: 32 descriptors, 32 complete packet(s), 0 bytes"),
        "{out}"
    );
}

#[test]
fn empty_truncated_and_garbage_ring_dumps_are_errors() {
    let empty = file(b"");
    refused(
        tool().args(["ring", "decode", path(&empty), "--arch", "cayman"]),
        &format!(
            "error: ring dump '{}' is empty (a dump holds 16 bytes per descriptor)",
            path(&empty)
        ),
    );
    let truncated = file(&[0u8; 21]);
    refused(
        tool().args(["ring", "decode", path(&truncated), "--arch", "cayman"]),
        &format!(
            "error: ring dump '{}' is 21 bytes, not a whole number of 16-byte descriptors (its \
             last 5 bytes are part of one: a truncated dump?)",
            path(&truncated)
        ),
    );
    let text = file(b"0010000d030008010020000000000000\n");
    refused(
        tool().args(["ring", "decode", path(&text), "--arch", "cayman"]),
        &format!(
            "error: ring dump '{}' holds only hex digits and blanks: it is hex text, not raw \
             bytes (`xxd -r -p` converts it)",
            path(&text)
        ),
    );
    // Bytes of 0x05: ring id 1 and FIRST in every slot, never LAST; the engine faults at
    // the second FIRST. The decode is printed, the exit says the ring is bad.
    let garbage = file(&[0x05; 64]);
    let out = refused(
        tool().args(["ring", "decode", path(&garbage), "--arch", "cayman"]),
        "error: the engine faults: TX slot 1: FIRST inside an open packet (LAST missing)",
    );
    assert!(out.contains("   1  FAULT"), "{out}");
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

#[test]
fn serve_memory_beyond_the_arch_or_the_machine_is_refused_before_allocating() {
    let dir = tempfile::tempdir().unwrap();
    let mount = dir.path().to_str().unwrap();
    refused(
        tool().args(["serve", "--mount", mount, "--memory", "1000GiB"]),
        "error: --memory 1073741824000 bytes is more than an HBM channel of CAYMAN holds \
         (25769803776 bytes)",
    );
    refused(
        tool().args([
            "serve", "--mount", mount, "--arch", "sunda", "--memory", "17GiB",
        ]),
        "error: --memory 18253611008 bytes is more than an HBM channel of SUNDA holds \
         (17179869184 bytes)",
    );
    // Within the arch, beyond what this machine can back (the CI machine has 24 GiB and no
    // swap); a machine that could back a 36 GiB region has nothing to refuse here.
    let machine = HostMemory::read().unwrap();
    if machine.backable() < 36 << 30 {
        refused(
            tool().args([
                "serve", "--mount", mount, "--arch", "mariana", "--memory", "36GiB",
            ]),
            &format!(
                "error: --memory 38654705664 bytes is more than this machine's RAM and swap \
                 ({} bytes, /proc/meminfo), so no region of the model that large can be \
                 allocated",
                machine.backable()
            ),
        );
    } else {
        println!("SKIP: this machine backs 36 GiB ({machine:?})");
    }
}

#[test]
fn copy_beyond_what_the_machine_has_available_is_refused_before_allocating() {
    // 20 GiB fits a V3 HBM channel (24 GiB); the copy writes it twice into the model.
    let machine = HostMemory::read().unwrap();
    let written: u64 = 2 * (20 << 30) + 2 * 4096 * 16 + (1 << 20);
    if machine.available < written {
        let a = tool().args(["copy", "--size", "20GiB"]).assert().failure();
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert!(
            err.starts_with(&format!(
                "error: a copy of 21474836480 bytes writes {written} bytes into the built-in \
                 model (source, destination and rings), more than the "
            )) && err
                .ends_with(" bytes this machine has available (MemAvailable, /proc/meminfo)\n"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    } else {
        println!(
            "SKIP: this machine has {} bytes available",
            machine.available
        );
    }
}

#[test]
fn help_states_the_exit_rules() {
    let help = |args: &[&str]| {
        let a = tool().args(args).assert().success();
        String::from_utf8(a.get_output().stdout.clone()).unwrap()
    };
    let batch = help(&["desc", "build", "--help"]);
    assert!(
        batch.contains("at most 2048 bytes each")
            && batch.contains("Exits non-zero when any line was refused"),
        "{batch}"
    );
    let ring = help(&["ring", "decode", "--help"]);
    assert!(
        ring.contains("non-zero, after the decode, when it would fault")
            && ring.contains("larger than the largest ring"),
        "{ring}"
    );
}
