//! The identifier fields of `tables/identifiers.tsv` (handles, mmap cookies, request ids,
//! wait handles, dma-buf fds, mapping addresses) and where they sit in one ioctl: the
//! argument struct, structs nested in it, and the buffers its pointers name. Replay remaps
//! the values found there.

use std::sync::OnceLock;

use ndl_abi::{Abi, StructLayout};

use crate::ctype::{self, CType};
use crate::event::Ioctl;
use crate::rules::{self, Element};

/// The table (`tables/identifiers.tsv`).
pub const IDENTIFIERS_TSV: &str = include_str!("../tables/identifiers.tsv");

/// What an identifier names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A memory handle.
    Handle,
    /// An mmap offset.
    Cookie,
    /// A reset request id.
    Request,
    /// A copy wait handle.
    Wait,
    /// A file descriptor the driver made.
    Fd,
    /// A user address inside a traced mapping (remapped by range).
    Va,
}

impl Kind {
    /// The table's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Handle => "handle",
            Kind::Cookie => "cookie",
            Kind::Request => "request",
            Kind::Wait => "wait",
            Kind::Fd => "fd",
            Kind::Va => "va",
        }
    }

    fn parse(s: &str) -> Option<Kind> {
        [
            Kind::Handle,
            Kind::Cookie,
            Kind::Request,
            Kind::Wait,
            Kind::Fd,
            Kind::Va,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// One row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Id {
    /// The struct holding the field.
    pub owner: &'static str,
    /// The field.
    pub field: &'static str,
    /// True for `*field`: the value behind the pointer.
    pub pointee: bool,
    /// What it names.
    pub kind: Kind,
}

/// Parses the table; `Err` names the first bad line (1-based).
pub fn parse(text: &'static str) -> Result<Vec<Id>, usize> {
    let mut out = Vec::new();
    let mut header = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&'static str> = line.split('\t').collect();
        let [owner, field, kind, _source] = cols[..] else {
            return Err(i + 1);
        };
        if !header {
            header = true;
            continue;
        }
        let (field, pointee) = match field.strip_prefix('*') {
            Some(f) => (f, true),
            None => (field, false),
        };
        out.push(Id {
            owner,
            field,
            pointee,
            kind: Kind::parse(kind).ok_or(i + 1)?,
        });
    }
    Ok(out)
}

/// Every row (parsed once).
pub fn ids() -> &'static [Id] {
    static IDS: OnceLock<Vec<Id>> = OnceLock::new();
    IDS.get_or_init(|| parse(IDENTIFIERS_TSV).unwrap_or_default())
}

fn find(owner: &str, field: &str, pointee: bool) -> Option<Kind> {
    ids()
        .iter()
        .find(|i| i.owner == owner && i.field == field && i.pointee == pointee)
        .map(|i| i.kind)
}

/// One identifier in one call: at user address `addr`, `size` bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    /// Where.
    pub addr: u64,
    /// Bytes (4 or 8).
    pub size: usize,
    /// What it names.
    pub kind: Kind,
    /// Its field path, for reports.
    pub path: String,
}

fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else {
        format!("{prefix}.{field}")
    }
}

struct Walk<'e, 'a> {
    abi: &'static Abi,
    io: &'e Ioctl<'a>,
    out: Vec<Loc>,
}

impl Walk<'_, '_> {
    /// `layout` at user address `base`, `label` its buffer-label prefix.
    fn structure(&mut self, layout: &'static StructLayout, base: u64, label: &str, depth: usize) {
        if depth > 6 {
            return;
        }
        for f in layout.fields {
            let at = base.saturating_add(f.offset as u64);
            if let Some(kind) = find(layout.c_name, f.name, false) {
                if matches!(f.size, 4 | 8) {
                    self.out.push(Loc {
                        addr: at,
                        size: f.size,
                        kind,
                        path: join(label, f.name),
                    });
                }
            }
            match ctype::classify(self.abi, f.c_type) {
                CType::Struct(tag) => {
                    let Some(inner) = ctype::struct_of(self.abi, layout, f.name, tag) else {
                        continue;
                    };
                    let size = inner.size.max(1);
                    for i in 0..f.size / size {
                        let path = if f.size == inner.size {
                            join(label, f.name)
                        } else {
                            format!("{}[{i}]", join(label, f.name))
                        };
                        self.structure(
                            inner,
                            at.saturating_add((i * size) as u64),
                            &path,
                            depth + 1,
                        );
                    }
                }
                CType::Pointer(_) => self.pointee(layout, f.name, label, depth),
                _ => {}
            }
        }
    }

    fn pointee(&mut self, owner: &StructLayout, field: &str, label: &str, depth: usize) {
        let label = join(label, field);
        let Some(buf) = self.io.buffer(&label) else {
            return;
        };
        let (addr, kept) = (buf.addr, buf.captured());
        if let Some(kind) = find(owner.c_name, field, true) {
            if matches!(kept, 4 | 8) {
                self.out.push(Loc {
                    addr,
                    size: kept,
                    kind,
                    path: format!("*{label}"),
                });
            }
        }
        let Some(Element::Struct(tag)) = rules::find(owner.c_name, field).and_then(|r| r.element)
        else {
            return;
        };
        let Some(inner) = self.abi.struct_layout(tag) else {
            return;
        };
        let size = inner.size.max(1);
        for i in 0..kept / size {
            self.structure(
                inner,
                addr.saturating_add((i * size) as u64),
                &format!("{label}[{i}]"),
                depth + 1,
            );
        }
    }
}

/// Every identifier of `io` (argument layout in `abi`) and where it is.
pub fn locate(abi: &'static Abi, io: &Ioctl<'_>) -> Vec<Loc> {
    let (_, layout) = crate::capture::argument(abi, io.request);
    let mut w = Walk {
        abi,
        io,
        out: Vec::new(),
    };
    if let Some(layout) = layout {
        w.structure(layout, io.arg, "", 0);
    }
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_names_real_fields() {
        let rows = parse(IDENTIFIERS_TSV).unwrap();
        assert_eq!(rows.len(), ids().len());
        for id in &rows {
            let found = ndl_abi::Release::ALL.iter().any(|r| {
                r.abi()
                    .struct_layout(id.owner)
                    .and_then(|s| s.field(id.field))
                    .is_some_and(|f| {
                        let pointer =
                            matches!(ctype::classify(r.abi(), f.c_type), CType::Pointer(_));
                        pointer == id.pointee
                    })
            });
            assert!(
                found,
                "{}.{} is in no release (or pointee marking is wrong)",
                id.owner, id.field
            );
        }
    }

    #[test]
    fn every_field_named_as_an_identifier_has_a_row() {
        for release in ndl_abi::Release::ALL {
            let abi = release.abi();
            for s in abi.structs {
                for f in s.declared() {
                    // `copy_to_mem_handle` is MEM_BUF_COPY's direction flag, not a handle.
                    let named = (f.name.ends_with("mem_handle") && f.name != "copy_to_mem_handle")
                        || matches!(f.name, "tx_handle" | "rx_handle" | "rxc_handle")
                        || f.name == "mmap_offset"
                        || f.name == "request_id"
                        || f.name.ends_with("wait_handle");
                    if named {
                        assert!(
                            ids()
                                .iter()
                                .any(|i| i.owner == s.c_name && i.field == f.name),
                            "{release}: {}.{} has no row",
                            s.c_name,
                            f.name
                        );
                    }
                }
            }
        }
    }
}
