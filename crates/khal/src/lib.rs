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
//!   the doorbell ([`udma_desc::Doorbell`]) for any unit window; the product's post-init
//!   steps, each bounded on the generations that run it ([`caps::AxiErrorAborts`] for V2's
//!   AXI-error aborts, [`caps::RingIdErrorMasking`] for V3/V4's ring-id error masking).
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
//! # Not modelled (no facts)
//!
//! The 2.25.4.0 reference tables (`udma-registers.tsv`, `udma-bitfields.tsv`,
//! `udma-notes.md`, `arch-*.tsv`) give no register offset, field or value for the items
//! below. Rather than invent addresses, this crate has **no public function, type or error
//! variant for them**; a caller that needs one has to bring the facts first.
//!
//! * **Target Translation Table (TTT).** Revision 4 has one, but none of its registers is in
//!   the reference. The only revision-4 steering feature with facts is the `vmpr_v4`
//!   per-queue selector layout ([`udma::Udma::set_queue_target`], bounded on
//!   [`SteeringLayoutV4`]).
//! * **Pre-revision-4 target-steering layout.** Older revisions place the address-high
//!   selectors elsewhere; the reference gives only revision 4's. Every supported generation
//!   is revision 4, and the steering API does not compile for an arch whose revision type is
//!   older ([`Rev3`]).
//! * **S2M "no descriptor" policy** (drop-or-wait when an RX queue has no descriptor, with
//!   its timeout). No register or field for it is in the reference; engine init does not write
//!   one.
//! * **Per-arch clock divider.** The project's issues name a per-generation clock-divider
//!   value among V4's differences from V3, but neither the value nor its register is in the
//!   reference; [`Scalars`] has no field for it and engine init writes none.
//! * **Where the external top-level interrupt controller is.** Ring-id error masking steps
//!   3 and 4 write it (its group offsets are known), but not its base: the caller passes a
//!   window on it ([`udma::Udma::mask_ring_id_errors_with_external`]), or skips those steps.
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
    Arch, ArchError, DIE_FLIP_XOR, DhalCallbacks, Generation, InvalidGeneration, NC_MAP_ENTRIES,
    NC_MAP_TYPE, NcLocation, NcMapTable, PATTERN_A, PATTERN_B, PATTERN_C, PATTERN_D, PCI_VENDOR_ID,
    Platform, Product, RegistrarError, RegistrarInput, Registration, Rev3, Rev4, ScalarField,
    ScalarValue, Scalars, SteeringLayoutV4, TgtidLayoutV3, TgtidLayoutV4, TttRevision,
    UDMA_UNIT_WINDOW, UdmaRevision, UnknownDeviceId, VersionWindow, WRITE_BLOCKED_QUEUE_REGS,
    WaitTimes, nc_map_entry, read_pe_counter, register_common, v4_table,
};
