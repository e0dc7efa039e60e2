//! The UDMA unit register map: block bases, named registers, typed values.
//!
//! One UDMA unit (one DMA engine) is a `0x3c800`-byte register file: the TX (memory-to-stream,
//! "M2S") block at `0x0`, the RX (stream-to-memory, "S2M") block at `0x20000`, the general
//! block (`gen`: interrupt controllers, AXI, spare registers) at `0x38000` and the extended
//! general block (`gen_ex`: per-queue address-high selectors) at `0x3c000`. Each direction
//! holds 16 per-queue blocks of `0x1000` bytes starting `0x1000` into the direction block.
//!
//! Every register is a zero-sized marker implementing [`mmio::Register`] (offset inside its
//! block, table name, typed value), declared with this crate's `register!` macro, which also
//! asserts **at compile time** that the offset (and, for unit-level blocks, the absolute offset)
//! is the one in `reference/udma-registers.tsv`. Access them through a block window:
//!
//! ```
//! use khal::regs::{m2s, unit};
//! use mmio::{FakeRegs, MmioExt, Register};
//!
//! let regs: FakeRegs<8, 8> = FakeRegs::new();
//! let tx = regs.window(unit::M2S_BASE);
//! tx.write::<m2s::ChangeState>(m2s::ChangeStateCmd::new().with_normal(true));
//! assert_eq!(regs.writes(), [(0x204, 0x1)]);
//! assert_eq!(m2s::ChangeState::NAME, "m2s.change_state");
//! ```

#[macro_use]
mod macros;

pub mod gen_ex;
pub mod general;
pub mod khal_udma;
mod layout;
mod list;
pub mod m2s;
pub mod queue;
pub mod s2m;
mod state;
pub mod tgtid;
pub mod unit;

pub use layout::{QueueReg, UdmaLayout};
pub use list::{REGISTERS, RegisterInfo, Source, in_block};
pub use state::{ChangeStateCmd, EngineStateWord, SubUnitState};
