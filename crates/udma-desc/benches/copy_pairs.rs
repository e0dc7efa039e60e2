//! Copy pairs into a 4096-entry TX/RX ring pair, side by side with two C peers, all in one
//! criterion group (`single_pair_vs_c`) so every figure has its peer from the same run.
//!
//! The shared peer's cycle (issue 23; `bench/c-peer/c/c_peer_build.c`, gcc `-O2`): 65,536
//! pairs an iteration, pair `i` copying `1 + (i & 0xffff)` bytes (every size `1..=65536`
//! once) from `2^32 + 64 i` to `2^33 + 64 i`, no barrier, no interrupt, one ack per lap of
//! 4080 pairs, the TX control word of each pair read back into a checksum:
//! * `shared_peer_cycle`: the shared peer, its own loop in C, rings' state in locals.
//! * `rust_single_cycle`: the same loop with `RingPair::copy_prepare_one` per pair.
//! * `rust_batch_cycle`: the same 65,536 requests, prebuilt, through
//!   `RingPair::copy_prepare_batch` in batches of one lap (4080), one ack each.
//! * `store_floor_cycle`: the floor under both: the same requests' sizes and addresses
//!   stored as two descriptors a pair into two 4096-entry rings, nothing else (two 8-byte
//!   stores a descriptor).
//! * `store_floor16_cycle`: the same with one 16-byte store a descriptor (x86_64): the
//!   lower floor, the stores alone.
//!
//! The Rust loops acknowledge with `ack_exclusive` (the loop owns the pair, as the peer's
//! loop owns its rings).
//!
//! The project's own C peer (issue 13; `bench/c-peer/c/peer.c`; per pair; 4080 pairs a lap,
//! then one ack, sizes `1 + (i & 0xfff)`, DMB and destination interrupt):
//! * `c_peer_lap`: the C peer, loop in C, rings behind pointers.
//! * `rust_single_lap`: `RingPair::copy_prepare_one` per pair.
//! * `rust_batch_lap`: `RingPair::copy_prepare_batch` of the lap's 4080 requests at once.
//!
//! Instructions per pair: the `pair_instructions` target under callgrind (see there).
//!
//! Group `copy_pairs_4096`: `single_ack_each` (prepare then `ack(1)`), and `bulk_lap`
//! (4080 prebuilt pairs through `push_bulk` on each ring, then one ack).
//!
//! Criterion reports time per iteration and, through `Throughput::Elements`, pairs/s.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use udma_c_peer::{BuildPeer, CPeer, Request};
use udma_desc::{Barrier, CopyRequest, Descriptor, RingId, build_copy_pair};

mod pair_loops;
use pair_loops::{
    CYCLE, Cycle, LAP, RING, V3, cycle_request, ring_pair, rust_batch_run, rust_single_run,
    store_floor_run, store_floor16_run,
};

fn req() -> CopyRequest {
    CopyRequest::new(0x1_0000_0000, 0x2_0000_0000, 4096)
        .with_barrier(Barrier::Dmb)
        .with_dst_interrupt(true)
}

fn lap_requests() -> Vec<CopyRequest> {
    (0..LAP)
        .map(|i| CopyRequest {
            size: 1 + (i & 0xfff),
            ..req()
        })
        .collect()
}

fn single_pair_vs_c(c: &mut Criterion) {
    let (mut tx, mut rx) = (vec![Descriptor::ZERO; RING], vec![Descriptor::ZERO; RING]);
    let mut pair = ring_pair(&mut tx, &mut rx);
    let mut g = c.benchmark_group("single_pair_vs_c");

    g.throughput(Throughput::Elements(CYCLE));
    let mut shared = BuildPeer::new(4096).unwrap();
    g.bench_function("shared_peer_cycle", |b| {
        b.iter(|| black_box(shared.run(black_box(CYCLE)).unwrap()))
    });
    let mut cycle = Cycle::default();
    g.bench_function("rust_single_cycle", |b| {
        b.iter(|| black_box(rust_single_run(&mut pair, &mut cycle, black_box(CYCLE)).unwrap()))
    });
    // Back to an empty ring: each batch below is one lap, acked at once.
    pair.ack(cycle.since).unwrap();
    let cycle_reqs: Vec<CopyRequest> = (0..CYCLE).map(cycle_request).collect();
    g.bench_function("rust_batch_cycle", |b| {
        b.iter(|| rust_batch_run(&mut pair, black_box(&cycle_reqs)).unwrap())
    });
    let (mut ftx, mut frx) = (vec![Descriptor::ZERO; RING], vec![Descriptor::ZERO; RING]);
    g.bench_function("store_floor_cycle", |b| {
        b.iter(|| store_floor_run(&mut ftx, &mut frx, black_box(&cycle_reqs)))
    });
    g.bench_function("store_floor16_cycle", |b| {
        b.iter(|| store_floor16_run(&mut ftx, &mut frx, black_box(&cycle_reqs)))
    });

    let req = req();
    let mut peer = CPeer::new(4096).unwrap();
    let creq = Request {
        src: req.src,
        dst: req.dst,
        size: req.size,
        barrier: req.barrier.raw(),
        dst_int: 1,
    };

    g.throughput(Throughput::Elements(u64::from(LAP)));
    g.bench_function("c_peer_lap", |b| {
        b.iter(|| assert_eq!(peer.lap(black_box(&creq), LAP), 0))
    });
    g.bench_function("rust_single_lap", |b| {
        // The same work as the C lap: one request whose size changes, passed by reference.
        let mut r = req;
        b.iter(|| {
            for i in 0..LAP {
                r.size = 1 + (i & 0xfff);
                pair.copy_prepare_one::<V3>(black_box(&r)).unwrap();
            }
            pair.ack(LAP).unwrap();
        })
    });
    let reqs = lap_requests();
    g.bench_function("rust_batch_lap", |b| {
        b.iter(|| {
            pair.copy_prepare_batch::<V3>(black_box(&reqs)).unwrap();
            pair.ack(LAP).unwrap();
        })
    });
    g.finish();
}

fn copy_pairs_4096(c: &mut Criterion) {
    let (mut tx, mut rx) = (vec![Descriptor::ZERO; RING], vec![Descriptor::ZERO; RING]);
    let mut pair = ring_pair(&mut tx, &mut rx);
    let req = req();
    let mut g = c.benchmark_group("copy_pairs_4096");
    g.throughput(Throughput::Elements(1));
    g.bench_function("single_ack_each", |b| {
        b.iter(|| {
            pair.copy_prepare_one::<V3>(black_box(&req)).unwrap();
            pair.ack(1).unwrap();
        })
    });

    g.throughput(Throughput::Elements(u64::from(LAP)));
    let built: Vec<_> = lap_requests()
        .iter()
        .map(|r| build_copy_pair::<V3>(RingId::INITIAL, RingId::INITIAL, r).unwrap())
        .collect();
    let txs: Vec<Descriptor> = built.iter().map(|p| p.tx).collect();
    let rxs: Vec<Descriptor> = built.iter().map(|p| p.rx).collect();
    g.bench_function("bulk_lap", |b| {
        b.iter(|| {
            pair.rx_mut().push_bulk(black_box(&rxs)).unwrap();
            pair.tx_mut().push_bulk(black_box(&txs)).unwrap();
            pair.ack(LAP).unwrap();
        })
    });
    g.finish();
}

fn short() -> Criterion {
    // The CPU is shared: short runs, many samples of a 4080-pair lap are plenty.
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = short();
    targets = single_pair_vs_c, copy_pairs_4096
}
criterion_main!(benches);
