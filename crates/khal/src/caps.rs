//! The capability traits of an [`Arch`](crate::Arch): the descriptor and IOFIC ones
//! re-exported from the crates that consume them (so an arch crate depends on `khal` alone),
//! and `khal`'s own product-policy markers.
//!
//! Each descriptor capability is declared once per arch, as a [`PacketCaps`] associated type
//! ([`Supported`] / [`Unsupported`]); its `HAS_*` flag and its marker ([`StrongOrder`],
//! [`NotificationMask`]) are derived from it, so they cannot disagree. The IOFIC values are
//! implemented once per UDMA revision type ([`Rev3`](crate::Rev3), [`Rev4`](crate::Rev4)),
//! which an arch names as its [`Arch::Revision`](crate::Arch::Revision).
//!
//! The two markers below gate engine steps that the vendor product runs after engine init
//! for some generations only (`udma-notes.md` section 2 step 8). Which generation runs which
//! step is a fixed fact of the generation, not something read from the hardware, so it is a
//! trait bound: calling the step for the wrong arch does not compile (see the `trybuild`
//! cases in `tests/ui/`), and there is no run-time error path that a caller could forget to
//! handle or that a test could never reach.
//!
//! The [`IoficCaps`] error masks that vary are the arch's UDMA revision's
//! ([`UdmaRevision`](crate::UdmaRevision)). That keying is an **inference**: seed 004 §4
//! gives the values as "(v3)" / "(v4)" without the branch, and where seed §2 shows a
//! `rev_id` branch it labels the arms "v4 (MARIANA)" / "v3 (CAYMAN)" (see
//! `iofic::error_masks`).

pub use iofic::caps::IoficCaps;
pub use udma_desc::caps::{
    NotificationMask, PacketCaps, StrongOrder, Support, Supported, Unsupported,
};

/// Marker: the product masks prefetch ring-id errors on this generation's NeuronCore
/// engines (V3, V4; `udma-notes.md` section 10, `arch-callbacks.tsv` `ndma_init`: "masks
/// ring-id errors ... for engines < 128"). Enables
/// [`Udma::mask_ring_id_errors`](crate::udma::Udma::mask_ring_id_errors).
pub trait RingIdErrorMasking: crate::Arch {}

/// Marker: the product arms AXI error detection and AXI-error aborts after engine init and
/// lifts the AXI timeout to its maximum (V2 only; `udma-notes.md` section 2 step 8,
/// `arch-callbacks.tsv` `ndma_init` "v2: ... AXI-error abort"). Enables
/// [`Udma::arm_axi_error_aborts`](crate::udma::Udma::arm_axi_error_aborts).
pub trait AxiErrorAborts: crate::Arch {}

/// Marker: the userspace HAL runs the TTT's default configuration (the seed's "Target
/// Translation Table", the ancestor HAL's Transaction Type Table)
/// when this generation's engines go to NORMAL (seed 004 §2: `al_udma_ttt_default_config`,
/// "MARIANA-only", "reached only from `al_udma_state_set_wait` on the NORMAL transition").
/// The arch's revision must have a TTT ([`TttRevision`](crate::TttRevision)). Enables
/// [`Udma::ttt_default_config`](crate::udma::Udma::ttt_default_config) (and the other TTT methods) and
/// [`Udma::state_set_wait_ttt`](crate::udma::Udma::state_set_wait_ttt); the plain
/// [`Udma::state_set_wait`](crate::udma::Udma::state_set_wait) runs the default
/// configuration on the unit's own `gen_ex` after NORMAL is observed (the ancestor HAL's
/// order, al-hal `h`).
///
/// The marker and [`Arch::TTT_DEFAULT_ON_NORMAL`](crate::Arch::TTT_DEFAULT_ON_NORMAL) state
/// one fact; a TTT method of an arch with the marker but without the flag fails the build
/// (a `const` assertion, evaluated when the method is instantiated):
///
/// ```compile_fail
/// # use khal::udma::Udma;
/// # use mmio::FakeRegs;
/// #[derive(Clone, Copy, Debug, Default)]
/// struct TttWithoutNormal;
/// impl khal::caps::PacketCaps for TttWithoutNormal {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
///     type NotificationMasks = khal::caps::Supported;
///     type StrongOrdering = khal::caps::Supported;
/// }
/// impl khal::Arch for TttWithoutNormal {
///     const GENERATION: khal::Generation = khal::Generation::V4;
///     const PRODUCTS: &'static [khal::Product] = &[];
///     type Revision = khal::Rev4;
///     const SCALARS: khal::Scalars = khal_cayman::SCALARS;
///     // TTT_DEFAULT_ON_NORMAL left at its default, false.
/// }
/// impl khal::caps::TargetTranslationTable for TttWithoutNormal {}
///
/// let regs: FakeRegs<8, 8> = FakeRegs::new();
/// let tgtid: FakeRegs<8, 8> = FakeRegs::new();
/// let engine = Udma::<TttWithoutNormal, _>::attach(&regs, 0xff, None).unwrap();
/// engine.ttt_en(&tgtid, true);
/// ```
pub trait TargetTranslationTable: crate::Arch
where
    <Self as crate::Arch>::Revision: crate::TttRevision,
{
}
