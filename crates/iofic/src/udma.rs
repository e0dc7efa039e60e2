//! The UDMA policy layer: which groups of a UDMA unit get which causes, in which order.
//!
//! Every function takes the window of the unit's `gen` block (offset 0 = unit offset
//! [`GEN_BASE_IN_UNIT`](crate::layout::GEN_BASE_IN_UNIT)) and only writes, except where a
//! read-modify-write is documented: the kernel's traces are write-only, and the tests compare
//! the writes here with `reference/iofic.tsv` (`unmask_write.*`, `ring_id_mask_write`) one by
//! one. Per-arch values come from [`IoficCaps`] at compile time.

use mmio::{Mmio, Window};

use crate::caps::IoficCaps;
use crate::layout::{
    AXI_ERROR_IN_GEN, GROUP_A, GROUP_B, GROUP_C, GROUP_D, PRIMARY_BASE_IN_GEN,
    SECONDARY_BASE_IN_GEN, group_base,
};
use crate::{CauseBits, Control, Group, M2sCause, ParityCause, PrimaryDSummary, S2mCause};

/// Every cause of an AXI-error controller (kernel `AXI_ERROR_IOFIC_ALL`).
pub const AXI_ERROR_ALL: u32 = 0xffff_ffff;
/// Bit to OR into the TX `err_log_mask` (unit offset 0x0020c) when masking ring-id errors:
/// section 10 step 5. The register belongs to the M2S block, so `khal` writes it.
pub const M2S_ERR_LOG_RING_ID: u32 = M2sCause::PREFETCH_RING_ID.bits();
/// Bit to OR into the RX `err_log_mask` (unit offset 0x2020c): section 10 step 6.
pub const S2M_ERR_LOG_RING_ID: u32 = S2mCause::PREFETCH_RING_ID.bits();
/// Group of the external top-level controller that carries the TX ring-id cause.
pub const EXT_M2S_RING_ID_GROUP: usize = GROUP_C;
/// The TX ring-id cause in that group (kernel `EXT_GRP2_M2S_PREF_RING_ID`, bit 11).
pub const EXT_M2S_RING_ID: u32 = 0x0000_0800;
/// Group of the external top-level controller that carries the RX ring-id cause.
pub const EXT_S2M_RING_ID_GROUP: usize = GROUP_D;
/// The RX ring-id cause in that group (kernel `EXT_GRP3_S2M_PREF_RING_ID`, bit 2).
pub const EXT_S2M_RING_ID: u32 = 0x0000_0004;

fn at<G: Mmio + ?Sized, C: CauseBits>(
    gen_block: &G,
    level_base: usize,
    index: usize,
) -> Group<Window<&G>, C> {
    Group::new(Window::new(gen_block, level_base + group_base(index))).with_causes()
}

/// Secondary group A: the TX (M2S) error causes.
pub fn m2s_errors<G: Mmio + ?Sized>(gen_block: &G) -> Group<Window<&G>, M2sCause> {
    at(gen_block, SECONDARY_BASE_IN_GEN, GROUP_A)
}

/// Secondary group B: the RX (S2M) error causes.
pub fn s2m_errors<G: Mmio + ?Sized>(gen_block: &G) -> Group<Window<&G>, S2mCause> {
    at(gen_block, SECONDARY_BASE_IN_GEN, GROUP_B)
}

/// Secondary group C: the AXI FIFO parity causes of both directions.
pub fn parity_errors<G: Mmio + ?Sized>(gen_block: &G) -> Group<Window<&G>, ParityCause> {
    at(gen_block, SECONDARY_BASE_IN_GEN, GROUP_C)
}

/// Primary group D: miscellaneous, including the summaries of the secondary groups.
pub fn primary_misc<G: Mmio + ?Sized>(gen_block: &G) -> Group<Window<&G>, PrimaryDSummary> {
    at(gen_block, PRIMARY_BASE_IN_GEN, GROUP_D)
}

/// AXI-error controller `index` (0..6, in [`AXI_ERROR_IN_GEN`] order), or `None` past them.
pub fn axi_error<G: Mmio + ?Sized>(gen_block: &G, index: usize) -> Option<Group<Window<&G>>> {
    AXI_ERROR_IN_GEN
        .get(index)
        .map(|&base| Group::new(Window::new(gen_block, base)))
}

/// Enables one group's error causes: configure, make exactly `causes` abort, unmask them.
/// Three writes: control (+0x28), abort mask (+0x30), mask-clear (+0x18).
///
/// ```
/// use iofic::{udma, Control, Group};
/// use mmio::FakeRegs;
/// let regs: FakeRegs<4, 4> = FakeRegs::new();
/// udma::enable_group_errors(&Group::new(&regs), Control::PROGRAMMED, 0x0000_0003);
/// // The two active-low registers receive the complement of the causes we mean.
/// assert_eq!(regs.writes(), [(0x28, 0x28), (0x30, 0xffff_fffc), (0x18, 0xffff_fffc)]);
/// ```
pub fn enable_group_errors<M: Mmio, C: CauseBits>(
    group: &Group<M, C>,
    control: Control,
    causes: C,
) {
    group.configure(control);
    group.abort_exactly(causes);
    group.unmask(causes);
}

/// TX (M2S) error-interrupt bring-up, seven writes in the kernel's order
/// (`udma-notes.md` section 9, `iofic.tsv` `unmask_write.m2s`):
/// control of secondary A and primary D, abort masks of secondary A and C, mask-clear of
/// secondary A and C, then lift the primary D funnel with `A::M2S_PRIMARY_D_UNMASK`.
pub fn m2s_bring_up<A: IoficCaps, G: Mmio + ?Sized>(gen_block: &G) {
    let errors = M2sCause::from_bits_retain(A::M2S_ERROR_MASK);
    let parity = ParityCause::from_bits_retain(A::M2S_PARITY_MASK);
    bring_up(
        &m2s_errors(gen_block),
        errors,
        &parity_errors(gen_block),
        parity,
        &primary_misc(gen_block),
        PrimaryDSummary::from_bits_retain(A::M2S_PRIMARY_D_UNMASK),
    );
}

/// RX (S2M) error-interrupt bring-up, seven writes in the kernel's order
/// (`iofic.tsv` `unmask_write.s2m`): as [`m2s_bring_up`] with secondary B,
/// `A::S2M_ERROR_MASK`, the RX parity half and `A::S2M_PRIMARY_D_UNMASK`.
///
/// Its abort-mask write to secondary C replaces the TX one (quirk 7 of the notes): after
/// both bring-ups only the RX parity causes abort, while both halves stay unmasked.
pub fn s2m_bring_up<A: IoficCaps, G: Mmio + ?Sized>(gen_block: &G) {
    bring_up(
        &s2m_errors(gen_block),
        S2mCause::from_bits_retain(A::S2M_ERROR_MASK),
        &parity_errors(gen_block),
        ParityCause::from_bits_retain(A::S2M_PARITY_MASK),
        &primary_misc(gen_block),
        PrimaryDSummary::from_bits_retain(A::S2M_PRIMARY_D_UNMASK),
    );
}

/// The shared order of both bring-ups: configure (secondary, primary D), abort (secondary,
/// parity), unmask (secondary, parity, primary D last so no summary fires half-set-up).
fn bring_up<M: Mmio, C: CauseBits>(
    errors: &Group<M, C>,
    error_causes: C,
    parity: &Group<M, ParityCause>,
    parity_causes: ParityCause,
    primary_d: &Group<M, PrimaryDSummary>,
    summary: PrimaryDSummary,
) {
    errors.configure(Control::PROGRAMMED);
    primary_d.configure(Control::PROGRAMMED);
    errors.abort_exactly(error_causes);
    parity.abort_exactly(parity_causes);
    errors.unmask(error_causes);
    parity.unmask(parity_causes);
    primary_d.unmask(summary);
}

/// AXI-error abort programming (done by the product on V2 after engine init): each of the six
/// single-group AXI-error controllers gets control 0x28, every cause aborting, every cause
/// unmasked (`iofic.tsv` `unmask_write.axi_error`, 18 writes). The MSI-X one is left alone.
pub fn enable_axi_error_aborts<G: Mmio + ?Sized>(gen_block: &G) {
    for &base in &AXI_ERROR_IN_GEN {
        let group = Group::new(Window::new(gen_block, base));
        enable_group_errors(&group, Control::PROGRAMMED, AXI_ERROR_ALL);
    }
}

/// Ring-id error masking, the part inside the unit (`udma-notes.md` section 10 steps 1-2):
/// for secondary A then B, OR the ring-id cause into the mask (read-modify-write) and write
/// the resulting mask value to the abort mask, so exactly the still-unmasked causes abort.
///
/// The abort mask is replaced, not OR'd: this matches the kernel and relies on both
/// registers holding the same pattern after the bring-ups. Steps 3-4 (external controller)
/// are [`mask_ring_id_errors_external`]; steps 5-6 are the `err_log_mask` registers of the
/// M2S/S2M blocks ([`M2S_ERR_LOG_RING_ID`], [`S2M_ERR_LOG_RING_ID`]), written by `khal`.
pub fn mask_ring_id_errors<G: Mmio + ?Sized>(gen_block: &G) {
    // `mask` returns the masked set; its complement is the still-unmasked causes, which is
    // what "abort mask := int_mask value" means in bits-you-mean terms.
    let tx = m2s_errors(gen_block);
    let masked = tx.mask(M2sCause::PREFETCH_RING_ID);
    tx.abort_exactly(masked.complement());
    let rx = s2m_errors(gen_block);
    let masked = rx.mask(S2mCause::PREFETCH_RING_ID);
    rx.abort_exactly(masked.complement());
}

/// Ring-id error masking in the external top-level controller (section 10 steps 3-4):
/// `ext` is a window at that controller's level base (outside the UDMA unit; where it lives
/// is the caller's business). Group 2's mask gets bit 11 and group 3's bit 2, each by
/// read-modify-write; the abort masks are not touched.
pub fn mask_ring_id_errors_external<E: Mmio + ?Sized>(ext: &E) {
    at::<E, u32>(ext, 0, EXT_M2S_RING_ID_GROUP).mask(EXT_M2S_RING_ID);
    at::<E, u32>(ext, 0, EXT_S2M_RING_ID_GROUP).mask(EXT_S2M_RING_ID);
}

const _: () = {
    assert!(M2S_ERR_LOG_RING_ID == 0x0002_0000 && S2M_ERR_LOG_RING_ID == 0x0000_0800);
    // iofic.tsv ring_id_mask_write steps 5 and 6: ext+0x90 and ext+0xd0.
    assert!(group_base(EXT_M2S_RING_ID_GROUP) + crate::layout::MASK == 0x90);
    assert!(group_base(EXT_S2M_RING_ID_GROUP) + crate::layout::MASK == 0xd0);
};
