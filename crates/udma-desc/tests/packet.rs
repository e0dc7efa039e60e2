//! The packet builder: flags, CME, per-arch limits, and all-or-nothing publication.

mod common;
use common::{V2, V3, V4, pair};
use udma_desc::{
    Barrier, CopyBlock, Direction, Error, MAX_PACKET_BYTES, PacketOptions, Segment, SgBlock,
    cme_descriptor,
};

fn blocks(n: u32, size: u32) -> impl Iterator<Item = CopyBlock> {
    (0..n).map(move |i| CopyBlock {
        src: 0x1000 * u64::from(i),
        dst: 0x10_0000 + 0x1000 * u64::from(i),
        size,
    })
}

#[test]
fn first_and_last_on_the_right_descriptors() {
    let mut p = pair(64);
    let s = p
        .packet_prepare(
            blocks(3, 100),
            &PacketOptions::<V3>::new().with_dst_interrupt(true),
        )
        .unwrap();
    assert_eq!(
        (s.tx_start, s.tx_count, s.rx_start, s.rx_count, s.bytes),
        (0, 3, 0, 3, 300)
    );
    let flags: Vec<(bool, bool)> = (0..3)
        .map(|i| {
            let t = p.tx().load(i).unwrap().as_tx().len_ctrl;
            (t.first(), t.last())
        })
        .collect();
    assert_eq!(flags, [(true, false), (false, false), (false, true)]);
    for i in 0..3 {
        let t = p.tx().load(i).unwrap().as_tx();
        assert_eq!(
            (t.len_ctrl.size(), t.buf_ptr, t.meta_ctrl.into_bits()),
            (100, 0x1000 * u64::from(i), 0x0108_0003)
        );
        assert!(!t.len_ctrl.meta() && !t.len_ctrl.concat() && !t.len_ctrl.int_en());
        let r = p.rx().load(i).unwrap().as_rx();
        assert_eq!(
            (r.len_ctrl.size(), r.buf1_ptr),
            (100, 0x10_0000 + 0x1000 * u64::from(i))
        );
        assert_eq!(r.len_ctrl.int_en(), i == 2, "interrupt only on the last RX");
    }
    assert_eq!(
        (p.tx().ring().next_index(), p.rx().ring().next_index()),
        (3, 3)
    );
    // A single block is FIRST and LAST.
    p.packet_prepare(blocks(1, 65_536), &PacketOptions::<V2>::new())
        .unwrap();
    let t = p.tx().load(3).unwrap().as_tx().len_ctrl;
    assert!(t.first() && t.last());
    assert_eq!(t.len(), 0);
}

#[test]
fn cme_meta_descriptor_is_prepended() {
    let mut p = pair(64);
    let opts = PacketOptions::<V3>::new().with_cme_index(2).unwrap();
    let s = p.packet_prepare(blocks(2, 64), &opts).unwrap();
    assert_eq!((s.tx_count, s.rx_count), (3, 2));
    let m = p.tx().load(0).unwrap();
    // Seed 004 §1 build_cme_packet: word0 = cme_index << 24 | 0x04800000, nothing else.
    assert_eq!(m.word0(), (2 << 24) | 0x0480_0000);
    assert_eq!(m.words()[1..], [0, 0, 0]);
    assert_eq!(m, cme_descriptor(2).unwrap());
    assert_eq!(
        m.decode(Direction::Tx),
        udma_desc::Decoded::TxMeta(m.as_tx_meta())
    );
    assert_eq!(m.as_tx_meta().cme_index(), 2);
    let d0 = p.tx().load(1).unwrap().as_tx().len_ctrl;
    let d1 = p.tx().load(2).unwrap().as_tx().len_ctrl;
    assert!(d0.first() && !d0.last() && d0.concat());
    assert!(!d1.first() && d1.last() && d1.concat());
    assert_eq!(
        PacketOptions::<V3>::new().with_cme_index(4).err(),
        Some(Error::ValueTooWide {
            field: "CME index",
            value: 4,
            max: 3
        })
    );
    assert!(cme_descriptor(200).is_err());
}

#[test]
fn barriers_and_arch_features() {
    let mut p = pair(64);
    // Seed 004 §1 build_packet: the same flags and meta on every TX data descriptor.
    p.packet_prepare(
        blocks(2, 8),
        &PacketOptions::<V3>::new().with_barrier(Barrier::Dmb),
    )
    .unwrap();
    assert!(p.tx().load(0).unwrap().as_tx().len_ctrl.dmb());
    assert!(p.tx().load(1).unwrap().as_tx().len_ctrl.dmb());
    p.packet_prepare(
        blocks(2, 8),
        &PacketOptions::<V3>::new().with_barrier(Barrier::WriteBarrier),
    )
    .unwrap();
    assert!(p.tx().load(2).unwrap().as_tx().meta_ctrl.write_barrier());
    assert!(p.tx().load(3).unwrap().as_tx().meta_ctrl.write_barrier());
    p.packet_prepare(
        blocks(2, 8),
        &PacketOptions::<V3>::new().with_strong_order(),
    )
    .unwrap();
    assert!(p.rx().load(4).unwrap().as_rx().len_ctrl.strong_order_wr());
    assert!(p.rx().load(5).unwrap().as_rx().len_ctrl.strong_order_wr());
    // A notification mask on V4 cannot be encoded (no source gives its bits).
    let before = (p.tx().ring().next_index(), p.rx().ring().next_index());
    assert_eq!(
        p.packet_prepare(
            blocks(2, 8),
            &PacketOptions::<V4>::new().with_notification_mask(0x5a),
        ),
        Err(Error::NotificationMaskEncodingUnknown { mask: 0x5a })
    );
    assert_eq!(
        (p.tx().ring().next_index(), p.rx().ring().next_index()),
        before
    );
    // SOW asked at run time on V2.
    let before = (p.tx().ring().next_index(), p.rx().ring().next_index());
    assert_eq!(
        p.packet_prepare(
            blocks(1, 8),
            &PacketOptions::<V2>::new().with_barrier(Barrier::Sow)
        ),
        Err(Error::StrongOrderUnsupported)
    );
    assert_eq!(
        (p.tx().ring().next_index(), p.rx().ring().next_index()),
        before
    );
}

#[test]
fn per_arch_descriptor_limits() {
    let mut p = pair(512);
    // V2: 0x80 data descriptors fit; V3/V4: 0x41 including the CME one.
    assert_eq!(
        p.packet_prepare(blocks(0x80, 8), &PacketOptions::<V2>::new())
            .unwrap()
            .tx_count,
        0x80
    );
    assert_eq!(
        p.packet_prepare(blocks(0x81, 8), &PacketOptions::<V2>::new()),
        Err(Error::PacketTooManyDescriptors { max: 0x80 })
    );
    assert_eq!(
        p.packet_prepare(blocks(0x41, 8), &PacketOptions::<V3>::new())
            .unwrap()
            .tx_count,
        0x41
    );
    // The cap counts data blocks (seed: num_blocks); the CME descriptor comes on top.
    let cme = PacketOptions::<V4>::new().with_cme_index(0).unwrap();
    assert_eq!(
        p.packet_prepare(blocks(0x41, 8), &cme).unwrap().tx_count,
        0x42
    );
    let before = (p.tx().ring().next_index(), p.rx().ring().next_index());
    assert_eq!(
        p.packet_prepare(blocks(0x42, 8), &cme),
        Err(Error::PacketTooManyDescriptors { max: 0x41 })
    );
    assert_eq!(
        (p.tx().ring().next_index(), p.rx().ring().next_index()),
        before
    );
}

#[test]
fn failures_half_way_publish_nothing() {
    let mut p = pair(64);
    p.packet_prepare(blocks(5, 8), &PacketOptions::<V3>::new())
        .unwrap();
    let state = |p: &common::Pair| {
        (
            p.tx().ring().next_index(),
            p.tx().ring().ring_id(),
            p.tx().available(),
            p.rx().ring().next_index(),
            p.rx().ring().ring_id(),
            p.rx().available(),
        )
    };
    let before = state(&p);
    let opts = PacketOptions::<V3>::new();
    // A bad size in the middle.
    let bad = blocks(4, 8)
        .chain([CopyBlock {
            src: 0,
            dst: 0,
            size: 0,
        }])
        .chain(blocks(2, 8));
    assert_eq!(p.packet_prepare(bad, &opts), Err(Error::ZeroSize));
    assert_eq!(state(&p), before);
    let bad = blocks(2, 8).chain([CopyBlock {
        src: 0,
        dst: 0,
        size: 70_000,
    }]);
    assert_eq!(
        p.packet_prepare(bad, &opts),
        Err(Error::SizeTooLarge { size: 70_000 })
    );
    assert_eq!(state(&p), before);
    // Too many bytes: 16 x 64 KiB > 0xFFFFF.
    assert_eq!(
        p.packet_prepare(blocks(16, 65_536), &opts),
        Err(Error::PacketTooLarge {
            bytes: 16 * 65_536,
            max: MAX_PACKET_BYTES
        })
    );
    assert_eq!(state(&p), before);
    // No room: 43 free slots, 44 blocks.
    assert_eq!(p.tx().available(), 43);
    assert_eq!(
        p.packet_prepare(blocks(44, 8), &opts),
        Err(Error::RingFull {
            ring: Direction::Tx,
            needed: 44,
            available: 43
        })
    );
    assert_eq!(state(&p), before);
    // RX fuller than TX.
    p.tx().ack(5).unwrap();
    assert_eq!(
        p.packet_prepare(blocks(44, 8), &opts),
        Err(Error::RingFull {
            ring: Direction::Rx,
            needed: 44,
            available: 43
        })
    );
    assert_eq!(
        p.packet_prepare(std::iter::empty(), &opts),
        Err(Error::EmptyPacket)
    );
    // And a packet that fits exactly, across the wrap.
    p.rx().ack(5).unwrap();
    let s = p.packet_prepare(blocks(48, 8), &opts).unwrap();
    assert_eq!((s.tx_start, s.tx_count), (5, 48));
    assert_eq!(p.tx().ring().next_index(), 53);
    let last = p.tx().load(52).unwrap().as_tx().len_ctrl;
    assert!(last.last() && last.ring_id().get() == 1);
}

#[test]
fn packet_across_the_wrap_stamps_both_phases() {
    let mut p = pair(32);
    for _ in 0..3 {
        p.packet_prepare(blocks(10, 8), &PacketOptions::<V3>::new())
            .unwrap();
        p.ack(10).unwrap();
    }
    // next = 30: a 4-block packet uses slots 30, 31 (id 1) and 0, 1 (id 2).
    let s = p
        .packet_prepare(blocks(4, 8), &PacketOptions::<V3>::new())
        .unwrap();
    assert_eq!(s.tx_start, 30);
    let ids: Vec<u8> = [30, 31, 0, 1]
        .iter()
        .map(|&i| p.tx().load(i).unwrap().ring_id().get())
        .collect();
    assert_eq!(ids, [1, 1, 2, 2]);
    let ids: Vec<u8> = [30, 31, 0, 1]
        .iter()
        .map(|&i| p.rx().load(i).unwrap().ring_id().get())
        .collect();
    assert_eq!(ids, [1, 1, 2, 2]);
    assert_eq!(p.tx().ring().ring_id().get(), 2);
}

fn seg(addr: u64, size: u32) -> Segment {
    Segment { addr, size }
}

/// Seed 004 §1 `build_packet`: the TX loop and the RX loop each call `fetch_block`
/// `num_blocks` times, so the source and the destination may be split at different places.
#[test]
fn scatter_gather_splits_each_side_on_its_own() {
    let sg = [
        SgBlock {
            src: seg(0x1000, 100),
            dst: seg(0x8000, 64),
        },
        SgBlock {
            src: seg(0x2000, 28),
            dst: seg(0x9000, 64),
        },
        SgBlock {
            src: seg(0x3000, 4),
            dst: seg(0xa000, 4),
        },
    ];
    let mut p = pair(64);
    let opts = PacketOptions::<V3>::new().with_strong_order();
    let s = p.packet_prepare_sg(sg, &opts).unwrap();
    assert_eq!((s.tx_count, s.rx_count, s.bytes), (3, 3, 132));
    for (i, b) in (0u32..).zip(&sg) {
        let t = p.tx().load(i).unwrap().as_tx();
        assert_eq!((t.len_ctrl.size(), t.buf_ptr), (b.src.size, b.src.addr));
        assert_eq!((t.len_ctrl.first(), t.len_ctrl.last()), (i == 0, i == 2));
        let r = p.rx().load(i).unwrap().as_rx();
        assert_eq!((r.len_ctrl.size(), r.buf1_ptr), (b.dst.size, b.dst.addr));
        assert!(r.len_ctrl.strong_order_wr(), "SOW on every RX descriptor");
    }
}

/// The symmetric case: `packet_prepare` of copy blocks writes the bytes `packet_prepare_sg`
/// writes for the same blocks, with a CME descriptor, a barrier and an interrupt.
#[test]
fn copy_blocks_are_the_symmetric_scatter_gather() {
    let opts = PacketOptions::<V2>::new()
        .with_cme_index(1)
        .unwrap()
        .with_barrier(Barrier::Dmb)
        .with_dst_interrupt(true);
    let (mut a, mut b) = (pair(64), pair(64));
    let sa = a.packet_prepare(blocks(5, 300), &opts).unwrap();
    let sb = b
        .packet_prepare_sg(blocks(5, 300).map(SgBlock::from), &opts)
        .unwrap();
    assert_eq!(sa, sb);
    for i in 0..6 {
        assert_eq!(a.tx().load(i).unwrap(), b.tx().load(i).unwrap(), "TX {i}");
    }
    for i in 0..5 {
        assert_eq!(a.rx().load(i).unwrap(), b.rx().load(i).unwrap(), "RX {i}");
    }
}

/// Destination segments that do not hold exactly the packet, or one of size 0, are refused
/// and neither ring moves.
#[test]
fn scatter_gather_sides_must_add_up() {
    let mut p = pair(64);
    let short = [
        SgBlock {
            src: seg(0x1000, 64),
            dst: seg(0x8000, 60),
        },
        SgBlock {
            src: seg(0x2000, 64),
            dst: seg(0x9000, 60),
        },
    ];
    assert_eq!(
        p.packet_prepare_sg(short, &PacketOptions::<V4>::new()),
        Err(Error::PacketSidesDiffer {
            tx_bytes: 128,
            rx_bytes: 120
        })
    );
    let empty_dst = [SgBlock {
        src: seg(0x1000, 64),
        dst: seg(0x8000, 0),
    }];
    assert_eq!(
        p.packet_prepare_sg(empty_dst, &PacketOptions::<V4>::new()),
        Err(Error::ZeroSize)
    );
    assert_eq!(
        (p.tx().ring().next_index(), p.rx().ring().next_index()),
        (0, 0)
    );
    assert_eq!(
        Error::PacketSidesDiffer {
            tx_bytes: 128,
            rx_bytes: 120
        }
        .to_string(),
        "packet reads 128 bytes but its destination segments hold 120"
    );
}
