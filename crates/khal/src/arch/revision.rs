//! UDMA hardware revisions as types, so revision-gated features are trait bounds.

/// A UDMA revision known at compile time.
pub trait UdmaRevision: Copy + core::fmt::Debug + Send + Sync + 'static {
    /// The revision number.
    const NUMBER: u8;
    /// Primary group D bits the M2S error bring-up lifts (`iofic::error_masks`, seed 004 §4).
    const M2S_PRIMARY_D_UNMASK: u32;
    /// Secondary group B causes the S2M error bring-up unmasks (`iofic::error_masks`).
    const S2M_ERROR_MASK: u32;
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
    const M2S_PRIMARY_D_UNMASK: u32 = iofic::error_masks::M2S_PRIMARY_D_UNMASK_UP_TO_REV3;
    const S2M_ERROR_MASK: u32 = iofic::error_masks::S2M_ERROR_MASK_UP_TO_REV3;
}
impl UdmaRevision for Rev4 {
    const NUMBER: u8 = 4;
    const M2S_PRIMARY_D_UNMASK: u32 = iofic::error_masks::M2S_PRIMARY_D_UNMASK_REV4;
    const S2M_ERROR_MASK: u32 = iofic::error_masks::S2M_ERROR_MASK_REV4;
}

/// Marker: the revision lays out the per-queue target-steering selectors as revision 4's
/// `vmpr_v4` blocks in `gen_ex` (the only layout the reference gives).
///
/// Revision 4 also brings the Target Translation Table, but the reference has no register
/// facts for it, so no API here touches it (see the crate docs, "Not modelled").
pub trait SteeringLayoutV4: UdmaRevision {}
impl SteeringLayoutV4 for Rev4 {}
