//! The RX (S2M) descriptor control word, bytes 0-3 of an RX descriptor.

use bitfield_struct::bitfield;

use crate::{FieldSpec, RingId, decode_len};

/// RX `len_ctrl`: length, ring id and flags of a stream-to-memory descriptor.
///
/// Positions from `reference/udma-bitfields.tsv` (`rx_desc.len_ctrl`): LEN 15:0 and
/// RING_ID 25:24 (same places as TX; the driver even uses the TX constants), INT_EN 28,
/// STRONG_ORDER_WR 29 (barrier type 3, V3 and later). RX never carries FIRST, LAST or DMB.
///
/// Bits 23:16 belong to no field of either source. (The V4 notification mask is set through
/// the TX meta word per seed 004 §1, `al_sdma_m2s_set_notification_mask`, at bit positions
/// neither source gives; it is not in this word.)
///
/// ```
/// use udma_desc::{RxLenCtrl, RingId};
/// let w = RxLenCtrl::new().with_len(17).with_ring_id(RingId::new(3)?).with_int_en(true);
/// assert_eq!(w.into_bits(), 0x1300_0011);
/// # Ok::<(), udma_desc::Error>(())
/// ```
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct RxLenCtrl {
    /// Byte count; 0 encodes 65,536.
    #[allow(clippy::len_without_is_empty)] // a field accessor, not a collection
    pub len: u16,
    #[bits(8)]
    __: u8,
    /// Ring id (phase) of the slot.
    #[bits(2)]
    pub ring_id: RingId,
    #[bits(2)]
    __: u8,
    /// INT_EN: interrupt when this destination descriptor completes.
    pub int_en: bool,
    /// STRONG_ORDER_WR: strong-ordered write (barrier type 3; not on V2).
    pub strong_order_wr: bool,
    #[bits(2)]
    __: u8,
}

impl RxLenCtrl {
    /// Every field with its reference-table name.
    pub const FIELDS: [FieldSpec; 4] = [
        FieldSpec::new("LEN", Self::LEN_OFFSET, Self::LEN_BITS),
        FieldSpec::new("RING_ID", Self::RING_ID_OFFSET, Self::RING_ID_BITS),
        FieldSpec::new("INT_EN", Self::INT_EN_OFFSET, Self::INT_EN_BITS),
        FieldSpec::new(
            "STRONG_ORDER_WR",
            Self::STRONG_ORDER_WR_OFFSET,
            Self::STRONG_ORDER_WR_BITS,
        ),
    ];

    /// The transfer size in bytes, with length 0 meaning 65,536.
    pub const fn size(&self) -> u32 {
        decode_len(self.len())
    }
}

const _: () = assert!(core::mem::size_of::<RxLenCtrl>() == 4);
// The builders stamp TX and RX ring ids with one shift.
const _: () = assert!(RxLenCtrl::RING_ID_OFFSET == crate::TxLenCtrl::RING_ID_SHIFT as usize);

impl core::fmt::Display for RxLenCtrl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "len={} ring_id={} int_en={} strong_order_wr={}",
            self.size(),
            self.ring_id(),
            u8::from(self.int_en()),
            u8::from(self.strong_order_wr()),
        )
    }
}
