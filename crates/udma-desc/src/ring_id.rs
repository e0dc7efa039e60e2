//! The 2-bit ring id (phase) stamped into every descriptor.

use crate::{Error, TxLenCtrl};

/// Where the id sits in a control word: `len_ctrl` bits 25:24, TX and RX alike
/// (`RxLenCtrl`'s offset is asserted equal to TX's).
const SHIFT: u32 = TxLenCtrl::RING_ID_SHIFT;

/// The 2-bit ring id (the "phase") of a ring pass, in `len_ctrl` bits 25:24 of TX and RX
/// descriptors.
///
/// The engine compares it with the id it expects at its head, so that it never executes a
/// stale descriptor left over from the previous pass. Software starts every ring at 1 and
/// adds 1 (mod 4) each time the next index wraps to 0: passes are stamped 1, 2, 3, 0, 1, ...
/// The type holds only `0..=3`, so a ring id can never spill into FIRST/LAST (the kernel
/// shifts it in unmasked). It is kept where it sits in a control word (bits 25:24), so
/// stamping it into a descriptor is one OR, with no shift on the copy path.
///
/// ```
/// use udma_desc::RingId;
/// let r = RingId::INITIAL;
/// assert_eq!(r.get(), 1);
/// assert_eq!(r.next().next().next().get(), 0);
/// assert!(RingId::new(4).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RingId(u32);

impl RingId {
    /// Width of the field in bits.
    pub const BITS: u32 = 2;
    /// Largest ring id.
    pub const MAX: u8 = 3;
    /// The ring id of the first pass after queue init.
    pub const INITIAL: RingId = RingId::from_bits(1);

    /// Checks `id <= 3`.
    #[inline]
    pub const fn new(id: u8) -> Result<Self, Error> {
        match Error::check_width("ring id", id, Self::MAX) {
            Ok(id) => Ok(Self::from_bits(id as u32)),
            Err(e) => Err(e),
        }
    }

    /// The ring id, `0..=3`.
    #[inline]
    pub const fn get(self) -> u8 {
        // Two bits after the shift, so the narrowing keeps every bit.
        #[allow(clippy::cast_possible_truncation)]
        let id = (self.0 >> SHIFT) as u8;
        id
    }

    /// The ring id of the next pass: `(id + 1) mod 4`.
    #[must_use]
    #[inline]
    pub const fn next(self) -> Self {
        Self(self.0.wrapping_add(1 << SHIFT) & Self::FIELD)
    }

    /// The low two bits of `bits` (used by the `bitfield-struct` words).
    #[inline]
    pub const fn from_bits(bits: u32) -> Self {
        Self((bits << SHIFT) & Self::FIELD)
    }

    /// The ring id as field bits.
    #[inline]
    pub const fn into_bits(self) -> u32 {
        self.0 >> SHIFT
    }

    /// The id in place in a TX or RX control word (bits 25:24), ready to OR in.
    #[inline]
    pub(crate) const fn in_control_word(self) -> u32 {
        self.0
    }

    /// The field's bits in a control word.
    const FIELD: u32 = (Self::MAX as u32) << SHIFT;
}

impl core::fmt::Debug for RingId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("RingId").field(&self.get()).finish()
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
        write!(f, "{}", self.get())
    }
}
