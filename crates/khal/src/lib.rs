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
//! Three, ranked and kept apart where they differ: seed 004 (KaenaHal, the userspace HAL of
//! libnrt 2.31.24.0) and seed 003 (the kernel DHAL core, 2.27.4.0) in `shared/seeds/`; the
//! kernel tables of driver 2.26.5.0 in `reference/` (`tables/udma-registers.tsv` is a
//! byte-identical copy kept inside this crate); and, only where neither states a fact, the
//! ancestor HAL KaenaHal's `al_*` functions come from (Annapurna Labs `al_hal`,
//! `reference/al-hal/facts.tsv`, each use naming its row and confidence). Engine bring-up has
//! one profile per source ([`udma::BringUpProfile`]: the userspace HAL's `al_udma_init`, the
//! default for user code, and the kernel's engine init). Every register the seeds name but
//! the reference lacks is in [`regs::REGISTERS`] with [`regs::Source::Seed004`], or, where
//! only the ancestor gives its place, in its own module naming the row ([`regs::tgtid`],
//! [`regs::ttt`], [`regs::s2m_comp`], [`regs::dma_misc`]).
//!
//! The DHAL model follows the reference's 59 callback slots ([`DhalCallbacks`]: 58 function
//! pointers in sub-tables plus the top-level cleanup hook). Seed 003 gives two other counts
//! for its release: 57 `(*` declarations in the header, of which 56 are callbacks (the 57th
//! is the `npe_neighbor_eng_ids` array pointer). The 56-slot list is not in the repository,
//! so the 59 rows are what is modelled.
//!
//! # Inferences (labelled; each made safe if wrong)
//!
//! * **That shipped engines read exactly 4 from `m2s_feature.dma_version`.** The register
//!   and the rule "the whole word when it is 4 or more" are the ancestor's (al-hal `a`); the
//!   seed gates on `!= 4`. The caller can state the revision instead of the read
//!   ([`udma::EngineParams::hw_revision`]), and a refusal names the value and its source.
//! * **Which state `state_set_wait` waits for.** The ancestor waits for IDLE after NORMAL
//!   and DISABLE; the reference's state read and the model report NORMAL. The default
//!   accepts either ([`udma::WaitFor::Either`]); the other rules are selectable.
//! * **That the ancestor's register fields still hold on Neuron silicon** (target-id words,
//!   TTT entry words, RX completion words, the no-descriptor bits past 28, the ext-app bit):
//!   every offset the seed cites is where the ancestor has a register of that meaning
//!   (`reference/al-hal/README.md`), but the fields are "ancestor only".
//! * **`pe_format_activity_stats`' counters and text** ([`Scalars::pe_format_activity_stats`]):
//!   the reference gives "header then one line per row group with matmul, weight-load and
//!   idle cycle counts"; the header text, the number format and which counter feeds each
//!   column (the arch's `pe_mm`/`pe_idle` counter scalars) are the project's choice.
//!
//! # Not modelled (no source states it)
//!
//! Rather than invent addresses, this crate has **no public function, type or error
//! variant** for the items below, or takes the missing fact from the caller:
//!
//! * **`al_udma_iofic_config_ex`'s body** (the `iofic_mode` step): the caller passes it.
//! * **The offset values of the `khal_udma` trampolines**, including the M2S-only data
//!   tail-pointer increment ([`regs::khal_udma::M2S_DATA_TAIL_PTR_INC_OFFSET`] is `None`;
//!   the ancestor has no such register, al-hal `f`).
//! * **The V4 notification mask bits** (no source, al-hal `b`).
//! * **`al_udma_m2m_build_crc_descriptor`'s bytes**: the seed names the builder; the ancestor
//!   has none, and its SSM CRC word's bit 26 is Neuron's write barrier (al-hal `h`).
//! * **Per-arch clock divider.** Named among V4's differences by the project's issues; no
//!   value or register in any source (the seed's "clk-div" writes are the `[m2s+0x310]`
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
    ACTIVITY_STATS_HEADER, ActivityStats, Arch, ArchError, DIE_FLIP_XOR, DhalCallbacks, Generation,
    InvalidGeneration, NC_MAP_ENTRIES, NC_MAP_TYPE, NcLocation, NcMapTable, PATTERN_A, PATTERN_B,
    PATTERN_C, PATTERN_D, PCI_VENDOR_ID, Platform, Product, RegistrarError, RegistrarInput,
    Registration, Rev3, Rev4, ScalarField, ScalarValue, Scalars, SteeringLayoutV4, TgtidLayoutV3,
    TgtidLayoutV4, TttRevision, UDMA_UNIT_WINDOW, UdmaRevision, UnknownDeviceId, VersionWindow,
    WRITE_BLOCKED_QUEUE_REGS, WaitTimes, nc_map_entry, pci_id, read_pe_counter, register_common,
    v4_table,
};
pub use arch::{MmapSpecial, mmap_block, mmap_resource, mmap_special};
