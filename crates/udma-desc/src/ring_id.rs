//! The 2-bit ring id (phase) stamped into every descriptor.

use crate::Error;

/// The 2-bit ring id (the "phase") of a ring pass, in `len_ctrl` bits 25:24 of TX and RX
/// descriptors.
///
/// The engine compares it with the id it expects at its head, so that it never executes a
/// stale descriptor left over from the previous pass. Software starts every ring at 1 and
/// adds 1 (mod 4) each time the next index wraps to 0: passes are stamped 1, 2, 3, 0, 1, ...
/// The type holds only `0..=3`, so a ring id can never spill into FIRST/LAST (the kernel
/// shifts it in unmasked).
///
/// ```
/// use udma_desc::RingId;
/// let r = RingId::INITIAL;
/// assert_eq!(r.get(), 1);
/// assert_eq!(r.next().next().next().get(), 0);
/// assert!(RingId::new(4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RingId(u8);

impl RingId {
    /// Width of the field in bits.
    pub const BITS: u32 = 2;
    /// Largest ring id.
    pub const MAX: u8 = 3;
    /// The ring id of the first pass after queue init.
    pub const INITIAL: RingId = RingId(1);

    /// Checks `id <= 3`.
    #[inline]
    pub const fn new(id: u8) -> Result<Self, Error> {
        match Error::check_width("ring id", id, Self::MAX) {
            Ok(id) => Ok(Self(id)),
            Err(e) => Err(e),
        }
    }

    /// The ring id, `0..=3`.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The ring id of the next pass: `(id + 1) mod 4`.
    #[must_use]
    #[inline]
    pub const fn next(self) -> Self {
        Self((self.0 + 1) & Self::MAX)
    }

    /// The low two bits of `bits` (used by the `bitfield-struct` words).
    #[inline]
    pub const fn from_bits(bits: u32) -> Self {
        // Masked to two bits, so the narrowing keeps every bit.
        #[allow(clippy::cast_possible_truncation)]
        Self((bits & Self::MAX as u32) as u8)
    }

    /// The ring id as field bits.
    #[inline]
    pub const fn into_bits(self) -> u32 {
        self.0 as u32
    }
}

impl Default for RingId {
    #[inline]
    fn default() -> Self {
        Self::INITIAL
    }
}

impl core::fmt::Display for RingId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.0)
    }
}
