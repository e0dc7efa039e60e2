//! The fuzz targets' seed corpus: built here from unit-test-like scenarios, checked to do
//! what they claim, and compared with the files checked in under `fuzz/seeds/<target>/`.
//!
//! Regenerate the files after a format change with
//! `NEURON_EMU_WRITE_SEEDS=1 cargo test -p neuron-emu --test fuzz_seeds`.

use std::path::PathBuf;

use iofic::{M2sCause, S2mCause};
use neuron_emu::scenario::{HBM_BASE, HOST_BASE, ScenarioBuilder, run_rings, run_script};
use neuron_emu::{Direction, EngineState, GROUP_A, GROUP_B, Level};

const FIRST_LAST: u32 = 0x0c00_0000;
const FIRST: u32 = 0x0400_0000;
const LAST: u32 = 0x0800_0000;
const META_CONCAT: u32 = 0x8080_0000;

fn desc(len_ctrl: u32, word1: u32, addr: u64) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..4].copy_from_slice(&len_ctrl.to_le_bytes());
    b[4..8].copy_from_slice(&word1.to_le_bytes());
    b[8..].copy_from_slice(&addr.to_le_bytes());
    b
}

const fn rid(r: u32) -> u32 {
    r << 24
}

/// Host region: TX ring at slot 0, RX ring at slot 32 (0x200), source data at 0x1000.
fn setup(q: u8) -> ScenarioBuilder {
    ScenarioBuilder::new()
        .engine_up(0)
        .queue_setup(0, q, 1, 0, 32, 32)
        .mem_write(1, 0x1000, &(0u8..=254).collect::<Vec<_>>())
}

/// One doorbell's worth of work on queue `q` of a fresh [`setup`]: `tx` written from TX slot 0,
/// `rx` from RX slot 32, then the RX and the TX doorbell for all of them, then a run.
fn packet(q: u8, tx: &[[u8; 16]], rx: &[[u8; 16]]) -> Vec<u8> {
    let mut script = setup(q);
    for (slot, d) in (0u16..).zip(tx) {
        script = script.desc_write(1, slot, *d);
    }
    for (slot, d) in (32u16..).zip(rx) {
        script = script.desc_write(1, slot, *d);
    }
    let count = |descs: &[[u8; 16]]| u8::try_from(descs.len()).unwrap();
    script
        .doorbell(0, Direction::Rx, q, count(rx))
        .doorbell(0, Direction::Tx, q, count(tx))
        .run(8)
        .build()
}

fn seeds() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let src = HOST_BASE + 0x1000;
    let copy = packet(
        2,
        &[desc(FIRST_LAST | rid(1) | 64, 0x0108_0003, src)],
        &[desc(rid(1) | 64, 0, HBM_BASE + 0x100)],
    );
    let ring_id = packet(
        0,
        &[desc(FIRST_LAST | rid(2) | 16, 0, src)],
        &[desc(rid(1) | 16, 0, HBM_BASE)],
    );
    let out_of_range = packet(
        0,
        &[desc(FIRST_LAST | rid(1) | 16, 0, src)],
        &[desc(rid(1) | 16, 0, 0xdead_0000_0000)],
    );
    let rx_short = packet(
        0,
        &[desc(FIRST_LAST | rid(1) | 200, 0, src)],
        &[desc(rid(1) | 100, 0, HBM_BASE)],
    );
    let last_missing = packet(
        0,
        &[
            desc(FIRST | rid(1) | 8, 0, src),
            desc(FIRST_LAST | rid(1) | 8, 0, src),
        ],
        &[
            desc(rid(1) | 8, 0, HBM_BASE),
            desc(rid(1) | 8, 0, HBM_BASE + 8),
        ],
    );
    let cme_packet = packet(
        1,
        &[
            desc(META_CONCAT | FIRST | rid(3), 0, 0),
            desc(rid(1) | 32, 0x0108_0003, src),
            desc(LAST | rid(1) | 32, 0, src + 32),
        ],
        &[
            desc(rid(1) | 32, 0, HBM_BASE + 0x40),
            desc(rid(1) | 0x1000_0000 | 32, 0, HBM_BASE + 0x60),
        ],
    );
    let mut laps = setup(3);
    for i in 0..40u16 {
        let phase = (1 + u32::from(i) / 32) & 3;
        laps = laps
            .desc_write(
                1,
                i % 32,
                desc(FIRST_LAST | rid(phase) | 4, 0, src + u64::from(i)),
            )
            .desc_write(
                1,
                32 + i % 32,
                desc(rid(phase) | 4, 0, HBM_BASE + 4 * u64::from(i)),
            )
            .doorbell(0, Direction::Rx, 3, 1)
            .doorbell(0, Direction::Tx, 3, 1)
            .step();
    }
    let iofic = ScenarioBuilder::new()
        .engine_up(1)
        .reg_write(1, Direction::Tx, 0, 15, 1 << 17)
        .reg_read(1, Direction::Tx, 0, 14)
        .reg_write(1, Direction::Tx, 0, 14, 0)
        .reg_write(1, Direction::Tx, 0, 8, 1)
        .reg_read(1, Direction::Tx, 0, 9)
        .raw_mem_write(HOST_BASE + 0xfff8, 16, 0xaa)
        .build();

    let mut rings = vec![1u8, 1, 0b100];
    let mut tx = [0u8; 512];
    let mut rx = [0u8; 512];
    tx[..16].copy_from_slice(&desc(FIRST_LAST | rid(1) | 48, 0x0108_0003, 0x1000));
    rx[..16].copy_from_slice(&desc(rid(1) | 48, 0, 0x8000));
    rings.extend_from_slice(&tx);
    rings.extend_from_slice(&rx);
    rings.extend((0u8..48).map(|b| b ^ 0x5a));

    vec![
        ("script", "copy", copy),
        ("script", "ring_id", ring_id),
        ("script", "out_of_range", out_of_range),
        ("script", "rx_short", rx_short),
        ("script", "last_missing", last_missing),
        ("script", "cme_packet", cme_packet),
        ("script", "laps", laps.build()),
        ("script", "iofic", iofic),
        ("rings", "copy", rings),
    ]
}

fn seed_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target)
}

#[test]
fn seeds_do_what_they_say() {
    let all = seeds();
    let get = |name: &str| {
        &all.iter()
            .find(|s| s.0 == "script" && s.1 == name)
            .unwrap()
            .2
    };

    let s = run_script(get("copy"));
    s.check().unwrap();
    let got = s.device().read_mem_vec(HBM_BASE + 0x100, 64).unwrap();
    assert_eq!(got, (0u8..64).collect::<Vec<_>>());

    let s = run_script(get("ring_id"));
    assert_eq!(
        s.device().iofic_cause(0, Level::Secondary, GROUP_A),
        Some(M2sCause::PREFETCH_RING_ID.bits()) // iofic.tsv secondary.A bit 17
    );
    assert_eq!(
        s.device().engine_state(0, Direction::Tx),
        Some(EngineState::Aborted)
    );

    let s = run_script(get("out_of_range"));
    assert_eq!(
        s.device().iofic_cause(0, Level::Secondary, GROUP_B),
        Some(S2mCause::DATA_AXI_RESP.bits()) // iofic.tsv secondary.B bit 1
    );

    let s = run_script(get("rx_short"));
    assert_eq!(
        s.device().iofic_cause(0, Level::Secondary, GROUP_B),
        Some(S2mCause::PKT_LEN.bits()) // iofic.tsv secondary.B bit 24
    );
    assert_eq!(
        s.device().read_mem_vec(HBM_BASE, 100).unwrap(),
        vec![0; 100]
    );

    let s = run_script(get("last_missing"));
    assert_eq!(
        s.device().iofic_cause(0, Level::Secondary, GROUP_A),
        Some(M2sCause::PREFETCH_LAST.bits()) // iofic.tsv secondary.A bit 16
    );

    let s = run_script(get("cme_packet"));
    s.check().unwrap();
    assert_eq!(
        s.device().read_mem_vec(HBM_BASE + 0x40, 64).unwrap(),
        (0u8..64).collect::<Vec<_>>()
    );
    let st = s.device().queue_stats(0, Direction::Tx, 1).unwrap();
    assert_eq!((st.descriptors, st.meta_descriptors, st.packets), (3, 1, 1));
    // iofic.tsv level primary.B "RX completion queues": the bit of queue 1, whose last
    // RX descriptor asks for an interrupt.
    assert_eq!(
        s.device().iofic_cause(0, Level::Primary, GROUP_B),
        Some(1 << 1)
    );

    let s = run_script(get("laps"));
    s.check().unwrap();
    let st = s.device().queue_stats(0, Direction::Rx, 3).unwrap();
    assert_eq!(st.packets, 40, "{:?}", s.device().take_faults());

    let s = run_script(get("iofic"));
    s.check().unwrap();
    assert_eq!(
        s.device().engine_state(1, Direction::Rx),
        Some(EngineState::Aborted)
    );
    assert_eq!(
        s.device().engine_state(1, Direction::Tx),
        Some(EngineState::Normal)
    );

    let rings = &all.iter().find(|s| s.0 == "rings").unwrap().2;
    let s = run_rings(rings);
    s.check().unwrap();
    let want: Vec<u8> = (0u8..48).map(|b| b ^ 0x5a).collect();
    assert_eq!(
        s.device().read_mem_vec(HOST_BASE + 0x8000, 48).unwrap(),
        want
    );
}

#[test]
fn checked_in_seeds_match_the_generator() {
    let write = std::env::var_os("NEURON_EMU_WRITE_SEEDS").is_some();
    for (target, name, bytes) in seeds() {
        let path = seed_dir(target).join(name);
        if write {
            std::fs::create_dir_all(seed_dir(target)).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (regenerate with NEURON_EMU_WRITE_SEEDS=1)",
                path.display()
            )
        });
        assert_eq!(on_disk, bytes, "{} is stale", path.display());
    }
}

#[test]
fn hostile_inputs_keep_the_invariants() {
    // A deterministic pseudo-random sweep, so the normal test run covers what the fuzzer does.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..200 {
        let len = (next() % 600) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        run_script(&bytes).check().unwrap();
        run_rings(&bytes).check().unwrap();
    }
}

#[test]
fn every_checked_in_seed_keeps_the_invariants() {
    // Includes fuzzer findings kept as regressions (`regress-*`).
    for target in ["script", "rings"] {
        for entry in std::fs::read_dir(seed_dir(target)).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let s = if target == "script" {
                run_script(&bytes)
            } else {
                run_rings(&bytes)
            };
            s.check()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}
