//! The completion descriptor's control word.

use bitfield_struct::bitfield;

/// Completion `ctrl_meta`: which descriptor of a packet a completion entry belongs to.
///
/// Positions from `reference/udma-bitfields.tsv` (`cdesc.ctrl_meta`): FIRST 26, LAST 27
/// (the same bits as in TX `len_ctrl`). The other bits are not described by the reference
/// and are kept as read.
///
/// ```
/// use udma_desc::CompCtrlMeta;
/// let w = CompCtrlMeta::from_bits(0x0c00_0000);
/// assert!(w.first() && w.last());
/// ```
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct CompCtrlMeta {
    #[bits(26)]
    __: u32,
    /// FIRST: entry of the first descriptor of a packet.
    pub first: bool,
    /// LAST: entry of the last descriptor of a packet.
    pub last: bool,
    #[bits(4)]
    __: u8,
}

const _: () = assert!(core::mem::size_of::<CompCtrlMeta>() == 4);

impl CompCtrlMeta {
    /// Every field with its reference-table name.
    pub const FIELDS: [crate::FieldSpec; 2] = [
        crate::FieldSpec::new("FIRST", Self::FIRST_OFFSET, Self::FIRST_BITS),
        crate::FieldSpec::new("LAST", Self::LAST_OFFSET, Self::LAST_BITS),
    ];
}

impl core::fmt::Display for CompCtrlMeta {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "first={} last={} raw={:#010x}",
            u8::from(self.first()),
            u8::from(self.last()),
            self.into_bits()
        )
    }
}
