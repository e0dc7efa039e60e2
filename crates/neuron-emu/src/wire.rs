//! The 16 descriptor bytes as the engine fetches them from memory.
//!
//! The model decodes the little-endian bytes it reads from the ring; it never sees the
//! builder's Rust values, so a builder bug shows up as a wrong copy or a fault, exactly as on
//! silicon.

use crate::regs_tmp as r;

/// Length, ring id and flags of a fetched descriptor (TX and RX share the `len_ctrl` layout
/// for the bits the model uses; RX never sets FIRST/LAST/DMB/META/CONCAT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fetched {
    pub(crate) len_ctrl: u32,
    /// TX: `meta_ctrl`; RX: second-buffer low address (unused by the model).
    pub(crate) word1: u32,
    /// TX: source address; RX: destination address; TX meta: meta1/meta2.
    pub(crate) addr: u64,
}

impl Fetched {
    pub(crate) fn from_bytes(b: [u8; 16]) -> Self {
        let [a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, c4, c5, c6, c7] = b;
        Self {
            len_ctrl: u32::from_le_bytes([a0, a1, a2, a3]),
            word1: u32::from_le_bytes([b0, b1, b2, b3]),
            addr: u64::from_le_bytes([c0, c1, c2, c3, c4, c5, c6, c7]),
        }
    }
    fn bit(&self, mask: u32) -> bool {
        self.len_ctrl & mask != 0
    }
    pub(crate) fn ring_id(&self) -> u8 {
        // Two bits after the shift and mask.
        ((self.len_ctrl >> r::DESC_RING_ID_SHIFT) & 0x3) as u8
    }
    /// Byte count; 0 means 65,536 when the engine's 64K-as-zero encoding is on.
    pub(crate) fn len(&self, encode_64k: bool) -> u64 {
        match self.len_ctrl & r::DESC_LEN_MASK {
            0 if encode_64k => 1 << 16,
            n => u64::from(n),
        }
    }
    pub(crate) fn first(&self) -> bool {
        self.bit(r::DESC_FIRST)
    }
    pub(crate) fn last(&self) -> bool {
        self.bit(r::DESC_LAST)
    }
    pub(crate) fn concat(&self) -> bool {
        self.bit(r::DESC_CONCAT)
    }
    pub(crate) fn meta(&self) -> bool {
        self.bit(r::DESC_META)
    }
    pub(crate) fn int_en(&self) -> bool {
        self.bit(r::DESC_INT_EN)
    }
    /// TX DMB, TX write barrier (meta_ctrl bit 26) — the TX ordering requests.
    pub(crate) fn tx_ordering(&self) -> bool {
        self.bit(r::DESC_DMB) || self.word1 & r::META_CTRL_WRITE_BARRIER != 0
    }
    /// RX strong-order write.
    pub(crate) fn rx_strong_order(&self) -> bool {
        self.bit(r::DESC_STRONG_ORDER)
    }
}
