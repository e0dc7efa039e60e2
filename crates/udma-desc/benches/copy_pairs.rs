//! Copy pairs per second into a 4096-entry TX/RX ring pair.
//!
//! * `single_ack_each`: `copy_prepare_one` then `ack(1)`, one pair per iteration.
//! * `single_lap`: 4080 `copy_prepare_one` calls (a ring's worth less the reserve), then
//!   one ack of 4080.
//! * `bulk_lap`: 4080 prebuilt pairs written with `push_bulk` on each ring (reserve +
//!   ring-id stamping, split at the wrap), then one ack.
//!
//! Criterion reports time per iteration and, through `Throughput::Elements`, pairs/s.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use udma_desc::caps::{PacketCaps, StrongOrder};
use udma_desc::{
    Barrier, CopyRequest, DescRing, Descriptor, Direction, QueueId, RingId, RingPair,
    build_copy_pair,
};

struct V3;
impl PacketCaps for V3 {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    const HAS_NOTIFICATION_MASK: bool = false;
    const HAS_STRONG_ORDER: bool = true;
}
impl StrongOrder for V3 {}

const RING: usize = 4096;
const LAP: u32 = 4096 - 16;

fn bench(c: &mut Criterion) {
    let mut tx = vec![Descriptor::ZERO; RING];
    let mut rx = vec![Descriptor::ZERO; RING];
    let mut pair = RingPair::new(
        QueueId::new(0).unwrap(),
        DescRing::new(Direction::Tx, &mut tx[..]).unwrap(),
        DescRing::new(Direction::Rx, &mut rx[..]).unwrap(),
    );
    let req = CopyRequest::new(0x1_0000_0000, 0x2_0000_0000, 4096)
        .with_barrier(Barrier::Dmb)
        .with_dst_interrupt(true);

    let mut g = c.benchmark_group("copy_pairs_4096");
    g.throughput(Throughput::Elements(1));
    g.bench_function("single_ack_each", |b| {
        b.iter(|| {
            pair.copy_prepare_one::<V3>(black_box(&req)).unwrap();
            pair.ack(1).unwrap();
        })
    });

    g.throughput(Throughput::Elements(u64::from(LAP)));
    g.bench_function("single_lap", |b| {
        b.iter(|| {
            for i in 0..LAP {
                let r = CopyRequest {
                    size: 1 + (i & 0xfff),
                    ..req
                };
                pair.copy_prepare_one::<V3>(black_box(&r)).unwrap();
            }
            pair.ack(LAP).unwrap();
        })
    });

    let built: Vec<_> = (0..LAP)
        .map(|i| {
            let r = CopyRequest {
                size: 1 + (i & 0xfff),
                ..req
            };
            build_copy_pair::<V3>(RingId::INITIAL, RingId::INITIAL, &r).unwrap()
        })
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

criterion_group!(benches, bench);
criterion_main!(benches);
