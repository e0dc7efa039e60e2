//! Runs of single packets: the model's data path for the packet shape nearly every copy takes
//! ([`engine_walk::single`]), moved one after another and committed together.
//!
//! The behaviour contract is in the crate documentation ("Data path"); `tests/copy_runs.rs`
//! checks runs against the same copies applied one by one.

use core::ops::Range;

use crate::address_space::{AddressSpace, Span, offset_within};
use crate::commit::{Consumed, Tally, commit};
use udma_desc::{DESC_BYTES, Descriptor};

use crate::engine_walk::{self, DescSource, Packet, Segment, Single, SingleShape, WalkRules};
use crate::queue::QueueModel;
use crate::transfer::Scratch;
use crate::unit::UnitModel;

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

/// Moves single packets from region `src` into region `dst` (which holds neither ring) for
/// as long as they keep to those regions.
///
/// The walk ([`plan_copies`]) carries only what every packet needs: both heads, the copies
/// planned, the packet and byte counts, and whether any packet asked for ordering or an
/// interrupt. Those counts
/// are rare (a copy-only queue has none), so they leave the per-packet path: when a lane saw
/// one, [`recount`] walks its packets again for them (nothing in a lane writes a ring, so the
/// descriptors are the ones it moved). Out of line: its loop gets the registers to itself.
#[inline(never)]
fn lane_run(
    mem: &mut AddressSpace,
    mut c: Cursor,
    rules: &WalkRules,
    (tx_span, rx_span): (Span, Span),
    src: usize,
    dst: usize,
) -> Cursor {
    let Some(mut lanes) = mem.copy_lanes(dst) else {
        return c;
    };
    let (Some(t), Some(r), Some(from)) = (
        lanes.shared(tx_span),
        lanes.shared(rx_span),
        lanes.region(src),
    ) else {
        return c;
    };
    let (from_base, from) = (from.base(), from.bytes());
    let to = lanes.dst();
    let to_base = to.base();
    let (to, written) = to.bytes_for_writes();
    let (start, slots) = ((c.tx.pos, c.rx.pos), (c.tx.slots, c.rx.slots));
    let mut pos = start;
    let (mut packets, mut bytes, mut flagged) = (0u64, 0u64, false);
    let mut high = *written;
    let room = c.limit.saturating_sub(c.run.packets);
    let mut plan = Plan::default();
    loop {
        // Walk ahead, then copy: the walk loop makes no call, so its state stays in registers
        // (a copy between packets spilled and reloaded all of it, per packet).
        let stop = plan_copies(
            (t, r),
            rules,
            &mut plan,
            (&mut pos, slots),
            (from_base, from.len(), to_base, to.len()),
            room.saturating_sub(packets),
        );
        packets += plan.packets;
        bytes += plan.bytes;
        flagged |= plan.flagged;
        for &copy in plan.copies.iter().take(plan.len) {
            flush(from, to, copy, &mut high);
        }
        if stop {
            break;
        }
    }
    *written = high;
    if flagged {
        c.run.merge(&recount((t, r), rules, start, slots, packets));
    } else {
        c.run.add_plain(packets, bytes);
    }
    (c.tx.pos, c.rx.pos) = pos;
    c
}

/// Copies a lane walk planned before any of them is made: source `ps..pe` to destination
/// `pd..` in the regions, in packet order, and what the packets behind them add to the tally.
struct Plan {
    copies: [(usize, usize, usize); PLAN],
    len: usize,
    packets: u64,
    bytes: u64,
    flagged: bool,
}

/// Copies one plan holds: enough that its walk and its copies each run in long stretches.
const PLAN: usize = 32;

impl Default for Plan {
    fn default() -> Self {
        Self {
            copies: [(0, 0, 0); PLAN],
            len: 0,
            packets: 0,
            bytes: 0,
            flagged: false,
        }
    }
}

/// Walks up to `room` single packets from `pos` into `plan` (emptied first), at most [`PLAN`]
/// copies and up to the end of the lap of either ring; `true` when the lane ends here (room
/// used up, or a packet the lane does not take), `false` when the walk goes on after the
/// plan's copies (the plan is full, or a ring wraps: the next plan tests the next lap's ring
/// id).
///
/// Each pair is tested by [`SingleShape`], [`engine_walk::single`]'s test compiled for the
/// lap. Walking ahead of the copies moves the same bytes as packet by packet: nothing in a
/// lane writes the rings or the source region. Packets whose source and destination both
/// follow on from the previous copy join it (a long copy cut into descriptors, as the
/// driver-style path posts it, becomes one copy).
#[inline(always)]
fn plan_copies(
    (t, r): (&[u8], &[u8]),
    rules: &WalkRules,
    plan: &mut Plan,
    (pos, slots): (
        &mut (engine_walk::RingPos, engine_walk::RingPos),
        (u32, u32),
    ),
    (from_base, from_len, to_base, to_len): (u64, usize, u64, usize),
    room: u64,
) -> bool {
    let shape = SingleShape::new(rules, pos.0.ring_id, pos.1.ring_id);
    let (tx_lap, rx_lap) = (lap(t, pos.0.index, slots.0), lap(r, pos.1.index, slots.1));
    // Both laps cut to the packets the walk may take, so one counter runs the loop.
    let most = tx_lap
        .len()
        .min(rx_lap.len())
        .min(usize::try_from(room).unwrap_or(usize::MAX));
    let (tx_lap, rx_lap) = (
        tx_lap.get(..most * DESC_BYTES).unwrap_or_default(),
        rx_lap.get(..most * DESC_BYTES).unwrap_or_default(),
    );
    let (mut len, mut packets, mut bytes, mut flagged) = (0usize, 0u64, 0u64, false);
    let mut last = (0usize, 0usize, 0usize);
    // The lane goes on after this plan only when it is full, or when it reached the end of
    // a lap with room left (the next plan then takes the next lap, or nothing and ends it).
    let mut stop = false;
    for (td, rd) in tx_lap
        .chunks_exact(DESC_BYTES)
        .zip(rx_lap.chunks_exact(DESC_BYTES))
    {
        let (Ok(td), Ok(rd)) = (
            <[u8; DESC_BYTES]>::try_from(td),
            <[u8; DESC_BYTES]>::try_from(rd),
        ) else {
            stop = true;
            break;
        };
        let (td, rd) = (Descriptor::from_le_bytes(td), Descriptor::from_le_bytes(rd));
        let Some(n) = shape.bytes(&td, &rd) else {
            stop = true;
            break;
        };
        if n > 0 {
            let src = Segment {
                addr: td.as_tx().buf_ptr,
                len: n,
            };
            let dst = Segment {
                addr: rd.as_rx().buf1_ptr,
                len: n,
            };
            let (Some(s), Some(d)) = (
                inside(from_len, from_base, src),
                inside(to_len, to_base, dst),
            ) else {
                stop = true;
                break;
            };
            if !join_or_add(plan, (&mut len, &mut last), &s, d.start) {
                // Full: this packet starts the next plan.
                break;
            }
        }
        flagged |= shape.requests(&td, &rd);
        bytes += n;
        packets += 1;
    }
    stop |= packets == 0 || packets >= room;
    if let Some(prev) = len.checked_sub(1).and_then(|i| plan.copies.get_mut(i)) {
        *prev = last;
    }
    // `packets` is at most a lap, below `u32::MAX`.
    let step = u32::try_from(packets).unwrap_or(u32::MAX);
    *pos = (pos.0.advanced(step, slots.0), pos.1.advanced(step, slots.1));
    (plan.len, plan.packets, plan.bytes, plan.flagged) = (len, packets, bytes, flagged);
    stop
}

/// Adds source `s` copied to destination offset `d` to the plan: it extends the pending copy
/// `last` when both ranges follow on from it, else `last` is stored and `s` becomes the
/// pending one. `false` (nothing changed) when the plan is full.
#[inline(always)]
fn join_or_add(
    plan: &mut Plan,
    (len, last): (&mut usize, &mut (usize, usize, usize)),
    s: &Range<usize>,
    d: usize,
) -> bool {
    let (ps, pe, pd) = *last;
    if *len > 0 && pe == s.start && pd + (pe - ps) == d {
        last.1 = s.end;
    } else if *len < PLAN {
        if let Some(prev) = len.checked_sub(1).and_then(|i| plan.copies.get_mut(i)) {
            *prev = *last;
        }
        *last = (s.start, s.end, d);
        *len += 1;
    } else {
        return false;
    }
    true
}

/// The bytes of `ring` from slot `index` to the end of its lap of `slots` slots, as far as
/// they hold whole descriptors.
#[inline(always)]
fn lap(ring: &[u8], index: u32, slots: u32) -> &[u8] {
    let from = (index as usize).saturating_mul(DESC_BYTES);
    let left = (slots.saturating_sub(index) as usize).saturating_mul(DESC_BYTES);
    let rest = ring.get(from..).unwrap_or_default();
    rest.get(..left.min(rest.len() / DESC_BYTES * DESC_BYTES))
        .unwrap_or_default()
}

/// Copies the pending `from[ps..pe]` to `to[pd..]` and raises the write mark over it (nothing
/// when `pe == ps`; the ranges were checked inside their regions).
#[inline(always)]
fn flush(from: &[u8], to: &mut [u8], (ps, pe, pd): (usize, usize, usize), high: &mut usize) {
    if pe > ps {
        let end = pd + (pe - ps);
        if let (Some(bytes), Some(into)) = (from.get(ps..pe), to.get_mut(pd..end)) {
            into.copy_from_slice(bytes);
            *high = (*high).max(end);
        }
    }
}

/// The full tally of `packets` single packets from heads `start`, walked again (a lane that
/// saw an ordering or interrupt request; the lane wrote no ring, so they are the same).
#[cold]
#[inline(never)]
fn recount(
    (t, r): (&[u8], &[u8]),
    rules: &WalkRules,
    start: (engine_walk::RingPos, engine_walk::RingPos),
    slots: (u32, u32),
    packets: u64,
) -> Tally {
    let mut tally = Tally::default();
    let mut pos = start;
    for _ in 0..packets {
        let (Ok(td), Ok(rd)) = (t.fetch(pos.0.index), r.fetch(pos.1.index)) else {
            break;
        };
        let head = |desc, pos, slots| engine_walk::Head { desc, pos, slots };
        let Some(one) =
            engine_walk::single(head(td, pos.0, slots.0), head(rd, pos.1, slots.1), rules)
        else {
            break;
        };
        tally.add(&one.packet);
        pos = (one.packet.tx.end, one.packet.rx.end);
    }
    tally
}

/// The offsets of `seg` in a region of `size` bytes at DMA address `base`, when it lies
/// wholly inside.
#[inline(always)]
fn inside(size: usize, base: u64, seg: Segment) -> Option<Range<usize>> {
    // usize -> u64 never loses bits on the hosts Rust supports.
    let off = offset_within(base, size as u64, seg.addr, seg.len)?;
    // Inside a region of `size` bytes: `off + len <= size`, no overflow.
    Some(off..off + usize::try_from(seg.len).ok()?)
}
