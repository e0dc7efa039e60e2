//! The edges of the model's fast copy lane, where its one-compare tests hand a packet to the
//! exact test: 64 KiB packets (a length field of 0, `m2s.cfg_len` ENCODE_64K), ranges in the
//! last 64 KiB of a region, ending on its last byte, and one that runs past it (a bus error
//! the full walk reports after the packets before it moved).

mod common;

use common::Rig;
use neuron_emu::Direction;
use udma_desc::CopyRequest;

type A = khal_sunda::Sunda;

/// The copy path's largest packet (seed 004 §1: sizes `1..=65536`).
const MAX: usize = 1 << 16;

#[test]
fn packets_of_64_kib_land_whole() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 64);
    let (src, data) = rig.buffer(rig.host, 3 * MAX, 7);
    let dst = rig.zeroed(rig.hbm, 4 * MAX);
    // Scattered, so no two packets join: each is its own 64 KiB copy.
    for (k, to) in [(0, 3), (1, 0), (2, 2)] {
        let req = CopyRequest::new(src + (k * MAX) as u64, dst + (to * MAX) as u64, MAX as u32);
        pair.copy_prepare_one::<A>(&req).unwrap();
    }
    pair.copy_start(&udma, 3, 3).unwrap();
    rig.run_clean(3);
    let got = rig.dev.read_mem_vec(dst, 4 * MAX).unwrap();
    for (k, to) in [(0, 3), (1, 0), (2, 2)] {
        assert!(
            got[to * MAX..][..MAX] == data[k * MAX..][..MAX],
            "packet {k}"
        );
    }
    assert!(got[MAX..2 * MAX].iter().all(|&b| b == 0));
    let rx = rig.dev.queue_stats(0, Direction::Rx, 0).unwrap();
    assert_eq!((rx.packets, rx.bytes), (3, 3 * MAX as u64));
}

#[test]
fn copies_at_a_regions_end_land_and_one_past_it_faults() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 64);
    let end = rig
        .dev
        .with_memory(|m| m.region(rig.hbm).map(|r| r.end()))
        .unwrap();
    let (src, data) = rig.buffer(rig.host, 2 * 4096 + MAX, 9);
    // The last 4 KiB of the region, the 4 KiB before them (both in its last 64 KiB), then
    // the longest packet the lane's own test takes, 65,535 bytes, whose last byte lies one
    // past the region's end.
    let packets = [
        (end - 4096, 4096),
        (end - 8192, 4096),
        (end - 65_534, 65_535),
    ];
    for (k, (to, len)) in packets.iter().enumerate() {
        let req = CopyRequest::new(src + (k * 4096) as u64, *to, *len);
        pair.copy_prepare_one::<A>(&req).unwrap();
    }
    pair.copy_start(&udma, 3, 3).unwrap();
    let report = rig.dev.run_until_idle();
    assert_eq!((report.packets, report.faults), (2, 1));
    let tail = rig.dev.read_mem_vec(end - 8192, 8192).unwrap();
    assert!(
        tail[4096..] == data[..4096],
        "packet 0, on the region's last byte"
    );
    assert!(tail[..4096] == data[4096..8192], "packet 1");
}
