//! Runs of single packets: the model's data path for the packet shape nearly every copy takes
//! ([`engine_walk::single`]), moved one after another and committed together.
//!
//! The behaviour contract is in the crate documentation ("Data path"); `tests/copy_runs.rs`
//! checks runs against the same copies applied one by one.

use core::ops::Range;

use crate::address_space::{AddressSpace, Span, offset_within};
use crate::commit::{Consumed, Tally, commit};
use crate::engine_walk::{self, DescSource, Packet, Segment, Single, WalkRules};
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
        if let Some((src, dst)) = lane {
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
/// The loop carries only what every packet needs: both heads, the pending copy, the packet
/// and byte counts, and whether any packet asked for ordering or an interrupt. Those counts
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
    // The pending copy: source `ps..pe` to destination `pd..`. Packets whose source and
    // destination both follow on from it join it: the bytes land exactly as packet by
    // packet, because nothing in the lane writes the source region or the rings. (A long
    // copy cut into descriptors, as the driver-style path posts it, becomes one copy.)
    let (mut ps, mut pe, mut pd) = (0usize, 0usize, 0usize);
    let mut high = *written;
    let room = c.limit.saturating_sub(c.run.packets);
    while packets < room {
        let (Ok(td), Ok(rd)) = (t.fetch(pos.0.index), r.fetch(pos.1.index)) else {
            break;
        };
        let head = |desc, pos, slots| engine_walk::Head { desc, pos, slots };
        let Some(one) =
            engine_walk::single(head(td, pos.0, slots.0), head(rd, pos.1, slots.1), rules)
        else {
            break;
        };
        if one.src.len > 0 {
            let (Some(s), Some(d)) = (
                inside(from.len(), from_base, one.src),
                inside(to.len(), to_base, one.dst),
            ) else {
                break;
            };
            if pe == s.start && pd + (pe - ps) == d.start && pe > ps {
                pe = s.end;
            } else {
                flush(from, to, (ps, pe, pd), &mut high);
                (ps, pe, pd) = (s.start, s.end, d.start);
            }
        }
        let p = &one.packet;
        flagged |= (p.tx.ordering | p.tx.interrupts | p.rx.ordering | p.rx.interrupts) != 0;
        bytes += p.tx.bytes;
        packets += 1;
        pos = (p.tx.end, p.rx.end);
    }
    flush(from, to, (ps, pe, pd), &mut high);
    *written = high;
    if flagged {
        c.run.merge(&recount((t, r), rules, start, slots, packets));
    } else {
        c.run.add_plain(packets, bytes);
    }
    (c.tx.pos, c.rx.pos) = pos;
    c
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
