//! The producer's copy of the room (`RingPair`'s in-step limit, plain reads of the
//! completion index under `&mut`) against a model of the driver's ring arithmetic: every
//! copy, batch, CRC, bulk push and acknowledgement, in any order, is refused exactly when
//! the driver's `(completion - (next + 16)) mod size` leaves too little room, and leaves
//! the indices, ring ids and bytes the model says.

mod common;

use common::V3;
use proptest::prelude::*;
use udma_desc::{
    Barrier, CopyRequest, CrcRequest, DescRing, Descriptor, Direction, Error, QueueId, RingId,
    RingPair, U3, build_copy_pair,
};

/// One ring as the driver keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Model {
    size: u32,
    next: u32,
    rid: u8,
    completed: u32,
}

impl Model {
    fn new(size: u32) -> Self {
        Self {
            size,
            next: 0,
            rid: 1,
            completed: 0,
        }
    }
    fn room(&self) -> u32 {
        self.completed.wrapping_sub(self.next + 16) & (self.size - 1)
    }
    fn outstanding(&self) -> u32 {
        self.next.wrapping_sub(self.completed) & (self.size - 1)
    }
    /// Takes `n` slots; returns the (index, ring id) of each.
    fn take(&mut self, n: u32) -> Vec<(u32, u8)> {
        (0..n)
            .map(|_| {
                let s = (self.next, self.rid);
                self.next = (self.next + 1) & (self.size - 1);
                if self.next == 0 {
                    self.rid = (self.rid + 1) & 3;
                }
                s
            })
            .collect()
    }
    fn ack(&mut self, n: u32) {
        self.completed = (self.completed + n) & (self.size - 1);
    }
}

#[derive(Clone, Debug)]
enum Op {
    Copy { size: u32, barrier: u32, int: bool },
    Batch { n: u32 },
    Crc,
    PushTx { n: u32 },
    Ack { n: u32 },
    AckExclusive { n: u32 },
    AckTxOnly { n: u32 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        16 => (prop_oneof![1u32..=65_536, Just(0u32), Just(65_537u32)], 0u32..4, any::<bool>())
            .prop_map(|(size, barrier, int)| Op::Copy { size, barrier, int }),
        1 => (0u32..40).prop_map(|n| Op::Batch { n }),
        1 => Just(Op::Crc),
        1 => (0u32..6).prop_map(|n| Op::PushTx { n }),
        2 => (0u32..24).prop_map(|n| Op::Ack { n }),
        2 => (0u32..24).prop_map(|n| Op::AckExclusive { n }),
        1 => (0u32..10).prop_map(|n| Op::AckTxOnly { n }),
    ]
}

type SlicePair<'a> = RingPair<&'a mut [Descriptor], &'a mut [Descriptor]>;

fn state(p: &SlicePair<'_>) -> (Model, Model) {
    let m = |r: &udma_desc::Ring| Model {
        size: r.size(),
        next: r.next_index(),
        rid: r.ring_id().get(),
        completed: r.completion_index(),
    };
    (m(p.tx().ring()), m(p.rx().ring()))
}

fn full(ring: Direction, needed: u32, available: u32) -> Error {
    Error::RingFull {
        ring,
        needed,
        available,
    }
}

/// Applies `op` to the pair and the model; checks the outcome and the bytes.
fn step(p: &mut SlicePair<'_>, tx: &mut Model, rx: &mut Model, op: &Op) {
    match *op {
        Op::Copy { size, barrier, int } => {
            let req = CopyRequest::new(0x1000 + u64::from(size), 0x9000, size)
                .with_barrier(Barrier::from_raw(barrier).unwrap())
                .with_dst_interrupt(int);
            let got = p.copy_prepare_one::<V3>(&req);
            let expect = if let Err(e) = req.validate::<V3>() {
                Err(e)
            } else if tx.room() == 0 {
                Err(full(Direction::Tx, 1, 0))
            } else if rx.room() == 0 {
                Err(full(Direction::Rx, 1, 0))
            } else {
                Ok(())
            };
            assert_eq!(got.map(|_| ()), expect, "copy {req:?} tx {tx:?} rx {rx:?}");
            if let Ok(slots) = got {
                let (t, r) = (tx.take(1)[0], rx.take(1)[0]);
                assert_eq!((slots.tx.index, slots.tx.ring_id.get()), t);
                assert_eq!((slots.rx.index, slots.rx.ring_id.get()), r);
                let want = build_copy_pair::<V3>(
                    RingId::new(t.1).unwrap(),
                    RingId::new(r.1).unwrap(),
                    &req,
                )
                .unwrap();
                assert_eq!(p.tx().load(t.0).unwrap(), want.tx);
                assert_eq!(p.rx().load(r.0).unwrap(), want.rx);
            }
        }
        Op::Batch { n } => {
            let reqs: Vec<_> = (0..n)
                .map(|i| CopyRequest::new(u64::from(i), 0, 64))
                .collect();
            let got = p.copy_prepare_batch::<V3>(&reqs).map(|_| ());
            let expect = if n > tx.room() {
                Err(full(Direction::Tx, n, tx.room()))
            } else if n > rx.room() {
                Err(full(Direction::Rx, n, rx.room()))
            } else {
                Ok(())
            };
            assert_eq!(got, expect, "batch {n}");
            if got.is_ok() {
                tx.take(n);
                rx.take(n);
            }
        }
        Op::Crc => {
            let got = p
                .crc_prepare_one::<V3>(&CrcRequest {
                    src: 0x1000,
                    size: 64,
                    dst: 0x2000,
                    seed: None,
                    iv_index: U3::new(0).unwrap(),
                    op_type: U3::new(0).unwrap(),
                    store_result: false,
                    dst_interrupt: false,
                })
                .map(|_| ());
            let expect = if tx.room() < 2 {
                Err(full(Direction::Tx, 2, tx.room()))
            } else if rx.room() < 1 {
                Err(full(Direction::Rx, 1, rx.room()))
            } else {
                Ok(())
            };
            assert_eq!(got, expect, "crc");
            if got.is_ok() {
                tx.take(2);
                rx.take(1);
            }
        }
        Op::PushTx { n } => {
            let descs = vec![Descriptor::from_words([0x0c00_0040, 0, 0, 0]); n as usize];
            let got = p.tx_mut().push_bulk(&descs).map(|_| ());
            let expect = if n > tx.room() {
                Err(full(Direction::Tx, n, tx.room()))
            } else {
                Ok(())
            };
            assert_eq!(got, expect, "push {n}");
            if got.is_ok() {
                tx.take(n);
            }
        }
        Op::Ack { n } | Op::AckExclusive { n } => {
            let got = if matches!(op, Op::Ack { .. }) {
                p.ack(n)
            } else {
                p.ack_exclusive(n)
            };
            let worst = [*tx, *rx].into_iter().find(|m| n > m.outstanding());
            let expect = match worst {
                Some(m) => Err(Error::AckTooMany {
                    count: n,
                    outstanding: m.outstanding(),
                }),
                None => Ok(()),
            };
            assert_eq!(got, expect, "ack {n}");
            if got.is_ok() {
                tx.ack(n);
                rx.ack(n);
            }
        }
        Op::AckTxOnly { n } => {
            let got = p.tx().ack(n).map(|_| ());
            if n <= tx.outstanding() {
                assert_eq!(got, Ok(()));
                tx.ack(n);
            } else {
                assert!(got.is_err());
            }
        }
    }
    assert_eq!(state(p), (*tx, *rx), "after {op:?}");
    assert_eq!(p.tx().available(), tx.room());
    assert_eq!(p.rx().available(), rx.room());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any mix of operations on 32- and 64-slot rings (full and wrapping often), with the
    /// rings in step or not: the pair follows the model step by step.
    #[test]
    fn the_copied_room_never_differs_from_the_drivers(
        tx_size in prop_oneof![Just(32u32), Just(64u32)],
        same_size: bool,
        ops in proptest::collection::vec(op(), 1..300),
    ) {
        let rx_size = if same_size { tx_size } else { 96 - tx_size };
        let mut txs = vec![Descriptor::ZERO; tx_size as usize];
        let mut rxs = vec![Descriptor::ZERO; rx_size as usize];
        let mut p = RingPair::new(
            QueueId::new(0).unwrap(),
            DescRing::new(Direction::Tx, &mut txs[..]).unwrap(),
            DescRing::new(Direction::Rx, &mut rxs[..]).unwrap(),
        );
        let (mut tx, mut rx) = (Model::new(tx_size), Model::new(rx_size));
        for op in &ops {
            step(&mut p, &mut tx, &mut rx, op);
        }
    }
}

/// Acknowledgements from several threads at once between two runs of copies: the producer
/// (which reads the completion index as plain memory under `&mut`) sees all of them, and
/// exactly the room they returned is used before the pair reports full again.
#[test]
fn copies_see_every_concurrent_ack() {
    const SIZE: u32 = 1024;
    let mut txs = vec![Descriptor::ZERO; SIZE as usize];
    let mut rxs = vec![Descriptor::ZERO; SIZE as usize];
    let mut p = RingPair::new(
        QueueId::new(1).unwrap(),
        DescRing::new(Direction::Tx, &mut txs[..]).unwrap(),
        DescRing::new(Direction::Rx, &mut rxs[..]).unwrap(),
    );
    let fill = |p: &mut SlicePair<'_>| {
        let mut n = 0u32;
        while p
            .copy_prepare_one::<V3>(&CopyRequest::new(0, 0, 1 + n))
            .is_ok()
        {
            n += 1;
        }
        n
    };
    assert_eq!(fill(&mut p), SIZE - 16);
    for round in 0..20u32 {
        // 4 threads ack 1..=3 slots each, 25 times: 50 + round * 4 slots in all.
        let shared = &p;
        std::thread::scope(|s| {
            for t in 0..4u32 {
                s.spawn(move || {
                    for i in 0..25u32 {
                        let n = if i == 0 { 1 + round } else { 1 + (i + t) % 2 };
                        shared.ack(n).unwrap();
                    }
                });
            }
        });
        let returned: u32 = (0..4u32)
            .map(|t| (1 + round) + (1..25u32).map(|i| 1 + (i + t) % 2).sum::<u32>())
            .sum();
        assert_eq!(p.tx().available(), returned);
        assert_eq!(fill(&mut p), returned, "round {round}");
    }
}
