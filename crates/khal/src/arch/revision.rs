//! UDMA hardware revisions as types, so revision-gated features are trait bounds.
//!
//! The IOFIC error-interrupt policy values are a property of the revision (seed 004 §4 gives
//! them per UDMA revision; the keying is an inference, see `iofic::error_masks`), so each
//! revision type implements [`IoficCaps`] once, here, and every arch takes them from its
//! [`Arch::Revision`](crate::Arch::Revision): no arch states or forwards them.

use iofic::caps::IoficCaps;

/// A UDMA revision known at compile time, with its IOFIC policy values ([`IoficCaps`]).
pub trait UdmaRevision: IoficCaps + Copy + core::fmt::Debug + Send + Sync + 'static {
    /// The revision number.
    const NUMBER: u8;
}

/// UDMA revision 3: an older engine. No current arch uses it and the reference has no
/// register facts for it; it exists so that code can name one and so that the
/// revision-4-only APIs can be shown not to compile for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rev3;
/// UDMA revision 4: every generation the reference driver drives (V2, V3, V4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rev4;

impl UdmaRevision for Rev3 {
    const NUMBER: u8 = 3;
}
impl UdmaRevision for Rev4 {
    const NUMBER: u8 = 4;
}

/// Seed 004 §4 "(v3)": primary D 256, secondary B 0x7FFF_E007.
impl IoficCaps for Rev3 {
    const M2S_PRIMARY_D_UNMASK: u32 = iofic::error_masks::M2S_PRIMARY_D_UNMASK_UP_TO_REV3;
    const S2M_ERROR_MASK: u32 = iofic::error_masks::S2M_ERROR_MASK_UP_TO_REV3;
}
/// Seed 004 §4 "(v4)" and the kernel (`iofic.tsv` `policy_mask`): primary D 1280,
/// secondary B 0xFFFF_EF07.
impl IoficCaps for Rev4 {
    const M2S_PRIMARY_D_UNMASK: u32 = iofic::error_masks::M2S_PRIMARY_D_UNMASK_REV4;
    const S2M_ERROR_MASK: u32 = iofic::error_masks::S2M_ERROR_MASK_REV4;
}

/// Marker: the revision steers target ids through the V3 word at `gen + 0x23EC`
/// (`al_udma_gen_tgtid_conf_queue_set_adv`, `rev_id <= 3` branch, seed 004 §2).
pub trait TgtidLayoutV3: UdmaRevision {}
impl TgtidLayoutV3 for Rev3 {}

/// Marker: the revision steers target ids through the per-queue `16*(qid+608)` blocks
/// (`rev_id > 3` branch, seed 004 §2).
pub trait TgtidLayoutV4: UdmaRevision {}
impl TgtidLayoutV4 for Rev4 {}

/// Marker: the revision has the TTT (the ancestor's Transaction Type Table; `al_udma_ttt_en`:
/// `assert(udma->rev_id >= 4)`, seed 004 §2).
pub trait TttRevision: UdmaRevision {}
impl TttRevision for Rev4 {}

/// Marker: the revision lays out the per-queue target-steering selectors as revision 4's
/// `vmpr_v4` blocks in `gen_ex` (the only layout the reference gives).
///
/// Revision 4 also brings the TTT ([`TttRevision`]).
pub trait SteeringLayoutV4: UdmaRevision {}
impl SteeringLayoutV4 for Rev4 {}
