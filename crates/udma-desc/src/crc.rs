//! One CRC operation: a meta descriptor, a data descriptor and a result descriptor.

use crate::caps::PacketCaps;
use crate::{
    DescStore, Descriptor, Error, MetaCtrl, RingPair, RxDesc, RxLenCtrl, Slot, TxDesc, TxLenCtrl,
    TxMetaDesc, U3, encode_size,
};

/// Bytes of CRC result the engine sends into the stream (one 32-bit CRC).
pub const CRC_RESULT_BYTES: u32 = 4;

/// A CRC over one source block, its 32-bit result written to `dst`.
///
/// Descriptor layout (a project choice: seed 004 §1 names the vendor's builder,
/// `al_udma_m2m_build_crc_descriptor`, reached from `crc_prepare_one` with two TX and one RX
/// descriptor, but not its bytes; the ancestor HAL has no such builder and its SSM CRC word
/// gives bit 26 another meaning than Neuron's write barrier, `reference/al-hal/` row `h`. So
/// only the slot counts and the `meta_ctrl` field positions are vendor facts):
///
/// | ring | slot | content |
/// |---|---|---|
/// | TX | 1st | meta descriptor: `len_ctrl` = FIRST \| META \| CONCAT \| ring id, length 0; `meta_ctrl` = CRC configuration; `meta1` = seed (0 when the stored seed is used); `meta2` = 0 |
/// | TX | 2nd | data: LAST \| ring id \| length; the same `meta_ctrl`; source address |
/// | RX | 1st | result: length 4, ring id, INT_EN if asked; destination address |
///
/// CRC configuration: block first and last, `copy_source_data` 0 (only the result
/// reaches the stream), `send_crc_result` 1, `store_crc_result` as asked,
/// `use_stored_crc_iv` when no seed is given, `cached_crc_iv_index` = `iv_index`,
/// `op_type` as given, `ssmae_op` 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CrcRequest {
    /// Source bus address.
    pub src: u64,
    /// Source bytes, `1..=65536`.
    pub size: u32,
    /// Destination of the 4-byte result.
    pub dst: u64,
    /// Initial CRC value; `None` starts from the cached seed `iv_index`.
    pub seed: Option<u32>,
    /// Cached CRC seed slot used by `seed: None` and by `store_result`.
    pub iv_index: U3,
    /// Operation type (`meta_ctrl` op_type).
    pub op_type: U3,
    /// Also store the result in the cached slot `iv_index`.
    pub store_result: bool,
    /// Raise the destination interrupt.
    pub dst_interrupt: bool,
}

impl CrcRequest {
    /// The `meta_ctrl` both TX descriptors carry.
    pub const fn meta_ctrl(&self) -> MetaCtrl {
        MetaCtrl::new()
            .with_copy_source_data(false)
            .with_send_crc_result(true)
            .with_store_crc_result(self.store_result)
            .with_use_stored_crc_iv(self.seed.is_none())
            .with_cached_crc_iv_index(self.iv_index)
            .with_op_type(self.op_type)
    }
}

/// The slots a CRC operation went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CrcSlots {
    /// The TX meta descriptor.
    pub tx_meta: Slot,
    /// The TX data descriptor.
    pub tx_data: Slot,
    /// The RX result descriptor.
    pub rx: Slot,
}

impl<T: DescStore, R: DescStore> RingPair<T, R> {
    /// Prepares one CRC operation (layout in [`CrcRequest`]): two TX slots and one RX slot.
    /// Validates size and room on both rings first; a refused request consumes nothing.
    pub fn crc_prepare_one<C: PacketCaps>(&mut self, req: &CrcRequest) -> Result<CrcSlots, Error> {
        let len = encode_size(req.size)?;
        let rx_len = encode_size(CRC_RESULT_BYTES)?;
        self.tx_mut().ring_mut().take_room(2)?;
        self.rx_mut().ring_mut().take_room(1)?;
        let rx = self.rx().ring().peek();
        let tx_meta = self.tx().ring().peek();
        let c = self.tx().ring().cursor();
        let tx_data = {
            let n = self.tx().ring().advance(c, 1);
            Slot {
                index: n.next,
                ring_id: n.ring_id,
            }
        };
        let meta = req.meta_ctrl();
        let d_meta = Descriptor::from(TxMetaDesc {
            len_ctrl: TxLenCtrl::new()
                .with_first(true)
                .with_meta(true)
                .with_concat(true)
                .with_ring_id(tx_meta.ring_id),
            meta_ctrl: meta,
            meta1: req.seed.unwrap_or(0),
            meta2: 0,
        });
        let d_data = Descriptor::from(TxDesc {
            len_ctrl: TxLenCtrl::new()
                .with_last(true)
                .with_len(len)
                .with_ring_id(tx_data.ring_id),
            meta_ctrl: meta,
            buf_ptr: req.src,
        });
        let d_rx = Descriptor::from(RxDesc {
            len_ctrl: RxLenCtrl::new()
                .with_len(rx_len)
                .with_ring_id(rx.ring_id)
                .with_int_en(req.dst_interrupt),
            buf2_ptr_lo: 0,
            buf1_ptr: req.dst,
        });
        self.rx_mut().store_mut().store(rx.index, d_rx)?;
        self.tx_mut().store_mut().store(tx_meta.index, d_meta)?;
        self.tx_mut().store_mut().store(tx_data.index, d_data)?;
        self.rx_mut().advance_by(1);
        self.tx_mut().advance_by(2);
        Ok(CrcSlots {
            tx_meta,
            tx_data,
            rx,
        })
    }
}
