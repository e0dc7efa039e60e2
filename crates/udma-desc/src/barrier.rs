//! Ordering requested for a copy.

use crate::Error;

/// The ordering a copy asks for, the vendor driver's barrier type `0..=3`.
///
/// Each kind sets exactly one bit (`reference/udma-bitfields.tsv`, `enum.barrier`):
///
/// | kind | raw | bit |
/// |---|---|---|
/// | [`None`](Barrier::None) | 0 | nothing |
/// | [`Dmb`](Barrier::Dmb) | 1 | TX `len_ctrl` DMB (30): wait for earlier transfers |
/// | [`WriteBarrier`](Barrier::WriteBarrier) | 2 | TX `meta_ctrl` write barrier (26) |
/// | [`Sow`](Barrier::Sow) | 3 | RX `len_ctrl` STRONG_ORDER_WR (29), not on V2 |
///
/// The names are the kernel's. Seed 004 §1's `al_udma_m2m_set_dmb` sets the bit the kernel
/// calls the write barrier (type 2), not TX bit 30.
///
/// ```
/// use udma_desc::{Barrier, Error};
/// assert_eq!(Barrier::try_from(1), Ok(Barrier::Dmb));
/// assert_eq!(Barrier::try_from(4), Err(Error::InvalidBarrier { value: 4 }));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Barrier {
    /// No ordering bits.
    #[default]
    None,
    /// Data memory barrier on the TX descriptor.
    Dmb,
    /// Write barrier in the TX `meta_ctrl`.
    WriteBarrier,
    /// Strong-ordered write on the RX descriptor (V3 and later).
    Sow,
}

impl Barrier {
    /// The vendor's raw barrier number.
    #[inline]
    pub const fn raw(self) -> u32 {
        match self {
            Barrier::None => 0,
            Barrier::Dmb => 1,
            Barrier::WriteBarrier => 2,
            Barrier::Sow => 3,
        }
    }

    /// Parses the vendor's raw barrier number; anything above 3 is
    /// [`Error::InvalidBarrier`] (the kernel's -EINVAL).
    #[inline]
    pub const fn from_raw(value: u32) -> Result<Self, Error> {
        match value {
            0 => Ok(Barrier::None),
            1 => Ok(Barrier::Dmb),
            2 => Ok(Barrier::WriteBarrier),
            3 => Ok(Barrier::Sow),
            _ => Err(Error::InvalidBarrier { value }),
        }
    }
}

impl TryFrom<u32> for Barrier {
    type Error = Error;
    #[inline]
    fn try_from(value: u32) -> Result<Self, Error> {
        Self::from_raw(value)
    }
}

impl From<Barrier> for u32 {
    #[inline]
    fn from(b: Barrier) -> u32 {
        b.raw()
    }
}
