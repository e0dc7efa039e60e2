//! The one register-access trait of the neuron HAL family.
//!
//! Every crate above this one reaches device registers through [`Mmio`]: a 32-bit read or
//! write at a byte offset inside a register window. Three kinds of window plug in:
//!
//! * [`VolatileMmio`] — a volatile pointer into a mapped PCI BAR (the only `unsafe` for MMIO);
//! * `FakeRegs` — a recording fake register file for tests (trace of every access, with
//!   programmable read values), behind the `test-utils` feature;
//! * the device model in `neuron-emu`, which must observe doorbell writes as they happen.
//!
//! No implementation hands out `&`/`&mut` references into device memory: a reference lets the
//! compiler invent, merge or elide accesses, which is wrong for registers with side effects
//! (a tail-pointer increment is a command, not a store).
//!
//! On top of the trait:
//!
//! * [`register!`] — the one register language of the family: each register's offset, typed
//!   value (or inline fields) and name in one declaration, inside a block that says where it
//!   sits (one block, or an array addressed by index) and lists what it holds
//!   ([`RegisterBlock`], [`Placed`]); [`MmioExt::block`] gives a [`BlockWindow`] that only
//!   reads registers of its block.
//! * [`dma_write_barrier`] — "descriptors in memory, then the doorbell", which volatile
//!   accesses do not order on their own ([`VolatileMmio`] says what they do order);
//!   [`Mmio::write_barrier`] is how code issues it, so a fake can record it.
//!
//! ```
//! # #[cfg(feature = "test-utils")] {
//! use mmio::{FakeRegs, Mmio, MmioExt, Access};
//!
//! let regs: FakeRegs<16, 16> = FakeRegs::new();
//! regs.preset(0x200, 0x1111);
//! let win = regs.window(0x200); // a sub-block at +0x200
//! assert_eq!(win.read32(0x0), 0x1111);
//! win.write32(0x4, 0x2);
//! assert_eq!(regs.trace(), [Access::Read { offset: 0x200, value: 0x1111 },
//!                           Access::Write { offset: 0x204, value: 0x2 }]);
//! # }
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

mod access;
mod barrier;
mod block;
#[cfg(any(test, feature = "test-utils"))]
mod fake;
mod macros;
mod register;
mod volatile;
mod window;

pub use access::{BUS_ERROR_READ, Mmio, MmioExt};
pub use barrier::dma_write_barrier;
pub use block::BlockWindow;
#[cfg(any(test, feature = "test-utils"))]
pub use fake::{Access, FakeRegs};
pub use register::{
    Contains, Placed, Register, RegisterBlock, RegisterInfo, block_base, block_base_or_unmapped,
    locate, str_eq, unmapped,
};
#[doc(hidden)]
pub use register::{count_rows, join_rows};
pub use volatile::VolatileMmio;
pub use window::Window;

/// `bitfield-struct`'s attribute, for the inline value types of [`register!`].
#[doc(hidden)]
pub use bitfield_struct::bitfield as __bitfield;
