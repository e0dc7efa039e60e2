//! A 3-bit field value.

use crate::Error;

/// A value of a 3-bit `meta_ctrl` field (CRC seed index, operation type, operation selector).
///
/// Holding only `0..=7` makes the generated setters of the bitfield words total: they can
/// never be handed a value that does not fit.
///
/// ```
/// use udma_desc::U3;
/// assert_eq!(U3::new(7).map(U3::get), Ok(7));
/// assert!(U3::new(8).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct U3(u8);

impl U3 {
    /// Largest value.
    pub const MAX: u8 = 7;
    /// Zero.
    pub const ZERO: U3 = U3(0);

    /// Checks `v <= 7`.
    #[inline]
    pub const fn new(v: u8) -> Result<Self, Error> {
        match Error::check_width("3-bit field", v, Self::MAX) {
            Ok(v) => Ok(Self(v)),
            Err(e) => Err(e),
        }
    }

    /// The value, `0..=7`.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The low three bits of `bits`.
    #[inline]
    pub const fn from_bits(bits: u32) -> Self {
        // Masked to three bits, so the narrowing keeps every bit.
        #[allow(clippy::cast_possible_truncation)]
        Self((bits & Self::MAX as u32) as u8)
    }

    /// The value as field bits.
    #[inline]
    pub const fn into_bits(self) -> u32 {
        self.0 as u32
    }
}

impl core::fmt::Display for U3 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.0)
    }
}
