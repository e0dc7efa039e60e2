//! Splitting a copy into descriptors and packets the engine accepts.
//!
//! Hardware facts (`udma-desc`): one descriptor moves at most 64 KiB
//! ([`MAX_TRANSFER_BYTES`]); one packet holds at most the arch's
//! `MAX_TX_DESCS_PER_PACKET` TX descriptors (0x80 on V2, 0x41 on V3/V4) and at most
//! [`MAX_PACKET_BYTES`] (0xFFFFF, one byte short of 1 MiB). Every descriptor but the copy's
//! last moves exactly 64 KiB, so a packet is a whole number of full descriptors: as many as
//! both packet limits allow (15 × 64 KiB = 960 KiB with the byte limit of every current arch).

use udma_desc::caps::PacketCaps;
use udma_desc::{CopyBlock, MAX_PACKET_BYTES, MAX_TRANSFER_BYTES};

/// The limits a split must respect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitLimits {
    /// Largest descriptor, bytes (`1..=65536`).
    pub desc_bytes: u32,
    /// Most descriptors in one packet.
    pub descs_per_packet: u32,
    /// Most bytes in one packet.
    pub packet_bytes: u32,
}

impl SplitLimits {
    /// The limits of arch `C`.
    pub const fn for_arch<C: PacketCaps>() -> Self {
        Self {
            desc_bytes: MAX_TRANSFER_BYTES,
            descs_per_packet: C::MAX_TX_DESCS_PER_PACKET,
            packet_bytes: MAX_PACKET_BYTES,
        }
    }

    /// Bytes of a full descriptor: the descriptor limit, or the packet byte limit if that
    /// is smaller (a descriptor never spans packets).
    pub const fn effective_desc_bytes(&self) -> u32 {
        if self.packet_bytes < self.desc_bytes {
            self.packet_bytes
        } else {
            self.desc_bytes
        }
    }

    /// Full descriptors per packet: as many as both packet limits allow (at least 1).
    pub const fn descs_per_full_packet(&self) -> u32 {
        let by_bytes = self.packet_bytes / self.effective_desc_bytes();
        let n = if by_bytes < self.descs_per_packet {
            by_bytes
        } else {
            self.descs_per_packet
        };
        if n == 0 { 1 } else { n }
    }

    /// Bytes of a full packet.
    pub const fn packet_span(&self) -> u64 {
        self.descs_per_full_packet() as u64 * self.effective_desc_bytes() as u64
    }
}

/// Why a copy cannot be planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Nothing to copy.
    #[error("copy size 0: give at least 1 byte")]
    ZeroSize,
    /// Limits that describe no valid descriptor or packet.
    #[error(
        "split limit {0} invalid (descriptors 1..=65536 bytes, packets at least 1 descriptor and 1 byte)"
    )]
    BadLimits(u32),
}

/// A copy of `size` bytes cut into packets.
///
/// ```
/// use khal_cayman::Cayman;
/// use neuron_tool::copy::{CopyPlan, SplitLimits};
/// let plan = CopyPlan::new(1 << 20, SplitLimits::for_arch::<Cayman>())?;
/// assert_eq!((plan.descriptors(), plan.packets()), (16, 2)); // 15 + 1 descriptors
/// let sizes: Vec<u32> = plan.iter().map(|p| p.descs).collect();
/// assert_eq!(sizes, [15, 1]);
/// # Ok::<(), neuron_tool::copy::PlanError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyPlan {
    size: u64,
    limits: SplitLimits,
}

/// One packet of a plan: bytes `[offset, offset + bytes)` of the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketPlan {
    /// Offset of the packet's first byte in the copy.
    pub offset: u64,
    /// Bytes in the packet.
    pub bytes: u64,
    /// Descriptors in the packet (one TX and one RX each).
    pub descs: u32,
    desc_bytes: u32,
}

impl PacketPlan {
    /// The packet's blocks for a copy from `src` to `dst`: full descriptors, the last one
    /// possibly shorter.
    pub fn blocks(&self, src: u64, dst: u64) -> impl Iterator<Item = CopyBlock> + use<> {
        let (offset, bytes, step) = (self.offset, self.bytes, u64::from(self.desc_bytes));
        (0..self.descs).map(move |i| {
            let start = u64::from(i) * step;
            let size = (bytes - start).min(step);
            CopyBlock {
                src: src.wrapping_add(offset + start),
                dst: dst.wrapping_add(offset + start),
                // `size <= step <= 65536`.
                size: u32::try_from(size).unwrap_or(MAX_TRANSFER_BYTES),
            }
        })
    }
}

impl CopyPlan {
    /// Plans `size` bytes under `limits`.
    pub fn new(size: u64, limits: SplitLimits) -> Result<Self, PlanError> {
        if size == 0 {
            return Err(PlanError::ZeroSize);
        }
        if limits.desc_bytes == 0 || limits.desc_bytes > MAX_TRANSFER_BYTES {
            return Err(PlanError::BadLimits(limits.desc_bytes));
        }
        if limits.packet_bytes == 0 || limits.descs_per_packet == 0 {
            return Err(PlanError::BadLimits(0));
        }
        Ok(Self { size, limits })
    }

    /// Bytes copied.
    pub const fn size(&self) -> u64 {
        self.size
    }

    /// The limits planned with.
    pub const fn limits(&self) -> SplitLimits {
        self.limits
    }

    /// Descriptor pairs in the whole copy.
    pub const fn descriptors(&self) -> u64 {
        let span = self.limits.packet_span();
        let full = self.size / span;
        let rest = self.size % span;
        full * self.limits.descs_per_full_packet() as u64
            + rest.div_ceil(self.limits.effective_desc_bytes() as u64)
    }

    /// Packets in the whole copy.
    pub const fn packets(&self) -> u64 {
        self.size.div_ceil(self.limits.packet_span())
    }

    /// The packets in order.
    pub fn iter(&self) -> impl Iterator<Item = PacketPlan> + use<> {
        let (size, span, desc) = (
            self.size,
            self.limits.packet_span(),
            self.limits.effective_desc_bytes(),
        );
        (0..self.packets()).map(move |k| {
            let offset = k * span;
            let bytes = (size - offset).min(span);
            PacketPlan {
                offset,
                bytes,
                descs: u32::try_from(bytes.div_ceil(u64::from(desc))).unwrap_or(u32::MAX),
                desc_bytes: desc,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal_cayman::Cayman;
    use khal_sunda::Sunda;

    /// Every property a plan must have, checked block by block.
    fn check(size: u64, limits: SplitLimits) {
        let plan = CopyPlan::new(size, limits).unwrap();
        let (src, dst) = (0x1_0000_0000u64, 0x9_0000_0000u64);
        let mut next = 0u64;
        let (mut descs, mut packets) = (0u64, 0u64);
        for p in plan.iter() {
            packets += 1;
            assert!(p.descs >= 1 && p.descs <= limits.descs_per_packet, "{p:?}");
            assert!(p.bytes <= u64::from(limits.packet_bytes), "{p:?}");
            let mut in_packet = 0u64;
            for b in p.blocks(src, dst) {
                descs += 1;
                assert!(b.size >= 1 && b.size <= limits.desc_bytes, "{b:?}");
                assert_eq!(b.src, src + next, "contiguous source");
                assert_eq!(b.dst, dst + next, "contiguous destination");
                next += u64::from(b.size);
                in_packet += u64::from(b.size);
            }
            assert_eq!(in_packet, p.bytes);
        }
        assert_eq!(next, size, "every byte exactly once");
        assert_eq!((descs, packets), (plan.descriptors(), plan.packets()));
    }

    #[test]
    fn splits_respect_every_limit() {
        let archs = [
            SplitLimits::for_arch::<Cayman>(),
            SplitLimits::for_arch::<Sunda>(),
        ];
        let odd = [
            SplitLimits {
                desc_bytes: 4096,
                descs_per_packet: 3,
                packet_bytes: 0xFFFFF,
            },
            SplitLimits {
                desc_bytes: 65_536,
                descs_per_packet: 128,
                packet_bytes: 1000, // smaller than one descriptor: one per packet
            },
            SplitLimits {
                desc_bytes: 1,
                descs_per_packet: 2,
                packet_bytes: 7,
            },
        ];
        for limits in archs.into_iter().chain(odd) {
            for size in [
                1,
                2,
                4095,
                4096,
                65_535,
                65_536,
                65_537,
                983_040,
                983_041,
                1 << 20,
                (3 << 20) + 17,
            ] {
                if limits.desc_bytes == 1 && size > 100_000 {
                    continue; // a million one-byte blocks: slow, nothing new
                }
                check(size, limits);
            }
        }
    }

    #[test]
    fn arch_packets_are_whole_64k_descriptors_under_the_byte_limit() {
        let l = SplitLimits::for_arch::<Cayman>();
        assert_eq!(l.descs_per_full_packet(), 15);
        assert_eq!(l.packet_span(), 15 * 65_536);
        let plan = CopyPlan::new(64 << 20, l).unwrap();
        assert_eq!(plan.descriptors(), 1024);
        assert_eq!(plan.packets(), 69); // 68 x 15 + 4
        // A small descriptor limit binds before the byte limit.
        let small = SplitLimits {
            descs_per_packet: 4,
            ..l
        };
        assert_eq!(small.descs_per_full_packet(), 4);
    }

    #[test]
    fn refuses_nothing_to_copy_and_bad_limits() {
        let l = SplitLimits::for_arch::<Sunda>();
        assert_eq!(CopyPlan::new(0, l), Err(PlanError::ZeroSize));
        let bad = SplitLimits {
            desc_bytes: 65_537,
            ..l
        };
        assert_eq!(CopyPlan::new(1, bad), Err(PlanError::BadLimits(65_537)));
    }
}
