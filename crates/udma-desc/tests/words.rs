//! Typed words against the reference table, and bit-level properties.

use proptest::prelude::*;
use udma_desc::{CompCtrlMeta, Descriptor, FieldSpec, MetaCtrl, RingId, RxLenCtrl, TxLenCtrl, U3};

const BITFIELDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/udma-bitfields.tsv"
));

struct Row {
    register: String,
    field: String,
    lsb: Option<u32>,
    width: Option<u32>,
    mask: Option<u32>,
    value: String,
}

fn hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s.strip_prefix("0x")?, 16).ok()
}

fn rows() -> Vec<Row> {
    BITFIELDS
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 7, "malformed row {l}");
            Row {
                register: c[0].to_string(),
                field: c[1].to_string(),
                lsb: c[2].parse().ok(),
                width: c[3].parse().ok(),
                mask: hex(c[4]),
                value: c[6].to_string(),
            }
        })
        .collect()
}

fn find<'a>(fields: &'a [FieldSpec], name: &str) -> Option<&'a FieldSpec> {
    fields.iter().find(|f| f.name.eq_ignore_ascii_case(name))
}

/// Every positioned row of a descriptor word matches our field of the same name, and every
/// field of ours is either in the table or one of the documented non-vendor fields.
fn check_word(register: &str, ours: &[FieldSpec], not_in_table: &[&str], skip: &[&str]) {
    let rows: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r.register == register && r.lsb.is_some())
        .collect();
    assert!(!rows.is_empty(), "no rows for {register}");
    for r in &rows {
        if skip.contains(&r.field.as_str()) {
            continue;
        }
        let f = find(ours, &r.field).unwrap_or_else(|| panic!("{register}.{} missing", r.field));
        assert_eq!(Some(f.lsb), r.lsb, "{register}.{} lsb", r.field);
        assert_eq!(Some(f.width), r.width, "{register}.{} width", r.field);
        assert_eq!(Some(f.mask()), r.mask, "{register}.{} mask", r.field);
    }
    for f in ours {
        let listed = rows.iter().any(|r| r.field.eq_ignore_ascii_case(f.name));
        assert!(
            listed || not_in_table.contains(&f.name),
            "{register}: our field {} is not in the table",
            f.name
        );
    }
    // No two of our fields overlap.
    for (i, a) in ours.iter().enumerate() {
        for b in &ours[i + 1..] {
            assert_eq!(a.mask() & b.mask(), 0, "{} overlaps {}", a.name, b.name);
        }
    }
}

#[test]
fn tx_len_ctrl_matches_table() {
    // META (23) and CONCAT (31) are userspace-HAL facts from the issue, not kernel ones.
    check_word(
        "tx_desc.len_ctrl",
        &TxLenCtrl::FIELDS,
        &["META", "CONCAT"],
        &[],
    );
    let meta = find(&TxLenCtrl::FIELDS, "META").unwrap();
    assert_eq!(meta.mask(), 1 << 23);
    let concat = find(&TxLenCtrl::FIELDS, "CONCAT").unwrap();
    assert_eq!(concat.mask(), 1 << 31);
}

#[test]
fn rx_len_ctrl_matches_table() {
    check_word("rx_desc.len_ctrl", &RxLenCtrl::FIELDS, &[], &[]);
}

#[test]
fn meta_ctrl_matches_table() {
    // rsvd0 (26..32) is the plain view's name for what the CME view splits into
    // write_barrier (26) and reserved bits; WRITE_BARRIER is checked by its own row.
    check_word("tx_desc.meta_ctrl", &MetaCtrl::FIELDS, &[], &["rsvd0"]);
    let cme: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r.register == "tx_desc.meta_ctrl.cme_view" && r.field == "write_barrier")
        .collect();
    assert_eq!(cme.len(), 1);
    let wb = find(&MetaCtrl::FIELDS, "WRITE_BARRIER").unwrap();
    assert_eq!(Some(wb.lsb), cme[0].lsb);
    assert_eq!(Some(wb.mask()), cme[0].mask);
}

#[test]
fn comp_ctrl_meta_matches_table() {
    check_word("cdesc.ctrl_meta", &CompCtrlMeta::FIELDS, &[], &[]);
}

#[test]
fn meta_ctrl_defaults_match_table_values() {
    let all = rows();
    let value = |reg: &str, field: &str| -> String {
        all.iter()
            .find(|r| r.register == reg && r.field == field)
            .map(|r| r.value.clone())
            .unwrap_or_else(|| panic!("{reg}.{field} missing"))
    };
    assert_eq!(
        hex(&value("tx_desc.meta_ctrl", "DEFAULT")),
        Some(MetaCtrl::new().into_bits())
    );
    assert_eq!(
        hex(&value("tx_desc.meta_ctrl", "DEFAULT_WITH_WRITE_BARRIER")),
        Some(MetaCtrl::new().with_write_barrier(true).into_bits())
    );
    assert_eq!(
        hex(&value("tx_desc.len_ctrl", "COPY_FLAGS")),
        Some(TxLenCtrl::COPY_FLAGS.into_bits())
    );
    // Per-field defaults: the field's bits of MetaCtrl::new() equal the table's value column.
    let default = MetaCtrl::new().into_bits();
    for r in all.iter().filter(|r| r.register == "tx_desc.meta_ctrl") {
        let (Some(lsb), Some(mask), Ok(v)) = (r.lsb, r.mask, r.value.parse::<u32>()) else {
            continue;
        };
        assert_eq!((default & mask) >> lsb, v, "default of {}", r.field);
    }
}

fn tsv_mask(register: &str, field: &str) -> u32 {
    rows()
        .into_iter()
        .find(|r| r.register == register && r.field == field)
        .and_then(|r| r.mask)
        .unwrap_or_else(|| panic!("{register}.{field}"))
}

type TxSetter = fn(TxLenCtrl, bool) -> TxLenCtrl;

proptest! {
    /// Each typed word reads back every bit it was given, and every field set to its
    /// widest value covers exactly the table's masks for that word (plus, for TX, the
    /// seed's META 23 and CONCAT 31): no field sits where neither source puts one.
    #[test]
    fn typed_fields_cover_exactly_the_table_masks(w in any::<u32>()) {
        prop_assert_eq!(TxLenCtrl::from_bits(w).into_bits(), w);
        prop_assert_eq!(RxLenCtrl::from_bits(w).into_bits(), w);
        let rid = RingId::new(3).unwrap();
        let tx = TxLenCtrl::new().with_len(u16::MAX).with_ring_id(rid).with_first(true)
            .with_last(true).with_int_en(true).with_dmb(true).with_meta(true).with_concat(true);
        let table = ["LEN", "RING_ID", "FIRST", "LAST", "INT_EN", "DMB"]
            .iter().fold(0, |m, f| m | tsv_mask("tx_desc.len_ctrl", f));
        prop_assert_eq!(tx.into_bits(), table | (1 << 23) | (1 << 31));
        let rx = RxLenCtrl::new().with_len(u16::MAX).with_ring_id(rid).with_int_en(true)
            .with_strong_order_wr(true);
        let table = ["LEN", "RING_ID", "INT_EN", "STRONG_ORDER_WR"]
            .iter().fold(0, |m, f| m | tsv_mask("rx_desc.len_ctrl", f));
        prop_assert_eq!(rx.into_bits(), table);
        let c = CompCtrlMeta::new().with_first(true).with_last(true);
        prop_assert_eq!(c.into_bits(), tsv_mask("cdesc.ctrl_meta", "FIRST") | tsv_mask("cdesc.ctrl_meta", "LAST"));
        prop_assert_eq!(MetaCtrl::from_bits(w).into_bits(), w);
    }

    /// encode -> decode -> encode through the typed fields.
    #[test]
    fn tx_len_ctrl_round_trips(len in any::<u16>(), rid in 0u8..4, flags in any::<[bool; 6]>()) {
        let [meta, first, last, int_en, dmb, concat] = flags;
        let w = TxLenCtrl::new().with_len(len).with_ring_id(RingId::new(rid).unwrap())
            .with_meta(meta).with_first(first).with_last(last).with_int_en(int_en)
            .with_dmb(dmb).with_concat(concat);
        let d = TxLenCtrl::from_bits(w.into_bits());
        prop_assert_eq!((d.len(), d.ring_id().get(), d.meta(), d.first(), d.last(), d.int_en(), d.dmb(), d.concat()),
            (len, rid, meta, first, last, int_en, dmb, concat));
        prop_assert_eq!(d.into_bits(), w.into_bits());
        // Independent oracle: the table's shifts.
        let oracle = u32::from(len) | (u32::from(rid) << 24) | (u32::from(meta) << 23)
            | (u32::from(first) << 26) | (u32::from(last) << 27) | (u32::from(int_en) << 28)
            | (u32::from(dmb) << 30) | (u32::from(concat) << 31);
        prop_assert_eq!(w.into_bits(), oracle);
    }

    #[test]
    fn rx_len_ctrl_round_trips(len in any::<u16>(), rid in 0u8..4, int_en: bool, sow: bool) {
        let w = RxLenCtrl::new().with_len(len).with_ring_id(RingId::new(rid).unwrap())
            .with_int_en(int_en).with_strong_order_wr(sow);
        let d = RxLenCtrl::from_bits(w.into_bits());
        prop_assert_eq!((d.len(), d.ring_id().get(), d.int_en(), d.strong_order_wr()),
            (len, rid, int_en, sow));
        // Bits 23:16 stay 0: no field of either source lives there.
        let oracle = u32::from(len) | (u32::from(rid) << 24)
            | (u32::from(int_en) << 28) | (u32::from(sow) << 29);
        prop_assert_eq!(w.into_bits(), oracle);
    }

    #[test]
    fn meta_ctrl_round_trips(w in any::<u32>(), iv in 0u8..8, op in 0u8..8, sel in 0u8..8) {
        let m = MetaCtrl::from_bits(w)
            .with_cached_crc_iv_index(U3::new(iv).unwrap())
            .with_op_type(U3::new(op).unwrap())
            .with_ssmae_op(U3::new(sel).unwrap());
        prop_assert_eq!(m.cached_crc_iv_index().get(), iv);
        prop_assert_eq!(m.op_type().get(), op);
        prop_assert_eq!(m.ssmae_op().get(), sel);
        let oracle = (w & !(0x38 | 0x0070_0000 | 0x0380_0000)) | (u32::from(iv) << 3)
            | (u32::from(op) << 20) | (u32::from(sel) << 23);
        prop_assert_eq!(m.into_bits(), oracle);
        prop_assert_eq!(MetaCtrl::from_bits(m.into_bits()), m);
    }

    /// Each flag setter touches exactly its table bit.
    #[test]
    fn tx_setters_touch_only_their_bit(w in any::<u32>(), on: bool) {
        let setters: [(&str, TxSetter); 5] = [
            ("FIRST", |w, b| w.with_first(b)),
            ("LAST", |w, b| w.with_last(b)),
            ("INT_EN", |w, b| w.with_int_en(b)),
            ("DMB", |w, b| w.with_dmb(b)),
            ("CONCAT", |w, b| w.with_concat(b)),
        ];
        for (name, set) in setters {
            let mask = if name == "CONCAT" { 1 << 31 } else { tsv_mask("tx_desc.len_ctrl", name) };
            let after = set(TxLenCtrl::from_bits(w), on).into_bits();
            prop_assert_eq!(after & !mask, w & !mask, "{} touched other bits", name);
            prop_assert_eq!(after & mask != 0, on, "{} not applied", name);
        }
    }

    #[test]
    fn rx_and_meta_setters_touch_only_their_bit(w in any::<u32>(), on: bool) {
        let m = tsv_mask("rx_desc.len_ctrl", "INT_EN");
        let a = RxLenCtrl::from_bits(w).with_int_en(on).into_bits();
        prop_assert_eq!((a & !m, a & m != 0), (w & !m, on));
        let m = tsv_mask("rx_desc.len_ctrl", "STRONG_ORDER_WR");
        let a = RxLenCtrl::from_bits(w).with_strong_order_wr(on).into_bits();
        prop_assert_eq!((a & !m, a & m != 0), (w & !m, on));
        let m = tsv_mask("tx_desc.meta_ctrl", "WRITE_BARRIER");
        let a = MetaCtrl::from_bits(w).with_write_barrier(on).into_bits();
        prop_assert_eq!((a & !m, a & m != 0), (w & !m, on));
        let m = tsv_mask("cdesc.ctrl_meta", "LAST");
        let a = CompCtrlMeta::from_bits(w).with_last(on).into_bits();
        prop_assert_eq!((a & !m, a & m != 0), (w & !m, on));
    }

    /// The descriptor-level bit operations touch exactly one bit of the 16 bytes.
    #[test]
    fn descriptor_bit_ops_touch_only_their_bit(bytes in any::<[u8; 16]>(), on: bool) {
        type Op = fn(&mut Descriptor, bool);
        let ops: [(Op, usize, u32); 4] = [
            (Descriptor::set_first, 0, tsv_mask("tx_desc.len_ctrl", "FIRST")),
            (Descriptor::set_last, 0, tsv_mask("tx_desc.len_ctrl", "LAST")),
            (Descriptor::set_concat, 0, 1 << 31),
            (Descriptor::set_write_barrier, 1, tsv_mask("tx_desc.meta_ctrl", "WRITE_BARRIER")),
        ];
        for (op, word, mask) in ops {
            let mut d = Descriptor::from_le_bytes(bytes);
            op(&mut d, on);
            let after = d.to_le_bytes();
            let mut expect = bytes;
            let w = u32::from_le_bytes(expect[word * 4..word * 4 + 4].try_into().unwrap());
            let w = if on { w | mask } else { w & !mask };
            expect[word * 4..word * 4 + 4].copy_from_slice(&w.to_le_bytes());
            prop_assert_eq!(after, expect);
        }
    }

    #[test]
    fn tx_size_decodes_zero_as_64k(len in any::<u16>()) {
        let d = Descriptor::from_words([u32::from(len), 0, 0, 0]);
        let expect = if len == 0 { 65_536 } else { u32::from(len) };
        prop_assert_eq!(d.tx_size(), expect);
    }
}

#[test]
fn ring_id_and_u3_reject_wide_values() {
    for v in 4..=255u8 {
        assert_eq!(
            RingId::new(v),
            Err(udma_desc::Error::ValueTooWide {
                field: "ring id",
                value: u32::from(v),
                max: 3
            })
        );
    }
    for v in 8..=255u8 {
        assert!(
            matches!(U3::new(v), Err(udma_desc::Error::ValueTooWide { value, max: 7, .. }) if value == u32::from(v))
        );
    }
    let seq: Vec<u8> = core::iter::successors(Some(RingId::INITIAL), |r| Some(r.next()))
        .take(9)
        .map(RingId::get)
        .collect();
    assert_eq!(seq, [1, 2, 3, 0, 1, 2, 3, 0, 1]);
}
