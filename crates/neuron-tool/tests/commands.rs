//! `ring decode`, `regs`, `arch`, `ioctl`, `bench build` and `copy`, driven as a user would,
//! including bad input: every failure is one `error: ...` line on stderr and a non-zero exit.

mod common;

use std::io::Write;

use assert_cmd::Command;
use predicates::prelude::*;

use common::tx;

fn tool() -> Command {
    Command::cargo_bin("neuron-tool").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let a = tool().args(args).assert().success();
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

/// Runs `args`, expects failure with exactly one stderr line starting `error: ` and
/// containing `want`, and nothing on stdout.
fn fails_with(args: &[&str], want: &str) {
    let a = tool().args(args).assert().failure().stdout("");
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: want '{want}' in {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one sentence, got {err}");
}

/// Runs a `ring decode` whose engine faults: the decode on stdout, then a non-zero exit
/// with the fault as the one `error: ` sentence on stderr. Returns stdout.
fn decode_faults(args: &[&str], fault: &str) -> String {
    let a = tool().args(args).assert().failure();
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(
        err,
        format!("error: the engine faults: {fault}\n"),
        "{args:?}"
    );
    assert!(
        out.contains(&format!("; the engine faults: {fault}\n")),
        "{out}"
    );
    out
}

fn dump(descs: &[[u8; 16]], trailing: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    for d in descs {
        f.write_all(d).unwrap();
    }
    f.write_all(trailing).unwrap();
    f.flush().unwrap();
    f
}

#[test]
fn ring_decode_marks_taken_slots_and_the_first_fault() {
    let f = dump(
        &[
            tx(1, true, true),
            tx(1, true, false),
            tx(1, false, true),
            tx(0, true, true), // stale: not written for this lap
        ],
        &[],
    );
    let path = f.path().to_str().unwrap();
    let out = stdout_of(&["ring", "decode", path, "--arch", "cayman"]);
    assert!(slot_line(&out, 0).contains("take 1"), "{out}");
    assert!(slot_line(&out, 2).contains("take 3"), "{out}");
    assert!(
        slot_line(&out, 3).contains("STOP") && slot_line(&out, 3).contains("expects 1"),
        "{out}"
    );
    assert!(out.contains("3 posted (ring ids of this lap)"), "{out}");
    assert!(
        out.contains("taken: 3 descriptors, 2 complete packet(s), 12288 bytes"),
        "{out}"
    );
    assert!(
        out.contains("the engine takes every posted descriptor"),
        "{out}"
    );

    // Posted by doorbells past the lap: the stale slot is the model's PREFETCH_RING_ID
    // (M2S cause bit 17, iofic.tsv).
    let out = decode_faults(
        &["ring", "decode", path, "--arch", "cayman", "--posted", "4"],
        "TX slot 3: ring id 0, expected 1",
    );
    assert!(slot_line(&out, 3).contains("FAULT"), "{out}");
    assert!(out.contains("cause bit 0x00020000 of the M2S"), "{out}");

    // With the head at slot 3 expecting phase 0, the wrap makes slots 0..2 the next pass
    // (phase 1): the engine takes all four.
    let out = stdout_of(&[
        "ring", "decode", path, "--arch", "cayman", "--head", "3", "--phase", "0",
    ]);
    assert!(out.contains("4 posted"), "{out}");
    assert!(
        slot_line(&out, 3).contains("take 1") && slot_line(&out, 0).contains("take 2"),
        "{out}"
    );

    // FIRST inside an open packet: PREFETCH_LAST at slot 1, nothing taken.
    let f = dump(&[tx(1, true, false), tx(1, true, true)], &[]);
    let path = f.path().to_str().unwrap();
    decode_faults(
        &["ring", "decode", path, "--arch", "sunda"],
        "TX slot 1: FIRST inside an open packet (LAST missing)",
    );
}

fn slot_line(out: &str, n: usize) -> String {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(&n.to_string()))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn ring_decode_uses_the_arch_packet_limit() {
    let mut descs = vec![tx(1, false, false); 66];
    descs[0] = tx(1, true, false);
    descs[65] = tx(1, false, true);
    let f = dump(&descs, &[]);
    let path = f.path().to_str().unwrap();
    let v3 = tool()
        .args(["ring", "decode", path, "--arch", "cayman"])
        .assert()
        .failure()
        .stderr(predicate::str::starts_with(
            "error: the engine faults: TX packet longer than 65 descriptors",
        ));
    let v3 = String::from_utf8(v3.get_output().stdout.clone()).unwrap();
    assert!(v3.contains("at most 65 descriptors"), "{v3}");
    let v2 = stdout_of(&["ring", "decode", path, "--arch", "sunda"]);
    assert!(
        v2.contains("the engine takes every posted descriptor"),
        "{v2}"
    );
}

#[test]
fn ring_decode_bad_input() {
    fails_with(
        &[
            "ring",
            "decode",
            "/nonexistent/ring.bin",
            "--arch",
            "cayman",
        ],
        "cannot read '/nonexistent/ring.bin'",
    );
    let f = dump(&[tx(1, true, true)], &[]);
    let path = f.path().to_str().unwrap();
    fails_with(
        &["ring", "decode", path, "--arch", "cayman", "--phase", "4"],
        "--phase 4",
    );
    fails_with(
        &["ring", "decode", path, "--arch", "cayman", "--head", "1"],
        "--head 1",
    );
    tool()
        .args(["ring", "decode", path, "--arch", "trainium"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("trainium"));
}

/// `(block, register) -> abs offset` rows of `udma-registers.tsv`.
fn table_abs(block: &str, name: &str) -> Option<usize> {
    let t = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/udma-registers.tsv"
    ));
    t.lines().find_map(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        (f.first() == Some(&block) && f.get(1) == Some(&name))
            .then(|| usize::from_str_radix(f.get(3)?.trim_start_matches("0x"), 16).ok())
            .flatten()
    })
}

#[test]
fn regs_offsets_agree_with_the_reference_table() {
    for arch in ["sunda", "cayman", "mariana"] {
        for (block, table_block) in [("m2s", "m2s"), ("s2m", "s2m")] {
            let out = stdout_of(&["regs", "--arch", arch, "--block", block]);
            let mut checked = 0;
            for l in out.lines().filter(|l| {
                l.starts_with("  0x")
                    && !l.contains("[seed 004 only]")
                    && !l.contains("[driver 2.27.4.0 on")
            }) {
                let f: Vec<&str> = l.split_whitespace().collect();
                let abs = usize::from_str_radix(f[0].trim_start_matches("0x"), 16).unwrap();
                assert_eq!(table_abs(table_block, f[2]), Some(abs), "{arch} {l}");
                checked += 1;
            }
            assert!(checked >= 20, "{arch} {block}: {checked} rows");
        }
    }
    let s2m = stdout_of(&["regs", "--arch", "cayman", "--block", "s2m"]);
    assert!(
        s2m.contains("0x20344  +0x0344  s2m.no_desc_cfg [seed 004 only]"),
        "{s2m}"
    );
    let q = stdout_of(&["regs", "--arch", "cayman", "--block", "queue"]);
    assert!(q.contains("0x01038  +0x0038  tdrtp_inc"), "{q}");
    assert!(q.contains("0x21064  +0x0064  q_sw_ctrl"), "{q}");
    // reference/abi/unknowns-2.27-2.30.md (e): the prefetch words 2.27.4.0 adds, marked.
    for at in ["0x01004  +0x0004", "0x21000  +0x0000", "0x21004  +0x0004"] {
        let line = q
            .lines()
            .find(|l| l.contains(at))
            .unwrap_or_else(|| panic!("{at}: {q}"));
        assert!(
            line.ends_with("[driver 2.27.4.0 on: no fields known, the kernel never writes it]")
        );
    }
    let i = stdout_of(&["regs", "--arch", "cayman", "--block", "iofic"]);
    assert!(i.contains("0x380c0  +0x00c0  primary group D"), "{i}");
    assert!(i.contains("+0x18  int_mask_clear_grp"), "{i}");
    let all = stdout_of(&["regs", "--arch", "mariana"]);
    for section in ["[m2s]", "[s2m]", "[gen]", "[gen_ex]", "[queue]", "[iofic]"] {
        assert!(all.contains(section), "{section}");
    }
    assert!(all.contains("V4 (MARIANA)"));
    tool()
        .args(["regs", "--arch", "trainium"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("trainium"));
}

#[test]
fn arch_by_device_id() {
    for (id, generation, max) in [
        ("0x7164", "V2 (SUNDA)", "128"),
        ("0x7264", "V2 (SUNDA)", "128"),
        ("0x7364", "V3 (CAYMAN)", "65"),
        ("0x7564", "V4 (MARIANA)", "65"),
        ("0x7565", "V4 (MARIANA)", "65"),
    ] {
        let out = stdout_of(&["arch", "--device-id", id]);
        assert!(
            out.contains(&format!("generation {generation}")),
            "{id}: {out}"
        );
        assert!(
            out.lines()
                .any(|l| l.contains("max TX descriptors per packet") && l.ends_with(max)),
            "{id}: {out}"
        );
        assert!(out.contains("hbm_active_size"), "{id}: scalars listed");
    }
    let v3 = stdout_of(&["arch", "--device-id", "0x7364"]);
    assert!(v3.contains("trn2"));
    assert!(
        v3.lines()
            .any(|l| l.contains("strong-ordered writes") && l.ends_with("yes"))
    );
    assert!(
        v3.lines()
            .any(|l| l.starts_with("  hbm_active_size") && l.ends_with("0x600000000"))
    );
    let v2 = stdout_of(&["arch", "--arch", "sunda"]);
    assert!(
        v2.lines()
            .any(|l| l.contains("strong-ordered writes") && l.ends_with("no"))
    );
    let v4 = stdout_of(&["arch", "--arch", "mariana"]);
    assert!(
        v4.lines()
            .any(|l| l.contains("notification mask") && l.ends_with("yes"))
    );
}

#[test]
fn arch_bad_input() {
    fails_with(
        &["arch", "--device-id", "0x7464"],
        "unknown Neuron PCI device id 0x7464",
    );
    fails_with(
        &["arch", "--device-id", "0x17364"],
        "not a 16-bit PCI device id",
    );
    tool()
        .args(["arch", "--device-id", "trn2"])
        .assert()
        .failure();
    tool().arg("arch").assert().failure();
}

#[test]
fn ioctl_list_is_the_reference_table() {
    let t = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/ioctl-commands.tsv"
    ));
    let want: Vec<String> = t
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            // name request_hex dir nr ioc_size ... lane
            format!("{} {} {} {} {} {}", f[0], f[1], f[2], f[3], f[4], f[9])
        })
        .collect();
    let out = stdout_of(&["ioctl", "list"]);
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), 101);
    assert_eq!(got, want);
}

#[test]
fn ioctl_decode() {
    let out = stdout_of(&["ioctl", "decode", "0xC0084E69"]);
    assert!(out.contains("NEURON_IOCTL_PROGRAM_ENGINE_NC"), "{out}");
    assert!(
        out.contains("dir WR nr 105 size 8") && out.contains("lane device"),
        "{out}"
    );
    // MEM_COPY's nr with a size neither sibling has: routed by nr to the family.
    let out = stdout_of(&["ioctl", "decode", "0x80104E17"]);
    assert!(
        out.contains("NEURON_IOCTL_MEM_COPY") && out.contains("MEM_COPY64"),
        "{out}"
    );
    let out = stdout_of(&["ioctl", "decode", "0x12345678"]);
    assert!(out.contains("not a Neuron request"), "{out}");
    tool()
        .args(["ioctl", "decode", "C0084E69x"])
        .assert()
        .failure();
    // A sign is no digit (found by the ioctl_decode fuzz target).
    for signed in ["+6", "0x+6"] {
        tool()
            .args(["ioctl", "decode", signed])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "'{signed}' is not a number (use 0x-prefixed hex or decimal)"
            )));
    }
}

#[test]
fn bench_build_prints_ns_per_pair() {
    for arch in ["sunda", "cayman", "mariana"] {
        let out = stdout_of(&["bench", "build", "--arch", arch, "--pairs", "20000"]);
        assert!(
            out.contains("20000 copy pairs into a 4096-entry ring pair (4 ring acks)"),
            "{out}"
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[1].contains("single (copy_prepare_one)"), "{out}");
        assert!(
            lines[2].contains("batch of 255 (copy_prepare_batch)"),
            "{out}"
        );
        assert!(
            lines[1..].iter().all(|l| l.ends_with("ns per pair")),
            "{out}"
        );
    }
    fails_with(
        &["bench", "build", "--arch", "cayman", "--pairs", "0"],
        "--pairs",
    );
}

/// `copy --json` on the built-in model, parsed; asserts success (exit 0).
fn copy_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["copy", "--json"];
    all.extend_from_slice(args);
    let out = stdout_of(&all);
    assert_eq!(out.lines().count(), 1, "{out}");
    serde_json::from_str(out.trim()).unwrap()
}

#[test]
fn copy_runs_on_the_built_in_model_and_verifies() {
    let out = stdout_of(&["copy", "--size", "1MiB"]);
    assert!(out.contains("copied 1.00 MiB (1048576 bytes)"), "{out}");
    assert!(
        out.contains("on the built-in device model, CAYMAN, driver path (mmap)"),
        "{out}"
    );
    assert!(out.contains("16 descriptor pairs in 1 batch(es)"), "{out}");
    assert!(out.contains("every byte verified"), "{out}");
    let v = copy_json(&[]);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "arch",
            "barrier",
            "batches",
            "bytes",
            "bytes_per_second",
            "delivery",
            "descriptors",
            "device",
            "engine",
            "path",
            "queue",
            "seconds",
            "verified"
        ]
    );
    assert_eq!(v["device"], "the built-in device model");
    assert_eq!(v["path"], "driver");
    // Core 0's H2T engine on V3 is engine 128 (dma-path.md step 1); its default queues 0
    // and 1 are the driver's, so the first service queue is 2.
    assert_eq!(
        (v["engine"].as_u64(), v["queue"].as_u64()),
        (Some(128), Some(2))
    );
    // The rate is the figure it claims to be, bytes over seconds (no timing is asserted).
    let (seconds, rate) = (
        v["seconds"].as_f64().unwrap(),
        v["bytes_per_second"].as_f64().unwrap(),
    );
    let bytes = v["bytes"].as_f64().unwrap();
    if seconds > 0.0 {
        assert!((rate * seconds - bytes).abs() <= bytes * 1e-9, "{v}");
    } else {
        assert_eq!(rate, 0.0, "{v}");
    }
}

#[test]
fn copy_every_arch_size_and_delivery_verifies() {
    // (size, descriptor pairs): one pair per 64 KiB or less.
    let cases: [(&str, u64); 4] = [("1", 1), ("64KiB", 1), ("65537", 2), ("1048581", 17)];
    for arch in ["sunda", "cayman", "mariana"] {
        for delivery in ["mmap", "copy-descriptors"] {
            for (size, descriptors) in cases {
                let v = copy_json(&["--arch", arch, "--size", size, "--delivery", delivery]);
                assert_eq!(v["arch"], arch.to_uppercase(), "{arch} {size}");
                assert_eq!(v["bytes"].to_string(), size.replace("64KiB", "65536"));
                assert_eq!(v["descriptors"], descriptors, "{arch} {size}");
                assert_eq!(v["batches"], 1, "{arch} {size}");
                assert_eq!(v["delivery"], delivery);
                assert_eq!(v["verified"], true, "{arch} {size}");
            }
        }
    }
}

#[test]
fn copy_with_small_rings_wraps_them() {
    // 32-entry rings take 16 entries a batch, one of them the completion marker pair:
    // 20 MiB + 3 is 321 pairs in 22 batches, and the rings wrap eleven times.
    for arch in ["sunda", "cayman", "mariana"] {
        let v = copy_json(&["--arch", arch, "--size", "20971523", "--ring-size", "32"]);
        assert_eq!(v["descriptors"], 321);
        assert_eq!(v["batches"], 22);
        assert_eq!(v["verified"], true);
    }
}

#[test]
fn copy_every_barrier_and_queue() {
    for arch in ["sunda", "cayman", "mariana"] {
        for barrier in ["none", "dmb", "write-barrier", "sow"] {
            let args = ["--arch", arch, "--size", "200000", "--barrier", barrier];
            if arch == "sunda" && barrier == "sow" {
                fails_with(
                    &["copy", args[0], args[1], args[2], args[3], args[4], args[5]],
                    "SUNDA has no strong-ordered write (SOW); use --barrier none, dmb or write-barrier",
                );
                continue;
            }
            let v = copy_json(&args);
            assert_eq!(v["barrier"], barrier);
            assert_eq!(v["descriptors"].as_u64(), Some(4));
            assert_eq!(v["verified"], true);
        }
    }
    for queue in ["0", "7", "15"] {
        let v = copy_json(&["--engine", "5", "--queue", queue, "--size", "100000"]);
        assert_eq!(v["engine"], 5);
        assert_eq!(v["queue"].to_string(), queue);
        assert_eq!(v["verified"], true);
    }
    fails_with(&["copy", "--queue", "16"], "queue id 16 out of range");
    // The H2T engine's default queue carries the driver's own copies.
    fails_with(
        &["copy", "--engine", "128", "--queue", "0"],
        "DMA_QUEUE_INIT refused engine 128 queue 0",
    );
}

#[test]
fn copy_register_level_is_an_opt_in_on_the_model_only() {
    let v = copy_json(&["--register-level", "--size", "100000"]);
    assert_eq!(v["path"], "register-level");
    assert_eq!(v["verified"], true);
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        &[
            "copy",
            "--register-level",
            "--device",
            dir.path().to_str().unwrap(),
        ],
        "runs on the built-in model only",
    );
}

#[test]
fn copy_on_a_missing_device_says_so() {
    let empty = tempfile::tempdir().unwrap();
    let root = empty.path().to_str().unwrap();
    let node = format!("{root}/neuron0");
    // A directory is a node root (device 0); /dev/neuronN is device N under its directory.
    for arg in [root, node.as_str()] {
        fails_with(
            &["copy", "--device", arg],
            &format!("no Neuron device at '{node}' (open failed: No such file or directory"),
        );
    }
    fails_with(
        &["copy", "--device", &format!("{root}/neuron3")],
        &format!("no Neuron device at '{root}/neuron3'"),
    );
    fails_with(
        &["copy", "--device", "/nonexistent/thing"],
        "no Neuron device at '/nonexistent/thing'",
    );
    fails_with(
        &["copy", "--device", &format!("{root}/neuron64")],
        "device index 64 out of range 0..=63",
    );
}

#[test]
fn copy_on_something_that_is_no_device_says_so() {
    // A regular file named neuron0: it opens, and the first ioctl (DEVICE_INFO) is ENOTTY.
    let dir = tempfile::tempdir().unwrap();
    let node = dir.path().join("neuron0");
    std::fs::write(&node, b"").unwrap();
    let node = node.to_str().unwrap();
    for arg in [dir.path().to_str().unwrap(), node] {
        fails_with(
            &["copy", "--device", arg],
            &format!(
                "{node}: reading the device info: NEURON_IOCTL_DEVICE_INFO failed: \
                 Inappropriate ioctl for device (os error 25); it is not a Neuron device node"
            ),
        );
    }
    // A file that is not named like a node.
    let other = tempfile::NamedTempFile::new().unwrap();
    fails_with(
        &["copy", "--device", other.path().to_str().unwrap()],
        "is neither a Neuron device node (neuronN) nor a directory holding them",
    );
}

#[test]
fn copy_bad_input() {
    fails_with(&["copy", "--size", "0"], "copy size 0");
    fails_with(
        &["copy", "--arch", "sunda", "--size", "17GiB"],
        "does not fit one HBM channel of SUNDA",
    );
    fails_with(&["copy", "--ring-size", "48"], "--ring-size");
    fails_with(&["copy", "--ring-size", "16"], "--ring-size");
    tool()
        .args(["copy", "--size", "12QiB"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("12QiB"));
    tool()
        .args(["copy", "--arch", "trainium"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("trainium"));
    tool()
        .args(["copy", "--barrier", "fence"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("fence"));
}

#[test]
fn help_lists_every_subcommand() {
    let out = stdout_of(&["--help"]);
    for sub in ["copy", "desc", "ring", "ioctl", "regs", "arch", "bench"] {
        assert!(out.contains(sub), "{sub}");
    }
}

/// A device reports its own generation (DEVICE_INFO `architecture`), so `--arch` beside
/// `--device` would be ignored: it is refused instead, in one sentence.
#[test]
fn arch_is_refused_beside_a_device() {
    for args in [
        &[
            "regs",
            "read",
            "--device",
            "/dev/null",
            "--arch",
            "mariana",
            "--engine",
            "0",
        ][..],
        &["regs", "dump", "--device", "/dev/null", "--arch", "sunda"],
        &[
            "queue",
            "inspect",
            "--device",
            "/dev/null",
            "--arch",
            "cayman",
            "--engine",
            "4",
        ],
    ] {
        fails_with(args, "--arch");
    }
}
