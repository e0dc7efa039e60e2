//! Per-arch descriptor capabilities, supplied at compile time by the `khal` arch types.
//!
//! `udma-desc` sits below `khal`, so it cannot name an arch; instead every arch-dependent
//! limit reaches the builders as an associated const of a type parameter `C: PacketCaps`
//! (monomorphised, no runtime lookup).

/// Descriptor-packet limits of one chip generation.
pub trait PacketCaps {
    /// Most TX descriptors one packet may hold (0x80 on V2, 0x41 on V3/V4).
    const MAX_TX_DESCS_PER_PACKET: u32;
    /// Whether descriptors may carry a notification mask (V4 only).
    const HAS_NOTIFICATION_MASK: bool;
    /// Whether RX descriptors may request strong-ordered writes (not on V2).
    const HAS_STRONG_ORDER: bool;
}

/// Marker: the arch supports strong-ordered RX writes (V3, V4). APIs that only make sense
/// with it take `C: StrongOrder`, so using them for V2 fails to compile.
pub trait StrongOrder: PacketCaps {}

/// Marker: the arch supports descriptor notification masks (V4).
pub trait NotificationMask: PacketCaps {}
