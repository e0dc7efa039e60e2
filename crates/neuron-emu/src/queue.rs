//! One UDMA queue (ring) of one direction: its registers and pointers.

use khal::regs::queue::{QueueCfg, RingPtr, TailInc};

use crate::address_space::{AddressSpace, Span};
use crate::engine_walk::RingPos;

/// Bytes per descriptor slot.
const DESC_BYTES: u64 = udma_desc::DESC_BYTES as u64;
/// `drbp_low` keeps ring base bits 31:6 in place (`m2s_q.tdrbp_low` ADDR, mask 0xffffffc0);
/// the low 6 bits are not stored.
const RING_BASE_LOW_ADDR_MASK: u32 = 0xffff_ffc0;

/// The register encoding of a ring position (`drhp`, `drtp`, `dcp`): index in bits 23:0,
/// ring id in bits 31:30.
pub(crate) fn ring_ptr_reg(pos: RingPos) -> u32 {
    RingPtr::new()
        .with_offset(pos.index)
        .with_ring_id(pos.ring_id.get())
        .into_bits()
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
    /// RX only: packets the S2M side dropped because no RX descriptor was posted for them
    /// (the no-descriptor policy, S2M `+0x344`).
    pub dropped_packets: u64,
}

/// Why a queue stopped making progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueBlock {
    /// A fault was reported for the descriptor at the head; the queue retries it on the next
    /// doorbell, engine state change or queue reset.
    Fault,
    /// An injected stall ([`Injection::Stall`](crate::Injection::Stall)) holds the queue
    /// until its next doorbell, engine state change or queue reset.
    Stalled,
}

/// One queue of one direction.
#[derive(Clone, Debug)]
pub(crate) struct QueueModel {
    pub(crate) cfg: u32,
    pub(crate) base_low: u32,
    pub(crate) base_high: u32,
    /// Ring length in descriptors.
    pub(crate) len: u32,
    pub(crate) head: RingPos,
    pub(crate) tail: RingPos,
    /// Descriptors handed over by doorbells and not yet consumed.
    pub(crate) posted: u64,
    pub(crate) blocked: Option<QueueBlock>,
    pub(crate) stats: QueueStats,
    /// The ring's memory, resolved once: regions are only ever added and never move, so a
    /// resolved span stays valid until the ring base or length is written.
    ring: Option<Span>,
    /// TX only: scheduler passes the packet at the head has waited for RX descriptors under
    /// a no-descriptor timeout.
    pub(crate) no_desc_waited: u32,
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
                dropped_packets: 0,
            },
            ring: None,
            no_desc_waited: 0,
        }
    }

    /// Writes `drbp_low` (ring base bits 31:6).
    pub(crate) fn set_base_low(&mut self, value: u32) {
        self.base_low = value;
        self.ring = None;
    }

    /// Writes `drbp_high` (ring base bits 63:32).
    pub(crate) fn set_base_high(&mut self, value: u32) {
        self.base_high = value;
        self.ring = None;
    }

    /// Writes the ring length (descriptors).
    pub(crate) fn set_len(&mut self, descs: u32) {
        self.len = descs;
        self.ring = None;
    }

    /// The whole ring's bytes in `mem`, when the ring lies inside one region.
    pub(crate) fn ring_span(&mut self, mem: &AddressSpace) -> Option<Span> {
        if self.ring.is_none() {
            let bytes = u64::from(self.len) * DESC_BYTES;
            self.ring = mem.span(self.base(), bytes).ok();
        }
        self.ring
    }

    /// Ring base DMA address (the low 6 bits are not stored by the hardware).
    pub(crate) fn base(&self) -> u64 {
        (u64::from(self.base_high) << 32) | u64::from(self.base_low & RING_BASE_LOW_ADDR_MASK)
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

    /// Consumes the `n` descriptors at the head; `end` is where the walk left off (the head
    /// advanced by `n`).
    pub(crate) fn consume(&mut self, n: u32, end: RingPos) {
        debug_assert_eq!(end, self.head.advanced(n, self.len));
        self.head = end;
        self.no_desc_waited = 0;
        self.posted = self.posted.saturating_sub(u64::from(n));
        self.stats.descriptors += u64::from(n);
    }

    /// The queue reset (q_sw_ctrl RST_Q): head and tail back to slot 0, ring id 1.
    pub(crate) fn reset_pointers(&mut self) {
        self.head = RingPos::RESET;
        self.tail = RingPos::RESET;
        self.posted = 0;
        self.blocked = None;
        self.no_desc_waited = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use udma_desc::RingId;

    #[test]
    fn ring_pointer_register_holds_index_and_ring_id() {
        // `m2s_q.tdrhp`: OFFSET 23:0, RING_ID 31:30 (udma-registers.tsv).
        let p = RingPos {
            index: 5,
            ring_id: RingId::new(2).unwrap(),
        };
        assert_eq!(ring_ptr_reg(p), 0x8000_0005);
        assert_eq!(ring_ptr_reg(RingPos::RESET), 0x4000_0000);
    }
}
