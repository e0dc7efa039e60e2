//! `neuron-tool ring decode`: a raw ring dump, the descriptors the engine would take, and
//! where it would wait or fault.
//!
//! The tool parses the dump and prints; the walk is `neuron_emu::engine_walk`, the one the
//! device model executes (framing, CME, phase, limits), with the limits an engine of the
//! chosen arch holds after `khal` bring-up ([`neuron_emu::rules_after_init`]).
//!
//! A dump has no tail pointer: unless `--posted` says how many descriptors the doorbells
//! handed over, the posted ones are those whose ring id is the phase the engine expects at
//! their slot (`engine_walk::phase_scan`: what software wrote for this lap).
//!
//! Input is bounded before anything is walked: the dump by [`crate::dump`] (at most the
//! largest ring), the head by the ring, and the posted count by the ring's size (the
//! engine's tail is never more than one ring ahead of its head), so a walk takes at most
//! one pass over the ring whatever the flags say.

use std::fmt;
use std::io::Write;

use khal::Arch;
use khal::udma::EngineParams;
use neuron_emu::engine_walk::{self, Pending, PhaseScan, RingPos, WalkRules};
use neuron_emu::{Fault, rules_after_init};
use udma_desc::{DESC_BYTES, Decoded, Descriptor, Direction, RING_MAX_SIZE, Ring, RingId};

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::RingDecodeArgs;
use crate::dump::{ReadDumpError, parse_dump, read_dump};
use crate::error::{Result, ToolError};

/// What the engine does at a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Taken, as the `order`-th descriptor (from 1).
    Taken {
        /// Position in engine order, from 1.
        order: u32,
    },
    /// Posted, in a packet the engine waits to complete.
    Waiting,
    /// The engine faults here.
    Fault,
    /// Not posted: the ring id is not the one the engine expects (the lap ends here).
    Stop {
        /// What the engine expects at this slot.
        expected: RingId,
    },
    /// Not reached.
    NotReached,
}

/// How the walk over the posted descriptors ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every posted descriptor was taken.
    Done,
    /// The engine waits (nothing is wrong yet).
    Waits(Pending),
    /// The engine faults (and latches the fault's cause).
    Faults(Fault),
}

/// The analysis of one dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RingReport {
    /// One mark per slot, in slot order.
    pub marks: Vec<Mark>,
    /// Descriptors the phase says were written for this lap.
    pub scan: PhaseScan,
    /// Descriptors posted (the scan's count unless given).
    pub posted: u64,
    /// Descriptors taken.
    pub taken: u32,
    /// Complete packets (TX).
    pub packets: u32,
    /// Data bytes in the descriptors taken (TX: packet bytes; RX: buffer capacity).
    pub bytes: u64,
    /// How the walk ends.
    pub outcome: Outcome,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Done => write!(f, "the engine takes every posted descriptor"),
            Outcome::Waits(Pending::NoTx) => write!(f, "nothing posted: the engine is idle"),
            Outcome::Waits(Pending::TxIncomplete { descs }) => write!(
                f,
                "the engine waits: a packet of {descs} posted descriptor(s) has no LAST yet"
            ),
            Outcome::Waits(Pending::NoRx { needed }) => {
                write!(f, "the engine waits for {needed} RX descriptor(s)")
            }
            Outcome::Faults(fault) => write!(f, "the engine faults: {fault}"),
        }
    }
}

/// Why a dump cannot be walked with the given head and posted count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    /// No descriptor to walk.
    #[error("the ring holds no descriptor")]
    Empty,
    /// More descriptors than the largest ring.
    #[error("a ring of {slots} descriptors is larger than the largest ring ({RING_MAX_SIZE})")]
    TooLarge {
        /// Descriptors given.
        slots: usize,
    },
    /// The head is not a slot of the ring.
    #[error("--head {head} is outside the ring of {slots} descriptors")]
    Head {
        /// The head slot.
        head: u32,
        /// Ring length.
        slots: u32,
    },
    /// More posted than the ring holds.
    #[error(
        "--posted {posted} is more than the ring's {slots} descriptors (the engine's tail is \
         at most one ring ahead of its head; the driver refuses a doorbell count above the \
         ring size)"
    )]
    Posted {
        /// The count asked.
        posted: u64,
        /// Ring length.
        slots: u32,
    },
    /// A count of the walk does not fit its type (never, within the bounds above).
    #[error("the walk's count of {0} overflowed")]
    Overflow(&'static str),
}

/// Marks `n` slots from `from` (in engine order) with `mark(i)`, `i` counting from 0.
fn mark_run(
    marks: &mut [Mark],
    from: RingPos,
    n: u32,
    len: u32,
    mut mark: impl FnMut(u32) -> Mark,
) {
    let mut pos = from;
    for i in 0..n {
        if let Some(m) = usize::try_from(pos.index)
            .ok()
            .and_then(|i| marks.get_mut(i))
        {
            *m = mark(i);
        }
        pos = pos.advanced(1, len);
    }
}

/// The engine order of the `i`-th of `n` descriptors taken after `before` (from 1).
fn taken(before: u32, i: u32) -> Mark {
    Mark::Taken {
        order: before.saturating_add(i).saturating_add(1),
    }
}

/// Checks what [`analyse`] is given: the ring length, the head in it, the posted count at
/// most the ring. Returns the ring length.
fn check_walk(descs: &[Descriptor], head: RingPos, posted: Option<u64>) -> Result<u32, WalkError> {
    let slots = u32::try_from(descs.len())
        .ok()
        .filter(|&n| n <= RING_MAX_SIZE)
        .ok_or(WalkError::TooLarge { slots: descs.len() })?;
    if slots == 0 {
        return Err(WalkError::Empty);
    }
    if head.index >= slots {
        return Err(WalkError::Head {
            head: head.index,
            slots,
        });
    }
    match posted {
        Some(posted) if posted > u64::from(slots) => Err(WalkError::Posted { posted, slots }),
        _ => Ok(slots),
    }
}

/// Walks `descs` as the engine would from `head`, with `posted` descriptors handed over
/// (default: what the phase scan finds), under `rules`. Refuses an empty ring, one above
/// the largest ring, a head outside it and more posted than it holds ([`WalkError`]); the
/// walk then visits each slot at most once.
///
/// ```
/// use khal::udma::EngineParams;
/// use neuron_emu::engine_walk::RingPos;
/// use neuron_tool::cmd::ring::{analyse, Mark, Outcome};
/// use udma_desc::{Descriptor, Direction, RingId};
/// type A = khal_cayman::Cayman;
/// let rules = neuron_emu::rules_after_init::<A>(EngineParams::for_arch::<A>())?;
/// // Slot 0: FIRST|LAST, ring id 1, 16 bytes. Slot 1: LAST only. Slot 2: stale ring id 0.
/// let ring = [
///     Descriptor::from_words([0x0d00_0010, 0, 0, 0]),
///     Descriptor::from_words([0x0900_0010, 0, 0, 0]),
///     Descriptor::from_words([0x0c00_0010, 0, 0, 0]),
/// ];
/// let r = analyse(&ring, Direction::Tx, RingPos::RESET, None, &rules)?;
/// assert_eq!((r.posted, r.taken), (2, 1));
/// assert_eq!(r.marks[1], Mark::Fault);
/// assert_eq!(r.marks[2], Mark::Stop { expected: RingId::INITIAL });
/// assert_eq!(r.outcome, Outcome::Faults(neuron_emu::Fault::TxFirst { slot: 1 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn analyse(
    descs: &[Descriptor],
    dir: Direction,
    head: RingPos,
    posted: Option<u64>,
    rules: &WalkRules,
) -> Result<RingReport, WalkError> {
    let len = check_walk(descs, head, posted)?;
    let scan = engine_walk::phase_scan(descs, dir, head);
    let posted = posted.unwrap_or(u64::from(scan.count));
    let mut r = RingReport {
        marks: vec![Mark::NotReached; descs.len()],
        scan,
        posted,
        taken: 0,
        packets: 0,
        bytes: 0,
        outcome: Outcome::Done,
    };
    r.mark_stop();
    match dir {
        Direction::Tx => walk_tx(&mut r, descs, head, len, rules)?,
        Direction::Rx => walk_rx(&mut r, descs, head, len, rules)?,
    }
    Ok(r)
}

impl RingReport {
    /// Marks the slot where the lap's ring ids end, when the walk gets there (every
    /// descriptor before it posted).
    fn mark_stop(&mut self) {
        let Some(stop) = self.scan.stop else { return };
        if u64::from(self.scan.count) < self.posted {
            return;
        }
        if let Some(m) = usize::try_from(stop.pos.index)
            .ok()
            .and_then(|i| self.marks.get_mut(i))
        {
            *m = Mark::Stop {
                expected: stop.pos.ring_id,
            };
        }
    }

    /// Ends the walk with fault `f`, marking its slot (the packet's head when the fault
    /// names none).
    fn fault_at(&mut self, f: Fault, packet_head: RingPos) {
        let slot = f.slot().unwrap_or(packet_head.index);
        if let Some(m) = usize::try_from(slot)
            .ok()
            .and_then(|i| self.marks.get_mut(i))
        {
            *m = Mark::Fault;
        }
        self.outcome = Outcome::Faults(f);
    }
}

/// TX: packet by packet over the posted descriptors until they run out, a packet waits
/// for more, or the engine faults.
fn walk_tx(
    r: &mut RingReport,
    descs: &[Descriptor],
    head: RingPos,
    len: u32,
    rules: &WalkRules,
) -> Result<(), WalkError> {
    let overflow = WalkError::Overflow;
    let (mut pos, mut left) = (head, r.posted);
    while left > 0 {
        match engine_walk::tx_packet(descs, pos, left, rules, |_| {}) {
            Ok(Ok(p)) => {
                let before = r.taken;
                mark_run(&mut r.marks, pos, p.descs, len, |i| taken(before, i));
                r.taken = r.taken.checked_add(p.descs).ok_or(overflow("taken"))?;
                r.packets = r.packets.checked_add(1).ok_or(overflow("packets"))?;
                r.bytes = r.bytes.checked_add(p.bytes).ok_or(overflow("bytes"))?;
                left = left
                    .checked_sub(u64::from(p.descs))
                    .ok_or(overflow("posted"))?;
                pos = p.end;
            }
            Ok(Err(wait)) => {
                if let Pending::TxIncomplete { descs } = wait {
                    mark_run(&mut r.marks, pos, descs, len, |_| Mark::Waiting);
                }
                r.outcome = Outcome::Waits(wait);
                break;
            }
            Err(f) => {
                r.fault_at(f, pos);
                break;
            }
        }
    }
    Ok(())
}

/// RX descriptors have no framing: the posted ones are buffers taken in order.
fn walk_rx(
    r: &mut RingReport,
    descs: &[Descriptor],
    head: RingPos,
    len: u32,
    rules: &WalkRules,
) -> Result<(), WalkError> {
    let count = u32::try_from(r.posted).map_err(|_| WalkError::Overflow("posted"))?;
    match engine_walk::rx_buffers(descs, head, r.posted, count, 0, rules, |_| {}) {
        Ok(Ok(b)) => {
            mark_run(&mut r.marks, head, b.descs, len, |i| taken(0, i));
            r.taken = b.descs;
            r.bytes = b.capacity;
        }
        Ok(Err(wait)) => r.outcome = Outcome::Waits(wait),
        Err(f) => r.fault_at(f, head),
    }
    Ok(())
}

/// One descriptor on one line: the control word by field, the other words raw
/// (`desc decode` shows every `meta_ctrl` field).
pub struct Compact(pub Descriptor, pub Direction);

impl fmt::Display for Compact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.0;
        match d.decode(self.1) {
            Decoded::Tx(t) => write!(
                f,
                "TX {} | meta_ctrl={:#010x} | buf_ptr={:#018x}",
                t.len_ctrl,
                t.meta_ctrl.into_bits(),
                t.buf_ptr
            ),
            Decoded::TxMeta(m) => write!(
                f,
                "TX-META {} (CME index {}) | meta_ctrl={:#010x} | meta1={:#010x} meta2={:#010x}",
                m.len_ctrl,
                m.cme_index(),
                m.meta_ctrl.into_bits(),
                m.meta1,
                m.meta2
            ),
            Decoded::Rx(r) => write!(
                f,
                "RX {} | buf2_ptr_lo={:#010x} | buf1_ptr={:#018x}",
                r.len_ctrl, r.buf2_ptr_lo, r.buf1_ptr
            ),
        }
    }
}

/// The walk rules of an engine of the arch after `khal` bring-up, and the arch's name.
struct Rules;

impl ArchVisitor for Rules {
    type Output = (Result<WalkRules, neuron_emu::RulesError>, &'static str);
    fn visit<A: Arch>(self) -> Self::Output {
        (
            rules_after_init::<A>(EngineParams::for_arch::<A>()),
            A::CODE_NAME,
        )
    }
}

/// `ring decode FILE --arch A [--rx] [--phase P] [--head H] [--posted N]`.
///
/// Prints the decode and succeeds when the engine takes every posted descriptor or waits
/// for more; prints it and fails with the fault when the engine would fault; refuses a
/// file that is no ring dump ([`crate::dump::DumpError`]) and flags outside the ring
/// ([`WalkError`]) before printing anything.
pub fn decode(args: &RingDecodeArgs, out: &mut impl Write) -> Result<()> {
    let phase = u8::try_from(args.phase)
        .ok()
        .and_then(|p| RingId::new(p).ok())
        .ok_or_else(|| {
            ToolError::BadArgument(format!("--phase {} is not a ring id (0..3)", args.phase))
        })?;
    let dump_error = |source| ToolError::Dump {
        path: args.file.clone(),
        source,
    };
    let descs = {
        let bytes = read_dump(&args.file).map_err(|e| match e {
            ReadDumpError::Io(source) => ToolError::ReadFile {
                path: args.file.clone(),
                source,
            },
            ReadDumpError::Dump(e) => dump_error(e),
        })?;
        parse_dump(&bytes).map_err(dump_error)?
    };
    let dir = if args.rx {
        Direction::Rx
    } else {
        Direction::Tx
    };
    let (rules, arch) = dispatch(args.arch.generation(), Rules)?;
    let rules = rules.map_err(|e| ToolError::BadArgument(e.to_string()))?;
    let head = RingPos {
        index: args.head,
        ring_id: phase,
    };
    let report = analyse(&descs, dir, head, args.posted, &rules)?;

    writeln!(
        out,
        "ring dump '{}': {} descriptors ({} bytes), {dir} ring, {arch} after bring-up: at most \
         {} descriptors and {} bytes per packet",
        args.file.display(),
        descs.len(),
        descs.len() * DESC_BYTES,
        rules.max_descs_per_packet,
        rules.max_packet_bytes,
    )?;
    if let Ok(n) = u32::try_from(descs.len()) {
        if let Err(e) = Ring::new(dir, n) {
            writeln!(out, "note: not a ring the driver would build: {e}")?;
        }
    }
    writeln!(
        out,
        "engine head at slot {} expecting ring id {phase} (+1 mod 4 at each wrap); {} posted{}\n",
        args.head,
        report.posted,
        if args.posted.is_some() {
            " (--posted)"
        } else {
            " (ring ids of this lap)"
        }
    )?;
    write_report(out, &descs, dir, &report)?;
    match report.outcome {
        Outcome::Faults(f) => Err(ToolError::EngineFaults(f)),
        Outcome::Done | Outcome::Waits(_) => Ok(()),
    }
}

/// The slot table of `report` (one line per descriptor of `descs`, read as `dir`) and its
/// summary: what the engine takes and how the walk ends.
pub fn write_report(
    out: &mut impl Write,
    descs: &[Descriptor],
    dir: Direction,
    report: &RingReport,
) -> std::io::Result<()> {
    writeln!(out, "slot  engine    descriptor")?;
    for (slot, (d, mark)) in descs.iter().zip(&report.marks).enumerate() {
        let m = match *mark {
            Mark::Taken { order } => format!("take {order}"),
            Mark::Waiting => "WAIT".to_string(),
            Mark::Fault => "FAULT".to_string(),
            Mark::Stop { .. } => "STOP".to_string(),
            Mark::NotReached => "-".to_string(),
        };
        write!(out, "{slot:>4}  {m:<8}  {}", Compact(*d, dir))?;
        if let Mark::Stop { expected } = *mark {
            write!(
                out,
                "  <- ring id {}, the engine expects {expected}: not written for this lap",
                d.ring_id()
            )?;
        }
        writeln!(out)?;
    }
    writeln!(out)?;
    write!(out, "taken: {} descriptors", report.taken)?;
    if dir == Direction::Tx {
        write!(out, ", {} complete packet(s)", report.packets)?;
    }
    writeln!(out, ", {} bytes; {}", report.bytes, report.outcome)?;
    if let Outcome::Faults(f) = report.outcome {
        writeln!(
            out,
            "the fault latches cause bit {:#010x} of the {:#} error group",
            f.cause_bit(),
            f.direction()
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal_cayman::Cayman;
    use khal_sunda::Sunda;
    use udma_desc::TxLenCtrl;

    const RID1: RingId = RingId::INITIAL;

    fn rules<A: Arch>() -> WalkRules {
        rules_after_init::<A>(EngineParams::for_arch::<A>()).unwrap()
    }

    /// A TX data descriptor with ring id `rid`, `first`/`last`, 4 KiB.
    fn tx(rid: u8, first: bool, last: bool) -> Descriptor {
        let c = TxLenCtrl::new()
            .with_len(4096)
            .with_ring_id(RingId::new(rid).unwrap())
            .with_first(first)
            .with_last(last);
        Descriptor::from_words([c.into_bits(), udma_desc::MetaCtrl::DEFAULT_BITS, 0x1000, 0])
    }

    /// The walk of a TX dump from slot 0, phase 1, on a V3 engine after bring-up.
    fn v3_tx(ring: &[Descriptor]) -> RingReport {
        analyse(
            ring,
            Direction::Tx,
            RingPos::RESET,
            None,
            &rules::<Cayman>(),
        )
        .unwrap()
    }

    fn at(index: u32, ring_id: RingId) -> RingPos {
        RingPos { index, ring_id }
    }

    #[test]
    fn engine_takes_this_laps_packets_and_stops_at_a_stale_slot() {
        let ring = [
            tx(1, true, true),
            tx(1, true, false),
            tx(1, false, true),
            tx(0, true, true),
        ];
        let r = v3_tx(&ring);
        assert_eq!((r.posted, r.taken, r.packets, r.bytes), (3, 3, 2, 3 * 4096));
        assert_eq!(r.outcome, Outcome::Done);
        assert_eq!(r.marks[0], Mark::Taken { order: 1 });
        assert_eq!(r.marks[3], Mark::Stop { expected: RID1 });
    }

    #[test]
    fn phase_flips_on_wrap() {
        // Head at slot 2 of 4 expecting 1: slots 2, 3 carry 1, slots 0, 1 the next lap (2).
        let ring = [
            tx(2, true, true),
            tx(2, true, true),
            tx(1, true, true),
            tx(1, true, true),
        ];
        let r = analyse(&ring, Direction::Tx, at(2, RID1), None, &rules::<Cayman>()).unwrap();
        assert_eq!((r.taken, r.scan.stop), (4, None));
        assert_eq!(r.marks[2], Mark::Taken { order: 1 });
        assert_eq!(r.marks[0], Mark::Taken { order: 3 });
        // Without the flip the engine would stop at slot 0.
        let ring = [tx(1, true, true), tx(1, true, true)];
        let r = analyse(&ring, Direction::Tx, at(1, RID1), None, &rules::<Cayman>()).unwrap();
        assert_eq!(
            (r.taken, r.marks[0]),
            (
                1,
                Mark::Stop {
                    expected: RingId::new(2).unwrap()
                }
            )
        );
    }

    #[test]
    fn the_engine_stops_at_the_first_fault_the_model_would_latch() {
        let ring = [tx(1, true, false), tx(1, true, true)];
        let r = v3_tx(&ring);
        assert_eq!(r.outcome, Outcome::Faults(Fault::TxLast { slot: 1 }));
        assert_eq!((r.taken, r.marks[1]), (0, Mark::Fault));
        // A packet whose LAST is not posted waits.
        let ring = [tx(1, true, true), tx(1, true, false), tx(0, false, true)];
        let r = v3_tx(&ring);
        assert_eq!(
            r.outcome,
            Outcome::Waits(Pending::TxIncomplete { descs: 1 })
        );
        assert_eq!(r.marks[1], Mark::Waiting);
        // Posted past the lap (--posted): the stale slot is a ring-id fault, as in the model.
        let r = analyse(
            &ring,
            Direction::Tx,
            RingPos::RESET,
            Some(3),
            &rules::<Cayman>(),
        )
        .unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Faults(Fault::TxRingId {
                slot: 2,
                expected: RID1,
                found: RingId::new(0).unwrap()
            })
        );
    }

    #[test]
    fn packet_limit_is_the_one_bring_up_programs_per_arch() {
        // 66 descriptors: too many for V3 (0x41 = 65), fine for V2 (0x80); 4 KiB each is
        // 270,336 bytes, under the byte limit.
        let mut ring = vec![tx(1, false, false); 66];
        ring[0] = tx(1, true, false);
        ring[65] = tx(1, false, true);
        let v3 = v3_tx(&ring);
        assert_eq!(
            v3.outcome,
            Outcome::Faults(Fault::TxMaxDesc { limit: 0x41 })
        );
        assert_eq!(v3.marks[0], Mark::Fault, "the packet's head");
        let v2 = analyse(
            &ring,
            Direction::Tx,
            RingPos::RESET,
            None,
            &rules::<Sunda>(),
        )
        .unwrap();
        assert_eq!((v2.outcome, v2.packets), (Outcome::Done, 1));
    }

    #[test]
    fn packet_bytes_limit_is_the_programmed_packet_length() {
        // 17 descriptors of 64 KiB (length 0) = 1,114,112 bytes: above the 0xfffff maximum
        // khal programs into m2s.cfg_len (the one the model applies).
        let big = |first, last| {
            let c = TxLenCtrl::new()
                .with_len(0)
                .with_ring_id(RID1)
                .with_first(first)
                .with_last(last);
            Descriptor::from_words([c.into_bits(), 0, 0, 0])
        };
        let mut ring = vec![big(false, false); 17];
        ring[0] = big(true, false);
        ring[16] = big(false, true);
        let r = v3_tx(&ring);
        assert_eq!(
            r.outcome,
            Outcome::Faults(Fault::TxPacketLen {
                len: 16 * 65_536,
                max: u64::from(udma_desc::MAX_PACKET_BYTES)
            })
        );
    }

    #[test]
    fn meta_descriptors_skip_the_phase_check_and_chain() {
        let cme = udma_desc::cme_descriptor(3).unwrap(); // ring-id bits = CME index 3
        let ring = [cme, tx(1, false, true)];
        let r = v3_tx(&ring);
        assert_eq!((r.taken, r.packets, r.bytes), (2, 1, 4096));
        assert_eq!(r.outcome, Outcome::Done);
    }

    #[test]
    fn rx_rings_have_no_packet_framing() {
        let ring = [
            tx(1, false, false),
            tx(1, false, false),
            tx(3, false, false),
        ];
        let r = analyse(
            &ring,
            Direction::Rx,
            RingPos::RESET,
            None,
            &rules::<Cayman>(),
        )
        .unwrap();
        assert_eq!((r.taken, r.bytes, r.outcome), (2, 8192, Outcome::Done));
        assert_eq!(r.marks[2], Mark::Stop { expected: RID1 });
    }

    /// A META | FIRST | LAST descriptor: a packet of its own with no data, which the phase
    /// check skips, so only the posted count can end a walk over a ring of them.
    fn meta_packet() -> Descriptor {
        let c = TxLenCtrl::new()
            .with_meta(true)
            .with_first(true)
            .with_last(true);
        Descriptor::from_words([c.into_bits(), 0, 0, 0])
    }

    #[test]
    fn posted_is_bounded_by_the_ring_so_the_walk_is_one_pass() {
        let ring = vec![meta_packet(); 32];
        let v3 = rules::<Cayman>();
        let at_most = analyse(&ring, Direction::Tx, RingPos::RESET, Some(32), &v3).unwrap();
        assert_eq!((at_most.taken, at_most.packets), (32, 32));
        assert_eq!(at_most.marks[31], Mark::Taken { order: 32 });
        // Past the ring, and far past 2^32 (where the counters used to wrap): refused.
        for posted in [33, 5_000_000_000, u64::MAX] {
            assert_eq!(
                analyse(&ring, Direction::Tx, RingPos::RESET, Some(posted), &v3),
                Err(WalkError::Posted { posted, slots: 32 })
            );
            assert_eq!(
                analyse(&ring, Direction::Rx, RingPos::RESET, Some(posted), &v3),
                Err(WalkError::Posted { posted, slots: 32 })
            );
        }
    }

    #[test]
    fn a_walk_needs_a_ring_and_a_head_on_it() {
        let v3 = rules::<Cayman>();
        assert_eq!(
            analyse(&[], Direction::Tx, RingPos::RESET, None, &v3),
            Err(WalkError::Empty)
        );
        let ring = [tx(1, true, true); 4];
        assert_eq!(
            analyse(&ring, Direction::Tx, at(4, RID1), None, &v3),
            Err(WalkError::Head { head: 4, slots: 4 })
        );
        assert_eq!(
            WalkError::Head { head: 4, slots: 4 }.to_string(),
            "--head 4 is outside the ring of 4 descriptors"
        );
    }
}
