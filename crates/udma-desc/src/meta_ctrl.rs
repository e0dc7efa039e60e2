//! The M2S `meta_ctrl` word, bytes 4-7 of a TX descriptor.

use bitfield_struct::bitfield;

use crate::{FieldSpec, U3};

/// Operation selector every copy uses (`ssmae_op` default 2).
pub const SSMAE_OP_COPY: U3 = U3::from_bits(2);

/// TX `meta_ctrl`: what the engine does with the bytes of this descriptor (plain copy,
/// CRC, byte swaps) and the write barrier.
///
/// Positions and defaults from `reference/udma-bitfields.tsv` (`tx_desc.meta_ctrl`); field
/// names are the table's. [`MetaCtrl::new`] is the default every copy carries,
/// 0x01080003 (last block, first block, copy source data, operation selector 2). The ancestor
/// HAL's SSM CRC/memcpy engine has exactly this word as its first memcpy descriptor's meta
/// word with CRC type NULL (op 2 | send original | first | last; `reference/al-hal/` row
/// `h`), which names what the bits mean; the Neuron CRC word itself stays unknown.
/// WRITE_BARRIER (bit 26) is reserved in the vendor's plain view but is the write barrier of
/// its CME view and of barrier type 2 (0x05080003).
///
/// ```
/// use udma_desc::MetaCtrl;
/// assert_eq!(MetaCtrl::new().into_bits(), MetaCtrl::DEFAULT_BITS);
/// assert_eq!(MetaCtrl::new().with_write_barrier(true).into_bits(), 0x0508_0003);
/// ```
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct MetaCtrl {
    /// The block is the last one (default 1).
    #[bits(default = true)]
    pub block_attr_is_last_block: bool,
    /// The block is the first one (default 1).
    #[bits(default = true)]
    pub block_attr_is_first_block: bool,
    /// Reserved block attribute (0).
    pub block_attr_rsvd: bool,
    /// Index of a cached CRC seed.
    #[bits(3)]
    pub cached_crc_iv_index: U3,
    /// Byte-swap the result.
    pub endianness_op_result_byte_swap: bool,
    /// Bit-swap the result.
    pub endianness_op_result_bit_swap: bool,
    /// Byte-swap the intermediate value.
    pub endianness_op_intr_val_byte_swap: bool,
    /// Bit-swap the intermediate value.
    pub endianness_op_intr_val_bit_swap: bool,
    /// Byte-swap the source.
    pub endianness_op_src_byte_swap: bool,
    /// Bit-swap the source.
    pub endianness_op_src_bit_swap: bool,
    /// Byte-swap the init value.
    pub endianness_op_init_byte_swap: bool,
    /// Bit-swap the init value.
    pub endianness_op_init_bit_swap: bool,
    /// Check the CRC.
    pub validate_crc: bool,
    /// Start from the stored CRC seed.
    pub use_stored_crc_iv: bool,
    /// Emit the CRC result into the stream.
    pub send_crc_result: bool,
    /// Store the CRC result.
    pub store_crc_result: bool,
    /// Store the source CRC.
    pub store_source_crc: bool,
    /// Pass the source data through, i.e. a plain copy (default 1).
    #[bits(default = true)]
    pub copy_source_data: bool,
    /// Operation type.
    #[bits(3)]
    pub op_type: U3,
    /// Engine operation selector (default 2).
    #[bits(3, default = SSMAE_OP_COPY)]
    pub ssmae_op: U3,
    /// Write barrier: order this write after earlier ones (barrier type 2).
    pub write_barrier: bool,
    #[bits(5)]
    __: u8,
}

impl MetaCtrl {
    /// Every field with its reference-table name.
    pub const FIELDS: [FieldSpec; 21] = [
        FieldSpec::new(
            "block_attr_is_last_block",
            Self::BLOCK_ATTR_IS_LAST_BLOCK_OFFSET,
            Self::BLOCK_ATTR_IS_LAST_BLOCK_BITS,
        ),
        FieldSpec::new(
            "block_attr_is_first_block",
            Self::BLOCK_ATTR_IS_FIRST_BLOCK_OFFSET,
            Self::BLOCK_ATTR_IS_FIRST_BLOCK_BITS,
        ),
        FieldSpec::new(
            "block_attr_rsvd",
            Self::BLOCK_ATTR_RSVD_OFFSET,
            Self::BLOCK_ATTR_RSVD_BITS,
        ),
        FieldSpec::new(
            "cached_crc_iv_index",
            Self::CACHED_CRC_IV_INDEX_OFFSET,
            Self::CACHED_CRC_IV_INDEX_BITS,
        ),
        FieldSpec::new(
            "endianness_op_result_byte_swap",
            Self::ENDIANNESS_OP_RESULT_BYTE_SWAP_OFFSET,
            Self::ENDIANNESS_OP_RESULT_BYTE_SWAP_BITS,
        ),
        FieldSpec::new(
            "endianness_op_result_bit_swap",
            Self::ENDIANNESS_OP_RESULT_BIT_SWAP_OFFSET,
            Self::ENDIANNESS_OP_RESULT_BIT_SWAP_BITS,
        ),
        FieldSpec::new(
            "endianness_op_intr_val_byte_swap",
            Self::ENDIANNESS_OP_INTR_VAL_BYTE_SWAP_OFFSET,
            Self::ENDIANNESS_OP_INTR_VAL_BYTE_SWAP_BITS,
        ),
        FieldSpec::new(
            "endianness_op_intr_val_bit_swap",
            Self::ENDIANNESS_OP_INTR_VAL_BIT_SWAP_OFFSET,
            Self::ENDIANNESS_OP_INTR_VAL_BIT_SWAP_BITS,
        ),
        FieldSpec::new(
            "endianness_op_src_byte_swap",
            Self::ENDIANNESS_OP_SRC_BYTE_SWAP_OFFSET,
            Self::ENDIANNESS_OP_SRC_BYTE_SWAP_BITS,
        ),
        FieldSpec::new(
            "endianness_op_src_bit_swap",
            Self::ENDIANNESS_OP_SRC_BIT_SWAP_OFFSET,
            Self::ENDIANNESS_OP_SRC_BIT_SWAP_BITS,
        ),
        FieldSpec::new(
            "endianness_op_init_byte_swap",
            Self::ENDIANNESS_OP_INIT_BYTE_SWAP_OFFSET,
            Self::ENDIANNESS_OP_INIT_BYTE_SWAP_BITS,
        ),
        FieldSpec::new(
            "endianness_op_init_bit_swap",
            Self::ENDIANNESS_OP_INIT_BIT_SWAP_OFFSET,
            Self::ENDIANNESS_OP_INIT_BIT_SWAP_BITS,
        ),
        FieldSpec::new(
            "validate_crc",
            Self::VALIDATE_CRC_OFFSET,
            Self::VALIDATE_CRC_BITS,
        ),
        FieldSpec::new(
            "use_stored_crc_iv",
            Self::USE_STORED_CRC_IV_OFFSET,
            Self::USE_STORED_CRC_IV_BITS,
        ),
        FieldSpec::new(
            "send_crc_result",
            Self::SEND_CRC_RESULT_OFFSET,
            Self::SEND_CRC_RESULT_BITS,
        ),
        FieldSpec::new(
            "store_crc_result",
            Self::STORE_CRC_RESULT_OFFSET,
            Self::STORE_CRC_RESULT_BITS,
        ),
        FieldSpec::new(
            "store_source_crc",
            Self::STORE_SOURCE_CRC_OFFSET,
            Self::STORE_SOURCE_CRC_BITS,
        ),
        FieldSpec::new(
            "copy_source_data",
            Self::COPY_SOURCE_DATA_OFFSET,
            Self::COPY_SOURCE_DATA_BITS,
        ),
        FieldSpec::new("op_type", Self::OP_TYPE_OFFSET, Self::OP_TYPE_BITS),
        FieldSpec::new("ssmae_op", Self::SSMAE_OP_OFFSET, Self::SSMAE_OP_BITS),
        FieldSpec::new(
            "WRITE_BARRIER",
            Self::WRITE_BARRIER_OFFSET,
            Self::WRITE_BARRIER_BITS,
        ),
    ];

    /// The reference value every TX copy descriptor carries (`DEFAULT` in the table).
    pub const DEFAULT_BITS: u32 = 0x0108_0003;
    /// The reference value for barrier type 2 (`DEFAULT_WITH_WRITE_BARRIER`).
    pub const DEFAULT_WITH_WRITE_BARRIER_BITS: u32 = 0x0508_0003;
}

const _: () = assert!(core::mem::size_of::<MetaCtrl>() == 4);
// The field defaults must add up to the table's values.
const _: () = assert!(MetaCtrl::new().into_bits() == MetaCtrl::DEFAULT_BITS);
const _: () = assert!(
    MetaCtrl::new().with_write_barrier(true).into_bits()
        == MetaCtrl::DEFAULT_WITH_WRITE_BARRIER_BITS
);

impl core::fmt::Display for MetaCtrl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let b = |v: bool| u8::from(v);
        write!(
            f,
            "last_block={} first_block={} block_rsvd={} crc_iv_index={} \
             result_byte_swap={} result_bit_swap={} intr_byte_swap={} intr_bit_swap={} \
             src_byte_swap={} src_bit_swap={} init_byte_swap={} init_bit_swap={} \
             validate_crc={} use_stored_crc_iv={} send_crc={} store_crc={} store_src_crc={} \
             copy_src={} op_type={} ssmae_op={} write_barrier={}",
            b(self.block_attr_is_last_block()),
            b(self.block_attr_is_first_block()),
            b(self.block_attr_rsvd()),
            self.cached_crc_iv_index(),
            b(self.endianness_op_result_byte_swap()),
            b(self.endianness_op_result_bit_swap()),
            b(self.endianness_op_intr_val_byte_swap()),
            b(self.endianness_op_intr_val_bit_swap()),
            b(self.endianness_op_src_byte_swap()),
            b(self.endianness_op_src_bit_swap()),
            b(self.endianness_op_init_byte_swap()),
            b(self.endianness_op_init_bit_swap()),
            b(self.validate_crc()),
            b(self.use_stored_crc_iv()),
            b(self.send_crc_result()),
            b(self.store_crc_result()),
            b(self.store_source_crc()),
            b(self.copy_source_data()),
            self.op_type(),
            self.ssmae_op(),
            b(self.write_barrier()),
        )
    }
}
