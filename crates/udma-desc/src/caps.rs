//! Per-arch descriptor capabilities, supplied at compile time by the `khal` arch types.
//!
//! `udma-desc` sits below `khal`, so it cannot name an arch; instead every arch-dependent
//! limit reaches the builders as an associated item of a type parameter `C: PacketCaps`
//! (monomorphised, no runtime lookup).
//!
//! Each yes/no capability is declared **once**, as an associated type ([`Supported`] or
//! [`Unsupported`]); the `const bool` the builders test at run time and the marker trait that
//! APIs are bounded on are both derived from it, so the two cannot disagree:
//!
//! ```compile_fail
//! use udma_desc::caps::{NotificationMask, PacketCaps, Unsupported};
//! // An arch that claims the marker without the capability does not compile.
//! struct NoMask;
//! impl PacketCaps for NoMask {
//!     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
//!     type NotificationMasks = Unsupported;
//!     type StrongOrdering = Unsupported;
//! }
//! impl NotificationMask for NoMask {}
//! ```

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Supported {}
    impl Sealed for super::Unsupported {}
}

/// Whether a capability is there, as a type ([`Supported`] / [`Unsupported`]; sealed).
pub trait Support: sealed::Sealed {
    /// True for [`Supported`].
    const PRESENT: bool;
}

/// The generation has the capability.
#[derive(Clone, Copy, Debug)]
pub enum Supported {}
/// The generation does not have the capability.
#[derive(Clone, Copy, Debug)]
pub enum Unsupported {}

impl Support for Supported {
    const PRESENT: bool = true;
}
impl Support for Unsupported {
    const PRESENT: bool = false;
}

/// Descriptor-packet limits of one chip generation.
///
/// ```
/// use udma_desc::caps::{PacketCaps, StrongOrder, Supported, Unsupported};
/// struct Cayman;
/// impl PacketCaps for Cayman {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
///     type NotificationMasks = Unsupported;
///     type StrongOrdering = Supported;
/// }
/// fn needs_sow<C: StrongOrder>() {}
/// needs_sow::<Cayman>(); // the marker follows from `StrongOrdering = Supported`
/// assert!(Cayman::HAS_STRONG_ORDER && !Cayman::HAS_NOTIFICATION_MASK);
/// ```
pub trait PacketCaps {
    /// Most TX descriptors one packet may hold (0x80 on V2, 0x41 on V3/V4).
    const MAX_TX_DESCS_PER_PACKET: u32;
    /// Descriptor notification masks: [`Supported`] on V4 only.
    type NotificationMasks: Support;
    /// Strong-ordered RX writes: [`Supported`] except on V2.
    type StrongOrdering: Support;
    /// Whether descriptors may carry a notification mask: derived from
    /// [`NotificationMasks`](Self::NotificationMasks) (an arch states the type, not this).
    const HAS_NOTIFICATION_MASK: bool = <Self::NotificationMasks as Support>::PRESENT;
    /// Whether RX descriptors may request strong-ordered writes: derived from
    /// [`StrongOrdering`](Self::StrongOrdering).
    const HAS_STRONG_ORDER: bool = <Self::StrongOrdering as Support>::PRESENT;
}

/// Marker: the arch supports strong-ordered RX writes (V3, V4). APIs that only make sense
/// with it take `C: StrongOrder`, so using them for V2 fails to compile. Implemented for
/// every arch whose [`PacketCaps::StrongOrdering`] is [`Supported`], and only for those.
pub trait StrongOrder: PacketCaps<StrongOrdering = Supported> {}
impl<C: PacketCaps<StrongOrdering = Supported> + ?Sized> StrongOrder for C {}

/// Marker: the arch supports descriptor notification masks (V4). Implemented for every arch
/// whose [`PacketCaps::NotificationMasks`] is [`Supported`], and only for those.
pub trait NotificationMask: PacketCaps<NotificationMasks = Supported> {}
impl<C: PacketCaps<NotificationMasks = Supported> + ?Sized> NotificationMask for C {}
