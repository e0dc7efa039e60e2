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
        for &copy in plan.copies() {
            bytes += flush(from, to, copy, &mut high);
        }
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

/// A planned copy: source offsets `ps..pe` to destination offset `ps + delta` (wrapping) in
/// the lane's regions. One `delta` says both sides follow on from the previous packet.
type Copy = (usize, usize, usize);

/// The copies one walk planned, in packet order: `copies[1..=len]`. The walk writes a copy's
/// start when it begins and its end when the next one begins (slot 0 takes the end of the
/// empty copy a walk starts from, so that write needs no test for "none yet").
struct Plan {
    copies: [Copy; PLAN + 1],
    len: usize,
}

/// Copies one plan holds: enough that its walk and its copies each run in long stretches.
const PLAN: usize = 32;

/// An unwritten slot.
const NO_COPY: Copy = (0, 0, 0);

/// Where the pending copy ends in the source, and its `delta`: the next packet joins it when
/// its source starts there and its `delta` is the same.
type Pending = (usize, usize);

/// The empty copy a walk starts from: no source range starts at `usize::MAX`, so nothing
/// joins it.
const START: Pending = (usize::MAX, 0);

impl Default for Plan {
    fn default() -> Self {
        Self {
            copies: [NO_COPY; PLAN + 1],
            len: 0,
        }
    }
}

impl Plan {
    /// The planned copies.
    #[inline(always)]
    fn copies(&self) -> &[Copy] {
        self.copies.get(1..=self.len).unwrap_or_default()
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

/// Walks up to `room` single packets from `pos` into `plan`, at most [`PLAN`] copies and up
/// to the end of the lap of either ring. The lane ends after it ([`Walked::stop`]) when room
/// is used up or a packet is one the lane does not take; it goes on when the plan is full or a
/// ring wraps (the next walk tests the next lap's ring id).
///
/// Each pair is tested by [`SingleShape::plain`] (one masked compare a descriptor) and its
/// ranges by one compare a side against its region less the longest plain packet; a pair that
/// fails either goes to the exact test ([`exact_step`]), which decides. Packets whose source
/// and destination both follow on from the pending copy join it (a long copy cut into
/// descriptors, as the driver-style path posts it, becomes one copy).
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
    let (mut pending, mut len) = (START, 0usize);
    let (mut packets, mut flagged, mut stop) = (0u64, false, false);
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
        let (s, d) = (
            td.as_tx().buf_ptr.wrapping_sub(regions.from_base),
            rd.as_rx().buf1_ptr.wrapping_sub(regions.to_base),
        );
        let ((s, d), n, asks) = match shape.plain(&td, &rd) {
            // Below a region's length: the offsets fit usize.
            Some(n) if s < src_lim && d < dst_lim => ((s as usize, d as usize), n as usize, false),
            _ => match exact_step(&shape, (&td, &rd), regions) {
                Exact::Copy(at, n, asks) => (at, n, asks),
                Exact::Empty(asks) => {
                    (packets, flagged) = (packets + 1, flagged | asks);
                    continue;
                }
                Exact::Stop => {
                    stop = true;
                    break;
                }
            },
        };
        if !join_or_start(plan, (&mut pending, &mut len), (s, d), n) {
            // Full: this packet starts the next plan.
            break;
        }
        (packets, flagged) = (packets + 1, flagged | asks);
    }
    if let Some(slot) = plan.copies.get_mut(len) {
        slot.1 = pending.0;
    }
    plan.len = len;
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

/// Adds a copy of `n` bytes from source offset `s` to destination offset `d`: it extends the
/// pending copy when both ranges follow on from it, else the pending copy's end and this
/// copy's start are written and this one becomes the pending one. `false` (nothing changed)
/// when the plan has no room for another copy.
#[inline(always)]
fn join_or_start(
    plan: &mut Plan,
    (pending, len): (&mut Pending, &mut usize),
    (s, d): (usize, usize),
    n: usize,
) -> bool {
    let delta = d.wrapping_sub(s);
    if pending.0 == s && pending.1 == delta {
        pending.0 = s + n;
        return true;
    }
    if *len >= PLAN {
        return false;
    }
    if let Some(prev) = plan.copies.get_mut(*len) {
        prev.1 = pending.0;
    }
    *len += 1;
    if let Some(next) = plan.copies.get_mut(*len) {
        (next.0, next.2) = (s, delta);
    }
    *pending = (s + n, delta);
    true
}

/// What the exact test made of a packet.
enum Exact {
    /// A copy of `n` bytes between offsets `(s, d)` in the regions; whether it asks for
    /// ordering or an interrupt.
    Copy((usize, usize), usize, bool),
    /// A packet that moves nothing; whether it asks for ordering or an interrupt.
    Empty(bool),
    /// Not a single packet, or a range outside its region: the lane ends before it.
    Stop,
}

/// One packet [`SingleShape::plain`] or its range test left out, judged by the exact test
/// ([`SingleShape::bytes`], the ranges wholly inside their regions, any request noted). Out
/// of line, with no access to the walk's state, so that state stays in registers.
#[cold]
#[inline(never)]
fn exact_step(
    shape: &SingleShape,
    (td, rd): (&Descriptor, &Descriptor),
    regions: Regions,
) -> Exact {
    let Some(n) = shape.bytes(td, rd) else {
        return Exact::Stop;
    };
    let asks = shape.requests(td, rd);
    if n == 0 {
        return Exact::Empty(asks);
    }
    let src = Segment {
        addr: td.as_tx().buf_ptr,
        len: n,
    };
    let dst = Segment {
        addr: rd.as_rx().buf1_ptr,
        len: n,
    };
    match (
        inside(regions.from_len, regions.from_base, src),
        inside(regions.to_len, regions.to_base, dst),
    ) {
        (Some(s), Some(d)) => Exact::Copy((s.start, d.start), s.len(), asks),
        _ => Exact::Stop,
    }
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

/// Copies the planned `from[ps..pe]` to `to[ps + delta..]`, raises the write mark over it and
/// says how many bytes it moved (the ranges were checked inside their regions).
#[inline(always)]
fn flush(from: &[u8], to: &mut [u8], (ps, pe, delta): Copy, high: &mut usize) -> u64 {
    // Planned inside their regions: `ps <= pe`, and both ends are offsets, far from overflow.
    let (pd, end) = (ps.wrapping_add(delta), pe.wrapping_add(delta));
    if let (Some(bytes), Some(into)) = (from.get(ps..pe), to.get_mut(pd..end)) {
        into.copy_from_slice(bytes);
        *high = (*high).max(end);
    }
    pe.wrapping_sub(ps) as u64
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
