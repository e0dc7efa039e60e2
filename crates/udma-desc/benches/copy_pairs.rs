//! Copy pairs into a 4096-entry TX/RX ring pair, side by side with a C peer (issue 13).
//!
//! Group `single_pair_vs_c` (per pair; 4080 pairs a lap, then one ack, sizes `1 + (i & 0xfff)`,
//! DMB and destination interrupt):
//! * `c_peer_lap`: the C peer (`bench/c-peer`, gcc `-O2`), loop in C.
//! * `rust_single_lap`: `RingPair::copy_prepare_one` per pair.
//! * `rust_batch_lap`: `RingPair::copy_prepare_batch` of the lap's 4080 requests at once.
//!
//! Group `copy_pairs_4096`: `single_ack_each` (prepare then `ack(1)`), and `bulk_lap`
//! (4080 prebuilt pairs through `push_bulk` on each ring, then one ack).
//!
//! Criterion reports time per iteration and, through `Throughput::Elements`, pairs/s.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use udma_c_peer::{CPeer, Request};
use udma_desc::caps::{PacketCaps, Supported, Unsupported};
use udma_desc::{
    Barrier, CopyRequest, DescRing, Descriptor, Direction, QueueId, RingId, RingPair,
    build_copy_pair,
};

struct V3;
impl PacketCaps for V3 {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    type NotificationMasks = Unsupported;
    type StrongOrdering = Supported;
}

const RING: usize = 4096;
const LAP: u32 = 4096 - 16;

fn req() -> CopyRequest {
    CopyRequest::new(0x1_0000_0000, 0x2_0000_0000, 4096)
        .with_barrier(Barrier::Dmb)
        .with_dst_interrupt(true)
}

type Pair<'a> = RingPair<&'a mut [Descriptor], &'a mut [Descriptor]>;

fn ring_pair<'a>(tx: &'a mut [Descriptor], rx: &'a mut [Descriptor]) -> Pair<'a> {
    RingPair::new(
        QueueId::new(0).unwrap(),
        DescRing::new(Direction::Tx, tx).unwrap(),
        DescRing::new(Direction::Rx, rx).unwrap(),
    )
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
    let req = req();
    let mut peer = CPeer::new(4096).unwrap();
    let creq = Request {
        src: req.src,
        dst: req.dst,
        size: req.size,
        barrier: req.barrier.raw(),
        dst_int: 1,
    };

    let mut g = c.benchmark_group("single_pair_vs_c");
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
