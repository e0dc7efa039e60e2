//! Field layout tables, so tools and tests can list where every bit of a word is.

/// One named field of a descriptor word: its name as in `reference/udma-bitfields.tsv`,
/// its lowest bit and its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldSpec {
    /// Field name as the reference table spells it.
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
}

impl FieldSpec {
    /// Builds a spec from the `*_OFFSET`/`*_BITS` consts `bitfield-struct` generates.
    pub(crate) const fn new(name: &'static str, lsb: usize, width: usize) -> Self {
        // Field positions of a 32-bit word are below 32.
        #[allow(clippy::cast_possible_truncation)]
        Self {
            name,
            lsb: lsb as u32,
            width: width as u32,
        }
    }

    /// The field's bits in place, e.g. `0x0300_0000` for the ring id.
    ///
    /// ```
    /// let ring_id = udma_desc::TxLenCtrl::FIELDS.iter().find(|f| f.name == "RING_ID");
    /// assert_eq!(ring_id.map(|f| f.mask()), Some(0x0300_0000));
    /// ```
    pub const fn mask(&self) -> u32 {
        let ones = match 1u32.checked_shl(self.width) {
            Some(v) => v.wrapping_sub(1),
            None => u32::MAX,
        };
        match ones.checked_shl(self.lsb) {
            Some(v) => v,
            None => 0,
        }
    }
}
