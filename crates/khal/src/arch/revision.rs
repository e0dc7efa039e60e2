//! UDMA hardware revisions as types, so revision-gated features are trait bounds.

/// A UDMA revision known at compile time.
pub trait UdmaRevision: Copy + core::fmt::Debug + Send + Sync + 'static {
    /// The revision number.
    const NUMBER: u8;
}

/// UDMA revision 3 (pre-TTT engines; no current arch uses it, it exists so that code can
/// name an older engine and so that the revision-4-only APIs can be shown to reject it).
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

/// Marker: the revision has the Target Translation Table and the `vmpr_v4` per-queue
/// selector layout (revision 4 and later).
pub trait TargetTranslation: UdmaRevision {}
impl TargetTranslation for Rev4 {}
