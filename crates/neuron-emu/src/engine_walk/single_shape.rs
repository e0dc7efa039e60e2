//! [`single`](super::single)'s test of a descriptor pair, compiled once for a lap of both
//! rings: the walk rules and the expected ring ids folded into masks over the `len_ctrl`
//! words, so a run of single packets tests each pair with two masked compares and two
//! length decodes instead of re-reading every rule per packet.
//!
//! Bit positions come from the typed fields of `udma_desc` (`reference/udma-bitfields.tsv`),
//! never restated here.

use udma_desc::{Descriptor, MAX_TRANSFER_BYTES, MetaCtrl, RingId, RxLenCtrl, TxDesc, TxLenCtrl};

use super::WalkRules;

/// The pair test of [`single`](super::single) under fixed rules and ring ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SingleShape {
    /// TX `len_ctrl` bits the test reads: FIRST, LAST, META, and RING_ID when checked.
    tx_mask: u32,
    /// Their required values: FIRST | LAST, no META, the lap's ring id. A value outside
    /// `tx_mask` when the rules allow no data descriptor at all: no pair matches.
    tx_want: u32,
    /// RX `len_ctrl` RING_ID when checked (else nothing).
    rx_mask: u32,
    /// The lap's RX ring id.
    rx_want: u32,
    /// Bytes of a length field of 0 (`m2s.cfg_len` ENCODE_64K: 65,536, else 0).
    zero_len: u64,
    /// `m2s.cfg_len` MAX_PKT_SIZE.
    max_bytes: u64,
    /// [`plain`](Self::plain)'s TX test over `len_ctrl | meta_ctrl << 32`: `tx_mask` and the
    /// request bits of both words.
    plain_tx_mask: u64,
    /// Its required value: `tx_want`, no request (all ones when no pair matches).
    plain_tx_want: u64,
    /// [`plain`](Self::plain)'s RX test: `rx_mask` and the RX request bits.
    plain_rx_mask: u32,
    /// Its required value: `rx_want`, no request.
    plain_rx_want: u32,
    /// The largest length field [`plain`](Self::plain) takes: MAX_PKT_SIZE, at most 65,535
    /// (a field of 0 is left to [`bytes`](Self::bytes)).
    plain_max: u32,
}

/// Every bit of the ring id field.
const RING_ID_FIELD: RingId = RingId::from_bits(RingId::MAX as u32);

/// The ring id field of TX `len_ctrl`.
const TX_RING: u32 = TxLenCtrl::from_bits(0)
    .with_ring_id(RING_ID_FIELD)
    .into_bits();
/// The ring id field of RX `len_ctrl`.
const RX_RING: u32 = RxLenCtrl::from_bits(0)
    .with_ring_id(RING_ID_FIELD)
    .into_bits();

/// Ring id `id` in place in a control word whose ring id field is `field`.
#[inline(always)]
const fn id_bits(id: RingId, field: u32) -> u32 {
    (id.get() as u32) << field.trailing_zeros()
}

/// The TX `len_ctrl` bits that frame a single-descriptor packet.
const TX_FRAME: u32 = TxLenCtrl::from_bits(0)
    .with_first(true)
    .with_last(true)
    .with_meta(true)
    .into_bits();

impl SingleShape {
    /// The test for packets whose TX descriptor sits on a lap of ring id `tx_id` and RX
    /// descriptor on one of `rx_id`.
    #[inline]
    pub(crate) fn new(rules: &WalkRules, tx_id: RingId, rx_id: RingId) -> Self {
        let tx_mask = TX_FRAME | if rules.check_tx_ring_id { TX_RING } else { 0 };
        let tx_want = (TxLenCtrl::COPY_FLAGS.into_bits() | id_bits(tx_id, TX_RING)) & tx_mask;
        let rx_mask = if rules.check_rx_ring_id { RX_RING } else { 0 };
        let takes_data = rules.max_descs_per_packet >= 1;
        let rx_want = id_bits(rx_id, RX_RING) & rx_mask;
        Self {
            tx_mask,
            // `!tx_mask` has bits `tx_mask` clears from every word: never equal.
            tx_want: if takes_data { tx_want } else { !tx_mask },
            rx_mask,
            rx_want,
            zero_len: rules.len_of(0),
            max_bytes: rules.max_packet_bytes,
            plain_tx_mask: u64::from(tx_mask | TX_REQUESTS) | u64::from(META_REQUESTS) << 32,
            // All ones has bits outside the mask: never equal.
            plain_tx_want: if takes_data {
                u64::from(tx_want)
            } else {
                u64::MAX
            },
            plain_rx_mask: rx_mask | RX_REQUESTS,
            plain_rx_want: rx_want,
            plain_max: u32::try_from(rules.max_packet_bytes)
                .unwrap_or(u32::MAX)
                .min(u32::from(u16::MAX)),
        }
    }

    /// The packet's bytes, `1..=65535`, when `tx` and `rx` make a single packet that asks
    /// for neither ordering nor an interrupt and whose length fields are not 0: then
    /// [`bytes`](Self::bytes) is the same and [`requests`](Self::requests) false. `None`
    /// says nothing: the pair is for [`bytes`](Self::bytes) to judge.
    ///
    /// The lane's test for nearly every packet: one masked compare per descriptor (its
    /// frame, ring id and requests at once) and the two lengths, no 64K case.
    #[inline(always)]
    pub(crate) fn plain(&self, tx: &Descriptor, rx: &Descriptor) -> Option<u32> {
        let [tw, meta, ..] = tx.words();
        let rw = rx.words()[0];
        let tx_word = u64::from(tw) | u64::from(meta) << 32;
        let (bytes, capacity) = (
            u32::from(tx.as_tx().len_ctrl.len()),
            u32::from(rx.as_rx().len_ctrl.len()),
        );
        let ok = tx_word & self.plain_tx_mask == self.plain_tx_want
            && rw & self.plain_rx_mask == self.plain_rx_want
            // 1..=plain_max: a field of 0 wraps to u32::MAX.
            && bytes.wrapping_sub(1) < self.plain_max
            && capacity >= bytes;
        ok.then_some(bytes)
    }

    /// The packet's bytes when `tx` and `rx` make a single packet (framed, in phase, within
    /// the size limit, the RX buffer large enough), else `None`.
    #[inline(always)]
    pub(crate) fn bytes(&self, tx: &Descriptor, rx: &Descriptor) -> Option<u64> {
        let (tw, rw) = (
            tx.as_tx().len_ctrl.into_bits(),
            rx.as_rx().len_ctrl.into_bits(),
        );
        let bytes = self.len_of(tx.as_tx().len_ctrl.len());
        let capacity = self.len_of(rx.as_rx().len_ctrl.len());
        let ok = tw & self.tx_mask == self.tx_want
            && rw & self.rx_mask == self.rx_want
            && bytes <= self.max_bytes
            && capacity >= bytes;
        ok.then_some(bytes)
    }

    /// Whether a single packet of `tx` and `rx` asks for ordering or an interrupt: the sum
    /// of the `ordering` and `interrupts` counts [`single`](super::single) reports is not 0
    /// (TX DMB, INT_EN or the `meta_ctrl` write barrier; RX STRONG_ORDER_WR or INT_EN).
    #[inline(always)]
    pub(crate) fn requests(&self, tx: &Descriptor, rx: &Descriptor) -> bool {
        let (t, r) = (tx.as_tx(), rx.as_rx());
        (t.len_ctrl.into_bits() & TX_REQUESTS)
            | (t.meta_ctrl.into_bits() & META_REQUESTS)
            | (r.len_ctrl.into_bits() & RX_REQUESTS)
            != 0
    }

    /// [`WalkRules::len_of`] with the rule folded in.
    #[inline(always)]
    fn len_of(&self, field: u16) -> u64 {
        match field {
            0 => self.zero_len,
            n => u64::from(n),
        }
    }
}

/// TX `len_ctrl` bits that ask for ordering or an interrupt.
const TX_REQUESTS: u32 = TxLenCtrl::from_bits(0)
    .with_dmb(true)
    .with_int_en(true)
    .into_bits();
/// The TX `meta_ctrl` bit that asks for ordering.
const META_REQUESTS: u32 = MetaCtrl::from_bits(0).with_write_barrier(true).into_bits();
/// RX `len_ctrl` bits that ask for ordering or an interrupt.
const RX_REQUESTS: u32 = RxLenCtrl::from_bits(0)
    .with_strong_order_wr(true)
    .with_int_en(true)
    .into_bits();

/// A TX descriptor asks for ordering: DMB in `len_ctrl`, or the `meta_ctrl` write barrier.
#[inline(always)]
pub(crate) fn tx_ordering(t: &TxDesc) -> bool {
    t.len_ctrl.dmb() || t.meta_ctrl.write_barrier()
}

// The 64K encoding is the only non-zero meaning of a length field of 0.
const _: () = assert!(MAX_TRANSFER_BYTES == 1 << 16);

#[cfg(test)]
mod tests {
    //! The lane's mask test against `single`'s field-by-field counts, on random words.
    use proptest::prelude::*;
    use udma_desc::{Descriptor, TxLenCtrl};

    use super::SingleShape;
    use crate::engine_walk::{Head, RingPos, WalkRules, single};

    /// Walk rules: 64K encoding and both ring id checks as `checks`, the two limits.
    fn rules(
        (encode_64k, tx_id, rx_id): (bool, bool, bool),
        max_bytes: u64,
        max_descs: u32,
    ) -> WalkRules {
        WalkRules {
            encode_64k,
            max_packet_bytes: max_bytes,
            max_descs_per_packet: max_descs,
            check_tx_ring_id: tx_id,
            check_rx_ring_id: rx_id,
        }
    }

    proptest! {
        /// The lane's flag test is what `single` counts: some ordering or interrupt count
        /// of the packet is not 0 exactly when `requests` says so, whatever the flags.
        #[test]
        fn requests_are_what_single_counts(
            tx0 in any::<u32>(),
            tx1 in any::<u32>(),
            rx0 in any::<u32>(),
            ids in (0u32..4, 0u32..4),
            checks in any::<(bool, bool, bool)>(),
        ) {
            // One in four TX words framed FIRST | LAST without META, so `single` takes some.
            let framed = TxLenCtrl::from_bits(tx0).with_first(true).with_last(true).with_meta(false);
            let tx0 = if tx0 & 3 == 0 { framed.into_bits() } else { tx0 };
            let tx = Descriptor::from_words([tx0, tx1, 0x1000, 0]);
            let rx = Descriptor::from_words([rx0, 0, 0x9000, 0]);
            let rules = rules(checks, 0xf_ffff, 1);
            let id = |n: u32| udma_desc::RingId::from_bits(n);
            let head = |desc, n| Head {
                desc,
                pos: RingPos { index: 0, ring_id: id(n) },
                slots: 4,
            };
            let shape = SingleShape::new(&rules, id(ids.0), id(ids.1));
            let one = single(head(tx, ids.0), head(rx, ids.1), &rules);
            if let Some(s) = one {
                let p = s.packet;
                let counts = p.tx.ordering + p.tx.interrupts + p.rx.ordering + p.rx.interrupts;
                prop_assert_eq!(shape.requests(&tx, &rx), counts != 0);
            }
        }

        /// `plain` takes a pair only when `bytes` takes it with the same length and
        /// `requests` finds nothing: the lane's fast test never disagrees with the exact one.
        #[test]
        fn plain_agrees_with_the_exact_test(
            tx0 in any::<u32>(),
            tx1 in any::<u32>(),
            rx0 in any::<u32>(),
            ids in (0u32..4, 0u32..4),
            checks in any::<(bool, bool, bool)>(),
            limits in (0u64..0x2_0000, 0u32..2),
        ) {
            // Most TX words framed as a plain copy (FIRST | LAST, no META, no DMB or INT_EN,
            // no write barrier), so `plain` takes some.
            let framed = TxLenCtrl::from_bits(tx0)
                .with_first(true).with_last(true).with_meta(false)
                .with_dmb(false).with_int_en(false);
            let (tx0, tx1) = if tx0 & 3 != 0 { (framed.into_bits(), 0) } else { (tx0, tx1) };
            let rx0 = if rx0 & 1 != 0 { rx0 & 0x0300_ffff } else { rx0 };
            let tx = Descriptor::from_words([tx0, tx1, 0x1000, 0]);
            let rx = Descriptor::from_words([rx0, 0, 0x9000, 0]);
            let rules = rules(checks, limits.0, limits.1);
            let id = udma_desc::RingId::from_bits;
            let shape = SingleShape::new(&rules, id(ids.0), id(ids.1));
            if let Some(n) = shape.plain(&tx, &rx) {
                prop_assert!((1..=0xffff).contains(&n));
                prop_assert_eq!(shape.bytes(&tx, &rx), Some(u64::from(n)));
                prop_assert!(!shape.requests(&tx, &rx));
            }
        }
    }

    /// The pair the copy path builds (seed 004 §1 `al_udma_m2m_copy_prepare_one`, bytes from
    /// `udma_desc`) is one `plain` takes, on its lap's ring ids, with its length.
    #[test]
    fn a_built_copy_pair_is_plain() {
        let rules = rules((true, true, true), 0x1_0000, 1);
        let id = udma_desc::RingId::from_bits;
        let req = udma_desc::CopyRequest::new(0x1000, 0x9000, 4096);
        type V2 = khal_sunda::Sunda;
        let pair = udma_desc::build_copy_pair::<V2>(id(2), id(2), &req).unwrap();
        let shape = SingleShape::new(&rules, id(2), id(2));
        assert_eq!(shape.plain(&pair.tx, &pair.rx), Some(4096));
        // Another lap's ring id, or the 64K length field, is for the exact test.
        assert_eq!(
            SingleShape::new(&rules, id(1), id(2)).plain(&pair.tx, &pair.rx),
            None
        );
        let full = udma_desc::CopyRequest::new(0x1000, 0x9000, 0x1_0000);
        let big = udma_desc::build_copy_pair::<V2>(id(2), id(2), &full).unwrap();
        assert_eq!(shape.plain(&big.tx, &big.rx), None);
        assert_eq!(shape.bytes(&big.tx, &big.rx), Some(0x1_0000));
    }
}
