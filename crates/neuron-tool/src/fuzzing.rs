//! The fuzz targets' bodies (feature `test-utils`; not public API): the tool's untrusted
//! inputs (a ring dump and its flags, a batch stream, an ioctl request number and the text
//! it is typed as), each run as the command would and checked against what must hold for
//! every input. A broken invariant panics, which is what the fuzzer reports.
//!
//! `fuzz/fuzz_targets/{ring_dump,batch,ioctl_decode}.rs` call these; `tests/fuzz_seeds.rs`
//! runs them over the checked-in seeds and a pseudo-random sweep, so the normal test run
//! covers what the fuzzer does.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use khal::udma::EngineParams;
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;
use neuron_emu::engine_walk::{RingPos, WalkRules};
use neuron_emu::rules_after_init;
use udma_desc::caps::PacketCaps;
use udma_desc::{DESC_BYTES, Direction, RingId};

use crate::batch::{self, BatchError, MAX_LINE};
use crate::cmd::ring::{Mark, Outcome, WalkError, analyse, write_report};
use crate::dump::{DumpError, parse_dump};
use crate::quote::QUOTE_MAX;

/// Bytes of a [`ring_case`] input before the dump: flags, head, posted.
pub const RING_HEADER: usize = 13;

/// The walk rules of each arch after bring-up, made once (a scratch engine each).
fn rules(arch: u8) -> &'static WalkRules {
    static RULES: OnceLock<[WalkRules; 3]> = OnceLock::new();
    let all = RULES.get_or_init(|| {
        let of = |r: Result<WalkRules, _>| r.unwrap_or_else(|e| panic!("bring-up rules: {e}"));
        [
            of(rules_after_init::<Sunda>(EngineParams::for_arch::<Sunda>())),
            of(rules_after_init::<Cayman>(
                EngineParams::for_arch::<Cayman>(),
            )),
            of(rules_after_init::<Mariana>(
                EngineParams::for_arch::<Mariana>(),
            )),
        ]
    });
    &all[usize::from(arch % 3)]
}

/// The flags of a [`ring_case`] input.
#[derive(Clone, Copy, Debug)]
pub struct RingFlags {
    /// 0 sunda, 1 cayman, 2 mariana (byte 0 bits 1:0, 3 = cayman).
    pub arch: u8,
    /// Walk as an RX ring (bit 2).
    pub rx: bool,
    /// Expected ring id at the head (bits 4:3).
    pub phase: u8,
    /// `--posted` given (bit 5).
    pub posted: bool,
    /// Head and posted taken raw, possibly off the ring (bit 6); else reduced onto it.
    pub raw: bool,
}

/// Encodes a [`ring_case`] input: flags, head and posted words, then the dump.
pub fn ring_input(f: RingFlags, head: u32, posted: u64, dump: &[u8]) -> Vec<u8> {
    let flags = (f.arch & 3)
        | u8::from(f.rx) << 2
        | (f.phase & 3) << 3
        | u8::from(f.posted) << 5
        | u8::from(f.raw) << 6;
    let mut v = vec![flags];
    v.extend_from_slice(&head.to_le_bytes());
    v.extend_from_slice(&posted.to_le_bytes());
    v.extend_from_slice(dump);
    v
}

/// `ring decode` over arbitrary bytes: [`RING_HEADER`] bytes of flags (byte 0, as
/// [`RingFlags`]), head (u32 LE) and posted (u64 LE), then the dump. Parses, walks and
/// prints as the command does and checks the dump, the walk and the report.
pub fn ring_case(data: &[u8]) {
    let (header, dump) = data.split_at(data.len().min(RING_HEADER));
    let mut h = [0u8; RING_HEADER];
    h.get_mut(..header.len())
        .unwrap_or_default()
        .copy_from_slice(header);
    let f = h[0];
    let arch = f & 3;
    let rx = f & 4 != 0;
    let phase = RingId::new((f >> 3) & 3).unwrap_or(RingId::INITIAL);
    let head_raw = u32::from_le_bytes([h[1], h[2], h[3], h[4]]);
    let posted_raw = u64::from_le_bytes([h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12]]);
    let descs = match parse_dump(dump) {
        Ok(d) => d,
        Err(e) => return check_dump_error(dump, e),
    };
    assert_eq!(descs.len() * DESC_BYTES, dump.len());
    let slots = u32::try_from(descs.len()).unwrap_or(u32::MAX);
    let raw = f & 0x40 != 0;
    let head = if raw { head_raw } else { head_raw % slots };
    let posted = (f & 0x20 != 0).then(|| {
        if raw {
            posted_raw
        } else {
            posted_raw % (u64::from(slots) + 1)
        }
    });
    let dir = if rx { Direction::Rx } else { Direction::Tx };
    let at = RingPos {
        index: head,
        ring_id: phase,
    };
    match analyse(&descs, dir, at, posted, rules(arch)) {
        Err(WalkError::Head { head: h, slots: s }) => assert!(h >= s && s == slots),
        Err(WalkError::Posted {
            posted: p,
            slots: s,
        }) => {
            assert!(p > u64::from(s) && s == slots && head < slots)
        }
        Err(e) => panic!("a dump parse_dump took was refused by the walk: {e}"),
        Ok(r) => {
            check_report(&r, slots);
            let mut out = Vec::new();
            write_report(&mut out, &descs, dir, &r).unwrap_or_else(|e| panic!("{e}"));
            let text = String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"));
            // Heading, one line per slot, a blank line, the summary, the fault's cause.
            let lines = text.lines().count();
            let fault = usize::from(matches!(r.outcome, Outcome::Faults(_)));
            assert_eq!(lines, descs.len() + 3 + fault, "{text}");
        }
    }
}

/// A refused dump is refused for what it is.
fn check_dump_error(dump: &[u8], e: DumpError) {
    let len = dump.len();
    match e {
        DumpError::Empty => assert_eq!(len, 0),
        DumpError::Partial { len: l, trailing } => {
            assert!(l == len as u64 && trailing == len % DESC_BYTES && trailing != 0)
        }
        DumpError::HexText => assert!(
            dump.iter()
                .all(|b| b.is_ascii_hexdigit() || b.is_ascii_whitespace())
        ),
        DumpError::TooLarge => assert!(len as u64 > crate::dump::MAX_DUMP_BYTES),
    }
}

/// What holds for every walk: counts within the posted count and the ring, and the marks
/// agreeing with them.
fn check_report(r: &crate::cmd::ring::RingReport, slots: u32) {
    assert_eq!(r.marks.len(), slots as usize);
    assert!(r.posted <= u64::from(slots) && r.scan.count <= slots);
    assert!(u64::from(r.taken) <= r.posted && r.packets <= r.taken);
    assert!(r.bytes <= u64::from(r.taken) * 65_536);
    let orders: BTreeSet<u32> = r
        .marks
        .iter()
        .filter_map(|m| match m {
            Mark::Taken { order } => Some(*order),
            _ => None,
        })
        .collect();
    assert_eq!(orders.len(), r.taken as usize, "each taken slot once");
    assert!(orders.iter().copied().eq(1..=r.taken), "orders 1..=taken");
    if r.outcome == Outcome::Done {
        assert_eq!(u64::from(r.taken), r.posted, "done: every posted one taken");
    }
}

/// `desc build --batch` over arbitrary bytes: byte 0 picks the arch (as [`ring_case`]),
/// the rest is stdin. Checks one output line per input line, each `ok` line a pair that
/// decodes back, each `err` line short and escaped, and a too-long line refused where it is.
pub fn batch_case(data: &[u8]) {
    let (arch, input) = data.split_first().map_or((0, data), |(a, r)| (*a, r));
    match arch % 3 {
        0 => batch_as::<Sunda>(input),
        1 => batch_as::<Cayman>(input),
        _ => batch_as::<Mariana>(input),
    }
}

fn batch_as<C: PacketCaps>(input: &[u8]) {
    let mut out = Vec::new();
    let result = batch::run::<C, _, _>(input, &mut out);
    let text = String::from_utf8(out).unwrap_or_else(|e| panic!("output is not UTF-8: {e}"));
    let written: Vec<&str> = text.lines().collect();
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.is_empty() || input.ends_with(b"\n") {
        lines.pop();
    }
    let answered = match result {
        Ok(stats) => {
            assert_eq!(stats.lines, lines.len() as u64);
            assert_eq!(stats.ok + stats.err, stats.lines);
            assert_eq!(stats.first_err.is_some(), stats.err > 0);
            assert!(lines.iter().all(|l| l.len() <= MAX_LINE));
            lines.len()
        }
        Err(BatchError::LineTooLong { line, head }) => {
            let n = usize::try_from(line).unwrap_or(usize::MAX) - 1;
            let long = lines.get(n).copied().unwrap_or_default();
            assert!(long.len() > MAX_LINE && head.len() <= QUOTE_MAX);
            assert!(long.starts_with(&head));
            assert!(lines.iter().take(n).all(|l| l.len() <= MAX_LINE));
            n
        }
        Err(BatchError::Io(e)) => panic!("reading a slice failed: {e}"),
    };
    assert_eq!(written.len(), answered, "one output line per input line");
    for (l, w) in lines.iter().zip(&written) {
        check_batch_line::<C>(l, w);
    }
}

/// An output line agrees with [`batch::parse_line`] on its input line.
fn check_batch_line<C: PacketCaps>(line: &[u8], written: &str) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let built = batch::parse_line(line)
        .ok()
        .and_then(|(tx, rx, req)| udma_desc::build_copy_pair::<C>(tx, rx, &req).ok());
    match (built, written.strip_prefix("ok ")) {
        (Some(pair), Some(hex)) => {
            let (txh, rxh) = hex.split_once(' ').unwrap_or_default();
            assert_eq!(crate::hex::parse_desc(txh), Ok(pair.tx));
            assert_eq!(crate::hex::parse_desc(rxh), Ok(pair.rx));
        }
        (None, None) => {
            assert!(written.starts_with("err "), "{written}");
            // The reason quotes at most one token of QUOTE_MAX bytes, escaped.
            assert!(written.len() <= 120 + 4 * QUOTE_MAX, "{written}");
            assert!(!written.chars().any(char::is_control), "{written:?}");
        }
        (b, w) => panic!("parse_line and the batch disagree: {b:?} vs {w:?}"),
    }
}

/// `ioctl decode` over arbitrary bytes: the first four (LE, zero-padded) as the request,
/// and all of them as the text a user types (`0x` hex or decimal). Checks the printed
/// fields against the `_IOC` layout (`asm-generic/ioctl.h`: nr 7:0, type 15:8, size 29:16,
/// dir 31:30 with write 1 and read 2).
pub fn ioctl_case(data: &[u8]) {
    let mut w = [0u8; 4];
    for (d, s) in w.iter_mut().zip(data) {
        *d = *s;
    }
    check_ioctl(u32::from_le_bytes(w));
    if let Ok(text) = std::str::from_utf8(data) {
        match crate::cli::parse_u64(text) {
            Ok(v) => {
                let t = text.trim();
                let hex = t.starts_with("0x") || t.starts_with("0X");
                assert!(hex || t.bytes().all(|b| b.is_ascii_digit()), "{t:?}");
                if let Ok(code) = u32::try_from(v) {
                    check_ioctl(code);
                }
            }
            Err(why) => {
                assert!(why.len() <= 80 + 4 * QUOTE_MAX, "{why}");
                assert!(!why.chars().any(char::is_control), "{why:?}");
            }
        }
    }
}

fn check_ioctl(code: u32) {
    for release in ndl_abi::Release::ALL {
        check_ioctl_in(release, code);
    }
}

fn check_ioctl_in(release: ndl_abi::Release, code: u32) {
    let mut out = Vec::new();
    crate::cmd::ioctl::decode(release, code, &mut out).unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"));
    let dir = ["none", "W", "R", "WR"][(code >> 30) as usize];
    let want = format!(
        "{code:#010X} dir {dir} nr {} size {} type ",
        code & 0xff,
        (code >> 16) & 0x3fff
    );
    let first = text.lines().next().unwrap_or_default();
    assert!(first.starts_with(&want), "{first} / {want}");
    let second = text.lines().nth(1).unwrap_or_default();
    if (code >> 8) & 0xff == u32::from(b'N') {
        assert!(
            second.starts_with("name: ") || second.starts_with("no "),
            "{text}"
        );
    } else {
        assert_eq!(
            second, "not a Neuron request: the type byte is not 'N'",
            "{text}"
        );
    }
    assert_eq!(text.lines().count(), 2, "{text}");
}
