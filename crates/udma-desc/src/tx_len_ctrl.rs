//! The TX (M2S) descriptor control word, bytes 0-3 of a TX descriptor.

use bitfield_struct::bitfield;

use crate::{FieldSpec, RingId, decode_len};

/// TX `len_ctrl`: length, ring id and packet flags of a memory-to-stream descriptor.
///
/// Positions from `reference/udma-bitfields.tsv` (`tx_desc.len_ctrl`): LEN 15:0,
/// RING_ID 25:24, FIRST 26, LAST 27, INT_EN 28, DMB 30. META (23) and CONCAT (31) are
/// userspace-HAL facts the kernel never sets (seed 004 §1): META marks a meta descriptor
/// (CME or CRC setup, no data); CONCAT is set by `build_packet` on the data descriptors of
/// a packet that a CME meta descriptor leads ("CONCAT-chain the meta desc"). Neither
/// source describes how the engine reads CONCAT beyond that.
///
/// ```
/// use udma_desc::{TxLenCtrl, RingId};
/// let w = TxLenCtrl::new().with_len(4096).with_ring_id(RingId::INITIAL).with_first(true).with_last(true);
/// assert_eq!(w.into_bits(), 0x0d00_1000);
/// assert_eq!(TxLenCtrl::from_bits(0x0c00_0000).size(), 65_536);
/// ```
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TxLenCtrl {
    /// Byte count; 0 encodes 65,536 (engine set to 64K-as-zero).
    #[allow(clippy::len_without_is_empty)] // a field accessor, not a collection
    pub len: u16,
    #[bits(7)]
    __: u8,
    /// META: this is a meta descriptor (no data; its words configure the packet).
    pub meta: bool,
    /// Ring id (phase) of the slot.
    #[bits(2)]
    pub ring_id: RingId,
    /// FIRST: first descriptor of a packet.
    pub first: bool,
    /// LAST: last descriptor of a packet.
    pub last: bool,
    /// INT_EN: interrupt on completion (the copy builder never sets it on TX).
    pub int_en: bool,
    #[bits(1)]
    __: u8,
    /// DMB: wait for earlier transfers before this one (the kernel's barrier type 1,
    /// `reference/udma-notes.md` §5). Seed 004 §1's `al_udma_m2m_set_dmb` sets the `meta_ctrl`
    /// write barrier instead (bit 26,
    /// [`Descriptor::set_write_barrier`](crate::Descriptor::set_write_barrier)).
    pub dmb: bool,
    /// CONCAT: chains the data descriptors to the CME meta descriptor before them.
    pub concat: bool,
}

impl TxLenCtrl {
    /// Every field with its reference-table name.
    pub const FIELDS: [FieldSpec; 8] = [
        FieldSpec::new("LEN", Self::LEN_OFFSET, Self::LEN_BITS),
        FieldSpec::new("META", Self::META_OFFSET, Self::META_BITS),
        FieldSpec::new("RING_ID", Self::RING_ID_OFFSET, Self::RING_ID_BITS),
        FieldSpec::new("FIRST", Self::FIRST_OFFSET, Self::FIRST_BITS),
        FieldSpec::new("LAST", Self::LAST_OFFSET, Self::LAST_BITS),
        FieldSpec::new("INT_EN", Self::INT_EN_OFFSET, Self::INT_EN_BITS),
        FieldSpec::new("DMB", Self::DMB_OFFSET, Self::DMB_BITS),
        FieldSpec::new("CONCAT", Self::CONCAT_OFFSET, Self::CONCAT_BITS),
    ];

    /// Shift of the ring id (bits 25:24), the same in RX `len_ctrl`.
    #[allow(clippy::cast_possible_truncation)] // a bit position below 32
    pub(crate) const RING_ID_SHIFT: u32 = Self::RING_ID_OFFSET as u32;

    /// FIRST | LAST: the flags of every single-descriptor copy (`COPY_FLAGS` in the table).
    pub const COPY_FLAGS: TxLenCtrl = TxLenCtrl::new().with_first(true).with_last(true);

    /// The transfer size in bytes, with length 0 meaning 65,536.
    pub const fn size(&self) -> u32 {
        decode_len(self.len())
    }
}

const _: () = assert!(core::mem::size_of::<TxLenCtrl>() == 4);
const _: () = assert!(TxLenCtrl::COPY_FLAGS.into_bits() == 0x0c00_0000);

impl core::fmt::Display for TxLenCtrl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "len={} ring_id={} first={} last={} int_en={} dmb={} concat={} meta={}",
            self.size(),
            self.ring_id(),
            u8::from(self.first()),
            u8::from(self.last()),
            u8::from(self.int_en()),
            u8::from(self.dmb()),
            u8::from(self.concat()),
            u8::from(self.meta()),
        )
    }
}
