//! What a recorder keeps of one ioctl: the argument struct before and after the call and the
//! user buffers its pointers (and flexible array members) name, found by the argument's layout
//! in the trace's ABI release and the rules of `tables/user-buffers.tsv`. Both recorders use
//! it, so a call traced by the interposer and by the server keeps the same bytes.
//!
//! Memory is read only through a [`Memory`]: the interposer reads its own process with
//! `process_vm_readv` (a bad address fails the read instead of faulting), the server the
//! caller's. Counts come from the caller's struct, so every length is capped (the trace's cap
//! per buffer, [`MAX_BUFFERS`] buffers, nesting four deep) before a byte is read.

use ndl_abi::{Abi, Dir, Form, StructLayout, size_of_code};

use crate::event::{Buffer, Call, Common, Event, Ioctl};
use crate::format::{MAX_ARG, MAX_BUFFERS, MAX_CAP, MAX_LABEL};
use crate::rules::{self, Access, At, CountBase, FieldRef, Rule};

/// Memory of the traced process, as a recorder reads it.
pub trait Memory {
    /// Copies `dst.len()` bytes from user address `addr`; false when any of them is not
    /// readable (nothing is trusted about `addr`).
    fn read(&self, addr: u64, dst: &mut [u8]) -> bool;
}

/// Deepest pointer chain followed (MEM_BUF_ZEROCOPY64_BATCHES: argument, batches, ops, op
/// buffers).
const MAX_DEPTH: usize = 4;

#[derive(Clone, Debug)]
struct Captured {
    label: String,
    addr: u64,
    len: u64,
    keep: usize,
    read_after: bool,
    before: Option<Vec<u8>>,
    after: Option<Vec<u8>>,
    fault_before: bool,
    fault_after: bool,
}

/// One ioctl as a recorder captured it: [`Capture::before`] ahead of the call,
/// [`Capture::after`] once it returned, then [`Capture::event`].
#[derive(Clone, Debug)]
pub struct Capture {
    request: u32,
    arg: u64,
    arg_len: usize,
    before: Option<Vec<u8>>,
    after: Option<Vec<u8>>,
    buffers: Vec<Captured>,
}

/// The argument struct of `request` in `abi`: bytes the driver copies from the argument
/// address, and their layout when the release lays out a struct for it. A request outside the
/// catalog keeps its encoded `_IOC_SIZE` bytes (none for `_IO` requests).
pub fn argument(abi: &'static Abi, request: u32) -> (usize, Option<&'static StructLayout>) {
    match abi.lookup(request) {
        Some(c) if c.form() == Form::None => (0, None),
        Some(c) => (
            c.arg_size().unwrap_or(usize::from(size_of_code(request))),
            c.arg_struct().and_then(|t| abi.struct_layout(t)),
        ),
        None if Dir::of(request) == Dir::None => (0, None),
        None => (usize::from(size_of_code(request)), None),
    }
}

/// The value of field `name` of a struct laid out as `layout` in `bytes` (little-endian,
/// integer fields of 1, 2, 4 or 8 bytes).
pub fn field_value(layout: &StructLayout, bytes: &[u8], name: &str) -> Option<u64> {
    let f = layout.field(name)?;
    let raw = bytes.get(f.offset..f.offset.checked_add(f.size)?)?;
    let mut v = [0u8; 8];
    v.get_mut(..raw.len())?.copy_from_slice(raw);
    matches!(raw.len(), 1 | 2 | 4 | 8).then(|| u64::from_le_bytes(v))
}

/// Where a struct sits while its fields are planned.
#[derive(Clone, Copy)]
struct Frame<'b> {
    layout: &'static StructLayout,
    bytes: Option<&'b [u8]>,
    addr: u64,
}

struct Planner<'m> {
    abi: &'static Abi,
    mem: &'m dyn Memory,
    cap: usize,
    buffers: Vec<Captured>,
}

fn resolve(r: FieldRef, own: Frame<'_>, parent: Option<Frame<'_>>, root: Frame<'_>) -> Option<u64> {
    let (frame, name) = match r {
        FieldRef::Own(n) => (Some(own), n),
        FieldRef::Parent(n) => (parent, n),
        FieldRef::Root(n) => (Some(root), n),
    };
    let frame = frame?;
    field_value(frame.layout, frame.bytes?, name)
}

/// The frames a rule's fields are read from: the struct it belongs to, the struct (element)
/// whose pointer led there, and the argument.
#[derive(Clone, Copy)]
struct Frames<'b> {
    own: Frame<'b>,
    parent: Option<Frame<'b>>,
    root: Frame<'b>,
}

impl Frames<'_> {
    fn resolve(&self, r: FieldRef) -> Option<u64> {
        resolve(r, self.own, self.parent, self.root)
    }

    /// Where the buffer of `rule` starts and how long it is (count times element size), or
    /// `None` when it names nothing: an unknown way, an unreadable field, a NULL pointer, an
    /// empty count.
    fn extent(&self, abi: &'static Abi, rule: &Rule) -> Option<(u64, u64)> {
        let (count, element) = (rule.count?, rule.element?);
        let own = self.own;
        let field = own.layout.field(rule.field)?;
        let addr = match rule.at {
            At::Pointer => field_value(own.layout, own.bytes?, rule.field)?,
            At::Trailing => own.addr.checked_add(field.offset as u64)?,
            At::Opaque => return None,
        };
        let n = match count.base {
            CountBase::Const(n) => n,
            CountBase::Field(r) => self.resolve(r)?,
        };
        let len = n
            .saturating_mul(count.times)
            .saturating_mul(element.size(abi)?);
        (addr != 0 && len != 0).then_some((addr, len))
    }

    /// Whether the driver may read the buffer before the call and write it during it. An
    /// `InIf` whose field is unreadable keeps both sides.
    fn directions(&self, access: Access) -> (bool, bool) {
        match access {
            Access::In => (true, false),
            Access::Out => (false, true),
            Access::InOut => (true, true),
            Access::InIf(r) => {
                let v = self.resolve(r);
                (v.is_none_or(|v| v != 0), v.is_none_or(|v| v == 0))
            }
        }
    }
}

/// The label of field `field` under the label of its struct (`batches_ptr[1].ops_ptr`), or
/// `None` when it is longer than the format allows.
fn child_label(label: &str, field: &str) -> Option<String> {
    let mut name = String::with_capacity(label.len() + field.len() + 1);
    if !label.is_empty() {
        name.push_str(label);
        name.push('.');
    }
    name.push_str(field);
    (name.len() <= MAX_LABEL).then_some(name)
}

impl Planner<'_> {
    fn struct_fields(
        &mut self,
        own: Frame<'_>,
        parent: Option<Frame<'_>>,
        root: Frame<'_>,
        label: &str,
        depth: usize,
    ) {
        if depth >= MAX_DEPTH {
            return;
        }
        let frames = Frames { own, parent, root };
        for rule in rules::of(own.layout.c_name) {
            if self.buffers.len() >= MAX_BUFFERS {
                return;
            }
            let (Some(element), Some(access)) = (rule.element, rule.access) else {
                continue;
            };
            let Some((addr, len)) = frames.extent(self.abi, rule) else {
                continue;
            };
            let Some(name) = child_label(label, rule.field) else {
                continue;
            };
            let (reads, writes) = frames.directions(access);
            let c = self.read_before(name, addr, len, reads, writes);
            let nested = element
                .layout(self.abi)
                .filter(|l| rules::of(l.c_name).next().is_some());
            let index = self.buffers.len();
            self.buffers.push(c);
            if let Some(inner) = nested {
                self.elements(index, inner, own, root, depth);
            }
        }
    }

    /// A buffer of `len` bytes at `addr`, its kept bytes read now when the driver `reads` it
    /// (and marked to be read again after the call when it `writes` it).
    fn read_before(
        &self,
        label: String,
        addr: u64,
        len: u64,
        reads: bool,
        writes: bool,
    ) -> Captured {
        let keep = usize::try_from(len).unwrap_or(usize::MAX).min(self.cap);
        let mut c = Captured {
            label,
            addr,
            len,
            keep,
            read_after: writes,
            before: None,
            after: None,
            fault_before: false,
            fault_after: false,
        };
        if reads {
            let mut b = vec![0u8; keep];
            if self.mem.read(addr, &mut b) {
                c.before = Some(b);
            } else {
                c.fault_before = true;
            }
        }
        c
    }

    /// Plans the rules of each whole element kept of buffer `index` (an array of `inner`).
    fn elements(
        &mut self,
        index: usize,
        inner: &'static StructLayout,
        own: Frame<'_>,
        root: Frame<'_>,
        depth: usize,
    ) {
        let Some(c) = self.buffers.get(index) else {
            return;
        };
        let (label, addr, bytes) = (c.label.clone(), c.addr, c.before.clone());
        let whole = c.keep / inner.size.max(1);
        for i in 0..whole {
            let at = i * inner.size;
            let element_bytes = bytes.as_deref().and_then(|b| b.get(at..at + inner.size));
            let frame = Frame {
                layout: inner,
                bytes: element_bytes,
                addr: addr.saturating_add(at as u64),
            };
            self.struct_fields(frame, Some(own), root, &format!("{label}[{i}]"), depth + 1);
        }
    }
}

impl Capture {
    /// Reads the argument struct at `arg` and every user buffer it names for reading, as
    /// `request` in release `abi` says, keeping at most `cap` bytes per buffer. Called right
    /// before the call.
    pub fn before(abi: &'static Abi, request: u32, arg: u64, mem: &dyn Memory, cap: u32) -> Self {
        let (arg_len, layout) = argument(abi, request);
        let arg_len = arg_len.min(MAX_ARG);
        let mut before = None;
        if arg_len > 0 {
            let mut b = vec![0u8; arg_len];
            if mem.read(arg, &mut b) {
                before = Some(b);
            }
        }
        let mut planner = Planner {
            abi,
            mem,
            cap: cap.min(MAX_CAP) as usize,
            buffers: Vec::new(),
        };
        if let Some(layout) = layout {
            let root = Frame {
                layout,
                bytes: before.as_deref(),
                addr: arg,
            };
            planner.struct_fields(root, None, root, "", 0);
        }
        Self {
            request,
            arg,
            arg_len,
            before,
            after: None,
            buffers: planner.buffers,
        }
    }

    /// Reads the argument struct again and every buffer the driver may have written. Called
    /// right after the call returned.
    pub fn after(&mut self, mem: &dyn Memory) {
        if self.arg_len > 0 && self.before.is_some() {
            let mut b = vec![0u8; self.arg_len];
            if mem.read(self.arg, &mut b) {
                self.after = Some(b);
            }
        }
        for c in self.buffers.iter_mut().filter(|c| c.read_after) {
            let mut b = vec![0u8; c.keep];
            if mem.read(c.addr, &mut b) {
                c.after = Some(b);
            } else {
                c.fault_after = true;
            }
        }
    }

    /// The request.
    pub fn request(&self) -> u32 {
        self.request
    }

    /// The event, with the caller's `common` fields.
    pub fn event(&self, common: Common) -> Event<'_> {
        Event {
            common,
            call: Call::Ioctl(Ioctl {
                request: self.request,
                arg: self.arg,
                before: self.before.as_deref(),
                after: self.after.as_deref(),
                buffers: self
                    .buffers
                    .iter()
                    .map(|c| Buffer {
                        label: &c.label,
                        addr: c.addr,
                        len: c.len,
                        before: c.before.as_deref(),
                        after: c.after.as_deref(),
                        fault_before: c.fault_before,
                        fault_after: c.fault_after,
                    })
                    .collect(),
            }),
        }
    }
}
