//! Helpers more than one integration test uses.

use udma_desc::{Descriptor, MetaCtrl, RingId, TxLenCtrl};

/// The 16 bytes of a TX data descriptor of 4 KiB from 0x1000 with ring id `rid`.
pub fn tx(rid: u8, first: bool, last: bool) -> [u8; 16] {
    let c = TxLenCtrl::new()
        .with_len(4096)
        .with_ring_id(RingId::new(rid).unwrap())
        .with_first(first)
        .with_last(last);
    Descriptor::from_words([c.into_bits(), MetaCtrl::DEFAULT_BITS, 0x1000, 0]).to_le_bytes()
}
