//! khal: the typed, compile-time core of the Neuron HAL.
//!
//! * [`Arch`]: one zero-sized type per chip generation (in `khal-sunda`, `khal-cayman`,
//!   `khal-mariana`) carrying identity, capabilities ([`caps`]), the per-arch scalars
//!   ([`Scalars`]), the UDMA register-offset set ([`regs::UdmaLayout`]), the registrar and
//!   the pure per-arch functions of the vendor's callback table as default associated
//!   functions. Arch-dependent code is generic over `A: Arch`: no vtable, no run-time branch.
//! * [`regs`]: the UDMA unit register map (M2S, S2M, gen, gen_ex and the per-queue blocks) as
//!   typed [`mmio::Register`]s, every offset checked at compile time against
//!   `reference/udma-registers.tsv`.
//! * [`udma`]: engine and queue bring-up and configuration over any [`mmio::Mmio`] window;
//!   the doorbell ([`udma_desc::Doorbell`]) for any unit window.
//! * [`ArchLatch`]: the first-wins host generation latch; a device of another generation is
//!   an error.
//! * [`dispatch`]: the one point where a run-time [`Generation`] becomes a call of
//!   monomorphised code. Because the arch crates depend on `khal`, `khal` cannot list them;
//!   the dispatch is generic over an [`ArchSet`] (a tuple of arch types) that the binary
//!   names once, e.g. `type Supported = (Sunda, Cayman, Mariana);` in `neuron-emu`, `ndl-std`
//!   and `neuron-tool`, or `(Cayman,)` in a trn2-only runtime that links nothing else.
//! * [`HalCell`] / [`init_hal`]: one-time HAL initialisation without `std` (fast path,
//!   exactly one initialiser, failing layers fail the init, separate cleanup and free,
//!   re-init after free).
//!
//! Not modelled, for lack of facts in the reference tables: the Target Translation Table's
//! own registers (revision 4 gating exists: [`TargetTranslation`]), the pre-revision-4
//! target-steering layout, the S2M "no descriptor" policy register and the per-arch clock
//! divider.
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
