//! An ioctl's argument decoded by name: the argument struct's layout in the trace's release
//! (ndl-abi), every declared field, nested structs and arrays, and through each pointer the
//! buffer the recorder kept, decoded by the same rules it was captured by
//! (`tables/user-buffers.tsv`). Values carry both sides of the call, so a field the driver
//! changed shows before and after.

use ndl_abi::{Abi, Command, StructLayout};

use crate::capture::{argument, field_value};
use crate::ctype::{self, CType};
use crate::event::{Buffer, Ioctl};
use crate::rules::{self, Element};

/// An integer as its C type reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    /// Unsigned.
    U(u64),
    /// Signed.
    I(i64),
}

impl Num {
    fn read(bytes: &[u8], signed: bool) -> Option<Num> {
        let mut v = [0u8; 8];
        v.get_mut(..bytes.len())?.copy_from_slice(bytes);
        let u = u64::from_le_bytes(v);
        if !signed {
            return Some(Num::U(u));
        }
        let bits = u32::try_from(bytes.len() * 8).ok()?;
        let shift = 64u32.checked_sub(bits)?;
        // Sign-extend from the field's width.
        Some(Num::I(((u << shift) as i64) >> shift))
    }

    /// True for zero.
    pub fn is_zero(self) -> bool {
        matches!(self, Num::U(0) | Num::I(0))
    }
}

/// Two copies of the same bytes: before and after the call.
#[derive(Clone, Copy, Debug, Default)]
struct Pair<'a> {
    before: Option<&'a [u8]>,
    after: Option<&'a [u8]>,
}

impl<'a> Pair<'a> {
    fn sub(self, at: usize, len: usize) -> Pair<'a> {
        let cut = |b: &'a [u8]| b.get(at..at.checked_add(len)?);
        Pair {
            before: self.before.and_then(cut),
            after: self.after.and_then(cut),
        }
    }
    fn num(self, signed: bool) -> (Option<Num>, Option<Num>) {
        (
            self.before.and_then(|b| Num::read(b, signed)),
            self.after.and_then(|b| Num::read(b, signed)),
        )
    }
    fn is_empty(self) -> bool {
        self.before.is_none() && self.after.is_none()
    }
}

/// A decoded value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// An integer, before and after the call (either may be missing).
    Int {
        /// Before.
        before: Option<Num>,
        /// After.
        after: Option<Num>,
    },
    /// Raw bytes (`__u8` arrays, `void *` buffers, arguments without a layout).
    Bytes {
        /// Before.
        before: Option<&'a [u8]>,
        /// After.
        after: Option<&'a [u8]>,
    },
    /// UDMA descriptors (16 bytes each) of a TX or RX ring.
    Descriptors {
        /// Their bytes (after the call when the driver wrote them).
        bytes: &'a [u8],
        /// RX ring (`queue_type`/`type` 1, `enum neuron_dma_queue_type`: 0 TX, 1 RX).
        rx: bool,
    },
    /// A struct: its declared fields in order.
    Struct(Vec<(&'static str, Value<'a>)>),
    /// An array.
    Array(Vec<Value<'a>>),
    /// A user address and what the recorder kept behind it.
    Pointer {
        /// The address.
        addr: u64,
        /// The buffer (`None`: NULL, an address the driver does not follow, or nothing kept).
        target: Option<Box<Pointee<'a>>>,
    },
}

/// The memory behind a pointer (or after a struct, for a flexible array member).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointee<'a> {
    /// Its whole length by the ABI.
    pub len: u64,
    /// Bytes the recorder kept.
    pub kept: usize,
    /// Reading it failed before the call.
    pub fault_before: bool,
    /// Reading it failed after the call.
    pub fault_after: bool,
    /// The kept bytes, decoded.
    pub value: Value<'a>,
}

impl Value<'_> {
    /// True when every integer and byte of the value is zero (decode folds runs of such
    /// array entries).
    pub fn is_zero(&self) -> bool {
        match self {
            Value::Int { before, after } => {
                before.is_none_or(Num::is_zero) && after.is_none_or(Num::is_zero)
            }
            Value::Bytes { before, after } => [before, after]
                .iter()
                .all(|b| b.is_none_or(|b| b.iter().all(|&x| x == 0))),
            Value::Descriptors { bytes, .. } => bytes.iter().all(|&x| x == 0),
            Value::Struct(fields) => fields.iter().all(|(_, v)| v.is_zero()),
            Value::Array(items) => items.iter().all(Value::is_zero),
            Value::Pointer { addr, .. } => *addr == 0,
        }
    }
}

/// The command a request names in `abi`: the exact catalog entry, if any.
pub fn command(abi: &'static Abi, request: u32) -> Option<&'static Command> {
    abi.lookup(request)
}

/// The name decode prints for `request`: the catalog's short name, or the nr family the
/// driver would route it to (`MEM_COPY|MEM_COPY64?`), or the number.
pub fn command_name(abi: &'static Abi, request: u32) -> String {
    if let Some(c) = abi.lookup(request) {
        return c.short_name().to_owned();
    }
    let family: Vec<&str> = abi
        .decode(request)
        .names()
        .map(|n| n.strip_prefix("NEURON_IOCTL_").unwrap_or(n))
        .collect();
    if family.is_empty() {
        format!("{request:#010x}")
    } else {
        format!("{}?{request:#010x}", family.join("|"))
    }
}

struct Ctx<'e, 'a> {
    abi: &'static Abi,
    io: &'e Ioctl<'a>,
}

fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else {
        format!("{prefix}.{field}")
    }
}

impl<'a> Ctx<'_, 'a> {
    fn structure(&self, layout: &'static StructLayout, bytes: Pair<'a>, label: &str) -> Value<'a> {
        let mut fields = Vec::with_capacity(layout.fields.len());
        for f in layout.fields {
            let sub = bytes.sub(f.offset, f.size);
            let value = match ctype::classify(self.abi, f.c_type) {
                CType::Padding => {
                    let v = Value::Bytes {
                        before: sub.before,
                        after: sub.after,
                    };
                    // Padding is zero by construction; show it only when it is not.
                    if v.is_zero() {
                        continue;
                    }
                    v
                }
                CType::Pointer(_) => self.pointer(layout, f.name, sub, label),
                CType::Struct(tag) => match ctype::struct_of(self.abi, layout, f.name, tag) {
                    Some(inner) if f.size == 0 => self.trailing(f.name, label, inner),
                    Some(inner) if f.size == inner.size => {
                        self.structure(inner, sub, &join(label, f.name))
                    }
                    Some(inner) => Value::Array(
                        (0..f.size / inner.size.max(1))
                            .map(|i| {
                                let item = sub.sub(i * inner.size, inner.size);
                                self.structure(
                                    inner,
                                    item,
                                    &format!("{}[{i}]", join(label, f.name)),
                                )
                            })
                            .collect(),
                    ),
                    None => Value::Bytes {
                        before: sub.before,
                        after: sub.after,
                    },
                },
                kind @ (CType::Unsigned | CType::Signed) => {
                    scalars(sub, f.size, f.c_type, kind == CType::Signed)
                }
            };
            fields.push((f.name, value));
        }
        Value::Struct(fields)
    }

    fn pointer(&self, owner: &StructLayout, field: &str, sub: Pair<'a>, label: &str) -> Value<'a> {
        let (b, a) = sub.num(false);
        let addr = match a.or(b) {
            Some(Num::U(x)) => x,
            _ => 0,
        };
        let label = join(label, field);
        let target = rules::find(owner.c_name, field)
            .zip(self.io.buffer(&label))
            .and_then(|(rule, buf)| self.pointee(owner, rule.element?, buf, &label));
        Value::Pointer {
            addr,
            target: target.map(Box::new),
        }
    }

    fn trailing(&self, field: &str, label: &str, inner: &'static StructLayout) -> Value<'a> {
        let label = join(label, field);
        match self.io.buffer(&label) {
            Some(buf) => {
                let v = self.elements(inner, buf, &label);
                Value::Pointer {
                    addr: buf.addr,
                    target: Some(Box::new(pointee(buf, v))),
                }
            }
            // Nothing kept after the struct: an empty flexible array as far as we know.
            None => Value::Array(Vec::new()),
        }
    }

    fn pointee(
        &self,
        owner: &StructLayout,
        element: Element,
        buf: &Buffer<'a>,
        label: &str,
    ) -> Option<Pointee<'a>> {
        let v = match element {
            Element::Byte => Value::Bytes {
                before: buf.before,
                after: buf.after,
            },
            Element::Descriptor => Value::Descriptors {
                bytes: buf.after.or(buf.before).unwrap_or_default(),
                rx: self.queue_is_rx(owner),
            },
            Element::Scalar(t) => {
                let pair = Pair {
                    before: buf.before,
                    after: buf.after,
                };
                let signed = ctype::classify(self.abi, t) == CType::Signed;
                // One value when one element was kept, else an array.
                scalars(pair, buf.captured(), t, signed)
            }
            Element::Struct(tag) => self.elements(self.abi.struct_layout(tag)?, buf, label),
        };
        Some(pointee(buf, v))
    }

    /// A buffer of `inner` structs: one struct when it holds exactly one, else an array.
    fn elements(&self, inner: &'static StructLayout, buf: &Buffer<'a>, label: &str) -> Value<'a> {
        let pair = Pair {
            before: buf.before,
            after: buf.after,
        };
        let size = inner.size.max(1);
        let n = buf.captured() / size;
        if n == 1 && buf.len == size as u64 {
            return self.structure(inner, pair, &format!("{label}[0]"));
        }
        Value::Array(
            (0..n)
                .map(|i| self.structure(inner, pair.sub(i * size, size), &format!("{label}[{i}]")))
                .collect(),
        )
    }

    /// The ring a descriptor buffer belongs to: the owner's `enum neuron_dma_queue_type`
    /// field (0 TX, 1 RX; ndl-abi's c-types.tsv).
    fn queue_is_rx(&self, owner: &StructLayout) -> bool {
        let Some(f) = owner
            .fields
            .iter()
            .find(|f| f.c_type == "enum neuron_dma_queue_type")
        else {
            return false;
        };
        let bytes = self.io.before.or(self.io.after).unwrap_or_default();
        // Only the argument struct holds descriptor buffers (DMA_COPY_DESCRIPTORS(64),
        // DMA_DESCRIPTOR_COPYOUT).
        field_value(owner, bytes, f.name) == Some(1)
    }
}

fn pointee<'a>(buf: &Buffer<'a>, value: Value<'a>) -> Pointee<'a> {
    Pointee {
        len: buf.len,
        kept: buf.captured(),
        fault_before: buf.fault_before,
        fault_after: buf.fault_after,
        value,
    }
}

/// One integer, or an array of them (`__u8` arrays as bytes).
fn scalars<'a>(sub: Pair<'a>, size: usize, c_type: &str, signed: bool) -> Value<'a> {
    let elem = ctype::scalar_size(c_type).unwrap_or(size).max(1);
    if size == elem && matches!(elem, 1 | 2 | 4 | 8) {
        let (before, after) = sub.num(signed);
        return Value::Int { before, after };
    }
    if elem == 1 || !matches!(elem, 2 | 4 | 8) {
        return Value::Bytes {
            before: sub.before,
            after: sub.after,
        };
    }
    Value::Array(
        (0..size / elem)
            .map(|i| {
                let (before, after) = sub.sub(i * elem, elem).num(signed);
                Value::Int { before, after }
            })
            .collect(),
    )
}

/// The argument of `io` decoded in `abi`; `None` for a request without an argument struct
/// (an `_IO` command) or whose argument could not be read.
pub fn argument_value<'a>(abi: &'static Abi, io: &Ioctl<'a>) -> Option<Value<'a>> {
    let pair = Pair {
        before: io.before,
        after: io.after,
    };
    if pair.is_empty() {
        return None;
    }
    let (len, layout) = argument(abi, io.request);
    let ctx = Ctx { abi, io };
    Some(match layout {
        Some(layout) => ctx.structure(layout, pair, ""),
        None => {
            // A scalar argument (`__u8`, `__s32`) or a request outside the catalog.
            let signed = abi
                .lookup(io.request)
                .is_some_and(|c| c.arg_type().starts_with("__s"));
            if matches!(len, 1 | 2 | 4 | 8) && abi.lookup(io.request).is_some() {
                let (before, after) = pair.num(signed);
                Value::Int { before, after }
            } else {
                Value::Bytes {
                    before: pair.before,
                    after: pair.after,
                }
            }
        }
    })
}
