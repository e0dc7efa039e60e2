//! `neuron-tool ring decode`: a raw ring dump, the descriptors the engine would take, and
//! the packets that would make it fault.
//!
//! The engine model is the one `neuron-emu` implements (and the vendor notes describe): the
//! head starts at a slot expecting a ring id (the phase); it takes descriptors while their
//! ring id matches, and its expected id goes `+1 mod 4` each time it wraps past the last
//! slot. The first mismatch is where it stops and waits. TX meta descriptors (META set) are
//! not phase-checked: their ring-id bits hold a CME index.
//!
//! Packets (TX only: RX descriptors have no FIRST/LAST) are checked over the descriptors
//! taken, in engine order: a packet starts with FIRST and ends with LAST (CONCAT chains
//! descriptors into one packet, so a FIRST that carries CONCAT or follows one is fine); more
//! TX data descriptors than the arch's
//! `MAX_TX_DESCS_PER_PACKET` or more bytes than the engine's maximum packet size is a fault.

use std::fmt;
use std::io::Write;

use khal::Arch;
use udma_desc::caps::PacketCaps;
use udma_desc::{
    DESC_BYTES, Decoded, Descriptor, Direction, MAX_PACKET_BYTES, Ring, RingDump, RingId, TxLenCtrl,
};

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::RingDecodeArgs;
use crate::error::{Result, ToolError};

/// What the engine does at a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Taken, as the `order`-th descriptor (from 1), with the phase it matched.
    Taken {
        /// Position in engine order, from 1.
        order: u32,
    },
    /// The engine stops here: the ring id is not the one it expects.
    Stop {
        /// What the engine expects at this slot.
        expected: RingId,
    },
    /// Behind the stop: not reached.
    NotReached,
}

/// A packet (or dump) the engine would reject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A packet that starts at `start` and has no LAST before the FIRST of the next packet at
    /// `next` (or before the engine stops, `next = None`).
    FirstWithoutLast {
        /// Slot of the packet's FIRST.
        start: u32,
        /// Slot of the next packet's FIRST, if any.
        next: Option<u32>,
    },
    /// A LAST descriptor outside any packet.
    LastWithoutFirst {
        /// Its slot.
        slot: u32,
    },
    /// A descriptor with neither FIRST nor LAST outside any packet.
    NoFirst {
        /// Its slot.
        slot: u32,
    },
    /// A packet with more TX descriptors than the arch allows.
    TooManyDescriptors {
        /// Slot of the packet's FIRST.
        start: u32,
        /// Descriptors in it.
        count: u32,
        /// The arch limit.
        max: u32,
    },
    /// A packet longer than the engine's maximum packet size.
    TooManyBytes {
        /// Slot of the packet's FIRST.
        start: u32,
        /// Bytes in it.
        bytes: u64,
    },
    /// The dump ends with a partial descriptor.
    TrailingPartial {
        /// Bytes after the last whole descriptor.
        bytes: usize,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::FirstWithoutLast {
                start,
                next: Some(next),
            } => write!(
                f,
                "slot {start}: FIRST without LAST (the next FIRST comes at slot {next})"
            ),
            Problem::FirstWithoutLast { start, next: None } => write!(
                f,
                "slot {start}: FIRST without LAST (no LAST among the descriptors the engine takes; it waits)"
            ),
            Problem::LastWithoutFirst { slot } => write!(f, "slot {slot}: LAST without FIRST"),
            Problem::NoFirst { slot } => {
                write!(
                    f,
                    "slot {slot}: descriptor outside any packet (no FIRST before it)"
                )
            }
            Problem::TooManyDescriptors { start, count, max } => write!(
                f,
                "slot {start}: packet of {count} TX descriptors, above this arch's {max}"
            ),
            Problem::TooManyBytes { start, bytes } => write!(
                f,
                "slot {start}: packet of {bytes} bytes, above the {MAX_PACKET_BYTES}-byte maximum"
            ),
            Problem::TrailingPartial { bytes } => write!(
                f,
                "the dump ends with a partial descriptor of {bytes} bytes (not a multiple of {DESC_BYTES})"
            ),
        }
    }
}

/// The analysis of one dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RingReport {
    /// One mark per slot, in slot order.
    pub marks: Vec<Mark>,
    /// Descriptors taken.
    pub taken: u32,
    /// Complete packets among them (TX only).
    pub packets: u32,
    /// Data bytes in the descriptors taken.
    pub bytes: u64,
    /// Where the engine stops: (slot, ring id found, ring id expected).
    pub stop: Option<(u32, RingId, RingId)>,
    /// What would fault, in engine order.
    pub problems: Vec<Problem>,
}

/// An open packet while walking.
struct Open {
    start: u32,
    descs: u32,
    bytes: u64,
}

/// Walks `descs` as the engine would (from `head`, expecting `phase`) and checks the packets
/// of the descriptors it takes against arch `C`.
///
/// ```
/// use khal_cayman::Cayman;
/// use neuron_tool::cmd::ring::{analyse, Mark, Problem};
/// use udma_desc::{Descriptor, Direction, RingId};
/// // Slot 0: FIRST|LAST, ring id 1, 16 bytes. Slot 1: LAST only. Slot 2: stale ring id 0.
/// let ring = [
///     Descriptor::from_words([0x0d00_0010, 0, 0, 0]),
///     Descriptor::from_words([0x0900_0010, 0, 0, 0]),
///     Descriptor::from_words([0x0c00_0010, 0, 0, 0]),
/// ];
/// let r = analyse::<Cayman>(&ring, 0, Direction::Tx, RingId::INITIAL, 0);
/// assert_eq!(r.taken, 2);
/// assert_eq!(r.marks[2], Mark::Stop { expected: RingId::INITIAL });
/// assert_eq!(r.problems, [Problem::LastWithoutFirst { slot: 1 }]);
/// ```
pub fn analyse<C: PacketCaps>(
    descs: &[Descriptor],
    trailing: usize,
    dir: Direction,
    phase: RingId,
    head: u32,
) -> RingReport {
    let n = u32::try_from(descs.len()).unwrap_or(u32::MAX);
    let mut report = RingReport {
        marks: vec![Mark::NotReached; descs.len()],
        taken: 0,
        packets: 0,
        bytes: 0,
        stop: None,
        problems: Vec::new(),
    };
    let mut expected = phase;
    let mut pos = head;
    let mut open: Option<Open> = None;
    let mut chained = false;
    for _ in 0..n {
        let Some(&d) = descs.get(pos as usize) else {
            break;
        };
        let ctrl = TxLenCtrl::from_bits(d.word0());
        let meta = dir == Direction::Tx && ctrl.meta();
        if !meta && d.ring_id() != expected {
            if let Some(m) = report.marks.get_mut(pos as usize) {
                *m = Mark::Stop { expected };
            }
            report.stop = Some((pos, d.ring_id(), expected));
            break;
        }
        report.taken += 1;
        if let Some(m) = report.marks.get_mut(pos as usize) {
            *m = Mark::Taken {
                order: report.taken,
            };
        }
        let size = u64::from(ctrl.size());
        if !meta {
            report.bytes += size;
        }
        if dir == Direction::Tx {
            packet_step::<C>(&mut report, &mut open, &mut chained, pos, ctrl, size);
        }
        pos += 1;
        if pos == n {
            pos = 0;
            expected = expected.next();
        }
    }
    if let Some(o) = open {
        check_limits::<C>(&mut report.problems, &o);
        report.problems.push(Problem::FirstWithoutLast {
            start: o.start,
            next: None,
        });
    }
    if trailing != 0 {
        report
            .problems
            .push(Problem::TrailingPartial { bytes: trailing });
    }
    report
}

fn check_limits<C: PacketCaps>(problems: &mut Vec<Problem>, o: &Open) {
    if o.descs > C::MAX_TX_DESCS_PER_PACKET {
        problems.push(Problem::TooManyDescriptors {
            start: o.start,
            count: o.descs,
            max: C::MAX_TX_DESCS_PER_PACKET,
        });
    }
    if o.bytes > u64::from(MAX_PACKET_BYTES) {
        problems.push(Problem::TooManyBytes {
            start: o.start,
            bytes: o.bytes,
        });
    }
}

/// One taken TX descriptor through the packet framing.
fn packet_step<C: PacketCaps>(
    report: &mut RingReport,
    open: &mut Option<Open>,
    chained: &mut bool,
    slot: u32,
    ctrl: TxLenCtrl,
    size: u64,
) {
    let data_bytes = if ctrl.meta() { 0 } else { size };
    match open {
        None if !ctrl.first() => {
            report.problems.push(if ctrl.last() {
                Problem::LastWithoutFirst { slot }
            } else {
                Problem::NoFirst { slot }
            });
            *chained = false;
            return;
        }
        // A FIRST inside an open packet is a new packet unless it is chained in: by CONCAT
        // on the previous descriptor, or by CONCAT on itself (seed 004 §1 build_cme_packet
        // puts CONCAT on the data descriptors after a CME meta descriptor).
        Some(o) if ctrl.first() && !*chained && !ctrl.concat() => {
            report.problems.push(Problem::FirstWithoutLast {
                start: o.start,
                next: Some(slot),
            });
            *open = None;
        }
        _ => {}
    }
    let o = open.get_or_insert(Open {
        start: slot,
        descs: 0,
        bytes: 0,
    });
    // The per-arch cap counts data descriptors (seed 004 §1: build_packet's num_blocks).
    o.descs += u32::from(!ctrl.meta());
    o.bytes += data_bytes;
    *chained = ctrl.concat();
    if ctrl.last() {
        if let Some(o) = open.take() {
            check_limits::<C>(&mut report.problems, &o);
        }
        report.packets += 1;
    }
}

/// One descriptor on one line: the control word by field, the other words raw
/// (`desc decode` shows every `meta_ctrl` field).
struct Compact(Descriptor, Direction);

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

/// `ring decode FILE --arch A [--rx] [--phase P] [--head H]`.
pub fn decode(args: &RingDecodeArgs, out: &mut impl Write) -> Result<()> {
    let bytes = std::fs::read(&args.file).map_err(|source| ToolError::ReadFile {
        path: args.file.clone(),
        source,
    })?;
    let phase = u8::try_from(args.phase)
        .ok()
        .and_then(|p| RingId::new(p).ok())
        .ok_or_else(|| {
            ToolError::BadArgument(format!("--phase {} is not a ring id (0..3)", args.phase))
        })?;
    let dump = RingDump::new(&bytes);
    let trailing = dump.remainder().len();
    let descs: Vec<Descriptor> = dump.collect();
    if !descs.is_empty() && usize::try_from(args.head).map_or(true, |h| h >= descs.len()) {
        return Err(ToolError::BadArgument(format!(
            "--head {} is outside the ring of {} descriptors",
            args.head,
            descs.len()
        )));
    }
    let dir = if args.rx {
        Direction::Rx
    } else {
        Direction::Tx
    };

    struct Visit<'a> {
        descs: &'a [Descriptor],
        trailing: usize,
        dir: Direction,
        phase: RingId,
        head: u32,
    }
    impl ArchVisitor for Visit<'_> {
        type Output = (RingReport, &'static str, u32);
        fn visit<A: Arch>(self) -> Self::Output {
            (
                analyse::<A>(self.descs, self.trailing, self.dir, self.phase, self.head),
                A::CODE_NAME,
                A::MAX_TX_DESCS_PER_PACKET,
            )
        }
    }
    let (report, arch, max) = dispatch(
        args.arch.generation(),
        Visit {
            descs: &descs,
            trailing,
            dir,
            phase,
            head: args.head,
        },
    )?;

    writeln!(
        out,
        "ring dump '{}': {} descriptors ({} bytes), {dir} ring, {arch} (at most {max} TX descriptors per packet)",
        args.file.display(),
        descs.len(),
        bytes.len(),
    )?;
    if let Ok(n) = u32::try_from(descs.len()) {
        if let Err(e) = Ring::new(dir, n) {
            writeln!(out, "note: not a ring the driver would build: {e}")?;
        }
    }
    writeln!(
        out,
        "engine head at slot {} expecting ring id {phase} (+1 mod 4 at each wrap)\n",
        args.head
    )?;
    writeln!(out, "slot  engine    descriptor")?;
    for (slot, (d, mark)) in descs.iter().zip(&report.marks).enumerate() {
        let m = match *mark {
            Mark::Taken { order } => format!("take {order}"),
            Mark::Stop { .. } => "STOP".to_string(),
            Mark::NotReached => "-".to_string(),
        };
        write!(out, "{slot:>4}  {m:<8}  {}", Compact(*d, dir))?;
        if let Mark::Stop { expected } = *mark {
            write!(
                out,
                "  <- ring id {}, the engine expects {expected} and waits here",
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
    write!(out, ", {} bytes", report.bytes)?;
    match report.stop {
        Some((slot, found, expected)) => writeln!(
            out,
            "; the engine stops at slot {slot} (ring id {found}, expects {expected})"
        )?,
        None => writeln!(out, "; the engine takes the whole ring")?,
    }
    if report.problems.is_empty() {
        writeln!(out, "problems: none")?;
    } else {
        writeln!(out, "problems ({}):", report.problems.len())?;
        for p in &report.problems {
            writeln!(out, "  {p}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal_cayman::Cayman;
    use khal_sunda::Sunda;

    const RID1: RingId = RingId::INITIAL;

    /// A TX data descriptor with ring id `rid`, `first`/`last`, 4 KiB.
    fn tx(rid: u8, first: bool, last: bool) -> Descriptor {
        let c = TxLenCtrl::new()
            .with_len(4096)
            .with_ring_id(RingId::new(rid).unwrap())
            .with_first(first)
            .with_last(last);
        Descriptor::from_words([c.into_bits(), udma_desc::MetaCtrl::DEFAULT_BITS, 0x1000, 0])
    }

    #[test]
    fn engine_takes_the_matching_prefix_and_stops_at_a_stale_slot() {
        let ring = [
            tx(1, true, true),
            tx(1, true, false),
            tx(1, false, true),
            tx(0, true, true),
        ];
        let r = analyse::<Cayman>(&ring, 0, Direction::Tx, RID1, 0);
        assert_eq!(r.taken, 3);
        assert_eq!(r.packets, 2);
        assert_eq!(r.bytes, 3 * 4096);
        assert_eq!(r.stop, Some((3, RingId::new(0).unwrap(), RID1)));
        assert_eq!(r.marks[0], Mark::Taken { order: 1 });
        assert_eq!(r.marks[3], Mark::Stop { expected: RID1 });
        assert!(r.problems.is_empty(), "{:?}", r.problems);
    }

    #[test]
    fn phase_flips_on_wrap() {
        // Head at slot 2 of 4 expecting 1: slots 2, 3 carry 1, slots 0, 1 the next pass (2).
        let ring = [
            tx(2, true, true),
            tx(2, true, true),
            tx(1, true, true),
            tx(1, true, true),
        ];
        let r = analyse::<Cayman>(&ring, 0, Direction::Tx, RID1, 2);
        assert_eq!(r.taken, 4);
        assert_eq!(r.stop, None);
        assert_eq!(r.marks[2], Mark::Taken { order: 1 });
        assert_eq!(r.marks[0], Mark::Taken { order: 3 });
        // Phase 3 wraps to 0.
        let ring = [tx(0, true, true), tx(3, true, true)];
        let r = analyse::<Cayman>(&ring, 0, Direction::Tx, RingId::new(3).unwrap(), 1);
        assert_eq!(r.taken, 2);
        // Without the flip the engine would stop at slot 0.
        let ring = [tx(1, true, true), tx(1, true, true)];
        let r = analyse::<Cayman>(&ring, 0, Direction::Tx, RID1, 1);
        assert_eq!((r.taken, r.stop.map(|s| s.0)), (1, Some(0)));
    }

    #[test]
    fn malformed_packets_are_named() {
        let ring = [
            tx(1, true, false), // packet at 0 never ends: FIRST at 1
            tx(1, true, true),
            tx(1, false, true),  // LAST without FIRST
            tx(1, false, false), // outside any packet
            tx(1, true, false),  // open at the end
        ];
        let r = analyse::<Cayman>(&ring, 5, Direction::Tx, RID1, 0);
        assert_eq!(
            r.problems,
            [
                Problem::FirstWithoutLast {
                    start: 0,
                    next: Some(1)
                },
                Problem::LastWithoutFirst { slot: 2 },
                Problem::NoFirst { slot: 3 },
                Problem::FirstWithoutLast {
                    start: 4,
                    next: None
                },
                Problem::TrailingPartial { bytes: 5 },
            ]
        );
    }

    #[test]
    fn packet_length_limit_is_the_arch_one() {
        // 66 descriptors: too many for V3 (0x41 = 65), fine for V2 (0x80); 4 KiB each is
        // 270,336 bytes, under the byte limit.
        let mut ring = vec![tx(1, false, false); 66];
        ring[0] = tx(1, true, false);
        ring[65] = tx(1, false, true);
        let v3 = analyse::<Cayman>(&ring, 0, Direction::Tx, RID1, 0);
        assert_eq!(
            v3.problems,
            [Problem::TooManyDescriptors {
                start: 0,
                count: 66,
                max: 0x41
            }]
        );
        assert!(
            analyse::<Sunda>(&ring, 0, Direction::Tx, RID1, 0)
                .problems
                .is_empty()
        );
    }

    #[test]
    fn meta_descriptors_skip_the_phase_check_and_chain() {
        let cme = udma_desc::cme_descriptor(3).unwrap(); // ring-id bits = CME index 3
        let ring = [cme, tx(1, false, true)];
        let r = analyse::<Cayman>(&ring, 0, Direction::Tx, RID1, 0);
        assert_eq!((r.taken, r.packets, r.bytes), (2, 1, 4096));
        assert!(r.problems.is_empty(), "{:?}", r.problems);
    }

    #[test]
    fn rx_rings_have_no_packet_framing() {
        let ring = [tx(1, false, false), tx(1, false, false)];
        let r = analyse::<Cayman>(&ring, 0, Direction::Rx, RID1, 0);
        assert_eq!(r.taken, 2);
        assert!(r.problems.is_empty());
    }
}
