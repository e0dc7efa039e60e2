//! Typed cause sets: the UDMA secondary error causes and the primary group D summary bits.
//!
//! Names and bit positions are those of `reference/iofic.tsv` (`cause_bit.secondary.A/B/C`,
//! `primary_D_bit`). Each type is a transparent `u32` with named constants, set operations
//! and a `Debug` that prints names (`M2sCause(PREFETCH_RING_ID | 0x10000000)`). Unnamed bits are
//! kept, never dropped: a cause register may report bits this table does not name, and the
//! complement of a set must cover all 32 bits (the write-0 registers depend on it).

use core::fmt;

/// A value that a group's cause, mask and abort-mask registers hold: `u32` or a typed set.
///
/// [`crate::Group`] is generic over it, so a group of TX errors speaks [`M2sCause`] while an
/// untyped group speaks `u32`. The conversion is lossless both ways.
pub trait CauseBits: Copy + From<u32> + Into<u32> + fmt::Debug {}

impl CauseBits for u32 {}

macro_rules! cause_set {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$fmeta:meta])* $flag:ident = $bit:literal; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        #[repr(transparent)]
        pub struct $name(u32);

        impl $name {
            $(
                $(#[$fmeta])*
                pub const $flag: Self = Self(1 << $bit);
            )*

            /// Every named bit with its name, in bit order.
            pub const NAMED: &'static [(&'static str, Self)] = &[
                $( (stringify!($flag), Self::$flag), )*
            ];

            /// No bits.
            pub const fn empty() -> Self {
                Self(0)
            }

            /// Every named bit.
            pub const fn all_named() -> Self {
                Self(0 $( | (1 << $bit) )*)
            }

            /// Wraps raw register bits, keeping unnamed ones.
            pub const fn from_bits_retain(bits: u32) -> Self {
                Self(bits)
            }

            /// The raw register bits.
            pub const fn bits(self) -> u32 {
                self.0
            }

            /// True when no bit is set.
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// True when every bit of `other` is set in `self`.
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }

            /// True when `self` and `other` share a bit.
            pub const fn intersects(self, other: Self) -> bool {
                self.0 & other.0 != 0
            }

            /// Bits in either.
            pub const fn union(self, other: Self) -> Self {
                Self(self.0 | other.0)
            }

            /// Bits in both.
            pub const fn intersection(self, other: Self) -> Self {
                Self(self.0 & other.0)
            }

            /// Bits of `self` not in `other`.
            pub const fn difference(self, other: Self) -> Self {
                Self(self.0 & !other.0)
            }

            /// The full 32-bit complement (unnamed bits included).
            pub const fn complement(self) -> Self {
                Self(!self.0)
            }

            /// Bits set here that have no name in the reference table.
            pub const fn unnamed(self) -> u32 {
                self.0 & !Self::all_named().0
            }

            /// The named bit called `name` (as in the reference table), if any.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::NAMED.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
            }

            /// Names of the named bits that are set, in bit order.
            pub fn names(self) -> impl Iterator<Item = &'static str> {
                Self::NAMED
                    .iter()
                    .filter(move |(_, f)| self.contains(*f))
                    .map(|&(n, _)| n)
            }
        }

        impl From<u32> for $name {
            fn from(bits: u32) -> Self {
                Self(bits)
            }
        }

        impl From<$name> for u32 {
            fn from(set: $name) -> u32 {
                set.0
            }
        }

        impl CauseBits for $name {}

        impl core::ops::BitOr for $name {
            type Output = Self;
            fn bitor(self, rhs: Self) -> Self {
                self.union(rhs)
            }
        }

        impl core::ops::BitOrAssign for $name {
            fn bitor_assign(&mut self, rhs: Self) {
                *self = self.union(rhs);
            }
        }

        impl core::ops::BitAnd for $name {
            type Output = Self;
            fn bitand(self, rhs: Self) -> Self {
                self.intersection(rhs)
            }
        }

        impl core::ops::BitAndAssign for $name {
            fn bitand_assign(&mut self, rhs: Self) {
                *self = self.intersection(rhs);
            }
        }

        impl core::ops::Sub for $name {
            type Output = Self;
            fn sub(self, rhs: Self) -> Self {
                self.difference(rhs)
            }
        }

        impl core::ops::Not for $name {
            type Output = Self;
            fn not(self) -> Self {
                self.complement()
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), "("))?;
                let mut first = true;
                for name in self.names() {
                    if !first {
                        f.write_str(" | ")?;
                    }
                    f.write_str(name)?;
                    first = false;
                }
                let rest = self.unnamed();
                if rest != 0 || first {
                    if !first {
                        f.write_str(" | ")?;
                    }
                    write!(f, "{rest:#x}")?;
                }
                f.write_str(")")
            }
        }
    };
}

cause_set! {
    /// Secondary group A: the TX (M2S) error causes (`cause_bit.secondary.A`).
    ///
    /// ```
    /// use iofic::M2sCause;
    /// let c = M2sCause::PREFETCH_RING_ID | M2sCause::DATA_AXI_TO;
    /// assert_eq!(c.bits(), 0x0002_0200);
    /// assert_eq!(format!("{c:?}"), "M2sCause(DATA_AXI_TO | PREFETCH_RING_ID)");
    /// assert_eq!(format!("{:?}", M2sCause::from_bits_retain(0x1000_0001)),
    ///            "M2sCause(STRM_COMPL_MISMATCH | 0x10000000)");
    /// ```
    M2sCause {
        /// Stream packet serial mismatch.
        STRM_COMPL_MISMATCH = 0;
        /// Stream parity.
        STRM_PARITY = 1;
        /// Stream response error.
        STRM_RESP = 2;
        /// Stream timeout.
        STRM_TO = 3;
        /// Completion bus SRAM parity.
        COMP_AXI_PARITY = 4;
        /// Completion bus response error.
        COMPL_AXI_RESP = 5;
        /// Completion bus timeout.
        COMPL_AXI_TO = 6;
        /// Data read bus parity.
        DATA_AXI_PARITY = 7;
        /// Data read bus response error.
        DATA_AXI_RESP = 8;
        /// Data read bus timeout.
        DATA_AXI_TO = 9;
        /// Descriptor prefetch bus parity.
        PREFETCH_AXI_PARITY = 10;
        /// Descriptor prefetch bus response error.
        PREFETCH_AXI_RESP = 11;
        /// Descriptor prefetch bus timeout.
        PREFETCH_AXI_TO = 12;
        /// Packet longer than the configured maximum.
        PKT_LEN = 13;
        /// Too many descriptors in one packet.
        PREFETCH_MAX_DESC = 14;
        /// Bad FIRST flag sequence.
        PREFETCH_FIRST = 15;
        /// Bad LAST flag sequence.
        PREFETCH_LAST = 16;
        /// Descriptor ring id did not match the expected one.
        PREFETCH_RING_ID = 17;
        /// AXI data buffer parity.
        AXI_DATA_PARITY = 18;
        /// Ack packet buffer parity.
        ACK_PKT_PARITY = 19;
        /// Unack packet buffer parity.
        UNACK_PKT_PARITY = 20;
        /// Completion coalescing buffer parity.
        COMPL_COAL_PARITY = 21;
        /// Data header buffer parity.
        HDR_PARITY = 22;
        /// Data buffer parity.
        DATA_PARITY = 23;
        /// Prefetch descriptor buffer parity.
        PREFETCH_DESC_PARITY = 24;
        /// Prefetch header buffer parity.
        PREFETCH_HDR_PARITY = 25;
        /// MSI-X write timeout.
        MSIX_TO = 26;
        /// MSI-X write response error.
        MSIX_RESP = 27;
    }
}

cause_set! {
    /// Secondary group B: the RX (S2M) error causes (`cause_bit.secondary.B`).
    /// Bits 3..7 and 12 have no name (the kernel's mask leaves them alone).
    ///
    /// ```
    /// use iofic::S2mCause;
    /// assert_eq!(S2mCause::all_named().bits(), 0xffff_ef07);
    /// assert_eq!(format!("{:?}", S2mCause::PREFETCH_RING_ID), "S2mCause(PREFETCH_RING_ID)");
    /// ```
    S2mCause {
        /// Data write bus parity.
        DATA_AXI_PARITY = 0;
        /// Data write bus response error.
        DATA_AXI_RESP = 1;
        /// Data write bus timeout.
        DATA_AXI_TO = 2;
        /// Descriptor prefetch bus parity.
        PREFETCH_AXI_PARITY = 8;
        /// Descriptor prefetch bus response error.
        PREFETCH_AXI_RESP = 9;
        /// Descriptor prefetch bus timeout.
        PREFETCH_AXI_TO = 10;
        /// Descriptor ring id did not match the expected one.
        PREFETCH_RING_ID = 11;
        /// Completion bus SRAM parity.
        COMPL_AXI_PARITY = 13;
        /// Completion bus response error.
        COMPL_AXI_RESP = 14;
        /// Completion bus timeout.
        COMPL_AXI_TO = 15;
        /// Unack timeout from stream-ack FIFO back pressure.
        COMPL_STRM = 16;
        /// Unack timeout from completion FIFO back pressure.
        COMPL_UNACK = 17;
        /// Stream header parity.
        STRM_HDR_PARITY = 18;
        /// Stream header error.
        STRM_HDR = 19;
        /// Stream data parity.
        STRM_DATA_PARITY = 20;
        /// Stream data error.
        STRM_DATA = 21;
        /// Stream FIRST flag error.
        STRM_FIRST = 22;
        /// Stream LAST flag error.
        STRM_LAST = 23;
        /// Data length disagrees with metadata length.
        PKT_LEN = 24;
        /// Data header buffer parity.
        DATA_HDR_PARITY = 25;
        /// Data buffer parity.
        DATA_PARITY = 26;
        /// Unack packet buffer parity.
        UNACK_PKT_PARITY = 27;
        /// Pre-unack packet buffer parity.
        PRE_UNACK_PKT_PARITY = 28;
        /// Completion coalescing buffer parity.
        COMPL_COAL_PARITY = 29;
        /// Prefetch descriptor buffer parity.
        PREFETCH_DESC_PARITY = 30;
        /// Transaction table parity (in the V4 kernel set only).
        TRNSCTN_TBL_INFO_PARITY = 31;
    }
}

cause_set! {
    /// Secondary group C: AXI FIFO parity causes, TX in bits 0..5 and RX in bits 6..11
    /// (`cause_bit.secondary.C`).
    ///
    /// ```
    /// use iofic::ParityCause;
    /// assert_eq!(ParityCause::M2S.bits(), 0x3f);
    /// assert_eq!(ParityCause::S2M.bits(), 0xfc0);
    /// ```
    ParityCause {
        /// TX data fetch command FIFO parity.
        M2S_DATA_FTCH_AXI_CMD_PARITY = 0;
        /// TX data fetch request FIFO parity.
        M2S_DATA_FTCH_AXI_REQ_PARITY = 1;
        /// TX descriptor prefetch command FIFO parity.
        M2S_DESC_PRE_AXI_CMD_PARITY = 2;
        /// TX descriptor prefetch request FIFO parity.
        M2S_DESC_PRE_AXI_REQ_PARITY = 3;
        /// TX completion write command FIFO parity.
        M2S_CMP_WR_AXI_CMD_PARITY = 4;
        /// TX completion write request FIFO parity.
        M2S_CMP_WR_AXI_REQ_PARITY = 5;
        /// RX data write data FIFO parity.
        S2M_DATA_WR_AXI_DATA_PARITY = 6;
        /// RX data write request FIFO parity.
        S2M_DATA_WR_AXI_REQ_PARITY = 7;
        /// RX completion write data FIFO parity.
        S2M_CMP_WR_AXI_DATA_PARITY = 8;
        /// RX completion write request FIFO parity.
        S2M_CMP_WR_AXI_REQ_PARITY = 9;
        /// RX descriptor prefetch command FIFO parity.
        S2M_DESC_PRE_AXI_CMD_PARITY = 10;
        /// RX descriptor prefetch request FIFO parity.
        S2M_DESC_PRE_AXI_REQ_PARITY = 11;
    }
}

impl ParityCause {
    /// The TX half (bits 0..5, `SEC_C_M2S_ERRORS` = 0x3f).
    pub const M2S: Self = Self(0x0000_003f);
    /// The RX half (bits 6..11, `SEC_C_S2M_ERRORS` = 0xfc0).
    pub const S2M: Self = Self(0x0000_0fc0);
}

cause_set! {
    /// Primary group D bits that summarise the secondary groups (`primary_D_bit`).
    ///
    /// Bits 8..10 are named by the kernel reference; bit 11 (a fourth secondary group) comes
    /// from seed 004 §4 (`al_udma_iofic_sec_level_int_get`), whose revision-4 summary table is
    /// {0x100, 0x200, 0x400, 0x800} (see [`crate::secondary_summary_bits`]).
    ///
    /// ```
    /// use iofic::PrimaryDSummary as D;
    /// assert_eq!(format!("{:?}", D::from_bits_retain(0x500)),
    ///            "PrimaryDSummary(GROUP_D_M2S | GROUP_D_2ND_IOFIC_GROUP_C)");
    /// ```
    PrimaryDSummary {
        /// Summary of secondary group A (TX errors).
        GROUP_D_M2S = 8;
        /// Summary of secondary group B (RX errors).
        GROUP_D_S2M = 9;
        /// Summary of secondary group C (AXI parity).
        GROUP_D_2ND_IOFIC_GROUP_C = 10;
        /// Summary of a secondary group D (seed 004 §4, revision 4 table only).
        GROUP_D_2ND_IOFIC_GROUP_D = 11;
    }
}

// Compile-time checks against iofic.tsv.
const _: () = {
    assert!(
        M2sCause::all_named().bits() == 0x0fff_ffff,
        "SEC_A_M2S_ERRORS"
    );
    assert!(
        S2mCause::all_named().bits() == 0xffff_ef07,
        "SEC_B_S2M_ERRORS_V4"
    );
    assert!(ParityCause::all_named().bits() == 0x0000_0fff);
    assert!(ParityCause::M2S.bits() | ParityCause::S2M.bits() == 0xfff);
    assert!(ParityCause::M2S.bits() & ParityCause::S2M.bits() == 0);
    assert!(
        M2sCause::PREFETCH_RING_ID.bits() == 0x0002_0000,
        "M2S_ERR_LOG_PREF_RING_ID"
    );
    assert!(
        S2mCause::PREFETCH_RING_ID.bits() == 0x0000_0800,
        "S2M_ERR_LOG_PREF_RING_ID"
    );
    assert!(S2mCause::TRNSCTN_TBL_INFO_PARITY.bits() == 0x8000_0000);
    assert!(PrimaryDSummary::GROUP_D_M2S.bits() == 0x100);
    assert!(PrimaryDSummary::GROUP_D_S2M.bits() == 0x200);
    assert!(PrimaryDSummary::GROUP_D_2ND_IOFIC_GROUP_C.bits() == 0x400);
};
