//! `trace decode`'s text: one line per event, strace-like.
//!
//! ```text
//! #12 +0.004211 4242/4242 fd 3 neuron0 ioctl MEM_ALLOC_V2MT64 {size=65536 align=0 host_memory=1 ... mem_handle=0x7ffc9e10->4097} = 0 <0.000021>
//! ```
//!
//! Integers print in decimal below 0x10000 and in hex from there (handles, addresses and
//! big sizes read better so), signed ones always in decimal; a value the driver changed prints
//! as `before=>after`; a pointer as its address, then `->` and what the recorder kept behind it
//! (`NULL` for 0); runs of zero array entries fold to `zero xN`.

use std::fmt::Write as _;

use ndl_abi::Abi;
use udma_desc::{DESC_BYTES, Descriptor, Direction};

use crate::decode::{Num, Pointee, Value, argument_value, command_name};
use crate::errno;
use crate::event::{Call, Common, Event, Header};

/// Bytes of a buffer printed in hex before `...`.
const HEX_BYTES: usize = 32;
/// Descriptors of a buffer printed before `(+N more)`.
const SHOWN_DESCRIPTORS: usize = 4;

fn num(out: &mut String, n: Num) {
    let _ = match n {
        Num::U(v) if v < 0x1_0000 => write!(out, "{v}"),
        Num::U(v) => write!(out, "{v:#x}"),
        Num::I(v) => write!(out, "{v}"),
    };
}

/// The first bytes in hex, `...` when there are more.
fn hex_digits(out: &mut String, bytes: &[u8]) {
    for b in bytes.iter().take(HEX_BYTES) {
        let _ = write!(out, "{b:02x}");
    }
    if bytes.len() > HEX_BYTES {
        out.push_str("...");
    }
}

fn hex(out: &mut String, bytes: &[u8]) {
    if bytes.iter().all(|&b| b == 0) {
        let _ = write!(out, "<{} zero bytes>", bytes.len());
        return;
    }
    let _ = write!(out, "<{} bytes ", bytes.len());
    hex_digits(out, bytes);
    out.push('>');
}

fn descriptors(out: &mut String, bytes: &[u8], rx: bool) {
    let n = bytes.len() / DESC_BYTES;
    let dir = if rx { Direction::Rx } else { Direction::Tx };
    out.push('[');
    for (i, d) in bytes
        .chunks_exact(DESC_BYTES)
        .take(SHOWN_DESCRIPTORS)
        .enumerate()
    {
        if i > 0 {
            out.push_str("; ");
        }
        let mut raw = [0u8; DESC_BYTES];
        raw.copy_from_slice(d);
        let _ = write!(out, "{}", Descriptor::from_le_bytes(raw).decode(dir));
    }
    if n > SHOWN_DESCRIPTORS {
        let _ = write!(out, "; (+{} more)", n - SHOWN_DESCRIPTORS);
    }
    out.push(']');
}

fn pointee(out: &mut String, p: &Pointee<'_>) {
    if p.fault_before || p.fault_after {
        out.push_str("!unreadable");
        if matches!(
            p.value,
            Value::Bytes {
                before: None,
                after: None
            }
        ) {
            return;
        }
    }
    let capped = (p.kept as u64) < p.len;
    match (&p.value, capped) {
        // Bytes say both lengths inside their brackets.
        (Value::Bytes { before, after }, true) => {
            let shown = after.or(*before).unwrap_or_default();
            let _ = write!(out, "<{} bytes, {} kept", p.len, p.kept);
            if !shown.is_empty() {
                out.push_str(": ");
                hex_digits(out, shown);
            }
            out.push('>');
        }
        (v, _) => {
            value(out, v);
            if capped {
                let _ = write!(out, "(kept {} of {} bytes)", p.kept, p.len);
            }
        }
    }
}

/// Appends `v` in decode's text form.
pub fn value(out: &mut String, v: &Value<'_>) {
    match v {
        Value::Int { before, after } => match (before, after) {
            (Some(b), Some(a)) if b != a => {
                num(out, *b);
                out.push_str("=>");
                num(out, *a);
            }
            (_, Some(x)) | (Some(x), None) => num(out, *x),
            (None, None) => out.push('?'),
        },
        Value::Bytes { before, after } => match (before, after) {
            (Some(b), Some(a)) if b != a => {
                hex(out, b);
                out.push_str("=>");
                hex(out, a);
            }
            (_, Some(x)) | (Some(x), None) => hex(out, x),
            (None, None) => out.push('?'),
        },
        Value::Descriptors { bytes, rx } => descriptors(out, bytes, *rx),
        Value::Struct(fields) => {
            out.push('{');
            for (i, (name, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(name.strip_prefix("r#").unwrap_or(name));
                out.push('=');
                value(out, v);
            }
            out.push('}');
        }
        Value::Array(items) => array(out, items),
        Value::Pointer { addr: 0, .. } => out.push_str("NULL"),
        Value::Pointer { addr, target } => {
            let _ = write!(out, "{addr:#x}");
            if let Some(p) = target {
                out.push_str("->");
                pointee(out, p);
            }
        }
    }
}

fn array(out: &mut String, items: &[Value<'_>]) {
    out.push('[');
    let mut i = 0;
    let mut first = true;
    while i < items.len() {
        if !first {
            out.push_str(", ");
        }
        first = false;
        let run = items
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|v| v.is_zero())
            .count();
        if run >= 2 {
            let _ = write!(out, "zero x{run}");
            i += run;
        } else {
            if let Some(v) = items.get(i) {
                value(out, v);
            }
            i += 1;
        }
    }
    out.push(']');
}

/// The kernel's `O_LARGEFILE`, which it sets on every open of a 64-bit process (and a FUSE
/// server sees in the open flags): `__O_LARGEFILE` 0o100000 of asm-generic/fcntl.h on x86_64,
/// 0o400000 of arch/arm64's fcntl.h. (The C library's `O_LARGEFILE` is 0 on 64-bit targets.)
#[cfg(not(target_arch = "aarch64"))]
const KERNEL_O_LARGEFILE: libc::c_int = 0o100000;
#[cfg(target_arch = "aarch64")]
const KERNEL_O_LARGEFILE: libc::c_int = 0o400000;

/// `open(2)` flags by name (`libc`'s values), the access mode first.
pub fn open_flags(flags: u32) -> String {
    let mut out = String::from(match flags & 3 {
        0 => "O_RDONLY",
        1 => "O_WRONLY",
        2 => "O_RDWR",
        _ => "O_ACCMODE",
    });
    let named: [(libc::c_int, &str); 10] = [
        (KERNEL_O_LARGEFILE, "O_LARGEFILE"),
        (libc::O_CREAT, "O_CREAT"),
        (libc::O_EXCL, "O_EXCL"),
        (libc::O_NOCTTY, "O_NOCTTY"),
        (libc::O_TRUNC, "O_TRUNC"),
        (libc::O_APPEND, "O_APPEND"),
        (libc::O_NONBLOCK, "O_NONBLOCK"),
        (libc::O_SYNC, "O_SYNC"),
        (libc::O_CLOEXEC, "O_CLOEXEC"),
        (libc::O_DIRECT, "O_DIRECT"),
    ];
    let mut rest = flags & !3;
    for (bit, name) in named {
        let bit = bit as u32;
        if rest & bit == bit && bit != 0 {
            out.push('|');
            out.push_str(name);
            rest &= !bit;
        }
    }
    if rest != 0 {
        let _ = write!(out, "|{rest:#x}");
    }
    out
}

/// The driver's lane for an fd opened with `flags` (ioctl-README.md "Lanes": bit 0 of the
/// access mode set takes the free-access lane to the misc handler).
pub fn lane(flags: u32) -> &'static str {
    if flags & 1 != 0 {
        "free-access"
    } else {
        "privileged"
    }
}

fn bits(out: &mut String, value: u32, names: &[(libc::c_int, &str)], zero: &str) {
    if value == 0 {
        out.push_str(zero);
        return;
    }
    let mut rest = value;
    let mut first = true;
    for &(bit, name) in names {
        let bit = bit as u32;
        if bit != 0 && rest & bit == bit {
            if !first {
                out.push('|');
            }
            first = false;
            out.push_str(name);
            rest &= !bit;
        }
    }
    if rest != 0 {
        if !first {
            out.push('|');
        }
        let _ = write!(out, "{rest:#x}");
    }
}

fn result(out: &mut String, c: &Common, call: &Call<'_>) {
    if c.errno != 0 {
        let _ = write!(out, "{} ", c.ret);
        match errno::name(c.errno) {
            Some(name) => out.push_str(name),
            None => {
                let _ = write!(out, "errno {}", c.errno);
            }
        }
        let _ = write!(out, " ({})", errno::message(c.errno));
        return;
    }
    let _ = match call {
        Call::Mmap { .. } => write!(out, "{:#x}", c.ret as u64),
        _ => write!(out, "{}", c.ret),
    };
}

/// How decode renders events of one trace.
#[derive(Clone, Copy, Debug)]
pub struct Style<'h> {
    /// The trace's header (clock origin, recorder).
    pub header: &'h Header,
    /// The ABI the arguments are decoded with.
    pub abi: &'static Abi,
}

impl Style<'_> {
    /// Appends event `n`'s line (no newline) to `out`.
    pub fn line(&self, out: &mut String, n: u64, e: &Event<'_>) {
        let c = &e.common;
        let t = c.t_ns.saturating_sub(self.header.start_mono_ns);
        let _ = write!(
            out,
            "#{n} +{}.{:06} {}/{} {} {} ",
            t / 1_000_000_000,
            (t % 1_000_000_000) / 1000,
            c.pid,
            c.tid,
            self.header.recorder.fd_name(),
            c.fd
        );
        match c.device {
            Some(d) => {
                let _ = write!(out, "neuron{d} ");
            }
            None => out.push_str("- "),
        }
        self.call(out, e);
        if !matches!(e.call, Call::End { .. }) {
            out.push_str(" = ");
            result(out, c, &e.call);
            let _ = write!(
                out,
                " <{}.{:06}>",
                c.dur_ns / 1_000_000_000,
                (c.dur_ns % 1_000_000_000) / 1000
            );
        }
    }

    /// Appends the call part of the line: what was called with which arguments (the part two
    /// recorders of the same call agree on, less the open flags the kernel adds).
    pub fn call(&self, out: &mut String, e: &Event<'_>) {
        match &e.call {
            Call::Open { path, mode } => {
                let _ = write!(
                    out,
                    "open \"{}\" {} lane={}",
                    String::from_utf8_lossy(path).escape_debug(),
                    open_flags(e.common.open_flags),
                    lane(e.common.open_flags)
                );
                if e.common.open_flags & libc::O_CREAT as u32 != 0 {
                    let _ = write!(out, " mode={mode:#o}");
                }
            }
            Call::Close => out.push_str("close"),
            Call::Ioctl(io) => {
                out.push_str("ioctl ");
                out.push_str(&command_name(self.abi, io.request));
                match argument_value(self.abi, io) {
                    Some(v) => {
                        out.push(' ');
                        value(out, &v);
                    }
                    None if self.abi.lookup(io.request).is_none() => {
                        let _ = write!(out, " arg={:#x}", io.arg);
                    }
                    None => {}
                }
            }
            Call::Mmap {
                addr,
                len,
                prot,
                flags,
                offset,
            } => {
                let _ = write!(out, "mmap addr={addr:#x} len={len} prot=");
                bits(
                    out,
                    *prot,
                    &[
                        (libc::PROT_READ, "READ"),
                        (libc::PROT_WRITE, "WRITE"),
                        (libc::PROT_EXEC, "EXEC"),
                    ],
                    "NONE",
                );
                out.push_str(" flags=");
                bits(
                    out,
                    *flags,
                    &[
                        (libc::MAP_SHARED, "SHARED"),
                        (libc::MAP_PRIVATE, "PRIVATE"),
                        (libc::MAP_FIXED, "FIXED"),
                        (libc::MAP_POPULATE, "POPULATE"),
                        (libc::MAP_LOCKED, "LOCKED"),
                    ],
                    "0",
                );
                let _ = write!(out, " offset={offset:#x}");
            }
            Call::Munmap { addr, len } => {
                let _ = write!(out, "munmap addr={addr:#x} len={len}");
            }
            Call::End { events } => {
                let _ = write!(out, "end events={events}");
            }
        }
    }
}
