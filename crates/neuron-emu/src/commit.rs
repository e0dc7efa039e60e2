//! Committing what a queue pair moved: heads advance, completions latch, counters count.
//! Written once for both data paths, the full walk of one packet ([`crate::transfer`]) and a
//! run of single packets ([`crate::single_run`]).

use crate::engine_walk::{Packet, RingPos};
use crate::iofic_model::{GROUP_B, GROUP_C, Level};
use crate::unit::UnitModel;

/// What packets moved on a queue pair, as its queues count them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    pub(crate) packets: u64,
    pub(crate) bytes: u64,
    tx_metas: u64,
    tx_ordering: u64,
    tx_interrupts: u64,
    rx_ordering: u64,
    rx_interrupts: u64,
}

impl Tally {
    /// Counts packet `p`.
    #[inline(always)]
    pub(crate) fn add(&mut self, p: &Packet) {
        self.packets += 1;
        self.bytes += p.tx.bytes;
        self.tx_metas += u64::from(p.tx.metas);
        self.tx_ordering += u64::from(p.tx.ordering);
        self.tx_interrupts += u64::from(p.tx.interrupts);
        self.rx_ordering += u64::from(p.rx.ordering);
        self.rx_interrupts += u64::from(p.rx.interrupts);
    }

    /// Counts `packets` single packets of `bytes` in all that asked for no ordering and no
    /// interrupt (and carried no META descriptor).
    #[inline(always)]
    pub(crate) fn add_plain(&mut self, packets: u64, bytes: u64) {
        self.packets += packets;
        self.bytes += bytes;
    }

    /// Adds the counts of `other`.
    #[inline]
    pub(crate) fn merge(&mut self, other: &Tally) {
        self.packets += other.packets;
        self.bytes += other.bytes;
        self.tx_metas += other.tx_metas;
        self.tx_ordering += other.tx_ordering;
        self.tx_interrupts += other.tx_interrupts;
        self.rx_ordering += other.rx_ordering;
        self.rx_interrupts += other.rx_interrupts;
    }
}

/// Where the packets left a ring: descriptors consumed and the new head.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Consumed {
    pub(crate) descs: u32,
    pub(crate) end: RingPos,
}

/// Commits `t` on queue pair `q`. A descriptor with INT_EN latches the queue's bit in primary
/// group C (TX) or B (RX); the cause is an OR, so one latch stands for any number of them.
pub(crate) fn commit(unit: &mut UnitModel, q: usize, t: &Tally, tx: Consumed, rx: Consumed) {
    if t.packets == 0 {
        return;
    }
    if t.tx_interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_C, 1 << q);
    }
    if t.rx_interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_B, 1 << q);
    }
    let (Some(txq), Some(rxq)) = (unit.m2s.queues.get_mut(q), unit.s2m.queues.get_mut(q)) else {
        return;
    };
    txq.consume(tx.descs, tx.end);
    let s = &mut txq.stats;
    s.packets += t.packets;
    s.bytes += t.bytes;
    s.meta_descriptors += t.tx_metas;
    s.ordering_points += t.tx_ordering;
    s.interrupts += t.tx_interrupts;
    rxq.consume(rx.descs, rx.end);
    let s = &mut rxq.stats;
    s.packets += t.packets;
    s.bytes += t.bytes;
    s.ordering_points += t.rx_ordering;
    s.interrupts += t.rx_interrupts;
}
