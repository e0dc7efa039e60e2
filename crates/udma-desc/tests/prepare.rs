//! copy_prepare_one, crc_prepare_one, the doorbell, and the builders against an
//! independent table-driven oracle.

mod common;
use std::cell::RefCell;

use common::{Pair, V2, V3, pair, tsv};
use proptest::prelude::*;
use udma_desc::{
    Barrier, CRC_RESULT_BYTES, CopyRequest, CrcRequest, Direction, Doorbell, Error, MetaCtrl,
    QueueId, RingId, RxLenCtrl, TxLenCtrl, U3, build_copy_pair, rx_descriptor, tx_descriptor,
};

/// Everything observable about a pair: indices, ids, completions and storage.
type RingState = (u32, RingId, u32, u32);
type Snapshot = (RingState, RingState, common::VecStore, common::VecStore);

fn snapshot(p: &Pair) -> Snapshot {
    let state = |r: &udma_desc::Ring| {
        (
            r.next_index(),
            r.ring_id(),
            r.completion_index(),
            r.available(),
        )
    };
    (
        state(p.tx().ring()),
        state(p.rx().ring()),
        p.tx().store().clone(),
        p.rx().store().clone(),
    )
}

#[test]
fn rejected_copies_consume_nothing() {
    let mut p = pair(32);
    p.copy_prepare_one::<V3>(&CopyRequest::new(1, 2, 3))
        .unwrap();
    let before = snapshot(&p);
    let cases: [(CopyRequest, Error); 3] = [
        (CopyRequest::new(1, 2, 0), Error::ZeroSize),
        (
            CopyRequest::new(1, 2, 65_537),
            Error::SizeTooLarge { size: 65_537 },
        ),
        (
            CopyRequest::new(1, 2, u32::MAX),
            Error::SizeTooLarge { size: u32::MAX },
        ),
    ];
    for (req, err) in cases {
        assert_eq!(p.copy_prepare_one::<V3>(&req), Err(err));
        assert_eq!(snapshot(&p), before);
    }
    // SOW on an arch without strong order.
    let sow = CopyRequest::new(1, 2, 3).with_barrier(Barrier::Sow);
    assert_eq!(
        p.copy_prepare_one::<V2>(&sow),
        Err(Error::StrongOrderUnsupported)
    );
    assert_eq!(snapshot(&p), before);
    // Invalid raw barrier and queue id never become a request.
    assert_eq!(
        Barrier::from_raw(4),
        Err(Error::InvalidBarrier { value: 4 })
    );
    assert_eq!(
        Barrier::try_from(u32::MAX),
        Err(Error::InvalidBarrier { value: u32::MAX })
    );
    assert!(
        matches!(QueueId::new(16).map_err(Error::from), Err(Error::InvalidQueue(q)) if q.0 == 16)
    );
}

#[test]
fn ring_full_on_either_side_consumes_nothing() {
    // TX full.
    let mut p = pair(32);
    for i in 0..16 {
        p.copy_prepare_one::<V3>(&CopyRequest::new(i, i, 64))
            .unwrap();
    }
    let before = snapshot(&p);
    assert_eq!(
        p.copy_prepare_one::<V3>(&CopyRequest::new(9, 9, 64)),
        Err(Error::RingFull {
            ring: Direction::Tx,
            needed: 1,
            available: 0
        })
    );
    assert_eq!(snapshot(&p), before);
    // RX full while TX has room.
    p.tx().ack(16).unwrap();
    let before = snapshot(&p);
    assert_eq!(
        p.copy_prepare_one::<V3>(&CopyRequest::new(9, 9, 64)),
        Err(Error::RingFull {
            ring: Direction::Rx,
            needed: 1,
            available: 0
        })
    );
    assert_eq!(snapshot(&p), before);
    p.rx().ack(16).unwrap();
    p.copy_prepare_one::<V3>(&CopyRequest::new(9, 9, 64))
        .unwrap();
    assert_eq!(
        p.ack(2),
        Err(Error::AckTooMany {
            count: 2,
            outstanding: 1
        })
    );
    p.ack(1).unwrap();
}

#[test]
fn copies_over_several_laps_stamp_the_phase() {
    let mut p = pair(32);
    for i in 0..(32 * 6) {
        let s = p
            .copy_prepare_one::<V3>(&CopyRequest::new(i, i + 1, 1 + i as u32))
            .unwrap();
        assert_eq!(s.tx.index as u64, i % 32);
        assert_eq!(u64::from(s.tx.ring_id.get()), (1 + i / 32) % 4);
        assert_eq!(s.rx, s.tx);
        let tx = p.tx().load(s.tx.index).unwrap();
        assert_eq!(tx.ring_id(), s.tx.ring_id);
        assert_eq!(tx.as_tx().buf_ptr, i);
        assert_eq!(p.rx().load(s.rx.index).unwrap().as_rx().buf1_ptr, i + 1);
        p.ack(1).unwrap();
    }
}

#[test]
fn strong_ordered_is_a_compile_time_sow() {
    let req = CopyRequest::new(1, 2, 3).strong_ordered::<V3>();
    assert_eq!(req.barrier, Barrier::Sow);
    let p = build_copy_pair::<V3>(RingId::INITIAL, RingId::INITIAL, &req).unwrap();
    assert!(p.rx.as_rx().len_ctrl.strong_order_wr());
}

#[derive(Default)]
struct Recorder(RefCell<Vec<(Direction, u8, u32)>>);
impl Doorbell for Recorder {
    fn ring_rx(&self, q: QueueId, n: u32) {
        self.0.borrow_mut().push((Direction::Rx, q.get(), n));
    }
    fn ring_tx(&self, q: QueueId, n: u32) {
        self.0.borrow_mut().push((Direction::Tx, q.get(), n));
    }
}

#[test]
fn copy_start_rings_rx_before_tx() {
    let p = pair(64);
    let db = Recorder::default();
    p.copy_start(&db, 3, 5).unwrap();
    p.copy_start(&db, 0, 2).unwrap(); // RX prefetch only
    p.copy_start(&&db, 64, 64).unwrap(); // full ring, through &T
    assert_eq!(
        db.0.borrow().as_slice(),
        [
            (Direction::Rx, 0, 5),
            (Direction::Tx, 0, 3),
            (Direction::Rx, 0, 2),
            (Direction::Rx, 0, 64),
            (Direction::Tx, 0, 64),
        ]
    );
    db.0.borrow_mut().clear();
    assert_eq!(
        p.copy_start(&db, 65, 1),
        Err(Error::DoorbellCountTooLarge {
            ring: Direction::Tx,
            count: 65,
            ring_size: 64
        })
    );
    assert_eq!(
        p.copy_start(&db, 1, 65),
        Err(Error::DoorbellCountTooLarge {
            ring: Direction::Rx,
            count: 65,
            ring_size: 64
        })
    );
    // 2.26.5.0 refuses an RX count of 0 "with -1 and writes nothing" (udma-notes.md §6,
    // §13), with TX descriptors or without: the same refusal as khal's Udma::copy_start.
    assert_eq!(p.copy_start(&db, 4, 0), Err(Error::DoorbellRxCountZero));
    assert_eq!(p.copy_start(&db, 0, 0), Err(Error::DoorbellRxCountZero));
    assert!(db.0.borrow().is_empty(), "a refused start rings nothing");
}

#[test]
fn crc_prepare_one_layout() {
    let mut p = pair(32);
    p.copy_prepare_one::<V3>(&CopyRequest::new(0, 0, 1))
        .unwrap();
    let req = CrcRequest {
        src: 0x1000,
        size: 4096,
        dst: 0x2000,
        seed: Some(0xffff_ffff),
        iv_index: U3::new(5).unwrap(),
        op_type: U3::new(1).unwrap(),
        store_result: true,
        dst_interrupt: true,
    };
    let s = p.crc_prepare_one::<V3>(&req).unwrap();
    assert_eq!((s.tx_meta.index, s.tx_data.index, s.rx.index), (1, 2, 1));
    let m = p.tx().load(1).unwrap().as_tx_meta();
    assert!(m.len_ctrl.first() && m.len_ctrl.meta() && m.len_ctrl.concat() && !m.len_ctrl.last());
    assert_eq!(m.meta1, 0xffff_ffff);
    let mc = m.meta_ctrl;
    assert!(
        mc.send_crc_result()
            && mc.store_crc_result()
            && !mc.copy_source_data()
            && !mc.use_stored_crc_iv()
    );
    assert_eq!(
        (
            mc.cached_crc_iv_index().get(),
            mc.op_type().get(),
            mc.ssmae_op().get()
        ),
        (5, 1, 2)
    );
    let d = p.tx().load(2).unwrap().as_tx();
    assert!(d.len_ctrl.last() && !d.len_ctrl.first());
    assert_eq!(
        (d.len_ctrl.size(), d.buf_ptr, d.meta_ctrl),
        (4096, 0x1000, mc)
    );
    let r = p.rx().load(1).unwrap().as_rx();
    assert_eq!(
        (r.len_ctrl.size(), r.len_ctrl.int_en(), r.buf1_ptr),
        (CRC_RESULT_BYTES, true, 0x2000)
    );
    // Stored seed.
    let s2 = p
        .crc_prepare_one::<V3>(&CrcRequest { seed: None, ..req })
        .unwrap();
    assert!(
        p.tx()
            .load(s2.tx_meta.index)
            .unwrap()
            .as_tx_meta()
            .meta_ctrl
            .use_stored_crc_iv()
    );
    // Refusals consume nothing: bad size, and TX room for only one more descriptor.
    let before = snapshot(&p);
    assert_eq!(
        p.crc_prepare_one::<V3>(&CrcRequest { size: 0, ..req }),
        Err(Error::ZeroSize)
    );
    assert_eq!(snapshot(&p), before);
    let mut q = pair(32);
    for _ in 0..15 {
        q.tx_mut().reserve(1).unwrap();
    }
    let before = snapshot(&q);
    assert_eq!(
        q.crc_prepare_one::<V3>(&req),
        Err(Error::RingFull {
            ring: Direction::Tx,
            needed: 2,
            available: 1
        })
    );
    assert_eq!(snapshot(&q), before);
}

/// Independent oracle: the vendor layout rebuilt from the reference table's masks only.
fn oracle(
    tx_rid: u8,
    rx_rid: u8,
    src: u64,
    dst: u64,
    size: u32,
    barrier: u32,
    int: bool,
) -> ([u8; 16], [u8; 16]) {
    let len = size & tsv("tx_desc.len_ctrl", "LEN");
    let mut tx = tsv("tx_desc.len_ctrl", "COPY_FLAGS") | (u32::from(tx_rid) << 24) | len;
    let mut meta = tsv("tx_desc.meta_ctrl", "DEFAULT");
    let mut rx = (u32::from(rx_rid) << 24) | len;
    match barrier {
        1 => tx |= tsv("tx_desc.len_ctrl", "DMB"),
        2 => meta = tsv("tx_desc.meta_ctrl", "DEFAULT_WITH_WRITE_BARRIER"),
        3 => rx |= tsv("rx_desc.len_ctrl", "STRONG_ORDER_WR"),
        _ => {}
    }
    if int {
        rx |= tsv("rx_desc.len_ctrl", "INT_EN");
    }
    let mut t = [0u8; 16];
    t[..4].copy_from_slice(&tx.to_le_bytes());
    t[4..8].copy_from_slice(&meta.to_le_bytes());
    t[8..].copy_from_slice(&src.to_le_bytes());
    let mut r = [0u8; 16];
    r[..4].copy_from_slice(&rx.to_le_bytes());
    r[8..].copy_from_slice(&dst.to_le_bytes());
    (t, r)
}

proptest! {
    #[test]
    fn copy_pair_matches_the_oracle(
        tx_rid in 0u8..4, rx_rid in 0u8..4, src: u64, dst: u64,
        size in prop_oneof![1u32..=65_536, Just(65_536u32), Just(1u32)], barrier in 0u32..4, int: bool,
    ) {
        let req = CopyRequest::new(src, dst, size)
            .with_barrier(Barrier::from_raw(barrier).unwrap())
            .with_dst_interrupt(int);
        let p = build_copy_pair::<V3>(RingId::new(tx_rid).unwrap(), RingId::new(rx_rid).unwrap(), &req).unwrap();
        prop_assert_eq!((p.tx.to_le_bytes(), p.rx.to_le_bytes()), oracle(tx_rid, rx_rid, src, dst, size, barrier, int));
    }

    #[test]
    fn single_builders_match_the_oracle(rid in 0u8..4, addr: u64, size in 1u32..=65_536, flags: u32) {
        let id = RingId::new(rid).unwrap();
        let d = tx_descriptor(id, addr, size, TxLenCtrl::from_bits(flags), MetaCtrl::new()).unwrap();
        let expect = (flags & !0x0300_ffff) | (u32::from(rid) << 24) | (size & 0xffff);
        prop_assert_eq!(d.words(), [expect, 0x0108_0003, addr as u32, (addr >> 32) as u32]);
        let d = rx_descriptor(id, addr, size, RxLenCtrl::from_bits(flags)).unwrap();
        prop_assert_eq!(d.words(), [expect, 0, addr as u32, (addr >> 32) as u32]);
    }

    #[test]
    fn builders_refuse_bad_sizes(size in prop_oneof![Just(0u32), 65_537u32..]) {
        let e = if size == 0 { Error::ZeroSize } else { Error::SizeTooLarge { size } };
        prop_assert_eq!(tx_descriptor(RingId::INITIAL, 0, size, TxLenCtrl::new(), MetaCtrl::new()), Err(e));
        prop_assert_eq!(rx_descriptor(RingId::INITIAL, 0, size, RxLenCtrl::new()), Err(e));
        prop_assert_eq!(build_copy_pair::<V2>(RingId::INITIAL, RingId::INITIAL, &CopyRequest::new(0, 0, size)), Err(e));
    }
}

#[test]
fn errors_display_their_values() {
    let e = Error::RingFull {
        ring: Direction::Rx,
        needed: 3,
        available: 1,
    };
    assert_eq!(e.to_string(), "RX ring full: 3 slots needed, 1 available");
    assert_eq!(
        Error::SizeTooLarge { size: 70_000 }.to_string(),
        "transfer size 70000 above 65536"
    );
    assert!(Error::InvalidBarrier { value: 9 }.to_string().contains('9'));
    assert!(
        Error::from(QueueId::new(20).unwrap_err())
            .to_string()
            .contains("20")
    );
}

/// Requests with every barrier, both interrupt settings and sizes up to 64 KiB.
fn mixed_requests(n: u32) -> Vec<CopyRequest> {
    (0..n)
        .map(|i| {
            let barrier = Barrier::from_raw(i % 4).unwrap();
            CopyRequest::new(
                0x1_0000 * u64::from(i),
                0x9_0000_0000 + u64::from(i),
                1 + (i * 977) % 65_536,
            )
            .with_barrier(barrier)
            .with_dst_interrupt(i % 3 == 0)
        })
        .collect()
}

/// The batch writes the bytes of N single copies, across both rings' wraps (at different
/// places, as the TX ring is ahead of the RX ring), through the fused plain-memory path and
/// through a store's one-by-one path alike.
#[test]
fn copy_prepare_batch_equals_single_copies() {
    let reqs = mixed_requests(40);
    // One-by-one reference on VecStore rings.
    let mut single = pair(64);
    let mut batch_vec = pair(64);
    let (mut tx, mut rx) = (
        vec![udma_desc::Descriptor::ZERO; 64],
        vec![udma_desc::Descriptor::ZERO; 64],
    );
    let mut batch_mem = udma_desc::RingPair::new(
        QueueId::new(0).unwrap(),
        udma_desc::DescRing::new(Direction::Tx, &mut tx[..]).unwrap(),
        udma_desc::DescRing::new(Direction::Rx, &mut rx[..]).unwrap(),
    );
    // Move TX 7 slots ahead of RX, then near the end of the ring.
    for p in [&mut single, &mut batch_vec] {
        p.tx_mut().reserve(7).unwrap();
        p.tx().ack(7).unwrap();
        p.tx_mut().reserve(40).unwrap();
        p.rx_mut().reserve(40).unwrap();
        p.ack(40).unwrap();
    }
    batch_mem.tx_mut().reserve(7).unwrap();
    batch_mem.tx().ack(7).unwrap();
    batch_mem.tx_mut().reserve(40).unwrap();
    batch_mem.rx_mut().reserve(40).unwrap();
    batch_mem.ack(40).unwrap();
    for r in &reqs {
        single.copy_prepare_one::<V3>(r).unwrap();
    }
    let b = batch_vec.copy_prepare_batch::<V3>(&reqs).unwrap();
    assert_eq!((b.tx.start(), b.rx.start(), b.tx.count()), (47, 40, 40));
    assert_eq!(batch_mem.copy_prepare_batch::<V3>(&reqs).unwrap(), b);
    for i in 0..64 {
        let want = (single.tx().load(i).unwrap(), single.rx().load(i).unwrap());
        assert_eq!(
            (
                batch_vec.tx().load(i).unwrap(),
                batch_vec.rx().load(i).unwrap()
            ),
            want,
            "slot {i}"
        );
        assert_eq!(
            (
                batch_mem.tx().load(i).unwrap(),
                batch_mem.rx().load(i).unwrap()
            ),
            want,
            "slot {i}"
        );
    }
    for p in [&single, &batch_vec] {
        assert_eq!(
            (p.tx().ring().next_index(), p.tx().ring().ring_id().get()),
            (23, 2)
        );
        assert_eq!(
            (p.rx().ring().next_index(), p.rx().ring().ring_id().get()),
            (16, 2)
        );
    }
}

#[test]
fn refused_batches_take_nothing() {
    let mut p = pair(64);
    let mut reqs = mixed_requests(10);
    reqs[6].size = 0;
    assert_eq!(p.copy_prepare_batch::<V3>(&reqs), Err(Error::ZeroSize));
    reqs[6].size = 8;
    assert_eq!(
        p.copy_prepare_batch::<V2>(&reqs),
        Err(Error::StrongOrderUnsupported)
    );
    let many = mixed_requests(49);
    assert_eq!(
        p.copy_prepare_batch::<V3>(&many),
        Err(Error::RingFull {
            ring: Direction::Tx,
            needed: 49,
            available: 48
        })
    );
    assert_eq!(
        (p.tx().ring().next_index(), p.rx().ring().next_index()),
        (0, 0)
    );
    assert_eq!(p.copy_prepare_batch::<V3>(&[]).unwrap().tx.count(), 0);
}

/// A request layout of the caller's own (as the C ABI's `al_udma_m2m_copy_req`): the raw
/// barrier number unchecked, the interrupt as any non-zero word.
#[derive(Clone, Copy)]
struct RawReq {
    src: u64,
    dst: u64,
    size: u32,
    barrier: u32,
    dst_int: u32,
}

impl udma_desc::CopySource for RawReq {
    fn src(&self) -> u64 {
        self.src
    }
    fn dst(&self) -> u64 {
        self.dst
    }
    fn size(&self) -> u32 {
        self.size
    }
    fn barrier_raw(&self) -> u32 {
        self.barrier
    }
    fn dst_interrupt_raw(&self) -> u32 {
        self.dst_int
    }
}

fn raw_requests(reqs: &[CopyRequest]) -> Vec<RawReq> {
    reqs.iter()
        .enumerate()
        .map(|(i, r)| RawReq {
            src: r.src,
            dst: r.dst,
            size: r.size,
            barrier: r.barrier.raw(),
            // Any non-zero word raises the interrupt, as C's `dst_int` does.
            dst_int: u32::from(r.dst_interrupt) << (i % 32),
        })
        .collect()
}

/// Plain-memory rings of `size` slots over `tx` and `rx`, the fused path's store.
fn mem_pair<'a>(
    tx: &'a mut [udma_desc::Descriptor],
    rx: &'a mut [udma_desc::Descriptor],
) -> udma_desc::RingPair<&'a mut [udma_desc::Descriptor], &'a mut [udma_desc::Descriptor]> {
    udma_desc::RingPair::new(
        QueueId::new(0).unwrap(),
        udma_desc::DescRing::new(Direction::Tx, tx).unwrap(),
        udma_desc::DescRing::new(Direction::Rx, rx).unwrap(),
    )
}

/// Requests read in place through `CopySource` build the bytes of the same
/// `CopyRequest`s, across a wrap, on plain memory and on a store alike.
#[test]
fn batch_from_a_foreign_layout_equals_copy_requests() {
    let reqs = mixed_requests(40);
    let raw = raw_requests(&reqs);
    let (mut t1, mut r1) = (
        vec![udma_desc::Descriptor::ZERO; 64],
        vec![udma_desc::Descriptor::ZERO; 64],
    );
    let (mut t2, mut r2) = (t1.clone(), r1.clone());
    let (mut want, mut got) = (mem_pair(&mut t1, &mut r1), mem_pair(&mut t2, &mut r2));
    let (mut want_vec, mut got_vec) = (pair(64), pair(64));
    for _ in 0..2 {
        let b = want.copy_prepare_batch::<V3>(&reqs).unwrap();
        assert_eq!(got.copy_prepare_batch_from::<V3, _>(&raw).unwrap(), b);
        assert_eq!(want_vec.copy_prepare_batch::<V3>(&reqs).unwrap(), b);
        assert_eq!(got_vec.copy_prepare_batch_from::<V3, _>(&raw).unwrap(), b);
        want.ack(40).unwrap();
        got.ack(40).unwrap();
        want_vec.ack(40).unwrap();
        got_vec.ack(40).unwrap();
    }
    for i in 0..64 {
        let w = (want.tx().load(i).unwrap(), want.rx().load(i).unwrap());
        assert_eq!(
            (got.tx().load(i).unwrap(), got.rx().load(i).unwrap()),
            w,
            "slot {i}"
        );
        assert_eq!(
            (
                want_vec.tx().load(i).unwrap(),
                want_vec.rx().load(i).unwrap()
            ),
            w
        );
        assert_eq!(
            (got_vec.tx().load(i).unwrap(), got_vec.rx().load(i).unwrap()),
            w
        );
    }
}

/// A raw barrier above 3 refuses the batch with `InvalidBarrier` naming it, and so do a
/// bad size and SOW on V2 behind it in the same run: the first bad request is named, as
/// one-by-one validation names it, and no slot is taken.
#[test]
fn batch_from_refuses_raw_barriers_and_names_the_first_error() {
    let mut raw = raw_requests(&mixed_requests(10));
    let (mut t, mut r) = (
        vec![udma_desc::Descriptor::ZERO; 64],
        vec![udma_desc::Descriptor::ZERO; 64],
    );
    let mut mem = mem_pair(&mut t, &mut r);
    let mut vec = pair(64);
    raw[4].barrier = 7;
    raw[6].size = 0;
    assert_eq!(
        mem.copy_prepare_batch_from::<V3, _>(&raw),
        Err(Error::InvalidBarrier { value: 7 })
    );
    assert_eq!(
        vec.copy_prepare_batch_from::<V3, _>(&raw),
        Err(Error::InvalidBarrier { value: 7 })
    );
    raw[4].barrier = 0;
    assert_eq!(
        mem.copy_prepare_batch_from::<V3, _>(&raw),
        Err(Error::ZeroSize)
    );
    raw[6].size = 65_537;
    assert_eq!(
        vec.copy_prepare_batch_from::<V3, _>(&raw),
        Err(Error::SizeTooLarge { size: 65_537 })
    );
    raw[6].size = 8;
    // Request 3 is SOW (`mixed_requests`): no strong ordering on V2.
    assert_eq!(
        mem.copy_prepare_batch_from::<V2, _>(&raw),
        Err(Error::StrongOrderUnsupported)
    );
    for p in [
        mem.tx().ring(),
        mem.rx().ring(),
        vec.tx().ring(),
        vec.rx().ring(),
    ] {
        assert_eq!((p.next_index(), p.available()), (0, 48));
    }
    assert_eq!(
        mem.copy_prepare_batch_from::<V3, _>(&raw)
            .unwrap()
            .tx
            .count(),
        10
    );
}

/// A batch of plain copies (no barrier, no interrupt) takes the fused path's lookup-free
/// words; one interrupt, one barrier or one bad size in a run sends that run back through
/// the full words or the check. Each way, the bytes are those of single copies, across
/// a wrap, and a bad size is refused with nothing taken.
#[test]
fn plain_batches_and_one_odd_copy_equal_single_copies() {
    let plain = |n: u32| -> Vec<CopyRequest> {
        (0..n)
            .map(|i| CopyRequest::new(0x4000 + 64 * u64::from(i), 0x8000 + u64::from(i), 1 + i))
            .collect()
    };
    let mut with_int = plain(40);
    with_int[21] = with_int[21].with_dst_interrupt(true);
    let mut with_barrier = plain(40);
    with_barrier[5] = with_barrier[5].with_barrier(Barrier::Dmb);
    for reqs in [plain(40), with_int, with_barrier] {
        let mut single = pair(64);
        let (mut tx, mut rx) = (
            vec![udma_desc::Descriptor::ZERO; 64],
            vec![udma_desc::Descriptor::ZERO; 64],
        );
        let mut batch = mem_pair(&mut tx, &mut rx);
        single.copy_prepare_batch::<V3>(&plain(40)).unwrap();
        single.ack(40).unwrap();
        batch.copy_prepare_batch::<V3>(&plain(40)).unwrap();
        batch.ack(40).unwrap();
        for r in &reqs {
            single.copy_prepare_one::<V3>(r).unwrap();
        }
        batch.copy_prepare_batch::<V3>(&reqs).unwrap();
        for i in 0..64 {
            assert_eq!(
                batch.tx().load(i).unwrap(),
                single.tx().load(i).unwrap(),
                "TX {i}"
            );
            assert_eq!(
                batch.rx().load(i).unwrap(),
                single.rx().load(i).unwrap(),
                "RX {i}"
            );
        }
    }
    let mut bad = plain(40);
    bad[30].size = 0;
    let (mut tx, mut rx) = (
        vec![udma_desc::Descriptor::ZERO; 64],
        vec![udma_desc::Descriptor::ZERO; 64],
    );
    let mut batch = mem_pair(&mut tx, &mut rx);
    assert_eq!(batch.copy_prepare_batch::<V3>(&bad), Err(Error::ZeroSize));
    assert_eq!(batch.tx().ring().next_index(), 0);
}
