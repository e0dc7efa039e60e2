//! The capability traits an [`Arch`](crate::Arch) implements, re-exported from the crates
//! that consume them (so an arch crate depends on `khal` alone).

pub use iofic::caps::IoficCaps;
pub use udma_desc::caps::{NotificationMask, PacketCaps, StrongOrder};
