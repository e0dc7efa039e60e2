//! Runs of single packets: the model's data path for the packet shape nearly every copy takes
//! ([`engine_walk::single`]), moved one after another and committed together.
//!
//! The behaviour contract is in the crate documentation ("Data path"); `tests/copy_runs.rs`
//! checks runs against the same copies applied one by one.

use crate::address_space::{AddressSpace, Span};
use crate::commit::{Consumed, Tally, commit};

use crate::engine_walk::{self, DescSource, Packet, Single, WalkRules};
use crate::queue::QueueModel;
use crate::transfer::Scratch;
use crate::unit::UnitModel;

mod lane;
use lane::lane_run;

/// Where a run of single packets is: both heads and what moved so far.
struct Cursor {
    tx: engine_walk::Head,
    rx: engine_walk::Head,
    run: Tally,
    /// Packets the run may move (posted on both rings, within the budget).
    limit: u64,
}

impl Cursor {
    /// The next packet, when it is a single one (descriptors read from the ring bytes).
    #[inline(always)]
    fn next(&mut self, tx_ring: &[u8], rx_ring: &[u8], rules: &WalkRules) -> Option<Single> {
        if self.run.packets >= self.limit {
            return None;
        }
        self.tx.desc = tx_ring.fetch(self.tx.pos.index).ok()?;
        self.rx.desc = rx_ring.fetch(self.rx.pos.index).ok()?;
        engine_walk::single(self.tx, self.rx, rules)
    }

    /// The packet moved: heads advance, it counts.
    #[inline(always)]
    fn moved(&mut self, p: &Packet) {
        self.tx.pos = p.tx.end;
        self.rx.pos = p.rx.end;
        self.run.add(p);
    }
}

/// Moves up to `budget` packets of the shape [`engine_walk::single`] takes, one after the
/// other, and commits them together; stops at the first packet of any other shape, or with a
/// range outside memory, which the full walk (`transfer::one_packet`) then frames and reports.
///
/// A packet whose destination region holds neither ring nor its source starts a lane: that
/// region is borrowed mutably and the others shared for as long as packets keep to the same
/// regions, so each packet costs two descriptor reads, two bounds checks and the copy. Any
/// other packet goes through the address space, and reads its descriptors after the previous
/// packet's bytes landed (a copy may rewrite a ring). Completions latch once for the run: the
/// IOFIC cause is an OR, so one latch of a queue's bit equals one per packet.
#[inline]
pub(crate) fn single_run(
    unit: &mut UnitModel,
    mem: &mut AddressSpace,
    q: usize,
    scratch: &mut Scratch,
    set: &crate::unit::Settings,
    spans: (Option<Span>, Option<Span>),
    budget: u64,
) -> Tally {
    let (Some(tx_span), Some(rx_span)) = spans else {
        return Tally::default();
    };
    let (Some(txq), Some(rxq)) = (unit.m2s.queues.get(q), unit.s2m.queues.get(q)) else {
        return Tally::default();
    };
    let head = |q: &QueueModel| engine_walk::Head {
        desc: udma_desc::Descriptor::from_words([0; 4]),
        pos: q.head,
        slots: q.len,
    };
    let mut c = Cursor {
        tx: head(txq),
        rx: head(rxq),
        run: Tally::default(),
        // At most u32::MAX, so the descriptor count of the commit fits `consume`.
        limit: txq
            .posted
            .min(rxq.posted)
            .min(budget)
            .min(u64::from(u32::MAX)),
    };
    let rules = &set.rules;
    let next = |mem: &AddressSpace, c: &mut Cursor| {
        c.next(mem.span_bytes(tx_span)?, mem.span_bytes(rx_span)?, rules)
    };
    while let Some(one) = next(mem, &mut c) {
        let mut lane = None;
        if one.src.len > 0 {
            let src = mem.span_hinted(one.src.addr, one.src.len, &mut scratch.tx_hint);
            let dst = mem.span_hinted(one.dst.addr, one.dst.len, &mut scratch.rx_hint);
            let (Ok(src), Ok(dst)) = (src, dst) else {
                break;
            };
            if mem.copy_span(src, dst).is_err() {
                break;
            }
            let d = dst.region();
            if ![tx_span.region(), rx_span.region(), src.region()].contains(&d) {
                lane = Some((src.region(), d));
            }
        }
        c.moved(&one.packet);
        // A lane only when packets are left for it (its set-up is not free).
        if let Some((src, dst)) = lane.filter(|_| c.run.packets < c.limit) {
            c = lane_run(mem, c, rules, (tx_span, rx_span), src, dst);
        }
    }
    // `limit` keeps the count within u32; each packet is one descriptor on each ring.
    let descs = u32::try_from(c.run.packets).unwrap_or(u32::MAX);
    let consumed = |end| Consumed { descs, end };
    commit(unit, q, &c.run, consumed(c.tx.pos), consumed(c.rx.pos));
    c.run
}
