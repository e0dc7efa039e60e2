//! Ring state: sizes, wrap and phase over several laps, available() at every step,
//! reservations across the wrap, bulk writes, concurrent acks.

mod common;
use common::VecStore;
use proptest::prelude::*;
use udma_desc::{DescRing, Descriptor, Direction, Error, RING_MAX_SIZE, Reservation, Ring, RingId};

#[test]
fn ring_size_rules() {
    for ok in [32u32, 64, 4096, 1 << 23] {
        let r = Ring::new(Direction::Tx, ok).unwrap();
        assert_eq!(
            (
                r.size(),
                r.next_index(),
                r.ring_id().get(),
                r.completion_index()
            ),
            (ok, 0, 1, 0)
        );
        assert_eq!(r.available(), ok - 16);
    }
    for bad in [
        0u32,
        16,
        31,
        33,
        RING_MAX_SIZE + 16,
        1 << 24,
        u32::MAX,
        40,
        1 << 31,
    ] {
        assert_eq!(
            Ring::new(Direction::Tx, bad).err(),
            Some(Error::RingSizeOutOfRange { size: bad }),
            "{bad}"
        );
    }
    for bad in [48u32, 96, 4080, RING_MAX_SIZE] {
        assert_eq!(
            Ring::new(Direction::Rx, bad).err(),
            Some(Error::RingSizeNotPowerOfTwo { size: bad }),
            "{bad}"
        );
    }
    // Storage must hold the ring.
    let mut small = [Descriptor::ZERO; 32];
    assert_eq!(
        DescRing::with_size(Direction::Tx, &mut small[..], 64).err(),
        Some(Error::StorageTooSmall {
            capacity: 32,
            ring_size: 64
        })
    );
    let mut odd = [Descriptor::ZERO; 48];
    assert_eq!(
        DescRing::new(Direction::Tx, &mut odd[..]).err(),
        Some(Error::RingSizeNotPowerOfTwo { size: 48 })
    );
    // A larger storage may back a smaller ring.
    let r = DescRing::with_size(Direction::Tx, &mut odd[..], 32).unwrap();
    assert_eq!(r.ring().size(), 32);
}

/// An independent model: totals of taken and acknowledged descriptors.
struct Model {
    size: u32,
    taken: u64,
    acked: u64,
}

impl Model {
    fn next(&self) -> u32 {
        (self.taken % u64::from(self.size)) as u32
    }
    fn ring_id(&self) -> u8 {
        ((1 + self.taken / u64::from(self.size)) % 4) as u8
    }
    fn available(&self) -> u32 {
        self.size - 16 - (self.taken - self.acked) as u32
    }
    fn check(&self, r: &Ring) {
        assert_eq!(r.next_index(), self.next());
        assert_eq!(r.ring_id().get(), self.ring_id());
        assert_eq!(r.available(), self.available());
        assert_eq!(r.outstanding(), (self.taken - self.acked) as u32);
        assert_eq!(
            r.completion_index(),
            (self.acked % u64::from(self.size)) as u32
        );
    }
}

#[test]
fn phase_sequence_over_several_laps_one_slot_at_a_time() {
    let mut r = Ring::new(Direction::Tx, 32).unwrap();
    let mut m = Model {
        size: 32,
        taken: 0,
        acked: 0,
    };
    let mut ids = Vec::new();
    for step in 0..(32 * 9) {
        m.check(&r);
        let res = r.reserve(1).unwrap();
        assert_eq!(res.slot(0).unwrap().index, m.next());
        ids.push(res.ring_id().get());
        m.taken += 1;
        m.check(&r);
        if step % 3 == 2 {
            r.ack(3).unwrap();
            m.acked += 3;
        }
    }
    // Pass k (from 1) is stamped k mod 4 on every one of its 32 slots.
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(u32::from(*id), (1 + i as u32 / 32) % 4, "slot {i}");
    }
}

proptest! {
    /// Random reserve/ack sequences against the model, checked after every operation.
    #[test]
    fn reserve_and_ack_follow_the_model(ops in prop::collection::vec((any::<bool>(), 0u32..40), 1..200)) {
        let mut r = Ring::new(Direction::Tx, 64).unwrap();
        let mut m = Model { size: 64, taken: 0, acked: 0 };
        for (take, n) in ops {
            if take {
                match r.reserve(n) {
                    Ok(res) => {
                        prop_assert!(n <= m.available());
                        prop_assert_eq!(res.start(), m.next());
                        prop_assert_eq!(res.ring_id().get(), m.ring_id());
                        for i in 0..n {
                            let s = res.slot(i).unwrap();
                            let t = m.taken + u64::from(i);
                            prop_assert_eq!(s.index, (t % 64) as u32);
                            prop_assert_eq!(u64::from(s.ring_id.get()), (1 + t / 64) % 4);
                        }
                        prop_assert!(res.slot(n).is_none());
                        m.taken += u64::from(n);
                    }
                    Err(e) => {
                        prop_assert!(n > m.available());
                        prop_assert_eq!(e, Error::RingFull { ring: Direction::Tx, needed: n, available: m.available() });
                    }
                }
            } else {
                let out = (m.taken - m.acked) as u32;
                match r.ack(n) {
                    Ok(_) => { prop_assert!(n <= out); m.acked += u64::from(n); }
                    Err(e) => {
                        prop_assert!(n > out);
                        prop_assert_eq!(e, Error::AckTooMany { count: n, outstanding: out });
                    }
                }
            }
            m.check(&r);
        }
    }
}

fn desc(tag: u32) -> Descriptor {
    // Ring id bits deliberately set to 3 to prove stamping replaces them.
    Descriptor::from_words([0x0f00_0000 | tag, 0x0108_0003, tag, 0])
}

#[test]
fn reserve_and_write_across_the_wrap() {
    let mut storage = [Descriptor::ZERO; 32];
    let mut ring = DescRing::new(Direction::Tx, &mut storage[..]).unwrap();
    // Move next to slot 26 of pass 1.
    for _ in 0..2 {
        ring.reserve(13).unwrap();
        ring.ack(13).unwrap();
    }
    let res: Reservation = ring.reserve(10).unwrap();
    assert_eq!(
        (
            res.start(),
            res.ring_id().get(),
            res.count(),
            res.first_run()
        ),
        (26, 1, 10, 6)
    );
    assert_eq!(ring.ring().next_index(), 4);
    assert_eq!(ring.ring().ring_id().get(), 2, "phase flipped on wrap");
    let descs: Vec<Descriptor> = (0..10).map(desc).collect();
    ring.write_reserved(&res, &descs).unwrap();
    for (i, s) in res.slots().enumerate() {
        let d = ring.load(s.index).unwrap();
        assert_eq!(d.words()[2], i as u32, "slot {}", s.index);
        let expect_rid: u8 = if i < 6 { 1 } else { 2 };
        assert_eq!(s.ring_id.get(), expect_rid);
        // Only bits 25:24 changed: (rid << 24) & 0x3000000.
        assert_eq!(
            d.word0(),
            (0x0f00_0000 | i as u32) & !0x0300_0000 | (u32::from(expect_rid) << 24)
        );
        assert_eq!(d.words()[1], 0x0108_0003);
    }
    assert_eq!(
        ring.write_reserved(&res, &descs[..9]),
        Err(Error::ReservationMismatch {
            reserved: 10,
            given: 9
        })
    );
}

#[test]
fn reserve_ending_exactly_at_the_wrap_flips_the_phase() {
    let mut r = Ring::new(Direction::Rx, 32).unwrap();
    let a = r.reserve(16).unwrap();
    r.ack(16).unwrap();
    let b = r.reserve(16).unwrap();
    assert_eq!((a.start(), b.start(), b.first_run()), (0, 16, 16));
    assert_eq!((r.next_index(), r.ring_id().get()), (0, 2));
    assert_eq!(b.slot(15).unwrap().ring_id.get(), 1);
    r.ack(16).unwrap();
    assert_eq!(r.reserve(1).unwrap().ring_id(), RingId::new(2).unwrap());
}

#[test]
fn push_bulk_wraps_and_a_refused_bulk_consumes_nothing() {
    let mut ring = DescRing::new(Direction::Tx, VecStore(vec![Descriptor::ZERO; 32])).unwrap();
    for lap in 0..5u32 {
        let descs: Vec<Descriptor> = (0..16).map(|i| desc(lap * 100 + i)).collect();
        let res = ring.push_bulk(&descs).unwrap();
        for (i, s) in res.slots().enumerate() {
            let d = ring.load(s.index).unwrap();
            assert_eq!(d.words()[2], lap * 100 + i as u32);
            assert_eq!(d.ring_id(), s.ring_id);
        }
        assert_eq!(
            ring.push_bulk(&descs[..1]).unwrap_err(),
            Error::RingFull {
                ring: Direction::Tx,
                needed: 1,
                available: 0
            }
        );
        assert_eq!(ring.ring().next_index(), (lap * 16 + 16) % 32);
        ring.ack(16).unwrap();
    }
    let before = ring.store().clone();
    let many: Vec<Descriptor> = (0..17).map(desc).collect();
    assert_eq!(
        ring.push_bulk(&many).unwrap_err(),
        Error::RingFull {
            ring: Direction::Tx,
            needed: 17,
            available: 16
        }
    );
    assert_eq!(ring.store(), &before);
    assert_eq!(ring.ring().outstanding(), 0);
    // Single pushes stamp too.
    let s = ring.push(desc(7)).unwrap();
    assert_eq!(ring.load(s.index).unwrap().ring_id(), s.ring_id);
}

#[test]
fn store_errors_are_typed() {
    let mut s = [Descriptor::ZERO; 4];
    use udma_desc::DescStore;
    assert_eq!(
        s.store(4, Descriptor::ZERO),
        Err(Error::SlotOutOfRange {
            index: 4,
            capacity: 4
        })
    );
    assert_eq!(
        s.load(9),
        Err(Error::SlotOutOfRange {
            index: 9,
            capacity: 4
        })
    );
    assert_eq!(
        s.store_run(2, &[Descriptor::ZERO; 3], RingId::INITIAL),
        Err(Error::SlotOutOfRange {
            index: 2,
            capacity: 4
        })
    );
    let mut v = VecStore(vec![Descriptor::ZERO; 4]);
    assert_eq!(
        v.store_run(2, &[Descriptor::ZERO; 3], RingId::INITIAL),
        Err(Error::SlotOutOfRange {
            index: 4,
            capacity: 4
        })
    );
}

#[test]
fn concurrent_acks_from_several_threads_lose_nothing() {
    const THREADS: u32 = 4;
    const PER_THREAD: u32 = 2000;
    let mut r = Ring::new(Direction::Tx, 1 << 14).unwrap();
    // Each thread acks 1 and 2 alternately: 3 per two iterations.
    let total = THREADS * PER_THREAD / 2 * 3;
    r.reserve(total).unwrap();
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let r = &r;
            s.spawn(move || {
                for i in 0..PER_THREAD {
                    // Mix ack sizes 1 and 2 so CAS retries interleave differently.
                    r.ack(1 + (i + t) % 2).unwrap();
                }
            });
        }
    });
    assert_eq!(r.completion_index(), total);
    assert_eq!(r.outstanding(), 0);
    assert_eq!(r.available(), (1 << 14) - 16);
}

#[test]
fn concurrent_over_acks_never_pass_the_outstanding_count() {
    let mut r = Ring::new(Direction::Rx, 4096).unwrap();
    r.reserve(1000).unwrap();
    let ok = std::sync::atomic::AtomicU32::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..400 {
                    if r.ack(1).is_ok() {
                        ok.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    // 1600 attempts, exactly 1000 succeed: no ack overtook the producer.
    assert_eq!(ok.into_inner(), 1000);
    assert_eq!(r.completion_index(), 1000);
    assert_eq!(
        r.ack(1),
        Err(Error::AckTooMany {
            count: 1,
            outstanding: 0
        })
    );
}

#[test]
fn reset_returns_to_post_init_state() {
    let mut r = Ring::new(Direction::Tx, 32).unwrap();
    r.reserve(16).unwrap();
    r.ack(10).unwrap();
    r.reset();
    assert_eq!(
        (
            r.next_index(),
            r.ring_id().get(),
            r.completion_index(),
            r.available()
        ),
        (0, 1, 0, 16)
    );
}
