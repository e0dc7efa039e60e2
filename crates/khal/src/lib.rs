//! khal: the typed, compile-time core of the Neuron HAL.
//!
//! * [`Arch`]: one zero-sized type per chip generation (in `khal-sunda`, `khal-cayman`,
//!   `khal-mariana`) carrying identity, capabilities, scalars and the UDMA register layout as
//!   associated items; arch-dependent code is generic over `A: Arch`.
//! * [`regs`]: the UDMA unit register map (M2S, S2M, gen, gen_ex and the per-queue blocks) as
//!   typed [`mmio::Register`]s, every offset checked at compile time against
//!   `reference/udma-registers.tsv`.
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

mod arch;
pub mod caps;
mod dispatch;
mod hal;
mod latch;
pub mod regs;
mod table;
pub mod udma;

pub use dispatch::{ArchSet, ArchVisitor, DispatchError, dispatch, dispatch_latched};
pub use hal::{FreeError, HAL, HOST_ARCH, Hal, HalCell, HalInitError, InitOutcome, init_hal};
pub use latch::{ArchLatch, Bound, LatchError};

pub use arch::{
    Arch, ArchError, Generation, InvalidGeneration, PCI_VENDOR_ID, Platform, Product,
    RegistrarError, RegistrarInput, Registration, Rev3, Rev4, Scalars, TargetTranslation,
    UDMA_UNIT_WINDOW, UdmaRevision, UnknownDeviceId, VersionWindow, WRITE_BLOCKED_QUEUE_REGS,
    WaitTimes, register_common,
};
