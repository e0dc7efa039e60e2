//! khal: the typed, compile-time core of the Neuron HAL.
//!
//! * [`Arch`]: one zero-sized type per chip generation (in `khal-sunda`, `khal-cayman`,
//!   `khal-mariana`) carrying identity, capabilities ([`caps`]), the per-arch scalars
//!   ([`Scalars`]), the per-queue register offsets ([`Arch::queue_reg_offset`]), the registrar and
//!   the pure per-arch functions of the vendor's callback table as default associated
//!   functions. Arch-dependent code is generic over `A: Arch`: no vtable, no run-time branch.
//! * [`regs`]: the UDMA unit register map (M2S, S2M, gen, gen_ex and the per-queue block
//!   arrays) declared once with [`mmio::register!`]: typed registers relative to their
//!   blocks, the one register list ([`regs::REGISTERS`]) made from the declarations and
//!   checked at compile time against `tables/udma-registers.tsv`.
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
//! # Sources
//!
//! Two, kept apart where they differ: seed 004 (KaenaHal, the userspace HAL of libnrt
//! 2.31.24.0) and seed 003 (the kernel DHAL core, 2.27.4.0) in `shared/seeds/`, and the
//! kernel tables of driver 2.26.5.0 in `reference/` (`tables/udma-registers.tsv` is a
//! byte-identical copy kept inside this crate). Engine bring-up has one profile per source
//! ([`udma::BringUpProfile`]: the userspace HAL's `al_udma_init`, the default for user code,
//! and the kernel's engine init). Every register the seeds name but the reference lacks is
//! in [`regs::REGISTERS`] with [`regs::Source::Seed004`] or, where its base is unknown, in
//! [`regs::tgtid`] / [`regs::khal_udma`] with what is missing.
//!
//! The DHAL model follows the reference's 59 callback slots ([`DhalCallbacks`]); seed 003
//! counts 56 for a later release whose slot list is not in the repository.
//!
//! # Not modelled (neither source states it)
//!
//! Rather than invent addresses, this crate has **no public function, type or error
//! variant** for the items below, or takes the missing fact from the caller:
//!
//! * **The revision field of `m2s_feature.dma_version`.** The seed names
//!   `al_udma_revision_get` without its body and the reference gives no field table; the whole
//!   word is compared with 4 ([`regs::m2s::UDMA_REV_ID_4`]).
//! * **`packet_size_cfg_set`'s register and value.** The userspace profile writes the
//!   kernel's `m2s.cfg_len` value there (by name; [`udma::Udma::init_hal`] docs).
//! * **`al_udma_iofic_config_ex`'s body** (the `iofic_mode` step): the caller passes it.
//! * **Where the tgtid block is in the unit**, and inside it: the `+0x820` value, the
//!   `+0x824` ready bit, TTT entry dwords 3..=6 and which words trigger; the V3 per-queue
//!   shifts at `gen + 0x23EC` and the V4 per-queue block's field layout. The TTT and steering
//!   methods take these from the caller ([`udma::TttDefaults`], raw words).
//! * **The order of the TTT default configuration and the NORMAL command** inside
//!   `al_udma_state_set_wait` (this crate configures the table first).
//! * **The offset values of the `khal_udma` trampolines**, including the M2S-only data
//!   tail-pointer increment ([`regs::khal_udma::M2S_DATA_TAIL_PTR_INC_OFFSET`] is `None`).
//! * **The completion-coalescing, header-split, burst and ext-app setters of seed 004 §2**
//!   are named only by category; where the reference gives the register
//!   ([`udma::Udma::set_tx_queue_comp_coalescing`], the prefetch/burst setup of
//!   [`udma::Udma::set_max_descs_per_packet`]) it is used, the header-split and ext-app
//!   setters have no register in either source.
//! * **`pe_format_activity_stats`' text format** (CSV header and line layout).
//! * **Per-arch clock divider.** Named among V4's differences by the project's issues; no
//!   value or register in either source (the seed's "clk-div" writes are the `[m2s+0x310]`
//!   FIFO depth and the `pkt/clk` word, both modelled).
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
    WaitTimes, nc_map_entry, pci_id, read_pe_counter, register_common, v4_table,
};
pub use arch::{MmapSpecial, mmap_block, mmap_resource, mmap_special};
