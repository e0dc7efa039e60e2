//! The model executing one packet of a queue pair: walk the rings in memory with the engine
//! walk ([`crate::engine_walk`]), check every source and destination range, move the bytes,
//! advance the heads, latch completions.
//!
//! The behaviour contract is in the crate documentation ("Data path").

use crate::address_space::{AddressSpace, Span};
use crate::commit::{Consumed, Tally, commit};
use crate::engine_state::EngineState;
use crate::engine_walk::{self, DescSource, Packet, Pending, Segment, Side};
use crate::fault::Fault;
use crate::queue::QueueModel;
use crate::single_run;
use crate::unit::UnitModel;

/// Reusable buffers for the data path (no allocation per packet once warmed up).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    tx: Vec<Span>,
    rx: Vec<Span>,
    /// The region the last source (destination) range was in: tried first next time.
    pub(crate) tx_hint: usize,
    pub(crate) rx_hint: usize,
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
        let run = single_run::single_run(unit, mem, q, scratch, &set, spans, batch - packets);
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
        // `single_run` has just tried `single` on these heads (the framing loop answers the
        // same for that shape), so only the loop runs here.
        engine_walk::framed_packet(
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

    let mut moved = Tally::default();
    moved.add(&Packet { tx, rx });
    let consumed = |descs, end| Consumed { descs, end };
    commit(
        unit,
        q,
        &moved,
        consumed(tx.descs, tx.end),
        consumed(rx.descs, rx.end),
    );
    Ok(Ok(tx.bytes))
}
