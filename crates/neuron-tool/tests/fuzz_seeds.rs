//! The tool's fuzz targets' seed corpus: built here from the unit tests' inputs (ring dumps
//! of `cmd::ring` and `tests/commands.rs`, batch lines of `batch` and `tests/desc.rs`, the
//! request numbers of `ioctl decode`), run through the targets' bodies, and compared with
//! the files checked in under `fuzz/seeds/<target>/`.
//!
//! Regenerate the files after a format change with
//! `NEURON_TOOL_WRITE_SEEDS=1 cargo test -p neuron-tool --test fuzz_seeds`.

mod common;

use std::path::PathBuf;

use neuron_tool::fuzzing::{RingFlags, batch_case, ioctl_case, ring_case, ring_input};

use common::tx;

const SUNDA: u8 = 0;
const CAYMAN: u8 = 1;

fn flags(arch: u8) -> RingFlags {
    RingFlags {
        arch,
        rx: false,
        phase: 1,
        posted: false,
        raw: false,
    }
}

fn ring(f: RingFlags, head: u32, posted: u64, descs: &[[u8; 16]]) -> Vec<u8> {
    ring_input(f, head, posted, &descs.concat())
}

fn ring_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let lap = [
        tx(1, true, true),
        tx(1, true, false),
        tx(1, false, true),
        tx(0, true, true),
    ];
    let posted = RingFlags {
        posted: true,
        ..flags(CAYMAN)
    };
    let mut limit = vec![tx(1, false, false); 66];
    limit[0] = tx(1, true, false);
    limit[65] = tx(1, false, true);
    let cme = udma_desc::cme_descriptor(3).unwrap().to_le_bytes();
    let meta = [0x00, 0x00, 0x80, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    vec![
        ("this_lap", ring(flags(CAYMAN), 0, 0, &lap)),
        ("posted_past_the_lap", ring(posted, 0, 4, &lap)),
        (
            "wrap_at_head",
            ring(
                RingFlags {
                    phase: 0,
                    ..flags(CAYMAN)
                },
                3,
                0,
                &lap,
            ),
        ),
        (
            "first_in_open_packet",
            ring(flags(SUNDA), 0, 0, &[tx(1, true, false), tx(1, true, true)]),
        ),
        ("packet_limit", ring(flags(CAYMAN), 0, 0, &limit)),
        (
            "cme_chain",
            ring(flags(CAYMAN), 0, 0, &[cme, tx(1, false, true)]),
        ),
        (
            "rx_buffers",
            ring(
                RingFlags {
                    rx: true,
                    ..flags(CAYMAN)
                },
                0,
                0,
                &[
                    tx(1, false, false),
                    tx(1, false, false),
                    tx(3, false, false),
                ],
            ),
        ),
        ("meta_ring_posted", ring(posted, 0, 32, &[meta; 32])),
        (
            "posted_off_the_ring",
            ring(
                RingFlags {
                    raw: true,
                    ..posted
                },
                0,
                5_000_000_000,
                &[meta; 32],
            ),
        ),
        ("partial", ring_input(flags(CAYMAN), 0, 0, &[0; 21])),
        (
            "hex_text",
            ring_input(flags(CAYMAN), 0, 0, b"0010000d030008010020000000000000\n"),
        ),
    ]
}

/// The golden vectors of `tests/data/desc-vectors-sample.tsv` as batch lines (what
/// `tests/desc.rs` feeds the batch).
fn golden_batch() -> Vec<u8> {
    let table = include_str!("data/desc-vectors-sample.tsv");
    let mut rows = table.lines();
    // Columns 1..=7 are the batch line's fields, in its order.
    assert!(
        rows.next().unwrap().starts_with(
            "case\ttx_ring_id\trx_ring_id\tsrc\tdst\tsize\tbarrier_type\tset_dst_int\t"
        )
    );
    let mut out = String::new();
    for row in rows.filter(|l| !l.trim().is_empty()) {
        let cells: Vec<&str> = row.split('\t').collect();
        out.push_str(&cells[1..=7].join(" "));
        out.push('\n');
    }
    out.into_bytes()
}

fn batch_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let with_arch = |arch: u8, text: &[u8]| [&[arch][..], text].concat();
    let reasons = [
        "1 1 0x1000 0x2000",
        "1 1 0x1000 0x2000 1 0 0 9",
        "1 1 0xZZ 0x2000 1 0 0",
        "4 1 0 0 1 0 0",
        "1 7 0 0 1 0 0",
        "1 1 0 0 65537 0 0",
        "1 1 0 0 4294967296 0 0",
        "1 1 0 0 1 4 0",
        "1 1 0 0 1 0 2",
        "1 1 0x10000000000000000 0x2000 4096 0 0",
    ]
    .join("\n");
    vec![
        ("golden_vectors", with_arch(CAYMAN, &golden_batch())),
        (
            "in_place",
            with_arch(
                CAYMAN,
                b"1 1 0x1000 0x2000 65536 1 0\n\n0 0 0 0 0 0 0\r\n1 1 0x1 0x2 4 0 1",
            ),
        ),
        ("reasons", with_arch(CAYMAN, reasons.as_bytes())),
        (
            "sow_on_sunda",
            with_arch(SUNDA, b"1 1 0x1000 0x2000 4096 3 0\n"),
        ),
        (
            "line_max",
            with_arch(
                CAYMAN,
                format!("{:<2048}\n{}\n", "1 1 0x10 0x20 16 0 0", "9".repeat(2049)).as_bytes(),
            ),
        ),
    ]
}

fn ioctl_seeds() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("program_engine_nc", 0xC008_4E69u32.to_le_bytes().to_vec()),
        ("mem_copy_by_nr", 0x8010_4E17u32.to_le_bytes().to_vec()),
        ("not_neuron", 0x1234_5678u32.to_le_bytes().to_vec()),
        ("text_hex", b"0xC0084E69".to_vec()),
        ("text_bad", b"C0084E69x".to_vec()),
        ("text_decimal", b"3222818409".to_vec()),
        // Found by this target: parse_u64 read "+6" as 6.
        ("regress-plus-sign", b"+6".to_vec()),
    ]
}

/// Every seed: (target, name, bytes).
fn seeds() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let tag = |target: &'static str, v: Vec<(&'static str, Vec<u8>)>| {
        v.into_iter().map(move |(n, b)| (target, n, b))
    };
    tag("ring_dump", ring_seeds())
        .chain(tag("batch", batch_seeds()))
        .chain(tag("ioctl_decode", ioctl_seeds()))
        .collect()
}

fn seed_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target)
}

fn run(target: &str, bytes: &[u8]) {
    match target {
        "ring_dump" => ring_case(bytes),
        "batch" => batch_case(bytes),
        "ioctl_decode" => ioctl_case(bytes),
        other => panic!("no target {other}"),
    }
}

#[test]
fn seeds_keep_the_invariants() {
    for (target, name, bytes) in seeds() {
        eprintln!("{target}/{name}");
        run(target, &bytes);
    }
}

#[test]
fn checked_in_seeds_match_the_generator() {
    let write = std::env::var_os("NEURON_TOOL_WRITE_SEEDS").is_some();
    for (target, name, bytes) in seeds() {
        let path = seed_dir(target).join(name);
        if write {
            std::fs::create_dir_all(seed_dir(target)).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (regenerate with NEURON_TOOL_WRITE_SEEDS=1)",
                path.display()
            )
        });
        assert_eq!(on_disk, bytes, "{} is stale", path.display());
    }
}

#[test]
fn hostile_inputs_keep_the_invariants() {
    // A deterministic pseudo-random sweep, so the normal test run covers what the fuzzer
    // does: raw bytes, and each seed with a few bytes flipped.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for target in ["ring_dump", "batch", "ioctl_decode"] {
        for _ in 0..300 {
            let len = (next() % 700) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            run(target, &bytes);
        }
    }
    for (target, _, mut bytes) in seeds() {
        for _ in 0..20 {
            if let Some(n) = (bytes.len() as u64).checked_sub(1) {
                let i = (next() % (n + 1)) as usize;
                bytes[i] ^= next() as u8;
            }
            run(target, &bytes);
        }
    }
}
