//! `desc build` (single and batch) against the vendor golden vectors, and `desc decode`.

use assert_cmd::Command;
use predicates::prelude::*;

const VECTORS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/desc-vectors-sample.tsv"
));

/// One row of `desc-vectors-sample.tsv`.
struct Row<'a> {
    case: &'a str,
    tx_ring: &'a str,
    rx_ring: &'a str,
    src: &'a str,
    dst: &'a str,
    size: u64,
    barrier: &'a str,
    int: &'a str,
    rc: i32,
    tx: &'a str,
    rx: &'a str,
}

impl Row<'_> {
    /// What this project must answer: the vendor bytes, except that size 0 (which the
    /// kernel silently turns into 64 KiB) and every kernel error are refused.
    fn expect_ok(&self) -> bool {
        self.rc == 0 && self.size != 0
    }
}

fn rows() -> Vec<Row<'static>> {
    let mut lines = VECTORS.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(
        header,
        [
            "case",
            "tx_ring_id",
            "rx_ring_id",
            "src",
            "dst",
            "size",
            "barrier_type",
            "set_dst_int",
            "rc",
            "tx_desc_hex",
            "rx_desc_hex"
        ]
    );
    let rows: Vec<Row> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                case: f[0],
                tx_ring: f[1],
                rx_ring: f[2],
                src: f[3],
                dst: f[4],
                size: f[5].parse().unwrap(),
                barrier: f[6],
                int: f[7],
                rc: f[8].parse().unwrap(),
                tx: f[9],
                rx: f[10],
            }
        })
        .collect();
    assert_eq!(rows.len(), 40, "desc-vectors-sample.tsv has 40 vectors");
    // The sample covers every outcome this test distinguishes.
    assert!(rows.iter().any(|r| r.expect_ok()));
    assert!(rows.iter().any(|r| r.rc == 0 && r.size == 0));
    assert!(rows.iter().any(|r| r.rc == -22));
    assert!(rows.iter().any(|r| r.rc == -1));
    rows
}

fn tool() -> Command {
    Command::cargo_bin("neuron-tool").unwrap()
}

/// `neuron-tool desc build` with the ring ids and addresses given (size and flags to add).
fn desc_build(tx_ring: &str, rx_ring: &str, src: &str, dst: &str) -> Command {
    let mut cmd = tool();
    cmd.args(["desc", "build", "--tx-ring", tx_ring, "--rx-ring", rx_ring])
        .args(["--src", src, "--dst", dst]);
    cmd
}

#[test]
fn batch_matches_every_golden_vector_byte_for_byte() {
    let rows = rows();
    let input: String = rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {} {}\n",
                r.tx_ring, r.rx_ring, r.src, r.dst, r.size, r.barrier, r.int
            )
        })
        .collect();
    let out = batch(&input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), rows.len(), "one output line per input line");
    for (r, line) in rows.iter().zip(&lines) {
        if r.expect_ok() {
            assert_eq!(*line, format!("ok {} {}", r.tx, r.rx), "case {}", r.case);
        } else {
            // The reason is the one the vector's rc stands for: -22 the barrier type
            // (the kernel's -EINVAL), -1 a size above 64 KiB, rc 0 with size 0 the size.
            let reason = match r.rc {
                -22 => "barrier",
                -1 => "above 65536",
                _ => "size 0",
            };
            assert!(
                line.starts_with("err ") && line.contains(reason),
                "case {} (rc {}): want '{reason}' in {line}",
                r.case,
                r.rc
            );
        }
    }
}

/// Runs `desc build --batch` on `input` and returns its stdout. Bad lines are reported in
/// place; the command succeeds when there are none and otherwise fails with one sentence
/// that counts them and repeats the first one's reason.
fn batch(input: &str) -> String {
    batch_as("cayman", input)
}

fn batch_as(arch: &str, input: &str) -> String {
    let a = tool()
        .args(["desc", "build", "--batch", "--arch", arch])
        .write_stdin(input.to_owned())
        .assert();
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let refused: Vec<(usize, &str)> = (1..)
        .zip(&lines)
        .filter_map(|(n, l)| Some((n, l.strip_prefix("err ")?)))
        .collect();
    match refused.first() {
        None => {
            a.success().stderr("");
        }
        Some((first, reason)) => {
            let want = format!(
                "error: {} of {} batch line(s) refused; the first, line {first}: {reason}\n",
                refused.len(),
                lines.len()
            );
            a.failure().stderr(want);
        }
    }
    out
}

#[test]
fn single_build_matches_the_golden_vectors() {
    for r in rows() {
        let barrier = match r.barrier {
            "0" => "none",
            "1" => "dmb",
            "2" => "write-barrier",
            "3" => "sow",
            other => other, // 4: the CLI refuses it like the kernel
        };
        let mut cmd = tool();
        cmd.args([
            "desc",
            "build",
            "--tx-ring",
            r.tx_ring,
            "--rx-ring",
            r.rx_ring,
        ])
        .args([
            "--src",
            r.src,
            "--dst",
            r.dst,
            "--size",
            &r.size.to_string(),
        ])
        .args(["--barrier", barrier]);
        if r.int == "1" {
            cmd.arg("--int");
        }
        if r.expect_ok() {
            cmd.assert()
                .success()
                .stdout(format!("tx={} rx={}\n", r.tx, r.rx));
        } else {
            cmd.assert()
                .failure()
                .stdout("")
                .stderr(predicate::str::starts_with("error: "));
        }
    }
}

#[test]
fn batch_refuses_sow_on_sunda_and_accepts_it_on_mariana() {
    let line = "1 1 0x1000 0x2000 4096 3 0\n";
    let out = batch_as("sunda", line);
    assert!(out.starts_with("err ") && out.contains("SOW"), "{out}");
    assert!(batch_as("mariana", line).starts_with("ok "));
}

#[test]
fn batch_reports_bad_lines_in_place() {
    let out = batch("1 1 0x1000 0x2000 4096 0 0\nnot a line\n1 1 0x1000\n1 1 0x1 0x2 3 0 1");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("ok "));
    assert!(
        lines[1].starts_with("err field tx_ring 'not'"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("err missing field dst"),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("ok "));
}

#[test]
fn single_build_refuses_bad_input_in_one_sentence() {
    let base = [
        "desc",
        "build",
        "--tx-ring",
        "1",
        "--rx-ring",
        "1",
        "--src",
        "0x1000",
        "--dst",
        "0x2000",
    ];
    for (extra, want) in [
        (vec!["--size", "0"], "transfer size 0"),
        (vec!["--size", "65537"], "above 65536"),
        (
            vec!["--size", "4096", "--barrier", "sow", "--arch", "sunda"],
            "SOW",
        ),
    ] {
        let a = tool().args(base).args(&extra).assert().failure();
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{extra:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Ring id out of range: our own check, one sentence.
    desc_build("4", "1", "0", "0")
        .args(["--size", "1"])
        .assert()
        .failure()
        .stderr("error: --tx-ring 4 is not a ring id (0..3)\n");
    // Bad size and bad address: clap's usage error (non-zero, names the value).
    tool()
        .args(base)
        .args(["--size", "5XiB"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("5XiB"));
    desc_build("1", "1", "0xZZ", "0")
        .args(["--size", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("0xZZ"));
    // A well-formed address too large for 64 bits says so, not "not a number".
    desc_build("1", "1", "0x10000000000000000", "0")
        .args(["--size", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "'0x10000000000000000' does not fit in 64 bits",
        ));
}

#[test]
fn batch_names_a_field_too_large_for_64_bits() {
    assert_eq!(
        batch("1 1 0x10000000000000000 0x2000 4096 0 0\n"),
        "err field src '0x10000000000000000' is not a 64-bit number (0x hex or decimal)\n"
    );
}

#[test]
fn sizes_accept_binary_suffixes() {
    desc_build("1", "1", "0x1000", "0x2000")
        .args(["--size", "64KiB", "--barrier", "dmb"])
        .assert()
        .success()
        .stdout("tx=0000004d030008010010000000000000 rx=00000001000000000020000000000000\n");
}

#[test]
fn decode_names_every_field() {
    let a = tool()
        .args(["desc", "decode", "0000004d030008010010000000000000"])
        .assert()
        .success();
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    for f in udma_desc::TxLenCtrl::FIELDS
        .iter()
        .chain(udma_desc::MetaCtrl::FIELDS.iter())
    {
        assert!(out.contains(f.name), "{} missing:\n{out}", f.name);
    }
    assert!(out.contains("(65536 bytes)"), "{out}");
    assert!(out.contains("buf_ptr = 0x0000000000001000"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("DMB") && l.ends_with("0x1")),
        "{out}"
    );

    let a = tool()
        .args(["desc", "decode", "--rx", "00000021000000000020000000000000"])
        .assert()
        .success();
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    for f in udma_desc::RxLenCtrl::FIELDS.iter() {
        assert!(out.contains(f.name), "{} missing:\n{out}", f.name);
    }
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("STRONG_ORDER_WR") && l.ends_with("0x1")),
        "{out}"
    );
    assert!(out.contains("buf1_ptr = 0x0000000000002000"), "{out}");
}

#[test]
fn decode_shows_meta_descriptors_and_reserved_bits() {
    // CME meta descriptor (index 2): (2 << 24) | FIRST | META, seed 004 §1 build_cme_packet.
    let cme = udma_desc::cme_descriptor(2).unwrap().to_string();
    tool()
        .args(["desc", "decode", &cme])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("meta descriptor")
                .and(predicate::str::contains("CME index 2")),
        );
    // Bit 29 of TX len_ctrl belongs to no field.
    tool()
        .args(["desc", "decode", "00000020000000000000000000000000"])
        .assert()
        .success()
        .stdout(predicate::str::contains("reserved bits set: 0x20000000"));
}

#[test]
fn decode_refuses_bad_hex_in_one_sentence() {
    for bad in [
        "0000004d",
        "zz00004d030008010010000000000000",
        "0000004d0300080100100000000000001234",
    ] {
        let a = tool()
            .args(["desc", "decode", bad])
            .assert()
            .failure()
            .stdout("");
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        assert!(err.starts_with("error: bad descriptor hex"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
