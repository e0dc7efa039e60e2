//! The lane: single packets from one source region into one destination region that holds
//! neither ring, walked ahead of their copies.
//!
//! The walk ([`plan_copies`]) reads descriptor pairs straight from the ring bytes and plans the
//! copies; [`lane_run`] then makes them back to back. Walking ahead moves the same bytes as
//! packet by packet: nothing in a lane writes the rings or the source region.

use core::ops::Range;

use udma_desc::{DESC_BYTES, Descriptor};

use super::Cursor;
use crate::address_space::{AddressSpace, Span, offset_within};
use crate::commit::Tally;
use crate::engine_walk::{self, DescSource, RingPos, Segment, SingleShape, WalkRules};

/// Moves single packets from region `src` into region `dst` (which holds neither ring) for
/// as long as they keep to those regions.
///
/// The walk carries only what every packet needs: both heads, the copies planned, the packet
/// count and whether any packet asked for ordering or an interrupt; the bytes are the planned
/// copies' lengths. Requests are rare (a copy-only queue has none), so their counts leave the
/// per-packet path: when a lane saw one, [`recount`] walks its packets again for them (nothing
/// in a lane writes a ring, so the descriptors are the ones it moved). Out of line: its loops
/// get the registers to themselves.
#[inline(never)]
pub(super) fn lane_run(
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
    let regions = Regions {
        from_base,
        from_len: from.len(),
        to_base,
        to_len: to.len(),
    };
    let (start, slots) = ((c.tx.pos, c.rx.pos), (c.tx.slots, c.rx.slots));
    let mut pos = start;
    let (mut packets, mut bytes, mut flagged) = (0u64, 0u64, false);
    let mut high = *written;
    let room = c.limit.saturating_sub(c.run.packets);
    let mut plan = Plan::default();
    loop {
        // Walk ahead, then copy: the walk loop makes no call, so its state stays in registers
        // (a copy between packets spilled and reloaded all of it, per packet).
        let walked = plan_copies(
            (t, r),
            rules,
            &mut plan,
            (&mut pos, slots),
            regions,
            room.saturating_sub(packets),
        );
        packets += walked.packets;
        flagged |= walked.flagged;
        bytes += copy_plan(from, to, plan.copies(), &mut high);
        if walked.stop {
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

/// A packet's copy: `n` bytes from source offset `s` to destination offset `d` in the lane's
/// regions (`n` is 0 for a packet that moves nothing).
#[derive(Clone, Copy, Default)]
struct Copy {
    s: usize,
    d: usize,
    n: usize,
}

/// The copies of the packets one walk took, in packet order (one each: joining copies that
/// follow on from each other is [`copy_plan`]'s, so the walk carries no pending copy).
struct Plan {
    copies: [Copy; PLAN],
    len: usize,
}

/// Packets one plan holds: enough that its walk and its copies each run in long stretches.
const PLAN: usize = 32;

impl Default for Plan {
    fn default() -> Self {
        Self {
            copies: [Copy::default(); PLAN],
            len: 0,
        }
    }
}

impl Plan {
    /// The planned copies.
    #[inline(always)]
    fn copies(&self) -> &[Copy] {
        self.copies.get(..self.len).unwrap_or_default()
    }
}

/// What one walk took.
struct Walked {
    /// Packets taken.
    packets: u64,
    /// Whether any of them asked for ordering or an interrupt.
    flagged: bool,
    /// The lane ends after this plan's copies.
    stop: bool,
}

/// The lane's two regions: the source's and the destination's DMA base and length.
#[derive(Clone, Copy)]
struct Regions {
    from_base: u64,
    from_len: usize,
    to_base: u64,
    to_len: usize,
}

/// The longest packet [`SingleShape::plain`] takes.
const PLAIN_MAX: usize = u16::MAX as usize;

/// Walks up to `room` single packets from `pos` into `plan`, at most [`PLAN`] and up to the
/// end of the lap of either ring. The lane ends after it ([`Walked::stop`]) when room
/// is used up or a packet is one the lane does not take; it goes on when the plan is full or a
/// ring wraps (the next walk tests the next lap's ring id).
///
/// Each pair is tested by [`SingleShape::plain`] (one masked compare a descriptor) and its
/// ranges by one compare a side against its region less the longest plain packet; a pair that
/// fails either goes to the exact test ([`exact_step`]), which decides. Each packet's copy
/// takes one slot: the loop carries nothing from one packet to the next but the count.
#[inline(always)]
fn plan_copies(
    (t, r): (&[u8], &[u8]),
    rules: &WalkRules,
    plan: &mut Plan,
    (pos, slots): (&mut (RingPos, RingPos), (u32, u32)),
    regions: Regions,
    room: u64,
) -> Walked {
    let shape = SingleShape::new(rules, pos.0.ring_id, pos.1.ring_id);
    let (tx_lap, rx_lap) = laps((t, r), pos, slots, room);
    // Offsets below these hold any plain packet whole (usize -> u64 is lossless).
    let (src_lim, dst_lim) = (
        regions.from_len.saturating_sub(PLAIN_MAX) as u64,
        regions.to_len.saturating_sub(PLAIN_MAX) as u64,
    );
    let (mut len, mut flagged, mut stop) = (0usize, false, false);
    for (td, rd) in tx_lap
        .chunks_exact(DESC_BYTES)
        .zip(rx_lap.chunks_exact(DESC_BYTES))
    {
        if len >= PLAN {
            // Full: this packet starts the next plan.
            break;
        }
        let (Ok(td), Ok(rd)) = (
            <[u8; DESC_BYTES]>::try_from(td),
            <[u8; DESC_BYTES]>::try_from(rd),
        ) else {
            stop = true;
            break;
        };
        let (td, rd) = (Descriptor::from_le_bytes(td), Descriptor::from_le_bytes(rd));
        let (s, d) = (
            td.as_tx().buf_ptr.wrapping_sub(regions.from_base),
            rd.as_rx().buf1_ptr.wrapping_sub(regions.to_base),
        );
        let copy = match shape.plain(&td, &rd) {
            // Below a region's length: the offsets fit usize.
            Some(n) if s < src_lim && d < dst_lim => Copy {
                s: s as usize,
                d: d as usize,
                n: n as usize,
            },
            _ => match exact_step(&shape, (&td, &rd), regions) {
                Some((copy, asks)) => {
                    flagged |= asks;
                    copy
                }
                None => {
                    stop = true;
                    break;
                }
            },
        };
        if let Some(slot) = plan.copies.get_mut(len) {
            *slot = copy;
        }
        len += 1;
    }
    plan.len = len;
    let packets = len as u64;
    // `packets` is at most a lap, below `u32::MAX`.
    let step = u32::try_from(packets).unwrap_or(u32::MAX);
    *pos = (pos.0.advanced(step, slots.0), pos.1.advanced(step, slots.1));
    Walked {
        packets,
        flagged,
        stop: stop || packets == 0 || packets >= room,
    }
}

/// The descriptor bytes a walk from `pos` may read: each ring to the end of its lap, both cut
/// to the same whole number of descriptors, at most `room`, so one counter runs the walk.
#[inline(always)]
fn laps<'a>(
    (t, r): (&'a [u8], &'a [u8]),
    pos: &(RingPos, RingPos),
    slots: (u32, u32),
    room: u64,
) -> (&'a [u8], &'a [u8]) {
    let (tx_lap, rx_lap) = (lap(t, pos.0.index, slots.0), lap(r, pos.1.index, slots.1));
    let most = tx_lap.len().min(rx_lap.len()).min(
        usize::try_from(room)
            .unwrap_or(usize::MAX)
            .saturating_mul(DESC_BYTES),
    );
    (
        tx_lap.get(..most).unwrap_or_default(),
        rx_lap.get(..most).unwrap_or_default(),
    )
}

/// One packet [`SingleShape::plain`] or its range test left out, judged by the exact test
/// ([`SingleShape::bytes`], the ranges wholly inside their regions): its copy and whether it
/// asks for ordering or an interrupt, or `None` when the lane ends before it (not a single
/// packet, or a range outside its region). Out of line, with no access to the walk's state,
/// so that state stays in registers.
#[cold]
#[inline(never)]
fn exact_step(
    shape: &SingleShape,
    (td, rd): (&Descriptor, &Descriptor),
    regions: Regions,
) -> Option<(Copy, bool)> {
    let n = shape.bytes(td, rd)?;
    let asks = shape.requests(td, rd);
    if n == 0 {
        return Some((Copy::default(), asks));
    }
    let src = Segment {
        addr: td.as_tx().buf_ptr,
        len: n,
    };
    let dst = Segment {
        addr: rd.as_rx().buf1_ptr,
        len: n,
    };
    let (s, d) = (
        inside(regions.from_len, regions.from_base, src)?,
        inside(regions.to_len, regions.to_base, dst)?,
    );
    Some((
        Copy {
            s: s.start,
            d: d.start,
            n: s.len(),
        },
        asks,
    ))
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

/// Makes a plan's copies in order, each run of copies whose source and destination both
/// follow on from the previous one as one copy (a long copy cut into descriptors, as the
/// driver-style path posts it); raises the write mark over them and says how many bytes
/// they moved.
#[inline(always)]
fn copy_plan(from: &[u8], to: &mut [u8], copies: &[Copy], high: &mut usize) -> u64 {
    let Some((first, rest)) = copies.split_first() else {
        return 0;
    };
    let (mut run, mut bytes) = (*first, 0);
    for c in rest {
        if c.s == run.s + run.n && c.d == run.d + run.n {
            run.n += c.n;
        } else {
            bytes += copy_one(from, to, run, high);
            run = *c;
        }
    }
    bytes + copy_one(from, to, run, high)
}

/// Copies `from[s..s + n]` to `to[d..d + n]` and raises the write mark over it (the walk
/// planned both inside their regions); the bytes it moved.
#[inline(always)]
fn copy_one(from: &[u8], to: &mut [u8], c: Copy, high: &mut usize) -> u64 {
    // Offsets inside regions: far from overflow.
    let (se, de) = (c.s.wrapping_add(c.n), c.d.wrapping_add(c.n));
    if let (Some(bytes), Some(into)) = (from.get(c.s..se), to.get_mut(c.d..de)) {
        into.copy_from_slice(bytes);
        *high = (*high).max(de);
    }
    c.n as u64
}

/// The full tally of `packets` single packets from heads `start`, walked again (a lane that
/// saw an ordering or interrupt request; the lane wrote no ring, so they are the same).
#[cold]
#[inline(never)]
fn recount(
    (t, r): (&[u8], &[u8]),
    rules: &WalkRules,
    start: (RingPos, RingPos),
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
