//! `desc build --batch`: one copy pair per input line, a million lines in well under a second.
//!
//! Input lines are `tx_ring rx_ring src dst size barrier int` (fields separated by spaces or
//! tabs; numbers `0x` hex or decimal; barrier 0 none, 1 dmb, 2 write-barrier, 3 sow; int 0/1).
//! Each line gives exactly one output line, `ok <txhex> <rxhex>` or `err <reason>`, so the
//! output lines up with the input.
//!
//! Bad input is bounded: a line may be at most [`MAX_LINE`] bytes, and a longer one ends the
//! batch with [`BatchError::LineTooLong`] (stdin may be `/dev/zero`: no newline ever comes,
//! so the line is refused rather than buffered). A run whose lines are all read returns its
//! [`BatchStats`]; the command turns any `err` line into a non-zero exit.
//!
//! Speed comes from doing nothing per line that costs: stdin is read in 1 MiB blocks, lines
//! are found and split by hand, numbers parsed by hand, descriptors built by
//! [`udma_desc::build_copy_pair`] on the stack and hex-encoded by [`crate::hex`] into a
//! 69-byte stack line, written into a 1 MiB `BufWriter`. No allocation per line; the
//! only `core::fmt` use is for the rare `err` line.

use std::io::{self, BufWriter, ErrorKind, Read, Write};

use udma_desc::caps::PacketCaps;
use udma_desc::{Barrier, CopyRequest, RingId, build_copy_pair};

use crate::hex::{DESC_HEX_LEN, HEX_VALUE, NOT_HEX, encode_desc};
use crate::quote::{QUOTE_MAX, quote};

/// Size of the input block and of the output buffer.
const IO_BLOCK: usize = 1 << 20;

/// Longest input line, in bytes (without its newline): POSIX's `{LINE_MAX}` floor
/// (`_POSIX2_LINE_MAX`, 2048), the line every POSIX text utility must take. A well-formed
/// line is at most seven 20-digit numbers and six blanks, 146 bytes; the rest is room for
/// alignment blanks and leading zeros.
pub const MAX_LINE: usize = 2048;

const _: () = assert!(MAX_LINE < IO_BLOCK, "a whole line must fit one input block");

/// The field names, in input order (used in error reasons).
const FIELDS: [&str; 7] = ["tx_ring", "rx_ring", "src", "dst", "size", "barrier", "int"];

/// What a batch run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchStats {
    /// Input lines read.
    pub lines: u64,
    /// `ok` lines written.
    pub ok: u64,
    /// `err` lines written.
    pub err: u64,
    /// The first `err` line: its number (from 1) and its reason.
    pub first_err: Option<(u64, String)>,
}

/// Why a batch stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A line longer than [`MAX_LINE`]: the batch ends there.
    #[error(
        "batch line {line} is longer than {MAX_LINE} bytes (POSIX LINE_MAX; a well-formed \
         line is under 150), it starts {}",
        quote(head)
    )]
    LineTooLong {
        /// Its number, from 1.
        line: u64,
        /// Its first bytes: what [`quote`] shows whole (the sentence says the line goes on).
        head: Vec<u8>,
    },
    /// Reading stdin or writing stdout failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Why one line gave `err` (borrowing the offending token, so nothing is allocated).
#[derive(Debug, PartialEq, Eq)]
pub enum LineError<'a> {
    /// Fewer than seven fields.
    Missing(&'static str),
    /// More than seven fields.
    Extra(&'a [u8]),
    /// A field that is not a `0x` hex or decimal number (or overflows 64 bits).
    NotNumber(&'static str, &'a [u8]),
    /// A ring id above 3.
    RingId(&'static str, u64),
    /// A size that does not even fit 32 bits.
    Size(u64),
    /// A barrier above 3.
    Barrier(u64),
    /// An `int` flag other than 0 or 1.
    Int(u64),
    /// `udma-desc` refused the copy (size 0, above 64 KiB, SOW on V2).
    Desc(udma_desc::Error),
}

impl core::fmt::Display for LineError<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            LineError::Missing(name) => write!(
                f,
                "missing field {name} (expected: tx_ring rx_ring src dst size barrier int)"
            ),
            LineError::Extra(tok) => {
                write!(f, "unexpected extra field {} after int", quote(tok))
            }
            LineError::NotNumber(name, tok) => write!(
                f,
                "field {name} {} is not a 64-bit number (0x hex or decimal)",
                quote(tok)
            ),
            LineError::RingId(name, v) => write!(f, "{name} {v} above 3"),
            LineError::Size(v) => write!(f, "transfer size {v} above 65536"),
            LineError::Barrier(v) => {
                write!(
                    f,
                    "barrier {v} invalid (0 none, 1 dmb, 2 write-barrier, 3 sow)"
                )
            }
            LineError::Int(v) => write!(f, "int {v} is not 0 or 1"),
            LineError::Desc(e) => write!(f, "{e}"),
        }
    }
}

/// Parses a `0x` hex or decimal number; `None` on anything else or on overflow.
///
/// ```
/// use neuron_tool::batch::parse_number;
/// assert_eq!(parse_number(b"0xFFFFffffFFFFffff"), Some(u64::MAX));
/// assert_eq!(parse_number(b"4096"), Some(4096));
/// assert_eq!(parse_number(b"0x"), None);
/// assert_eq!(parse_number(b"18446744073709551616"), None);
/// assert_eq!(parse_number(b"12 34"), None);
/// ```
pub fn parse_number(tok: &[u8]) -> Option<u64> {
    let mut rest = tok;
    match next_number(&mut rest) {
        Some((t, v)) if t.len() == tok.len() => v,
        _ => None,
    }
}

/// Takes the next blank-separated field off `rest` and parses it as a number in the same
/// pass: `(token, value)`, value `None` when the token is not a `0x` hex or decimal `u64`.
/// `None` when only blanks are left.
#[inline]
fn next_number<'a>(rest: &mut &'a [u8]) -> Option<(&'a [u8], Option<u64>)> {
    let mut s = *rest;
    while let [b' ' | b'\t', tail @ ..] = s {
        s = tail;
    }
    if s.is_empty() {
        *rest = s;
        return None;
    }
    let start = s;
    let (hex, mut body) = match s {
        [b'0', b'x' | b'X', tail @ ..] => (true, tail),
        _ => (false, s),
    };
    let (mut v, mut ok, mut digits) = (0u64, true, 0u32);
    while let [c, tail @ ..] = body {
        let c = *c;
        if c == b' ' || c == b'\t' {
            break;
        }
        if hex {
            let d = HEX_VALUE[usize::from(c)];
            ok &= d != NOT_HEX;
            v = (v << 4) | u64::from(d & 0xf);
        } else {
            let d = c.wrapping_sub(b'0');
            ok &= d < 10;
            match v.checked_mul(10).and_then(|x| x.checked_add(u64::from(d))) {
                Some(x) => v = x,
                None => ok = false,
            }
        }
        digits += 1;
        body = tail;
    }
    ok &= digits > 0 && (!hex || digits <= 16);
    let tok = start.get(..start.len() - body.len()).unwrap_or(start);
    *rest = body;
    Some((tok, ok.then_some(v)))
}

/// Parses one input line into the copy it describes.
///
/// ```
/// use neuron_tool::batch::parse_line;
/// let (tx, rx, req) = parse_line(b"1 2 0x1000 0x2000 4096 1 0").unwrap();
/// assert_eq!((tx.get(), rx.get(), req.size), (1, 2, 4096));
/// assert!(parse_line(b"1 2 0x1000").is_err());
/// ```
pub fn parse_line(line: &[u8]) -> Result<(RingId, RingId, CopyRequest), LineError<'_>> {
    let mut rest = line;
    let mut vals = [0u64; 7];
    for (slot, name) in vals.iter_mut().zip(FIELDS) {
        let (tok, v) = next_number(&mut rest).ok_or(LineError::Missing(name))?;
        *slot = v.ok_or(LineError::NotNumber(name, tok))?;
    }
    if let Some((extra, _)) = next_number(&mut rest) {
        return Err(LineError::Extra(extra));
    }
    let [tx_ring, rx_ring, src, dst, size, barrier, int] = vals;
    let ring = |name, v: u64| {
        u8::try_from(v)
            .ok()
            .and_then(|b| RingId::new(b).ok())
            .ok_or(LineError::RingId(name, v))
    };
    let tx = ring("tx_ring", tx_ring)?;
    let rx = ring("rx_ring", rx_ring)?;
    let size32 = u32::try_from(size).map_err(|_| LineError::Size(size))?;
    let barrier = u32::try_from(barrier)
        .ok()
        .and_then(|b| Barrier::from_raw(b).ok())
        .ok_or(LineError::Barrier(barrier))?;
    let dst_interrupt = match int {
        0 => false,
        1 => true,
        other => return Err(LineError::Int(other)),
    };
    let req = CopyRequest::new(src, dst, size32)
        .with_barrier(barrier)
        .with_dst_interrupt(dst_interrupt);
    Ok((tx, rx, req))
}

/// Builds the output of one line into `w`; `Err` is the line's refusal, already written.
fn build_line<'l, C: PacketCaps, W: Write>(
    line: &'l [u8],
    w: &mut W,
) -> io::Result<Result<(), LineError<'l>>> {
    let built = parse_line(line)
        .and_then(|(tx, rx, req)| build_copy_pair::<C>(tx, rx, &req).map_err(LineError::Desc));
    match built {
        Ok(pair) => {
            // "ok " + 32 + " " + 32 + "\n"
            let mut out = [0u8; 3 + DESC_HEX_LEN + 1 + DESC_HEX_LEN + 1];
            let (head, rest) = out.split_at_mut(3);
            head.copy_from_slice(b"ok ");
            let (txh, rest) = rest.split_at_mut(DESC_HEX_LEN);
            let (sep, rest) = rest.split_at_mut(1);
            let (rxh, nl) = rest.split_at_mut(DESC_HEX_LEN);
            if let (Ok(txh), Ok(rxh)) = (
                <&mut [u8; DESC_HEX_LEN]>::try_from(txh),
                <&mut [u8; DESC_HEX_LEN]>::try_from(rxh),
            ) {
                encode_desc(&pair.tx, txh);
                encode_desc(&pair.rx, rxh);
            }
            sep.copy_from_slice(b" ");
            nl.copy_from_slice(b"\n");
            w.write_all(&out)?;
            Ok(Ok(()))
        }
        Err(e) => {
            writeln!(w, "err {e}")?;
            Ok(Err(e))
        }
    }
}

/// Handles one line (without its `\n`) and counts it; refuses one above [`MAX_LINE`].
fn line<C: PacketCaps, W: Write>(
    l: &[u8],
    w: &mut W,
    stats: &mut BatchStats,
) -> Result<(), BatchError> {
    stats.lines += 1;
    if l.len() > MAX_LINE {
        return Err(too_long(stats.lines, l));
    }
    let l = l.strip_suffix(b"\r").unwrap_or(l);
    match build_line::<C, _>(l, w)? {
        Ok(()) => stats.ok += 1,
        Err(e) => {
            stats.err += 1;
            if stats.first_err.is_none() {
                stats.first_err = Some((stats.lines, e.to_string()));
            }
        }
    }
    Ok(())
}

/// The refusal of line `number`, which starts with `l`.
#[cold]
fn too_long(number: u64, l: &[u8]) -> BatchError {
    BatchError::LineTooLong {
        line: number,
        head: l.get(..QUOTE_MAX).unwrap_or(l).to_vec(),
    }
}

/// Runs the batch: every line of `input` (a final line without newline counts; a trailing
/// `\r` is dropped) gives one line on `output`. Generic over the arch's packet caps, so a
/// SOW line is refused on V2 and accepted on V3/V4. Holds one 1 MiB block of input
/// whatever the input: a line above [`MAX_LINE`] bytes ends the run with
/// [`BatchError::LineTooLong`] (the lines before it are written).
pub fn run<C: PacketCaps, R: Read, W: Write>(
    mut input: R,
    output: W,
) -> Result<BatchStats, BatchError> {
    let mut w = BufWriter::with_capacity(IO_BLOCK, output);
    let mut stats = BatchStats::default();
    let mut buf = vec![0u8; IO_BLOCK];
    // Bytes [0, filled) hold input not yet consumed: the start of one line, at most
    // MAX_LINE bytes, so the block always has room for the next read. On an early return
    // the `BufWriter`'s drop writes out the lines before the refused one.
    let mut filled = 0usize;
    loop {
        let n = match input.read(buf.get_mut(filled..).unwrap_or_default()) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        let data = buf.get(..filled + n).unwrap_or_default();
        if n == 0 {
            if !data.is_empty() {
                line::<C, _>(data, &mut w, &mut stats)?;
            }
            break;
        }
        let mut start = 0usize;
        // Scan only the new bytes for newlines; the old ones held none.
        let mut scan = filled;
        while let Some(pos) = data.get(scan..).and_then(|d| memchr::memchr(b'\n', d)) {
            let end = scan + pos;
            line::<C, _>(data.get(start..end).unwrap_or_default(), &mut w, &mut stats)?;
            start = end + 1;
            scan = start;
        }
        let rest = data.get(start..).unwrap_or_default();
        if rest.len() > MAX_LINE {
            return Err(too_long(stats.lines + 1, rest));
        }
        let total = filled + n;
        buf.copy_within(start..total, 0);
        filled = total - start;
    }
    w.flush()?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal_cayman::Cayman;
    use khal_sunda::Sunda;

    fn batch<C: PacketCaps>(input: &str) -> (String, BatchStats) {
        let mut out = Vec::new();
        let stats = run::<C, _, _>(input.as_bytes(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), stats)
    }

    #[test]
    fn one_output_line_per_input_line() {
        let (out, stats) =
            batch::<Cayman>("1 1 0x1000 0x2000 65536 1 0\n\n0 0 0 0 0 0 0\r\n1 1 0x1 0x2 4 0 1");
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            "ok 0000004d030008010010000000000000 00000001000000000020000000000000"
        );
        assert!(lines[1].starts_with("err missing field tx_ring"));
        assert!(lines[2].starts_with("err transfer size 0"), "{}", lines[2]);
        assert!(lines[3].starts_with("ok "));
        assert_eq!((stats.lines, stats.ok, stats.err), (4, 2, 2));
        let (line, reason) = stats.first_err.unwrap();
        assert_eq!(line, 2);
        assert!(reason.starts_with("missing field tx_ring"), "{reason}");
    }

    #[test]
    fn reasons_name_the_bad_field() {
        let cases = [
            ("1 1 0x1000 0x2000", "missing field size"),
            ("1 1 0x1000 0x2000 1 0 0 9", "extra field '9'"),
            ("1 1 0xZZ 0x2000 1 0 0", "field src '0xZZ'"),
            ("4 1 0 0 1 0 0", "tx_ring 4 above 3"),
            ("1 7 0 0 1 0 0", "rx_ring 7 above 3"),
            ("1 1 0 0 65537 0 0", "above 65536"),
            ("1 1 0 0 4294967296 0 0", "above 65536"),
            ("1 1 0 0 1 4 0", "barrier 4 invalid"),
            ("1 1 0 0 1 0 2", "int 2"),
        ];
        for (line, want) in cases {
            let (out, _) = batch::<Cayman>(line);
            assert!(
                out.starts_with("err ") && out.contains(want),
                "{line}: {out}"
            );
        }
    }

    #[test]
    fn sow_depends_on_the_arch() {
        let line = "1 1 0x1000 0x2000 4096 3 0\n";
        assert!(batch::<Cayman>(line).0.starts_with("ok "));
        let (out, _) = batch::<Sunda>(line);
        assert!(out.starts_with("err ") && out.contains("SOW"), "{out}");
    }

    #[test]
    fn lines_split_across_reads_and_longer_than_the_buffer() {
        // A reader that returns one byte at a time exercises every split point.
        struct Drip<'a>(&'a [u8]);
        impl Read for Drip<'_> {
            fn read(&mut self, b: &mut [u8]) -> io::Result<usize> {
                match (self.0.split_first(), b.first_mut()) {
                    (Some((c, rest)), Some(slot)) => {
                        *slot = *c;
                        self.0 = rest;
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let input = "1 1 0x10 0x20 16 0 0\n2 2 0x10 0x20 16 0 0\n";
        let mut out = Vec::new();
        run::<Cayman, _, _>(Drip(input.as_bytes()), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);

        // A line of MAX_LINE bytes (padded with blanks) is taken, split across reads too.
        let at_max = format!("{:<MAX_LINE$}\n", "1 1 0x10 0x20 16 0 0");
        let (out, stats) = batch::<Cayman>(&at_max.repeat(3));
        assert_eq!((stats.ok, stats.err), (3, 0), "{out}");
        let mut out = Vec::new();
        run::<Cayman, _, _>(Drip(at_max.as_bytes()), &mut out).unwrap();
        assert!(out.starts_with(b"ok "));
    }

    /// Refuses `input` as too long at line `want`, with the lines before it written.
    fn too_long_at(input: impl Read, want: u64, before: usize) {
        let mut out = Vec::new();
        match run::<Cayman, _, _>(input, &mut out) {
            Err(BatchError::LineTooLong { line, head }) => {
                assert_eq!(line, want);
                assert_eq!(head.len(), QUOTE_MAX);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), before);
    }

    #[test]
    fn a_line_longer_than_line_max_ends_the_batch_without_growing() {
        let ok = "1 1 0x10 0x20 16 0 0\n";
        // One byte over, with its newline in the same block, at the end of input, and a
        // stream that never sends a newline (stdin from /dev/zero).
        let over = format!("{ok}{:<width$}\n{ok}", "1", width = MAX_LINE + 1);
        too_long_at(over.as_bytes(), 2, 1);
        let last = format!("{ok}{ok}{}", "9".repeat(MAX_LINE + 1));
        too_long_at(last.as_bytes(), 3, 2);
        too_long_at(io::repeat(0).take(64 << 20), 1, 0);
        let e = run::<Cayman, _, _>(io::repeat(0), io::sink()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "batch line 1 is longer than 2048 bytes (POSIX LINE_MAX; a well-formed line \
                 is under 150), it starts '{}'",
                r"\0".repeat(QUOTE_MAX)
            )
        );
    }

    #[test]
    fn refusals_quote_the_token_short_and_escaped() {
        // Under MAX_LINE but far over what an error should echo.
        let token = format!("\0{}", "z".repeat(1000));
        let (out, stats) = batch::<Cayman>(&format!("1 1 {token} 0 1 0 0"));
        assert_eq!(stats.err, 1);
        assert_eq!(
            out,
            format!(
                "err field src '\\0{}'... (1001 bytes) is not a 64-bit number (0x hex or \
                 decimal)\n",
                "z".repeat(QUOTE_MAX - 1)
            )
        );
    }
}
