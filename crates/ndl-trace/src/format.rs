//! The trace format, version 1: the constants and the encoder. The layout is documented in
//! the crate docs ("The trace format"); [`crate::TraceReader`] is its decoder.

use crate::crc::crc32;
use crate::event::{Buffer, Call, Event, Header};

/// The first eight bytes of every trace (`0x7f` then `NTRACE` then a newline, so neither a
/// text tool nor a mistaken `cat` takes it for text).
pub const MAGIC: [u8; 8] = *b"\x7fNTRACE\n";
/// The format version this crate writes and reads.
pub const VERSION: u16 = 1;

/// Fixed part of the header (before the release name and device directory) plus its CRC.
pub(crate) const HEADER_FIXED: usize = 48;
/// Longest release name (`2.30.2.0` is 8).
pub const MAX_RELEASE: usize = 15;
/// Longest device directory or open(2) path kept (Linux's `PATH_MAX`, 4096 bytes).
pub const MAX_PATH: usize = 4096;
/// Longest argument struct kept: the 14-bit `_IOC_SIZE` field's maximum plus one (the
/// largest Neuron argument, DMA_QUEUE_INIT_BATCH, is 12296 bytes).
pub const MAX_ARG: usize = 1 << 14;
/// Most user buffers kept per ioctl.
pub const MAX_BUFFERS: usize = 32;
/// Largest cap: bytes kept of one buffer.
pub const MAX_CAP: u32 = 4 << 20;
/// Longest buffer label.
pub const MAX_LABEL: usize = 255;
/// Largest record body: two copies of the argument, and of every buffer at the largest cap,
/// with their headers and labels. Nothing the recorders write is larger; the reader refuses
/// a length above it before reading the body.
pub const MAX_RECORD: usize = COMMON
    + IOCTL_FIXED
    + 2 * MAX_ARG
    + MAX_BUFFERS * (BUFFER_FIXED + MAX_LABEL + 2 * MAX_CAP as usize);

/// The record header: body length and the body's CRC-32.
pub(crate) const RECORD_HEADER: usize = 8;
/// Fields every record body starts with.
pub(crate) const COMMON: usize = 56;
pub(crate) const IOCTL_FIXED: usize = 24;
pub(crate) const BUFFER_FIXED: usize = 24;
pub(crate) const OPEN_FIXED: usize = 8;
pub(crate) const MMAP_FIXED: usize = 32;
pub(crate) const MUNMAP_FIXED: usize = 16;
pub(crate) const END_FIXED: usize = 8;

/// Event kinds (body byte 0).
pub(crate) mod kind {
    pub const OPEN: u8 = 1;
    pub const CLOSE: u8 = 2;
    pub const IOCTL: u8 = 3;
    pub const MMAP: u8 = 4;
    pub const MUNMAP: u8 = 5;
    pub const END: u8 = 6;
}

/// Ioctl flags (body byte 1).
pub(crate) mod ioctl_flag {
    pub const BEFORE: u8 = 1;
    pub const AFTER: u8 = 2;
    pub const ALL: u8 = BEFORE | AFTER;
}

/// Buffer flags.
pub(crate) mod buffer_flag {
    pub const BEFORE: u8 = 1;
    pub const AFTER: u8 = 2;
    pub const FAULT_BEFORE: u8 = 4;
    pub const FAULT_AFTER: u8 = 8;
    pub const ALL: u8 = BEFORE | AFTER | FAULT_BEFORE | FAULT_AFTER;
}

/// The `device` value of an event that names no device.
pub(crate) const NO_DEVICE: u32 = u32::MAX;

/// An event or header that cannot be written: a length beyond the format's bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A length above its bound.
    #[error("{what} is {len} bytes, the format allows {max}")]
    TooLong {
        /// What.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The bound.
        max: usize,
    },
    /// The before and after copies of the same bytes differ in length.
    #[error("{what}: {before} bytes before the call, {after} after")]
    Mismatch {
        /// What.
        what: &'static str,
        /// Before length.
        before: usize,
        /// After length.
        after: usize,
    },
    /// A buffer keeps more bytes than its length.
    #[error("buffer '{label}' keeps {captured} bytes of {len}")]
    OverLength {
        /// The buffer.
        label: String,
        /// Bytes kept.
        captured: usize,
        /// Its length.
        len: u64,
    },
}

fn bounded(what: &'static str, len: usize, max: usize) -> Result<(), EncodeError> {
    if len > max {
        Err(EncodeError::TooLong { what, len, max })
    } else {
        Ok(())
    }
}

fn narrow<T: TryFrom<usize>>(what: &'static str, len: usize, max: usize) -> Result<T, EncodeError> {
    bounded(what, len, max)?;
    T::try_from(len).map_err(|_| EncodeError::TooLong { what, len, max })
}

/// Appends the header's bytes to `out`.
pub fn encode_header(h: &Header, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let release = h.release.as_str().as_bytes();
    let dir = h.device_dir.as_os_str().as_encoded_bytes();
    let r: u8 = narrow("release name", release.len(), MAX_RELEASE)?;
    let d: u16 = narrow("device directory", dir.len(), MAX_PATH)?;
    let total = HEADER_FIXED + release.len() + dir.len() + 4;
    let h_len: u16 = narrow("header", total, usize::from(u16::MAX))?;
    let start = out.len();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&h_len.to_le_bytes());
    out.push(h.recorder.code());
    out.push(h.generation.unwrap_or(0));
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&h.cap.min(MAX_CAP).to_le_bytes());
    out.extend_from_slice(&h.pid.to_le_bytes());
    out.extend_from_slice(&h.start_wall_ns.to_le_bytes());
    out.extend_from_slice(&h.start_mono_ns.to_le_bytes());
    out.push(r);
    out.push(0);
    out.extend_from_slice(&d.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(release);
    out.extend_from_slice(dir);
    let crc = crc32(out.get(start..).unwrap_or_default());
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(())
}

/// Appends one record (header, checksum, body) for `e` to `out`. On an error nothing is
/// appended.
pub fn encode_event(e: &Event<'_>, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    validate(e)?;
    let start = out.len();
    out.extend_from_slice(&[0; RECORD_HEADER]);
    let body = out.len();
    body_bytes(e, out);
    let len = out.len() - body;
    let crc = crc32(out.get(body..).unwrap_or_default());
    // `validate` bounded every part, so the body is at most MAX_RECORD (< 4 GiB).
    let len = u32::try_from(len).unwrap_or(u32::MAX);
    if let Some(h) = out.get_mut(start..body) {
        h[..4].copy_from_slice(&len.to_le_bytes());
        h[4..].copy_from_slice(&crc.to_le_bytes());
    }
    Ok(())
}

fn validate(e: &Event<'_>) -> Result<(), EncodeError> {
    match &e.call {
        Call::Open { path, .. } => bounded("open path", path.len(), MAX_PATH),
        Call::Ioctl(io) => {
            let before = io.before.map(<[u8]>::len);
            let after = io.after.map(<[u8]>::len);
            if let (Some(b), Some(a)) = (before, after) {
                if a != b {
                    return Err(EncodeError::Mismatch {
                        what: "argument",
                        before: b,
                        after: a,
                    });
                }
            }
            bounded("argument", before.or(after).unwrap_or(0), MAX_ARG)?;
            bounded("buffer list", io.buffers.len(), MAX_BUFFERS)?;
            io.buffers.iter().try_for_each(validate_buffer)
        }
        Call::Close | Call::Mmap { .. } | Call::Munmap { .. } | Call::End { .. } => Ok(()),
    }
}

fn validate_buffer(b: &Buffer<'_>) -> Result<(), EncodeError> {
    bounded("buffer label", b.label.len(), MAX_LABEL)?;
    if let (Some(x), Some(y)) = (b.before, b.after) {
        if x.len() != y.len() {
            return Err(EncodeError::Mismatch {
                what: "buffer",
                before: x.len(),
                after: y.len(),
            });
        }
    }
    let captured = b.captured();
    bounded("buffer", captured, MAX_CAP as usize)?;
    if captured as u64 > b.len {
        return Err(EncodeError::OverLength {
            label: b.label.to_owned(),
            captured,
            len: b.len,
        });
    }
    Ok(())
}

fn body_bytes(e: &Event<'_>, out: &mut Vec<u8>) {
    let c = &e.common;
    let (kind, flags) = match &e.call {
        Call::Open { .. } => (kind::OPEN, 0),
        Call::Close => (kind::CLOSE, 0),
        Call::Ioctl(io) => (
            kind::IOCTL,
            (u8::from(io.before.is_some()) * ioctl_flag::BEFORE)
                | (u8::from(io.after.is_some()) * ioctl_flag::AFTER),
        ),
        Call::Mmap { .. } => (kind::MMAP, 0),
        Call::Munmap { .. } => (kind::MUNMAP, 0),
        Call::End { .. } => (kind::END, 0),
    };
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&c.pid.to_le_bytes());
    out.extend_from_slice(&c.tid.to_le_bytes());
    out.extend_from_slice(&c.device.unwrap_or(NO_DEVICE).to_le_bytes());
    out.extend_from_slice(&c.fd.to_le_bytes());
    out.extend_from_slice(&c.open_flags.to_le_bytes());
    out.extend_from_slice(&c.errno.to_le_bytes());
    out.extend_from_slice(&c.t_ns.to_le_bytes());
    out.extend_from_slice(&c.dur_ns.to_le_bytes());
    out.extend_from_slice(&c.ret.to_le_bytes());
    match &e.call {
        Call::Open { path, mode } => {
            out.extend_from_slice(&mode.to_le_bytes());
            // Bounded by `validate` (MAX_PATH fits u16).
            out.extend_from_slice(&(path.len() as u16).to_le_bytes());
            out.extend_from_slice(&[0, 0]);
            out.extend_from_slice(path);
        }
        Call::Close => {}
        Call::Ioctl(io) => ioctl_bytes(io, out),
        Call::Mmap {
            addr,
            len,
            prot,
            flags,
            offset,
        } => {
            out.extend_from_slice(&addr.to_le_bytes());
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&prot.to_le_bytes());
            out.extend_from_slice(&flags.to_le_bytes());
            out.extend_from_slice(&offset.to_le_bytes());
        }
        Call::Munmap { addr, len } => {
            out.extend_from_slice(&addr.to_le_bytes());
            out.extend_from_slice(&len.to_le_bytes());
        }
        Call::End { events } => out.extend_from_slice(&events.to_le_bytes()),
    }
}

#[allow(
    clippy::cast_possible_truncation,
    reason = "every length was bounded by `validate` to a value that fits"
)]
fn ioctl_bytes(io: &crate::event::Ioctl<'_>, out: &mut Vec<u8>) {
    let arg_len = io.before.or(io.after).map_or(0, <[u8]>::len);
    out.extend_from_slice(&io.request.to_le_bytes());
    out.extend_from_slice(&(arg_len as u32).to_le_bytes());
    out.extend_from_slice(&io.arg.to_le_bytes());
    out.extend_from_slice(&(io.buffers.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0; 6]);
    out.extend_from_slice(io.before.unwrap_or_default());
    out.extend_from_slice(io.after.unwrap_or_default());
    for b in &io.buffers {
        let flags = (u8::from(b.before.is_some()) * buffer_flag::BEFORE)
            | (u8::from(b.after.is_some()) * buffer_flag::AFTER)
            | (u8::from(b.fault_before) * buffer_flag::FAULT_BEFORE)
            | (u8::from(b.fault_after) * buffer_flag::FAULT_AFTER);
        out.extend_from_slice(&b.addr.to_le_bytes());
        out.extend_from_slice(&b.len.to_le_bytes());
        out.extend_from_slice(&(b.captured() as u32).to_le_bytes());
        out.push(flags);
        out.push(b.label.len() as u8);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(b.label.as_bytes());
        out.extend_from_slice(b.before.unwrap_or_default());
        out.extend_from_slice(b.after.unwrap_or_default());
    }
}
