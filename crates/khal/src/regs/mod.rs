//! The UDMA unit register map: blocks, named registers, typed values.
//!
//! One UDMA unit (one DMA engine) is a `0x3c800`-byte register file: the TX (memory-to-stream,
//! "M2S") block at `0x0`, the RX (stream-to-memory, "S2M") block at `0x20000`, the general
//! block (`gen`: interrupt controllers, AXI, spare registers) at `0x38000` and the extended
//! general block (`gen_ex`: per-queue address-high selectors) at `0x3c000`. Each direction
//! holds 16 per-queue blocks of `0x1000` bytes starting `0x1000` into the direction block.
//!
//! Every block and register is declared once with [`mmio::register!`]: a block type with its
//! place ([`mmio::Placed`]; the queue blocks as arrays addressed by queue id), and per
//! register a zero-sized [`mmio::Register`] marker (offset inside its block, table name,
//! typed value). The one register list, [`REGISTERS`], is built from those declarations and
//! checked row by row **at compile time** against `reference/udma-registers.tsv`. Access the
//! registers through a block window.
//!
//! Registers the reference does not list but the ancestor HAL places (each at an offset the
//! seed cites, `reference/al-hal/facts.tsv`) are declared the same way in their own modules
//! and left out of [`REGISTERS`]: [`tgtid`] (target-id words), [`ttt`] (the TTT in
//! `gen_ex` from `+0x800`, past the kernel's `0x3c800`), [`s2m_comp`] (RX completion words)
//! and [`dma_misc`].
//!
//! ```
//! use khal::regs::{m2s, queue};
//! use mmio::{FakeRegs, MmioExt, Register};
//!
//! let regs: FakeRegs<8, 8> = FakeRegs::new();
//! let tx = regs.block::<m2s::M2s>(0).unwrap();
//! tx.write::<m2s::ChangeState>(m2s::ChangeStateCmd::new().with_normal(true));
//! let rx_q3 = regs.block::<queue::RxQueue>(3).unwrap();
//! rx_q3.write::<queue::DrtpInc>(queue::TailInc::new().with_val(2)); // a shared ring register
//! assert_eq!(regs.writes(), [(0x204, 0x1), (0x24038, 0x2)]);
//! assert_eq!(m2s::ChangeState::NAME, "m2s.change_state");
//! ```
//!
//! A register of another block does not compile through a block window (here a TX-only
//! register through an RX queue's):
//!
//! ```compile_fail
//! # use khal::regs::queue;
//! # use mmio::{FakeRegs, MmioExt};
//! let regs: FakeRegs<8, 8> = FakeRegs::new();
//! let rx_q3 = regs.block::<queue::RxQueue>(3).unwrap();
//! rx_q3.write::<queue::TxRlimitMaskReg>(queue::TxRlimitMask::RESET);
//! ```

pub mod added_2_27;
pub mod dma_misc;
pub mod gen_ex;
pub mod general;
pub mod khal_udma;
mod layout;
mod list;
pub mod m2s;
pub mod queue;
pub mod s2m;
pub mod s2m_comp;
mod state;
pub mod tgtid;
pub mod ttt;
pub mod unit;

pub use layout::QueueReg;
pub use list::{REGISTERS, RegisterInfo, Source, in_block};
/// The register-map traits of `mmio` the declarations implement (block names, places and
/// lists), for users of this map that do not depend on `mmio` themselves.
pub use mmio::{Placed, Register, RegisterBlock};
pub use state::{ChangeStateCmd, EngineStateWord, SubUnitState};
