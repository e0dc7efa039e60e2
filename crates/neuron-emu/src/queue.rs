//! One UDMA queue (ring) of one direction: its registers and pointers.

use khal::regs::queue::{QueueCfg, RingPtr, TailInc};
use udma_desc::RingId;

/// Initial ring id after a queue reset: both software and hardware start the phase at 1.
const INITIAL_RING_ID: u8 = RingId::INITIAL.get();
/// Ring ids count 1, 2, 3, 0, 1, ...
const RING_ID_MASK: u8 = RingId::MAX;
/// Bytes per descriptor slot.
const DESC_BYTES: u64 = udma_desc::DESC_BYTES as u64;
/// `drbp_low` keeps ring base bits 31:6 in place (`m2s_q.tdrbp_low` ADDR, mask 0xffffffc0);
/// the low 6 bits are not stored.
const RING_BASE_LOW_ADDR_MASK: u32 = 0xffff_ffc0;

/// A ring position: slot index and the ring id (phase) expected there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingPos {
    /// Slot index, `0..ring length`.
    pub index: u32,
    /// 2-bit ring id of the current lap.
    pub ring_id: u8,
}

impl RingPos {
    const RESET: Self = Self {
        index: 0,
        ring_id: INITIAL_RING_ID,
    };

    /// Advances by `n` slots on a ring of `len` slots; the ring id steps once per wrap.
    pub(crate) fn advanced(self, n: u32, len: u32) -> Self {
        if len == 0 {
            return self;
        }
        let total = u64::from(self.index) + u64::from(n);
        let len = u64::from(len);
        // The data path advances by a packet's few descriptors, so at most one wrap: skip the
        // 64-bit division (tens of cycles, four times per packet) on that path.
        let (laps, rest) = if total < len {
            (0, total)
        } else if total - len < len {
            (1, total - len)
        } else {
            (total / len, total % len)
        };
        // `rest < len <= u32::MAX` and laps are reduced mod 4: no bit is lost.
        let index = u32::try_from(rest).unwrap_or(0);
        let ring_id = self.ring_id.wrapping_add((laps & 0x3) as u8) & RING_ID_MASK;
        Self { index, ring_id }
    }

    /// The register encoding: index in bits 23:0, ring id in bits 31:30.
    pub(crate) fn to_reg(self) -> u32 {
        RingPtr::new()
            .with_offset(self.index)
            .with_ring_id(self.ring_id)
            .into_bits()
    }
}

/// Counters a test or tool can read to see what a queue did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueStats {
    /// Descriptors consumed (data and meta).
    pub descriptors: u64,
    /// Packets completed.
    pub packets: u64,
    /// Payload bytes moved (TX: read, RX: written).
    pub bytes: u64,
    /// Meta (CME) descriptors consumed without moving data (TX only).
    pub meta_descriptors: u64,
    /// Descriptors that carried an ordering request (DMB, write barrier or strong order).
    pub ordering_points: u64,
    /// Completion interrupts raised (descriptors with INT_EN).
    pub interrupts: u64,
}

/// Why a queue stopped making progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueBlock {
    /// A fault was reported for the descriptor at the head; the queue retries it on the next
    /// doorbell, engine state change or queue reset.
    Fault,
}

/// One queue of one direction.
#[derive(Clone, Debug)]
pub(crate) struct QueueModel {
    pub(crate) cfg: u32,
    pub(crate) base_low: u32,
    pub(crate) base_high: u32,
    pub(crate) len: u32,
    pub(crate) head: RingPos,
    pub(crate) tail: RingPos,
    /// Descriptors handed over by doorbells and not yet consumed.
    pub(crate) posted: u64,
    pub(crate) blocked: Option<QueueBlock>,
    pub(crate) stats: QueueStats,
}

impl QueueModel {
    pub(crate) const fn new() -> Self {
        Self {
            cfg: QueueCfg::RESET.into_bits(),
            base_low: 0,
            base_high: 0,
            len: 0,
            head: RingPos::RESET,
            tail: RingPos::RESET,
            posted: 0,
            blocked: None,
            stats: QueueStats {
                descriptors: 0,
                packets: 0,
                bytes: 0,
                meta_descriptors: 0,
                ordering_points: 0,
                interrupts: 0,
            },
        }
    }

    /// Ring base DMA address (the low 6 bits are not stored by the hardware).
    pub(crate) fn base(&self) -> u64 {
        (u64::from(self.base_high) << 32) | u64::from(self.base_low & RING_BASE_LOW_ADDR_MASK)
    }

    /// DMA address of the slot at `pos` (wrapping arithmetic: an absurd base simply lands
    /// outside every region and becomes a bus error).
    pub(crate) fn slot_addr(&self, pos: RingPos) -> u64 {
        self.base()
            .wrapping_add(u64::from(pos.index).wrapping_mul(DESC_BYTES))
    }

    /// Prefetch and scheduling both enabled.
    pub(crate) fn enabled(&self) -> bool {
        let cfg = QueueCfg::from_bits(self.cfg);
        cfg.en_pref() && cfg.en_scheduling()
    }

    /// The tail-increment doorbell: hands `n` more descriptors to the engine.
    pub(crate) fn doorbell(&mut self, value: u32) {
        let n = TailInc::from_bits(value).val();
        self.tail = self.tail.advanced(n, self.len);
        self.posted = self.posted.saturating_add(u64::from(n));
        self.blocked = None;
    }

    /// Consumes `n` descriptors at the head.
    pub(crate) fn consume(&mut self, n: u32) {
        self.head = self.head.advanced(n, self.len);
        self.posted = self.posted.saturating_sub(u64::from(n));
        self.stats.descriptors += u64::from(n);
    }

    /// The queue reset (q_sw_ctrl RST_Q): head and tail back to slot 0, ring id 1.
    pub(crate) fn reset_pointers(&mut self) {
        self.head = RingPos::RESET;
        self.tail = RingPos::RESET;
        self.posted = 0;
        self.blocked = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_id_steps_once_per_wrap() {
        let p = RingPos::RESET;
        assert_eq!(
            p.advanced(31, 32),
            RingPos {
                index: 31,
                ring_id: 1
            }
        );
        assert_eq!(
            p.advanced(32, 32),
            RingPos {
                index: 0,
                ring_id: 2
            }
        );
        assert_eq!(
            p.advanced(32 * 3 + 5, 32),
            RingPos {
                index: 5,
                ring_id: 0
            }
        );
        assert_eq!(
            p.advanced(32 * 4, 32),
            RingPos {
                index: 0,
                ring_id: 1
            }
        );
        assert_eq!(p.advanced(7, 0), p, "no ring programmed: no movement");
        assert_eq!(p.advanced(32, 32).to_reg(), 0x8000_0000);
        assert_eq!(p.advanced(u32::MAX, 32).index, 31);
    }

    #[test]
    fn stepping_one_at_a_time_equals_one_big_step() {
        // The no-wrap, one-wrap and many-wrap paths must agree: walking `n` single steps from
        // any start lands where one step of `n` does, on odd and power-of-two ring sizes.
        for len in [1u32, 2, 3, 7, 32] {
            for index in 0..len {
                for ring_id in 0..4u8 {
                    let start = RingPos { index, ring_id };
                    let mut walked = start;
                    for n in 0..=4 * len + 3 {
                        assert_eq!(start.advanced(n, len), walked, "len {len} from {start:?}");
                        walked = walked.advanced(1, len);
                    }
                }
            }
        }
    }
}
