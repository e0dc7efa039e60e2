//! Conformance to seed 004 §1 (KaenaHal `al_hal_udma_m2m.c`, the M2M build surface): each
//! test is named `s1_<function>_<what>` after the seed function whose bytes or rule it pins.
//!
//! The per-arch cap values (0x80 SUNDA, 0x41 CAYMAN/MARIANA) reach the builders through
//! `PacketCaps`; the test arch types in `common` carry the seed's numbers, and the khal arch
//! crates pin their own consts to the same values.

mod common;
use std::cell::RefCell;

use common::{V2, V3, V4, pair};
use udma_desc::caps::PacketCaps;
use udma_desc::{
    Barrier, CME_META_FLAGS, CopyBlock, CopyRequest, Descriptor, Direction, Doorbell, Error,
    PacketOptions, QueueId, cme_descriptor,
};

const FIRST: u32 = 0x0400_0000; // set_first: orl $0x04000000
const LAST: u32 = 0x0800_0000; // set_last
const CONCAT: u32 = 0x8000_0000; // set_concat
const META: u32 = 0x0080_0000; // BIT23, in the CME constant 0x04800000
const DMB_LEN_CTRL: u32 = 0x4000_0000; // DMB, TX len_ctrl bit 30 (reference table)
const META_CTRL_BIT26: u32 = 0x0400_0000; // set_dmb: al_sdma_m2s_set_write_barrier
const SOW: u32 = 0x2000_0000; // build_packet: rx_flags |= 0x20000000

fn blocks(n: u32, size: u32) -> impl Iterator<Item = CopyBlock> {
    (0..n).map(move |i| CopyBlock {
        src: 0x1_0000 * u64::from(i + 1),
        dst: 0x100_0000 + 0x1_0000 * u64::from(i),
        size,
    })
}

#[test]
fn s1_build_cme_packet_meta_word() {
    assert_eq!(CME_META_FLAGS, FIRST | META);
    assert_eq!(CME_META_FLAGS, 0x0480_0000);
    for idx in 0..=3u8 {
        let d = cme_descriptor(idx).unwrap();
        assert_eq!(
            d.word0(),
            (u32::from(idx) << 24) | 0x0480_0000,
            "index {idx}"
        );
        // No CONCAT, DMB or LAST on the meta word; words 1-3 are not named by the seed.
        assert_eq!(d.word0() & (CONCAT | DMB_LEN_CTRL | LAST), 0);
        assert_eq!(d.words()[1..], [0, 0, 0]);
    }
}

#[test]
fn s1_build_cme_packet_index_range() {
    // The seed ORs FIRST (bit 26) into `cme_index << 24`: index 4 would give index 0's word,
    // so only 0..=3 keeps the formula one-to-one.
    assert_eq!((4u32 << 24) | 0x0480_0000, 0x0480_0000);
    for idx in [4u8, 5, 0x80, 0xff] {
        assert_eq!(
            cme_descriptor(idx),
            Err(Error::ValueTooWide {
                field: "CME index",
                value: u32::from(idx),
                max: 3
            })
        );
        assert!(PacketOptions::<V3>::new().with_cme_index(idx).is_err());
    }
}

#[test]
fn s1_build_cme_packet_concat_chains_the_data_descriptors() {
    let mut p = pair(64);
    let opts = PacketOptions::<V4>::new().with_cme_index(1).unwrap();
    let s = p.packet_prepare(blocks(3, 256), &opts).unwrap();
    assert_eq!((s.tx_count, s.rx_count), (4, 3));
    let w: Vec<u32> = (0..4).map(|i| p.tx().load(i).unwrap().word0()).collect();
    // Meta word exactly the seed's; data: build_packet with concat = (cme != 0), FIRST on
    // i == 0, LAST on i == num_blocks - 1, ring id 1 (first lap), length 256.
    assert_eq!(
        w,
        [
            (1 << 24) | 0x0480_0000,
            CONCAT | FIRST | (1 << 24) | 256,
            CONCAT | (1 << 24) | 256,
            CONCAT | LAST | (1 << 24) | 256,
        ]
    );
    // RX descriptors are never chained.
    for i in 0..3 {
        assert_eq!(p.rx().load(i).unwrap().word0(), (1 << 24) | 256);
    }
}

#[test]
fn s1_build_packet_first_on_the_first_data_descriptor() {
    // i == 0 gets FIRST whether or not a CME descriptor precedes it.
    for cme in [None, Some(0u8)] {
        let mut p = pair(32);
        let mut opts = PacketOptions::<V3>::new();
        if let Some(i) = cme {
            opts = opts.with_cme_index(i).unwrap();
        }
        let s = p.packet_prepare(blocks(2, 8), &opts).unwrap();
        let data0 = s.tx_count - 2;
        assert_ne!(p.tx().load(data0).unwrap().word0() & FIRST, 0, "{cme:?}");
        assert_eq!(p.tx().load(data0 + 1).unwrap().word0() & FIRST, 0);
    }
}

#[test]
fn s1_build_copy_packet_is_a_cme_packet_without_cme() {
    let mut p = pair(32);
    p.packet_prepare(blocks(2, 8), &PacketOptions::<V2>::new())
        .unwrap();
    let w: Vec<u32> = (0..2).map(|i| p.tx().load(i).unwrap().word0()).collect();
    assert_eq!(w, [FIRST | (1 << 24) | 8, LAST | (1 << 24) | 8]);
    assert_eq!(p.tx().load(0).unwrap().word1(), 0x0108_0003);
}

#[test]
fn s1_build_packet_flags_and_meta_on_every_tx_data_descriptor() {
    // The seed passes the same `flags` and `meta` to every build_tx_descriptor call; the
    // CME meta word stays exactly (cme_index << 24) | 0x04800000.
    let mut p = pair(64);
    let dmb = PacketOptions::<V3>::new()
        .with_cme_index(3)
        .unwrap()
        .with_barrier(Barrier::Dmb);
    p.packet_prepare(blocks(2, 8), &dmb).unwrap();
    assert_eq!(p.tx().load(0).unwrap().word0(), (3 << 24) | 0x0480_0000);
    for i in 1..3 {
        assert_ne!(
            p.tx().load(i).unwrap().word0() & DMB_LEN_CTRL,
            0,
            "slot {i}"
        );
    }
    let wb = PacketOptions::<V3>::new()
        .with_cme_index(3)
        .unwrap()
        .with_barrier(Barrier::WriteBarrier);
    p.packet_prepare(blocks(2, 8), &wb).unwrap();
    assert_eq!(p.tx().load(3).unwrap().word1(), 0);
    for i in 4..6 {
        assert_eq!(p.tx().load(i).unwrap().word1(), 0x0508_0003, "slot {i}");
    }
}

#[test]
fn s1_build_packet_sow_on_every_rx_descriptor() {
    let mut p = pair(32);
    p.packet_prepare(
        blocks(3, 8),
        &PacketOptions::<V3>::new().with_strong_order(),
    )
    .unwrap();
    for i in 0..3 {
        assert_eq!(p.rx().load(i).unwrap().word0(), SOW | (1 << 24) | 8);
    }
}

#[test]
fn s1_build_packet_sow_refused_on_sunda() {
    let mut p = pair(32);
    let opts = PacketOptions::<V2>::new().with_barrier(Barrier::Sow);
    assert_eq!(
        p.packet_prepare(blocks(1, 8), &opts),
        Err(Error::StrongOrderUnsupported)
    );
    assert_eq!(p.tx().ring().next_index(), 0);
    // And the single pair refuses it the same way.
    assert_eq!(
        p.copy_prepare_one::<V2>(&CopyRequest::new(1, 2, 3).with_barrier(Barrier::Sow)),
        Err(Error::StrongOrderUnsupported)
    );
}

#[test]
fn s1_build_packet_notification_mask_only_on_mariana() {
    let mut p = pair(32);
    // Before MARIANA the request does not compile: `with_notification_mask` needs
    // `C: NotificationMask`, which only an arch with `NotificationMasks = Supported` has (an
    // arch claiming the marker without the capability is refused too: `caps` docs).
    const { assert!(!V3::HAS_NOTIFICATION_MASK && V4::HAS_NOTIFICATION_MASK) };
    // On MARIANA the gate passes, but the mask's bits in the TX meta word are given by no
    // source: refused as not encodable, nothing written.
    assert_eq!(
        p.packet_prepare(
            blocks(1, 8),
            &PacketOptions::<V4>::new().with_notification_mask(1)
        ),
        Err(Error::NotificationMaskEncodingUnknown { mask: 1 })
    );
    assert_eq!(p.tx().ring().next_index(), 0);
    assert_eq!(p.tx().load(0).unwrap(), Descriptor::ZERO);
    // A zero mask asks for nothing.
    assert!(
        p.packet_prepare(
            blocks(1, 8),
            &PacketOptions::<V4>::new().with_notification_mask(0)
        )
        .is_ok()
    );
}

fn cap_is<C: PacketCaps>(cap: u32) {
    let mut p = pair(512);
    assert_eq!(C::MAX_TX_DESCS_PER_PACKET, cap);
    let opts = PacketOptions::<C>::new();
    assert_eq!(
        p.packet_prepare(blocks(cap, 8), &opts).unwrap().tx_count,
        cap
    );
    let next = p.tx().ring().next_index();
    assert_eq!(
        p.packet_prepare(blocks(cap + 1, 8), &opts),
        Err(Error::PacketTooManyDescriptors { max: cap })
    );
    assert_eq!(p.tx().ring().next_index(), next);
}

/// The seed checks `num_blocks` before either gate: a packet that is both too long and asks
/// for SOW on SUNDA (or a notification mask, which MARIANA refuses as not encodable) gets the
/// cap's refusal, and no descriptor is built or stored.
#[test]
fn s1_build_packet_checks_the_block_cap_before_the_gates() {
    let mut p = pair(512);
    let blocks: Vec<CopyBlock> = blocks(0x81, 8).collect();
    assert_eq!(
        p.packet_prepare(
            blocks.iter().copied(),
            &PacketOptions::<V2>::new().with_barrier(Barrier::Sow)
        ),
        Err(Error::PacketTooManyDescriptors { max: 0x80 })
    );
    assert_eq!(
        p.packet_prepare(
            blocks[..0x42].iter().copied(),
            &PacketOptions::<V4>::new().with_notification_mask(1)
        ),
        Err(Error::PacketTooManyDescriptors { max: 0x41 })
    );
    assert_eq!(p.tx().load(0).unwrap(), Descriptor::ZERO);
}

#[test]
fn s1_build_packet_max_descs_per_packet_sunda_0x80() {
    cap_is::<V2>(0x80);
}

#[test]
fn s1_build_packet_max_descs_per_packet_cayman_mariana_0x41() {
    cap_is::<V3>(0x41);
    cap_is::<V4>(0x41);
}

#[test]
fn s1_set_first_last_concat_and_clear() {
    let base = 0x0000_1234u32;
    type BitOp = fn(&mut Descriptor, bool);
    let ops: [(BitOp, u32); 3] = [
        (Descriptor::set_first, 0x0400_0000),
        (Descriptor::set_last, 0x0800_0000),
        (Descriptor::set_concat, 0x8000_0000),
    ];
    for (op, bit) in ops {
        let mut d = Descriptor::from_words([base, 7, 8, 9]);
        op(&mut d, true);
        assert_eq!(d.words(), [base | bit, 7, 8, 9]);
        op(&mut d, false);
        assert_eq!(d.words(), [base, 7, 8, 9]);
    }
}

#[test]
fn s1_set_dmb_flips_meta_ctrl_bit26() {
    // al_udma_m2m_set_dmb goes through al_sdma_m2s_set_write_barrier on the word at +4.
    let mut d = Descriptor::from_words([0x0c00_0010, 0x0108_0003, 0, 0]);
    d.set_write_barrier(true);
    assert_eq!(
        d.words(),
        [0x0c00_0010, 0x0108_0003 | META_CTRL_BIT26, 0, 0]
    );
}

#[test]
fn s1_get_tx_desc_size_len0_is_0x10000() {
    assert_eq!(
        Descriptor::from_words([0x0c00_0000, 0, 0, 0]).tx_size(),
        0x10000
    );
    assert_eq!(
        Descriptor::from_words([0x0c00_ffff, 0, 0, 0]).tx_size(),
        0xffff
    );
    assert_eq!(Descriptor::from_words([0xffff_0001, 0, 0, 0]).tx_size(), 1);
}

#[test]
fn s1_copy_prepare_one_size_range() {
    let mut p = pair(64);
    for size in [0, 0x10001, u32::MAX] {
        assert!(
            p.copy_prepare_one::<V3>(&CopyRequest::new(1, 2, size))
                .is_err()
        );
    }
    assert_eq!(p.tx().ring().next_index(), 0);
    for size in [1, 0x10000] {
        let s = p
            .copy_prepare_one::<V3>(&CopyRequest::new(1, 2, size))
            .unwrap();
        assert_eq!(p.tx().load(s.tx.index).unwrap().tx_size(), size);
    }
}

#[test]
fn s1_copy_prepare_one_needs_room_on_both_rings() {
    // al_udma_available_get < 1 on TX or on RX: -ENOMEM, nothing taken.
    let mut p = pair(32);
    for _ in 0..16 {
        p.copy_prepare_one::<V3>(&CopyRequest::new(1, 2, 3))
            .unwrap();
    }
    assert_eq!(
        p.copy_prepare_one::<V3>(&CopyRequest::new(1, 2, 3)),
        Err(Error::RingFull {
            ring: Direction::Tx,
            needed: 1,
            available: 0
        })
    );
    p.tx().ack(1).unwrap();
    assert_eq!(
        p.copy_prepare_one::<V3>(&CopyRequest::new(1, 2, 3)),
        Err(Error::RingFull {
            ring: Direction::Rx,
            needed: 1,
            available: 0
        })
    );
    assert_eq!(p.tx().ring().next_index(), 16);
}

#[test]
fn s1_reserve_descriptors_returns_the_pre_reservation_index_and_flips_on_wrap() {
    let mut p = pair(32);
    let r = p.tx_mut().reserve(10).unwrap();
    assert_eq!((r.start(), r.ring_id().get()), (0, 1));
    p.tx().ack(10).unwrap();
    let r = p.tx_mut().reserve(16).unwrap();
    assert_eq!((r.start(), r.ring_id().get()), (10, 1));
    // 10 + 16 = 26: no wrap yet; 6 more reach slot 32 = 0 and flip the phase.
    p.tx().ack(16).unwrap();
    p.tx_mut().reserve(6).unwrap();
    assert_eq!(
        (p.tx().ring().next_index(), p.tx().ring().ring_id().get()),
        (0, 2)
    );
}

#[test]
fn s1_set_descriptors_stamps_the_ring_id_phase() {
    // Seed 004 §1 set_descriptors: "(rid << 24) & 0x3000000 OR-ed into each prebuilt
    // descriptor, split at the wrap". The project replaces the 2-bit field instead (a
    // deliberate deviation, seed-contracts.md): for a prebuilt descriptor carrying ring id 0
    // the two agree; for one carrying a stale ring id, OR would merge the phases (1 | 2 = 3)
    // and the engine would see a wrong phase, so the stale bits are replaced.
    let mut p = pair(32);
    for _ in 0..2 {
        p.tx_mut().reserve(14).unwrap();
        p.tx().ack(14).unwrap();
    }
    // Even slots' descriptors carry ring id 0, odd ones a stale ring id 1 (bit 24).
    let prebuilt: Vec<Descriptor> = (0..6)
        .map(|i| Descriptor::from_words([0x0c00_0100 | i | ((i & 1) << 24), 0x0108_0003, i, 0]))
        .collect();
    let res = p.tx_mut().reserve(6).unwrap();
    p.tx_mut().write_reserved(&res, &prebuilt).unwrap();
    for (i, slot) in [28u32, 29, 30, 31, 0, 1].into_iter().enumerate() {
        let rid: u32 = if slot >= 28 { 1 } else { 2 };
        let word0 = prebuilt[i].word0();
        let got = p.tx().load(slot).unwrap().word0();
        assert_eq!(
            got,
            (word0 & !0x0300_0000) | (rid << 24),
            "slot {slot}: replaced"
        );
        if word0 & 0x0300_0000 == 0 {
            assert_eq!(
                got,
                word0 | ((rid << 24) & 0x0300_0000),
                "slot {slot}: the seed's OR"
            );
        }
    }
    // Slot 1 (ring id 2) held a stale 1: the seed's OR would give 3, the project gives 2.
    assert_eq!((p.tx().load(1).unwrap().word0() >> 24) & 3, 2);
}

struct Log(RefCell<Vec<(Direction, u32)>>);
impl Doorbell for Log {
    fn ring_rx(&self, _: QueueId, n: u32) {
        self.0.borrow_mut().push((Direction::Rx, n));
    }
    fn ring_tx(&self, _: QueueId, n: u32) {
        self.0.borrow_mut().push((Direction::Tx, n));
    }
}

#[test]
fn s1_copy_start_rings_rx_then_tx() {
    let p = pair(32);
    let db = Log(RefCell::new(Vec::new()));
    p.copy_start(&db, 3, 2).unwrap();
    assert_eq!(*db.0.borrow(), [(Direction::Rx, 2), (Direction::Tx, 3)]);
}
