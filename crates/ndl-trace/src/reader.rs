//! The trace reader: the header, then one record at a time, each bounded before a byte of
//! it is stored and checked (checksum, kinds, flags, lengths, reserved bytes) before an
//! [`Event`] is handed out. Nothing in a file can make it panic or allocate more than the
//! bytes the file really has (and at most [`MAX_RECORD`] for one record).

use std::collections::HashMap;
use std::io::{self, Read};
use std::path::PathBuf;

use ndl_abi::Release;

use crate::crc::crc32;
use crate::error::TraceError;
use crate::event::{Buffer, Call, Common, Event, Header, Ioctl, Recorder};
use crate::format::{
    BUFFER_FIXED, COMMON, END_FIXED, HEADER_FIXED, IOCTL_FIXED, MAGIC, MAX_ARG, MAX_BUFFERS,
    MAX_CAP, MAX_PATH, MAX_RECORD, MAX_RELEASE, MMAP_FIXED, MUNMAP_FIXED, NO_DEVICE, OPEN_FIXED,
    RECORD_HEADER, VERSION, buffer_flag, ioctl_flag, kind,
};

/// Little-endian reads from a checked slice: every read that runs past the end is `None`.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N).and_then(|s| s.try_into().ok())
    }
    fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|[b]| b)
    }
    fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }
    fn i32(&mut self) -> Option<i32> {
        self.array().map(i32::from_le_bytes)
    }
    fn i64(&mut self) -> Option<i64> {
        self.array().map(i64::from_le_bytes)
    }
    fn rest(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }
}

/// Reads up to `want` bytes into `buf` (cleared first), growing it only as bytes arrive.
fn read_up_to(src: &mut impl Read, want: usize, buf: &mut Vec<u8>) -> io::Result<usize> {
    buf.clear();
    let want64 = u64::try_from(want).unwrap_or(u64::MAX);
    src.take(want64).read_to_end(buf)
}

/// Reads a trace: [`TraceReader::new`] checks the header, [`TraceReader::next_event`] hands
/// out one event at a time.
///
/// ```
/// use ndl_trace::{Call, Common, Event, Header, Recorder, TraceReader, TraceWriter};
///
/// let header = Header {
///     recorder: Recorder::Library,
///     generation: Some(3),
///     release: ndl_abi::Release::DEFAULT,
///     cap: 4096,
///     pid: 1,
///     start_wall_ns: 0,
///     start_mono_ns: 0,
///     device_dir: "/dev".into(),
/// };
/// let mut w = TraceWriter::new(Vec::new(), &header)?;
/// let common = Common { pid: 7, tid: 7, device: Some(0), fd: 3, ..Common::default() };
/// w.write(&Event { common, call: Call::Close })?;
/// let bytes = w.finish(7)?;
///
/// let mut r = TraceReader::new(&bytes[..])?;
/// let (n, e) = r.next_event()?.expect("one event");
/// assert_eq!((n, e.call), (1, Call::Close));
/// assert!(r.next_event()?.is_some()); // the end record
/// assert!(r.next_event()?.is_none());
/// assert!(r.complete());
/// // Any cut inside a record is refused with a typed error.
/// let cut = &bytes[..bytes.len() - 1];
/// let mut r = TraceReader::new(cut)?;
/// r.next_event()?;
/// assert!(matches!(r.next_event(), Err(ndl_trace::TraceError::Truncated { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TraceReader<R> {
    src: R,
    header: Header,
    body: Vec<u8>,
    /// Byte offset of the next record.
    offset: u64,
    /// Events read so far.
    events: u64,
    /// Per writer (the process for the interposer, the recorder otherwise): events seen, and
    /// the count its end record gave.
    writers: HashMap<u32, (u64, Option<u64>)>,
}

impl<R: Read> TraceReader<R> {
    /// Reads and checks the header.
    pub fn new(mut src: R) -> Result<Self, TraceError> {
        let mut buf = Vec::new();
        read_up_to(&mut src, 12, &mut buf)?;
        let magic = buf.get(..MAGIC.len().min(buf.len())).unwrap_or_default();
        if !MAGIC.starts_with(magic) {
            return Err(TraceError::NotATrace {
                found: magic.to_vec(),
                expected: MAGIC,
            });
        }
        let mut c = Cursor::new(&buf);
        let (Some(_), Some(version), Some(len)) = (c.take(8), c.u16(), c.u16()) else {
            return Err(truncated("the header".into(), 0, 12, buf.len()));
        };
        if version != VERSION {
            return Err(TraceError::Version {
                found: version,
                known: VERSION,
            });
        }
        let len = usize::from(len);
        if len < HEADER_FIXED + 4 {
            return Err(corrupt_header(format!(
                "header length {len} is below the fixed part ({})",
                HEADER_FIXED + 4
            )));
        }
        let mut rest = Vec::new();
        read_up_to(&mut src, len - 12, &mut rest)?;
        if rest.len() < len - 12 {
            return Err(truncated("the header".into(), 0, len, 12 + rest.len()));
        }
        buf.extend_from_slice(&rest);
        let header = parse_header(&buf)?;
        Ok(Self {
            src,
            header,
            body: Vec::new(),
            offset: len as u64,
            events: 0,
            writers: HashMap::new(),
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Events read so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// True when the records read so far include an end record and every writer of events
    /// also wrote its end record, with the count of events it wrote: nothing was cut off or
    /// lost (a recorder that was killed writes none). Writers are the traced processes for the
    /// interposer (one end record each, at exit) and the recorder itself otherwise.
    pub fn complete(&self) -> bool {
        !self.writers.is_empty() && self.writers.values().all(|&(seen, end)| end == Some(seen))
    }

    /// The next event and its number (1 for the first), or `None` at the end of the file.
    pub fn next_event(&mut self) -> Result<Option<(u64, Event<'_>)>, TraceError> {
        let n = self.events + 1;
        let what = || format!("event {n}");
        let mut head = Vec::with_capacity(RECORD_HEADER);
        read_up_to(&mut self.src, RECORD_HEADER, &mut head)?;
        if head.is_empty() {
            return Ok(None);
        }
        let mut c = Cursor::new(&head);
        let (Some(len), Some(stored)) = (c.u32(), c.u32()) else {
            return Err(truncated(what(), self.offset, RECORD_HEADER, head.len()));
        };
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        if !(COMMON..=MAX_RECORD).contains(&len) {
            return Err(corrupt(
                what(),
                self.offset,
                format!("record length {len} is outside {COMMON}..={MAX_RECORD}"),
            ));
        }
        read_up_to(&mut self.src, len, &mut self.body)?;
        if self.body.len() < len {
            return Err(truncated(
                what(),
                self.offset,
                RECORD_HEADER + len,
                RECORD_HEADER + self.body.len(),
            ));
        }
        let computed = crc32(&self.body);
        if computed != stored && !cfg!(fuzzing) {
            return Err(TraceError::Checksum {
                what: what(),
                offset: self.offset,
                stored,
                computed,
            });
        }
        let offset = self.offset;
        let event =
            parse_body(&self.body, self.header.cap).map_err(|why| corrupt(what(), offset, why))?;
        self.offset += (RECORD_HEADER + len) as u64;
        self.events = n;
        let writer = match self.header.recorder {
            Recorder::Interposer => event.common.pid,
            Recorder::Server | Recorder::Library => self.header.pid,
        };
        let w = self.writers.entry(writer).or_insert((0, None));
        match event.call {
            Call::End { events } => w.1 = Some(events),
            _ => w.0 += 1,
        }
        Ok(Some((n, event)))
    }
}

impl<R: Read> std::fmt::Debug for TraceReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TraceReader")
            .field("header", &self.header)
            .field("offset", &self.offset)
            .field("events", &self.events)
            .finish_non_exhaustive()
    }
}

fn truncated(what: String, offset: u64, need: usize, have: usize) -> TraceError {
    TraceError::Truncated {
        what,
        offset,
        need: need as u64,
        have: have as u64,
    }
}

fn corrupt(what: String, offset: u64, why: String) -> TraceError {
    TraceError::Corrupt { what, offset, why }
}

fn corrupt_header(why: String) -> TraceError {
    corrupt("the header".into(), 0, why)
}

fn parse_header(buf: &[u8]) -> Result<Header, TraceError> {
    let body_len = buf.len().saturating_sub(4);
    let (body, crc) = buf.split_at(body_len);
    let stored = u32::from_le_bytes(crc.try_into().unwrap_or_default());
    let computed = crc32(body);
    if stored != computed && !cfg!(fuzzing) {
        return Err(TraceError::Checksum {
            what: "the header".into(),
            offset: 0,
            stored,
            computed,
        });
    }
    let short = || corrupt_header("fixed fields end early".into());
    let mut c = Cursor::new(body);
    c.take(12).ok_or_else(short)?;
    let recorder = c.u8().ok_or_else(short)?;
    let generation = c.u8().ok_or_else(short)?;
    let reserved = c.u16().ok_or_else(short)?;
    let cap = c.u32().ok_or_else(short)?;
    let pid = c.u32().ok_or_else(short)?;
    let start_wall_ns = c.u64().ok_or_else(short)?;
    let start_mono_ns = c.u64().ok_or_else(short)?;
    let r_len = usize::from(c.u8().ok_or_else(short)?);
    let reserved2 = c.u8().ok_or_else(short)?;
    let d_len = usize::from(c.u16().ok_or_else(short)?);
    let reserved3 = c.u32().ok_or_else(short)?;
    let recorder = Recorder::from_code(recorder)
        .ok_or_else(|| corrupt_header(format!("unknown recorder {recorder}")))?;
    if reserved != 0 || reserved2 != 0 || reserved3 != 0 {
        return Err(corrupt_header("reserved bytes are not zero".into()));
    }
    let generation = match generation {
        0 => None,
        2..=4 => Some(generation),
        g => return Err(corrupt_header(format!("unknown chip generation {g}"))),
    };
    if cap > MAX_CAP {
        return Err(corrupt_header(format!("cap {cap} is above {MAX_CAP}")));
    }
    if r_len > MAX_RELEASE || d_len > MAX_PATH || c.rest() != r_len + d_len {
        return Err(corrupt_header(format!(
            "release ({r_len}) and device directory ({d_len}) lengths do not fill the {} bytes left",
            c.rest()
        )));
    }
    let release = c.take(r_len).ok_or_else(short)?;
    let dir = c.take(d_len).ok_or_else(short)?;
    let release = std::str::from_utf8(release)
        .ok()
        .and_then(|s| Release::parse(s).ok())
        .ok_or_else(|| {
            corrupt_header(format!(
                "unknown driver release '{}'",
                String::from_utf8_lossy(release)
            ))
        })?;
    let device_dir = PathBuf::from(String::from_utf8_lossy(dir).into_owned());
    Ok(Header {
        recorder,
        generation,
        release,
        cap,
        pid,
        start_wall_ns,
        start_mono_ns,
        device_dir,
    })
}

fn short() -> String {
    "the record ends inside its fields".to_string()
}

/// A record body: the common fields, then the kind's, and nothing after them.
fn parse_body(body: &[u8], cap: u32) -> Result<Event<'_>, String> {
    let mut c = Cursor::new(body);
    let (kind, flags, common) = parse_common(&mut c)?;
    if kind != kind::IOCTL && flags != 0 {
        return Err(format!("flags {flags:#x} on an event of kind {kind}"));
    }
    let call = match kind {
        kind::OPEN => parse_open(&mut c)?,
        kind::CLOSE => Call::Close,
        kind::IOCTL => Call::Ioctl(parse_ioctl(&mut c, flags, cap)?),
        kind::MMAP => parse_mmap(&mut c).ok_or_else(short)?,
        kind::MUNMAP => parse_munmap(&mut c).ok_or_else(short)?,
        kind::END => {
            let mut f = Cursor::new(c.take(END_FIXED).ok_or_else(short)?);
            Call::End {
                events: f.u64().ok_or_else(short)?,
            }
        }
        other => return Err(format!("unknown event kind {other}")),
    };
    if c.rest() != 0 {
        return Err(format!(
            "{} bytes follow the {} event's fields",
            c.rest(),
            call.name()
        ));
    }
    Ok(Event { common, call })
}

/// The 56 bytes every body starts with: kind, flags and the [`Common`] fields.
fn parse_common(c: &mut Cursor<'_>) -> Result<(u8, u8, Common), String> {
    let kind = c.u8().ok_or_else(short)?;
    let flags = c.u8().ok_or_else(short)?;
    let reserved = c.u16().ok_or_else(short)?;
    if reserved != 0 {
        return Err(format!("reserved bytes are {reserved:#x}, not zero"));
    }
    let pid = c.u32().ok_or_else(short)?;
    let tid = c.u32().ok_or_else(short)?;
    let device = c.u32().ok_or_else(short)?;
    let fd = c.i64().ok_or_else(short)?;
    let open_flags = c.u32().ok_or_else(short)?;
    let errno = c.i32().ok_or_else(short)?;
    let t_ns = c.u64().ok_or_else(short)?;
    let dur_ns = c.u64().ok_or_else(short)?;
    let ret = c.i64().ok_or_else(short)?;
    if errno < 0 {
        return Err(format!("errno {errno} is negative"));
    }
    let common = Common {
        pid,
        tid,
        device: (device != NO_DEVICE).then_some(device),
        fd,
        open_flags,
        t_ns,
        dur_ns,
        ret,
        errno,
    };
    Ok((kind, flags, common))
}

fn parse_open<'a>(c: &mut Cursor<'a>) -> Result<Call<'a>, String> {
    let mut f = Cursor::new(c.take(OPEN_FIXED).ok_or_else(short)?);
    let mode = f.u32().ok_or_else(short)?;
    let len = usize::from(f.u16().ok_or_else(short)?);
    if f.u16() != Some(0) {
        return Err("reserved bytes of the open event are not zero".into());
    }
    if len > MAX_PATH {
        return Err(format!("open path of {len} bytes is above {MAX_PATH}"));
    }
    let path = c.take(len).ok_or_else(short)?;
    Ok(Call::Open { path, mode })
}

fn parse_mmap<'a>(c: &mut Cursor<'a>) -> Option<Call<'a>> {
    let mut f = Cursor::new(c.take(MMAP_FIXED)?);
    Some(Call::Mmap {
        addr: f.u64()?,
        len: f.u64()?,
        prot: f.u32()?,
        flags: f.u32()?,
        offset: f.u64()?,
    })
}

fn parse_munmap<'a>(c: &mut Cursor<'a>) -> Option<Call<'a>> {
    let mut f = Cursor::new(c.take(MUNMAP_FIXED)?);
    Some(Call::Munmap {
        addr: f.u64()?,
        len: f.u64()?,
    })
}

fn parse_ioctl<'a>(c: &mut Cursor<'a>, flags: u8, cap: u32) -> Result<Ioctl<'a>, String> {
    let short = || "the ioctl record ends inside its fields".to_string();
    if flags & !ioctl_flag::ALL != 0 {
        return Err(format!("unknown ioctl flags {flags:#x}"));
    }
    let mut f = Cursor::new(c.take(IOCTL_FIXED).ok_or_else(short)?);
    let request = f.u32().ok_or_else(short)?;
    let arg_len = usize::try_from(f.u32().ok_or_else(short)?).unwrap_or(usize::MAX);
    let arg = f.u64().ok_or_else(short)?;
    let nbuf = usize::from(f.u16().ok_or_else(short)?);
    if f.take(6) != Some(&[0; 6][..]) {
        return Err("reserved bytes of the ioctl event are not zero".into());
    }
    if arg_len > MAX_ARG {
        return Err(format!("argument of {arg_len} bytes is above {MAX_ARG}"));
    }
    if nbuf > MAX_BUFFERS {
        return Err(format!("{nbuf} buffers is above {MAX_BUFFERS}"));
    }
    let mut part = |present: bool| -> Result<Option<&'a [u8]>, String> {
        if present {
            c.take(arg_len).map(Some).ok_or_else(short)
        } else {
            Ok(None)
        }
    };
    let before = part(flags & ioctl_flag::BEFORE != 0)?;
    let after = part(flags & ioctl_flag::AFTER != 0)?;
    let mut buffers = Vec::with_capacity(nbuf);
    for i in 0..nbuf {
        buffers.push(parse_buffer(c, cap).map_err(|why| format!("buffer {i}: {why}"))?);
    }
    Ok(Ioctl {
        request,
        arg,
        before,
        after,
        buffers,
    })
}

fn parse_buffer<'a>(c: &mut Cursor<'a>, cap: u32) -> Result<Buffer<'a>, String> {
    let short = || "the record ends inside the buffer".to_string();
    let mut f = Cursor::new(c.take(BUFFER_FIXED).ok_or_else(short)?);
    let addr = f.u64().ok_or_else(short)?;
    let len = f.u64().ok_or_else(short)?;
    let captured = f.u32().ok_or_else(short)?;
    let flags = f.u8().ok_or_else(short)?;
    let label_len = usize::from(f.u8().ok_or_else(short)?);
    if f.u16() != Some(0) {
        return Err("reserved bytes are not zero".into());
    }
    if flags & !buffer_flag::ALL != 0 {
        return Err(format!("unknown flags {flags:#x}"));
    }
    let has = |bit: u8| flags & bit != 0;
    if (has(buffer_flag::BEFORE) && has(buffer_flag::FAULT_BEFORE))
        || (has(buffer_flag::AFTER) && has(buffer_flag::FAULT_AFTER))
    {
        return Err(format!(
            "flags {flags:#x} mark bytes as both kept and unreadable"
        ));
    }
    if captured > cap || u64::from(captured) > len {
        return Err(format!(
            "keeps {captured} bytes of a {len}-byte buffer under a cap of {cap}"
        ));
    }
    let label = c.take(label_len).ok_or_else(short)?;
    let label = std::str::from_utf8(label).map_err(|_| "label is not UTF-8".to_string())?;
    let captured = usize::try_from(captured).unwrap_or(usize::MAX);
    let mut part = |bit: u8| -> Result<Option<&'a [u8]>, String> {
        if has(bit) {
            c.take(captured).map(Some).ok_or_else(short)
        } else {
            Ok(None)
        }
    };
    let before = part(buffer_flag::BEFORE)?;
    let after = part(buffer_flag::AFTER)?;
    if captured > 0 && before.is_none() && after.is_none() {
        return Err(format!(
            "keeps {captured} bytes but neither before nor after"
        ));
    }
    Ok(Buffer {
        label,
        addr,
        len,
        before,
        after,
        fault_before: has(buffer_flag::FAULT_BEFORE),
        fault_after: has(buffer_flag::FAULT_AFTER),
    })
}
