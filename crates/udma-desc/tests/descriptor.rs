//! The 16-byte layout, the typed views, formatting and ring dumps.

use proptest::prelude::*;
use udma_desc::{
    CompletionDesc, Decoded, Descriptor, Direction, Error, MetaCtrl, RingDump, RingId, RxDesc,
    RxLenCtrl, TxDesc, TxLenCtrl, TxMetaDesc,
};

#[test]
fn layout_is_little_endian_word_by_word() {
    let d = Descriptor::from_words([0x4d00_0000, 0x0108_0003, 0x89ab_cdef, 0x0123_4567]);
    assert_eq!(
        d.to_le_bytes(),
        [
            0x00, 0x00, 0x00, 0x4d, 0x03, 0x00, 0x08, 0x01, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45,
            0x23, 0x01
        ]
    );
    assert_eq!(d.buf_ptr(), 0x0123_4567_89ab_cdef);
    assert_eq!(std::mem::size_of::<Descriptor>(), 16);
    assert_eq!(std::mem::align_of::<Descriptor>(), 16);
    // In memory the descriptor is exactly its little-endian bytes, on any host.
    // SAFETY: Descriptor is 16 plain bytes (repr(C) over [u32; 4]), any bit pattern is a valid [u8; 16].
    let in_memory: [u8; 16] = unsafe { std::mem::transmute(d) };
    assert_eq!(in_memory, d.to_le_bytes());
    assert_eq!(d.to_string(), "0000004d03000801efcdab8967452301");
}

proptest! {
    #[test]
    fn bytes_round_trip(b in any::<[u8; 16]>()) {
        let d = Descriptor::from_le_bytes(b);
        prop_assert_eq!(d.to_le_bytes(), b);
        prop_assert_eq!(Descriptor::from_words(d.words()), d);
        // Every view converts back to the same bytes.
        prop_assert_eq!(Descriptor::from(d.as_tx()), d);
        prop_assert_eq!(Descriptor::from(d.as_tx_meta()), d);
        prop_assert_eq!(Descriptor::from(d.as_rx()), d);
        prop_assert_eq!(Descriptor::from(d.as_completion()), d);
        // Views read the words where the vendor structs put them.
        let w = |i: usize| u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
        prop_assert_eq!(d.as_tx().len_ctrl.into_bits(), w(0));
        prop_assert_eq!(d.as_tx().meta_ctrl.into_bits(), w(1));
        prop_assert_eq!(d.as_tx().buf_ptr, u64::from_le_bytes(b[8..].try_into().unwrap()));
        prop_assert_eq!((d.as_tx_meta().meta1, d.as_tx_meta().meta2), (w(2), w(3)));
        prop_assert_eq!(d.as_rx().buf2_ptr_lo, w(1));
        prop_assert_eq!(d.as_rx().buf1_ptr, u64::from_le_bytes(b[8..].try_into().unwrap()));
        prop_assert_eq!(d.as_completion().ctrl_meta.into_bits(), w(0));
    }

    #[test]
    fn set_ring_id_replaces_only_bits_25_24(b in any::<[u8; 16]>(), rid in 0u8..4) {
        let mut d = Descriptor::from_le_bytes(b);
        d.set_ring_id(RingId::new(rid).unwrap());
        let w0 = u32::from_le_bytes(b[..4].try_into().unwrap());
        prop_assert_eq!(d.word0(), (w0 & !0x0300_0000) | (u32::from(rid) << 24));
        prop_assert_eq!(&d.to_le_bytes()[4..], &b[4..]);
        prop_assert_eq!(d.ring_id().get(), rid);
    }
}

#[test]
fn decode_picks_the_view() {
    let tx = TxDesc {
        len_ctrl: TxLenCtrl::COPY_FLAGS.with_len(17),
        meta_ctrl: MetaCtrl::new(),
        buf_ptr: 7,
    };
    let d = Descriptor::from(tx);
    assert_eq!(d.decode(Direction::Tx), Decoded::Tx(tx));
    let meta = TxMetaDesc {
        len_ctrl: TxLenCtrl::new().with_meta(true).with_first(true),
        meta_ctrl: MetaCtrl::new(),
        meta1: 1,
        meta2: 2,
    };
    assert_eq!(
        Descriptor::from(meta).decode(Direction::Tx),
        Decoded::TxMeta(meta)
    );
    assert_eq!(d.decode(Direction::Rx), Decoded::Rx(d.as_rx()));
}

#[test]
fn display_and_debug_name_every_field() {
    let tx = Descriptor::from_words([0xcd00_0011, 0x0508_0003, 0x1000, 0x2]);
    let s = tx.decode(Direction::Tx).to_string();
    for f in [
        "len=17",
        "ring_id=1",
        "first=1",
        "last=1",
        "int_en=0",
        "dmb=1",
        "concat=1",
        "meta=0",
        "meta_ctrl=0x05080003",
        "write_barrier=1",
        "copy_src=1",
        "ssmae_op=2",
        "op_type=0",
        "crc_iv_index=0",
        "validate_crc=0",
        "buf_ptr=0x0000000200001000",
    ] {
        assert!(s.contains(f), "{f} missing in {s}");
    }
    let rx = Descriptor::from(RxDesc {
        len_ctrl: RxLenCtrl::new()
            .with_len(0)
            .with_ring_id(RingId::new(2).unwrap())
            .with_int_en(true)
            .with_strong_order_wr(true),
        buf2_ptr_lo: 0,
        buf1_ptr: 0xdead_beef,
    });
    let s = rx.decode(Direction::Rx).to_string();
    for f in [
        "len=65536",
        "ring_id=2",
        "int_en=1",
        "strong_order_wr=1",
        "buf2_ptr_lo=0x00000000",
        "buf1_ptr=0x00000000deadbeef",
    ] {
        assert!(s.contains(f), "{f} missing in {s}");
    }
    let c = Descriptor::from_words([0x0800_0000, 1, 2, 3]).as_completion();
    assert_eq!(
        c,
        CompletionDesc {
            ctrl_meta: c.ctrl_meta,
            word1: 1,
            word2: 2,
            word3: 3
        }
    );
    let s = c.to_string();
    assert!(s.contains("first=0") && s.contains("last=1"), "{s}");
    // Debug of the typed words names each field (bitfield-struct derive).
    let dbg = format!("{:?}", tx.as_tx());
    for f in [
        "len",
        "ring_id",
        "first",
        "last",
        "int_en",
        "dmb",
        "concat",
        "meta_ctrl",
        "write_barrier",
        "buf_ptr",
    ] {
        assert!(dbg.contains(f), "{f} missing in {dbg}");
    }
    let dbg = format!("{tx:?}");
    assert!(
        dbg.contains("word0_ctrl: 0xcd000011") && dbg.contains("word3_addr_hi: 0x00000002"),
        "{dbg}"
    );
}

#[test]
fn ring_dump_reads_whole_descriptors() {
    let a = Descriptor::from_words([1, 2, 3, 4]);
    let b = Descriptor::from_words([5, 6, 7, 8]);
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&a.to_le_bytes());
    bytes.extend_from_slice(&b.to_le_bytes());
    let dump = RingDump::strict(&bytes).unwrap();
    assert_eq!(dump.len(), 2);
    assert_eq!(dump.clone().collect::<Vec<_>>(), [a, b]);
    assert_eq!(dump.rev().collect::<Vec<_>>(), [b, a]);
    bytes.extend_from_slice(&[9, 9, 9]);
    assert_eq!(
        RingDump::strict(&bytes).err(),
        Some(Error::PartialDescriptor {
            len: 35,
            trailing: 3
        })
    );
    let lenient = RingDump::new(&bytes);
    assert_eq!(lenient.remainder(), &[9, 9, 9]);
    assert_eq!(lenient.collect::<Vec<_>>(), [a, b]);
    assert_eq!(RingDump::strict(&[]).unwrap().count(), 0);
    assert_eq!(
        Error::PartialDescriptor {
            len: 35,
            trailing: 3
        }
        .to_string(),
        "ring dump of 35 bytes ends with a partial descriptor of 3 bytes"
    );
}

/// Seed 004 §1 `build_cme_packet`: the meta word is `(cme_index << 24) | 0x04800000`.
#[test]
fn cme_index_lives_in_the_ring_id_bits() {
    let m = Descriptor::from_words([(2 << 24) | 0x0480_0000, 0, 0, 0]).as_tx_meta();
    assert_eq!(m.cme_index(), 2);
    assert!(m.len_ctrl.meta() && m.len_ctrl.first());
}

const REGISTERS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/udma-registers.tsv"
));

/// The direction names match the reference register map: `m2s_base` is the TX
/// (memory-to-stream) file, `s2m_base` the RX (stream-to-memory) one, and both prefixes name
/// per-queue blocks.
#[test]
fn direction_names_match_the_register_map() {
    for (dir, what) in [
        (Direction::Tx, "TX (memory-to-stream)"),
        (Direction::Rx, "RX (stream-to-memory)"),
    ] {
        let base = format!("{}_base", dir.block_prefix());
        let row = REGISTERS
            .lines()
            .find(|l| l.split('\t').nth(1) == Some(base.as_str()))
            .unwrap_or_else(|| panic!("{base} not in the table"));
        assert!(row.contains(what), "{row}");
        let queue_block = format!("{}_q", dir.block_prefix());
        assert!(
            REGISTERS
                .lines()
                .any(|l| l.starts_with(&format!("{queue_block}\t")))
        );
        assert_eq!(dir.name(), &what[..2]);
    }
    assert_eq!(Direction::BOTH.map(Direction::index), [0, 1]);
}
