//! The UDMA I/O-fabric interrupt controller (IOFIC): typed groups, primitives and policy.
//!
//! A UDMA unit reports errors and completions through a two-level controller. The primary
//! level (groups A..D) starts the unit's `gen` block; its group D summarises the secondary
//! level at `gen + 0x2000`, where the M2S (TX), S2M (RX) and AXI-parity error causes live.
//! Each group is a 0x40-byte window ([`layout`]).
//!
//! Three layers, bottom up:
//! * [`layout`], [`regs`], [`Control`] and the cause types ([`M2sCause`], [`S2mCause`],
//!   [`ParityCause`], [`PrimaryDSummary`]): the register map as named, compile-time checked
//!   facts. The device model reuses them.
//! * [`Group`] and [`Level`]: primitives of one or two register accesses, all through
//!   [`mmio::Mmio`]. Arguments are "the bits you mean"; the complement that the active-low
//!   registers (mask-clear, cause, abort mask) need is taken in one private function.
//! * [`udma`]: the bring-up and masking policies, generic over [`caps::IoficCaps`] so per-arch
//!   values arrive at compile time.
//!
//! Windows: a [`Group`] is built over a window at its own base, a [`Level`] over a window at
//! the level base; the [`udma`] functions take the window of the whole `gen` block.
//!
//! The inversion, end to end against a recording fake:
//!
//! ```
//! use iofic::{udma, M2sCause};
//! use mmio::{FakeRegs, MmioExt};
//!
//! let unit: FakeRegs<8, 8> = FakeRegs::new();
//! let gen_block = unit.window(iofic::layout::GEN_BASE_IN_UNIT);
//! let tx = udma::m2s_errors(&gen_block);
//! tx.unmask(M2sCause::PREFETCH_RING_ID);    // the bits we mean ...
//! tx.clear(M2sCause::PREFETCH_RING_ID);
//! tx.abort_exactly(M2sCause::PREFETCH_RING_ID);
//! assert_eq!(unit.writes(), [
//!     (0x3a018, 0xfffd_ffff),             // ... complemented for mask-clear,
//!     (0x3a000, 0xfffd_ffff),             // for the write-0-to-clear cause register,
//!     (0x3a030, 0xfffd_ffff),             // and for the abort mask (0 = aborts).
//! ]);
//! ```
#![no_std]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::cast_possible_truncation
    )
)]

pub mod caps;
mod cause;
mod control;
mod error;
pub mod error_masks;
mod ext_app;
mod group;
pub mod layout;
mod level;
pub mod regs;
mod summary;
pub mod udma;

pub use cause::{CauseBits, M2sCause, ParityCause, PrimaryDSummary, S2mCause};
pub use control::{Control, ControllerRev};
pub use error::Error;
pub use ext_app::{EXT_APP_REV4, EXT_APP_UP_TO_REV3, ext_app_bit, unmask_ext_app};
pub use group::Group;
pub use level::Level;
pub use summary::{
    FIRST_REV4, MAX_UDMA_REV, SUMMARY_REV4, SUMMARY_UP_TO_REV3, secondary_groups,
    secondary_summary_bits,
};
