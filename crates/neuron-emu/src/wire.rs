//! The 16 descriptor bytes as the engine fetches them from memory.
//!
//! The model decodes the little-endian bytes it reads from the ring with `udma-desc`'s typed
//! views (the one definition of every bit position); it never sees the builder's Rust values,
//! so a builder bug shows up as a wrong copy or a fault, exactly as on silicon.

use udma_desc::{DESC_BYTES, Descriptor, MAX_TRANSFER_BYTES, RxDesc, TxDesc};

/// A descriptor as fetched from a ring slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fetched(Descriptor);

/// Byte count of a length field: 0 means 65,536 when the engine's 64K-as-zero encoding is on
/// (`m2s.cfg_len` ENCODE_64K), else 0 bytes.
fn len_of(field: u16, encode_64k: bool) -> u64 {
    match field {
        0 if encode_64k => u64::from(MAX_TRANSFER_BYTES),
        n => u64::from(n),
    }
}

impl Fetched {
    pub(crate) const BYTES: usize = DESC_BYTES;

    pub(crate) fn from_bytes(b: [u8; DESC_BYTES]) -> Self {
        Self(Descriptor::from_le_bytes(b))
    }

    /// The TX view (`len_ctrl`, `meta_ctrl`, source address).
    pub(crate) fn tx(self) -> TxView {
        TxView(self.0.as_tx())
    }

    /// The RX view (`len_ctrl`, second buffer, destination address).
    pub(crate) fn rx(self) -> RxView {
        RxView(self.0.as_rx())
    }
}

/// A fetched TX descriptor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TxView(TxDesc);

impl TxView {
    pub(crate) fn ring_id(&self) -> u8 {
        self.0.len_ctrl.ring_id().get()
    }
    pub(crate) fn len(&self, encode_64k: bool) -> u64 {
        len_of(self.0.len_ctrl.len(), encode_64k)
    }
    pub(crate) fn addr(&self) -> u64 {
        self.0.buf_ptr
    }
    pub(crate) fn first(&self) -> bool {
        self.0.len_ctrl.first()
    }
    pub(crate) fn last(&self) -> bool {
        self.0.len_ctrl.last()
    }
    pub(crate) fn concat(&self) -> bool {
        self.0.len_ctrl.concat()
    }
    pub(crate) fn meta(&self) -> bool {
        self.0.len_ctrl.meta()
    }
    pub(crate) fn int_en(&self) -> bool {
        self.0.len_ctrl.int_en()
    }
    /// DMB (`len_ctrl` bit 30) or write barrier (`meta_ctrl` bit 26): the TX ordering requests.
    pub(crate) fn ordering(&self) -> bool {
        self.0.len_ctrl.dmb() || self.0.meta_ctrl.write_barrier()
    }
}

/// A fetched RX descriptor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RxView(RxDesc);

impl RxView {
    pub(crate) fn ring_id(&self) -> u8 {
        self.0.len_ctrl.ring_id().get()
    }
    pub(crate) fn len(&self, encode_64k: bool) -> u64 {
        len_of(self.0.len_ctrl.len(), encode_64k)
    }
    pub(crate) fn addr(&self) -> u64 {
        self.0.buf1_ptr
    }
    pub(crate) fn int_en(&self) -> bool {
        self.0.len_ctrl.int_en()
    }
    /// Strong-order write (`len_ctrl` bit 29).
    pub(crate) fn strong_order(&self) -> bool {
        self.0.len_ctrl.strong_order_wr()
    }
}
