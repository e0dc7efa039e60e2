//! The model executing one packet of a queue pair: walk the rings in memory with the engine
//! walk ([`crate::engine_walk`]), check every source and destination range, move the bytes,
//! advance the heads, latch completions.
//!
//! The behaviour contract is in the crate documentation ("Data path").

use core::ops::Range;

use crate::address_space::{AddressSpace, Span};
use crate::engine_state::EngineState;
use crate::engine_walk::{self, DescSource, Packet, Pending, Segment, Side, Single, WalkRules};
use crate::fault::Fault;
use crate::iofic_model::{GROUP_B, GROUP_C, Level};
use crate::queue::QueueModel;
use crate::unit::UnitModel;

/// Reusable buffers for the data path (no allocation per packet once warmed up).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    tx: Vec<Span>,
    rx: Vec<Span>,
    /// The region the last source (destination) range was in: tried first next time.
    tx_hint: usize,
    rx_hint: usize,
}

/// Why a queue pair cannot move a packet now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaitReason {
    /// The M2S or S2M engine is not in the NORMAL state.
    EngineNotRunning,
    /// A stream interface is disabled (`stream_cfg` DISABLE).
    StreamDisabled,
    /// A queue lacks prefetch/scheduling enable, or has no ring length programmed.
    QueueDisabled,
    /// A queue is blocked by an earlier fault.
    Blocked,
    /// No TX descriptor is posted.
    NoTx,
    /// The TX packet's LAST descriptor is not posted yet.
    TxIncomplete,
    /// Fewer RX descriptors are posted than the packet needs.
    NoRx,
}

impl From<Pending> for WaitReason {
    fn from(p: Pending) -> Self {
        match p {
            Pending::NoTx => Self::NoTx,
            Pending::TxIncomplete { .. } => Self::TxIncomplete,
            Pending::NoRx { .. } => Self::NoRx,
        }
    }
}

/// What one attempt on a queue pair did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairOutcome {
    /// Packets moved (one, or a batch of the only runnable pair).
    Moved {
        packets: u64,
        bytes: u64,
        /// More TX descriptors are posted behind it.
        more: bool,
    },
    /// Nothing could move.
    Wait(WaitReason),
    /// The packet waits for RX descriptors under a no-descriptor timeout: run the pair
    /// again on the next scheduler pass (each pass is one unit of the timeout).
    Ticking,
    /// The S2M side dropped the packet (no RX descriptor, no-descriptor policy).
    Dropped {
        bytes: u64,
        /// More TX descriptors are posted behind it.
        more: bool,
    },
    /// The packet faulted (already reported to the unit).
    Faulted(Fault),
}

/// A queue's ring in model memory, as the engine walk reads it: the whole ring resolved once
/// per packet when it lies inside one region, else slot by slot (so a slot outside memory is
/// a prefetch bus error at that slot).
struct MemRing<'a> {
    mem: &'a AddressSpace,
    base: u64,
    len: u32,
    whole: Option<&'a [u8]>,
}

impl<'a> MemRing<'a> {
    #[inline]
    fn new(mem: &'a AddressSpace, q: &QueueModel, span: Option<Span>) -> Self {
        Self {
            mem,
            base: q.base(),
            len: q.len,
            whole: span.and_then(|s| mem.span_bytes(s)),
        }
    }
}

impl DescSource for MemRing<'_> {
    #[inline]
    fn slots(&self) -> u32 {
        self.len
    }

    #[inline]
    fn fetch(&self, index: u32) -> Result<udma_desc::Descriptor, u64> {
        if let Some(ring) = self.whole {
            return ring.fetch(index).map_err(|off| self.base.wrapping_add(off));
        }
        // Wrapping arithmetic: an absurd base lands outside every region (a bus error).
        let addr = self
            .base
            .wrapping_add(u64::from(index).wrapping_mul(udma_desc::DESC_BYTES as u64));
        let mut b = [0u8; udma_desc::DESC_BYTES];
        self.mem.read(addr, &mut b).map_err(|_| addr)?;
        Ok(udma_desc::Descriptor::from_le_bytes(b))
    }
}

/// Resolves a data range into `spans`; the first range outside memory is kept in `bad`.
#[inline]
fn resolve(
    mem: &AddressSpace,
    s: Segment,
    spans: &mut Vec<Span>,
    hint: &mut usize,
    bad: &mut Option<Segment>,
) {
    if s.len == 0 || bad.is_some() {
        return;
    }
    match mem.span_hinted(s.addr, s.len, hint) {
        Ok(span) => spans.push(span),
        Err(_) => *bad = Some(s),
    }
}

/// Streams the TX spans into the RX spans, in order, one slice copy per overlap.
fn move_bytes(mem: &mut AddressSpace, tx: &[Span], rx: &[Span]) -> Result<(), Fault> {
    // The common shape (one source, one destination of the same length): one copy.
    if let ([t], [d]) = (tx, rx) {
        if t.len == d.len {
            return mem.copy_span(*t, *d).map_err(bus_bug);
        }
    }
    let (mut ti, mut toff, mut ri, mut roff) = (0usize, 0usize, 0usize, 0usize);
    while let (Some(t), Some(d)) = (tx.get(ti), rx.get(ri)) {
        let chunk = (t.len - toff).min(d.len - roff);
        if chunk > 0 {
            mem.copy_span(t.sub(toff, chunk), d.sub(roff, chunk))
                .map_err(bus_bug)?;
        }
        toff += chunk;
        roff += chunk;
        if toff == t.len {
            ti += 1;
            toff = 0;
        }
        if roff == d.len {
            ri += 1;
            roff = 0;
        }
    }
    Ok(())
}

/// Ranges were resolved before anything moved; a failure here would be a model bug, reported
/// as a bus error rather than a panic.
fn bus_bug(e: crate::error::BusError) -> Fault {
    Fault::RxDataBus {
        addr: e.addr,
        len: e.len,
    }
}

/// What the S2M engine does with a packet that has no RX descriptor, by the no-descriptor
/// policy (S2M `+0x344`, seed 004 §2 `al_udma_s2m_no_desc_cfg_set`).
///
/// The seed warns that "setting timeout to 0 will cause the udma to wait forever instead of
/// dropping the packet" when drop is off, so: drop off and timeout 0 waits forever (the
/// reset value: the model's behaviour before this policy existed); otherwise the packet is
/// dropped once it has waited `timeout` units (0: at once). The unit of the timeout is in no
/// source; the model counts scheduler passes over the waiting pair.
fn no_rx_descriptor(
    unit: &mut UnitModel,
    mem: &AddressSpace,
    q: usize,
    set: &crate::unit::Settings,
) -> PairOutcome {
    let policy = set.no_desc;
    if !policy.drop_en() && policy.timeout() == 0 {
        return PairOutcome::Wait(WaitReason::NoRx);
    }
    let Some(txq) = unit.m2s.queues.get_mut(q) else {
        return PairOutcome::Wait(WaitReason::QueueDisabled);
    };
    if txq.no_desc_waited < policy.timeout() {
        txq.no_desc_waited += 1;
        return PairOutcome::Ticking;
    }
    // The walk stopped at the RX side; the TX packet itself is whole (re-walked to drop it).
    let span = txq.ring_span(mem);
    let txq = &unit.m2s.queues[q];
    let walked = engine_walk::tx_packet(
        &MemRing::new(mem, txq, span),
        txq.head,
        txq.posted,
        &set.rules,
        |_| {},
    );
    let Ok(Ok(tx)) = walked else {
        return PairOutcome::Wait(WaitReason::NoRx);
    };
    let txq = &mut unit.m2s.queues[q];
    txq.consume(tx.descs, tx.end);
    txq.stats.packets += 1;
    txq.stats.bytes += tx.bytes;
    txq.stats.meta_descriptors += u64::from(tx.metas);
    let more = txq.posted > 0;
    unit.s2m.queues[q].stats.dropped_packets += 1;
    PairOutcome::Dropped {
        bytes: tx.bytes,
        more,
    }
}

/// Runs packets on queue pair `q` of `unit`: at most `batch` (at least one), in ring order,
/// while the pair has more posted. A batch stops before a packet that waits or faults once
/// one has moved; that packet is met again (and reported) on the pair's next run, which is
/// safe because a packet changes nothing until it moves.
pub(crate) fn run_pair(
    unit: &mut UnitModel,
    mem: &mut AddressSpace,
    q: usize,
    scratch: &mut Scratch,
    batch: u64,
) -> PairOutcome {
    match try_pair(unit, mem, q, scratch, batch) {
        Ok(outcome) => outcome,
        Err(fault) => {
            unit.report_fault(q, &fault);
            PairOutcome::Faulted(fault)
        }
    }
}

fn try_pair(
    unit: &mut UnitModel,
    mem: &mut AddressSpace,
    q: usize,
    scratch: &mut Scratch,
    batch: u64,
) -> Result<PairOutcome, Fault> {
    let wait = |w| Ok(PairOutcome::Wait(w));
    if unit.m2s.state != EngineState::Normal || unit.s2m.state != EngineState::Normal {
        return wait(WaitReason::EngineNotRunning);
    }
    let set = unit.settings();
    if set.stream_disabled {
        return wait(WaitReason::StreamDisabled);
    }
    let (Some(txq), Some(rxq)) = (unit.m2s.queues.get_mut(q), unit.s2m.queues.get_mut(q)) else {
        return wait(WaitReason::QueueDisabled);
    };
    if !txq.enabled() || !rxq.enabled() || txq.len == 0 || rxq.len == 0 {
        return wait(WaitReason::QueueDisabled);
    }
    if txq.blocked.is_some() || rxq.blocked.is_some() {
        return wait(WaitReason::Blocked);
    }
    if txq.posted == 0 {
        return wait(WaitReason::NoTx);
    }
    let spans = (txq.ring_span(mem), rxq.ring_span(mem));
    let (mut packets, mut bytes) = (0u64, 0u64);
    loop {
        let run = single_run(unit, mem, q, scratch, &set, spans, batch - packets);
        packets += run.packets;
        bytes += run.bytes;
        if packets > 0 {
            let more = unit.m2s.queues[q].posted > 0;
            if !more || packets >= batch {
                return Ok(PairOutcome::Moved {
                    packets,
                    bytes,
                    more,
                });
            }
        }
        let outcome = match one_packet(unit, mem, q, scratch, &set, spans) {
            Ok(Ok(n)) => {
                packets += 1;
                bytes += n;
                let more = unit.m2s.queues[q].posted > 0;
                if more && packets < batch {
                    continue;
                }
                return Ok(PairOutcome::Moved {
                    packets,
                    bytes,
                    more,
                });
            }
            Ok(Err(other)) => Ok(other),
            Err(fault) => Err(fault),
        };
        if packets > 0 {
            return Ok(PairOutcome::Moved {
                packets,
                bytes,
                more: true,
            });
        }
        return outcome;
    }
}

/// What [`single_run`] moved.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    packets: u64,
    bytes: u64,
    /// Ordering points in bits 31:0, interrupts in bits 63:32: a run is at most u32::MAX
    /// packets of one descriptor each side, so neither count overflows its half.
    tx_marks: u64,
    rx_marks: u64,
}

impl Run {
    #[inline(always)]
    fn add(&mut self, p: &Packet) {
        let marks =
            |ordering: u32, interrupts: u32| u64::from(ordering) | (u64::from(interrupts) << 32);
        self.packets += 1;
        self.bytes += p.tx.bytes;
        self.tx_marks += marks(p.tx.ordering, p.tx.interrupts);
        self.rx_marks += marks(p.rx.ordering, p.rx.interrupts);
    }

    /// (ordering points, interrupts) of one side's marks.
    const fn split(marks: u64) -> (u64, u64) {
        (marks & 0xffff_ffff, marks >> 32)
    }
}

/// Where a run of single packets is: both heads and what moved so far.
struct Cursor {
    tx: engine_walk::Head,
    rx: engine_walk::Head,
    run: Run,
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
/// range outside memory, which [`one_packet`] then walks in full and reports.
///
/// A packet whose destination region holds neither ring nor its source starts a lane: that
/// region is borrowed mutably and the others shared for as long as packets keep to the same
/// regions, so each packet costs two descriptor reads, two bounds checks and the copy. Any
/// other packet goes through the address space, and reads its descriptors after the previous
/// packet's bytes landed (a copy may rewrite a ring). Completions latch once for the run: the
/// IOFIC cause is an OR, so one latch of a queue's bit equals one per packet.
#[inline]
fn single_run(
    unit: &mut UnitModel,
    mem: &mut AddressSpace,
    q: usize,
    scratch: &mut Scratch,
    set: &crate::unit::Settings,
    spans: (Option<Span>, Option<Span>),
    budget: u64,
) -> Run {
    let (Some(tx_span), Some(rx_span)) = spans else {
        return Run::default();
    };
    let (Some(txq), Some(rxq)) = (unit.m2s.queues.get(q), unit.s2m.queues.get(q)) else {
        return Run::default();
    };
    let head = |q: &QueueModel| engine_walk::Head {
        desc: udma_desc::Descriptor::from_words([0; 4]),
        pos: q.head,
        slots: q.len,
    };
    let mut c = Cursor {
        tx: head(txq),
        rx: head(rxq),
        run: Run::default(),
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
    commit(unit, q, &c);
    c.run
}

/// Moves single packets from region `src` into region `dst` (which holds neither ring) for
/// as long as they keep to those regions.
#[inline]
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
    // Packets whose source and destination both follow on from the previous packet's are
    // moved by one copy: the bytes land exactly as packet by packet, because nothing in the
    // lane writes the source region or the rings. (A long copy cut into descriptors, as the
    // driver-style path posts it, becomes one copy.)
    let mut pending: Option<(Range<usize>, Range<usize>)> = None;
    let flush = |p: Option<(Range<usize>, Range<usize>)>, to: &mut [u8], high: &mut usize| {
        if let Some((s, d)) = p {
            if let (Some(bytes), Some(into)) = (from.get(s), to.get_mut(d.clone())) {
                into.copy_from_slice(bytes);
                *high = (*high).max(d.end);
            }
        }
    };
    let mut high = *written;
    while let Some(one) = c.next(t, r, rules) {
        if one.src.len > 0 {
            let (Some(s), Some(d)) = (
                inside(from.len(), from_base, one.src),
                inside(to.len(), to_base, one.dst),
            ) else {
                break;
            };
            pending = match pending {
                Some((ps, pd)) if ps.end == s.start && pd.end == d.start => {
                    Some((ps.start..s.end, pd.start..d.end))
                }
                other => {
                    flush(other, to, &mut high);
                    Some((s, d))
                }
            };
        }
        c.moved(&one.packet);
    }
    flush(pending, to, &mut high);
    *written = high;
    c
}

/// The offsets of `seg` in a region of `size` bytes at DMA address `base`, when it lies
/// wholly inside.
#[inline(always)]
fn inside(size: usize, base: u64, seg: Segment) -> Option<Range<usize>> {
    let off = usize::try_from(seg.addr.wrapping_sub(base)).ok()?;
    let len = usize::try_from(seg.len).ok()?;
    (off <= size && len <= size - off).then_some(off..off + len)
}

/// Commits a run: heads advance, completions latch, counters count (as `one_packet` does for
/// one packet; each packet of a run is one descriptor on each ring).
fn commit(unit: &mut UnitModel, q: usize, c: &Cursor) {
    let run = &c.run;
    if run.packets == 0 {
        return;
    }
    let (tx_ordering, tx_interrupts) = Run::split(run.tx_marks);
    let (rx_ordering, rx_interrupts) = Run::split(run.rx_marks);
    if tx_interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_C, 1 << q);
    }
    if rx_interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_B, 1 << q);
    }
    // `limit` keeps the count within u32.
    let descs = u32::try_from(run.packets).unwrap_or(u32::MAX);
    let (Some(txq), Some(rxq)) = (unit.m2s.queues.get_mut(q), unit.s2m.queues.get_mut(q)) else {
        return;
    };
    txq.consume(descs, c.tx.pos);
    let s = &mut txq.stats;
    s.packets += run.packets;
    s.bytes += run.bytes;
    s.ordering_points += tx_ordering;
    s.interrupts += tx_interrupts;
    rxq.consume(descs, c.rx.pos);
    let s = &mut rxq.stats;
    s.packets += run.packets;
    s.bytes += run.bytes;
    s.ordering_points += rx_ordering;
    s.interrupts += rx_interrupts;
}

/// One packet: walk, check, move, commit. `Ok(Ok(bytes))` when it moved.
#[inline]
fn one_packet(
    unit: &mut UnitModel,
    mem: &mut AddressSpace,
    q: usize,
    scratch: &mut Scratch,
    set: &crate::unit::Settings,
    (tx_span, rx_span): (Option<Span>, Option<Span>),
) -> Result<Result<u64, PairOutcome>, Fault> {
    let (txq, rxq) = (&unit.m2s.queues[q], &unit.s2m.queues[q]);
    scratch.tx.clear();
    scratch.rx.clear();
    let (mut bad_tx, mut bad_rx) = (None, None);
    let walked = {
        let m: &AddressSpace = mem;
        let Scratch {
            tx: tx_spans,
            rx: rx_spans,
            tx_hint,
            rx_hint,
        } = scratch;
        engine_walk::packet(
            Side {
                ring: &MemRing::new(m, txq, tx_span),
                head: txq.head,
                posted: txq.posted,
            },
            Side {
                ring: &MemRing::new(m, rxq, rx_span),
                head: rxq.head,
                posted: rxq.posted,
            },
            &set.rules,
            |s| resolve(m, s, tx_spans, tx_hint, &mut bad_tx),
            |s| resolve(m, s, rx_spans, rx_hint, &mut bad_rx),
        )?
    };
    let Packet { tx, rx } = match walked {
        Ok(p) => p,
        Err(Pending::NoRx { .. }) => return Ok(Err(no_rx_descriptor(unit, mem, q, set))),
        Err(p) => return Ok(Err(PairOutcome::Wait(p.into()))),
    };
    // Descriptor faults come first (above); then the data ranges, sources before destinations.
    if let Some(s) = bad_tx {
        return Err(Fault::TxDataBus {
            addr: s.addr,
            len: s.len,
        });
    }
    if let Some(s) = bad_rx {
        return Err(Fault::RxDataBus {
            addr: s.addr,
            len: s.len,
        });
    }
    move_bytes(mem, &scratch.tx, &scratch.rx)?;

    // Commit: heads advance, completions latch, counters count.
    if tx.interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_C, 1 << q);
    }
    if rx.interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_B, 1 << q);
    }
    let txq = &mut unit.m2s.queues[q];
    txq.consume(tx.descs, tx.end);
    let s = &mut txq.stats;
    s.packets += 1;
    s.bytes += tx.bytes;
    s.meta_descriptors += u64::from(tx.metas);
    s.ordering_points += u64::from(tx.ordering);
    s.interrupts += u64::from(tx.interrupts);
    let rxq = &mut unit.s2m.queues[q];
    rxq.consume(rx.descs, rx.end);
    let s = &mut rxq.stats;
    s.packets += 1;
    s.bytes += tx.bytes;
    s.ordering_points += u64::from(rx.ordering);
    s.interrupts += u64::from(rx.interrupts);
    Ok(Ok(tx.bytes))
}
