//! The user-buffer rules of `tables/user-buffers.tsv`: for each pointer field (and flexible
//! array member) of the ABI, how many elements of which type it names and which way the
//! driver moves them. The recorders capture by them; decode shows pointees by them.

use std::sync::OnceLock;

use ndl_abi::{Abi, StructLayout};

use crate::ctype;

/// The table (`tables/user-buffers.tsv`).
pub const USER_BUFFERS_TSV: &str = include_str!("../tables/user-buffers.tsv");

/// Where a rule's memory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// At the address the field holds.
    Pointer,
    /// Right after the struct (a flexible array member).
    Trailing,
    /// Nowhere the driver copies: an address it never follows.
    Opaque,
}

/// A field a rule reads its count or direction from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldRef {
    /// A field of the struct that holds the pointer.
    Own(&'static str),
    /// A field of the struct whose pointer led to that struct (`^field`).
    Parent(&'static str),
    /// A field of the ioctl argument (`$field`).
    Root(&'static str),
}

/// How many elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The number, or the field holding it.
    pub base: CountBase,
    /// Multiplier (`*N`).
    pub times: u64,
}

/// The base of a [`Count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountBase {
    /// A constant.
    Const(u64),
    /// A field's value.
    Field(FieldRef),
}

/// The element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// Raw bytes.
    Byte,
    /// One 16-byte UDMA descriptor ([`udma_desc::DESC_BYTES`]).
    Descriptor,
    /// A C scalar type.
    Scalar(&'static str),
    /// A struct, by tag.
    Struct(&'static str),
}

/// Which way the driver moves the memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reads it.
    In,
    /// Writes it.
    Out,
    /// Both.
    InOut,
    /// Reads it when the field is not zero, writes it otherwise.
    InIf(FieldRef),
}

/// One row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The struct holding the field.
    pub owner: &'static str,
    /// The field.
    pub field: &'static str,
    /// Where the memory is.
    pub at: At,
    /// How many elements (`None` for opaque rows).
    pub count: Option<Count>,
    /// The element type (`None` for opaque rows).
    pub element: Option<Element>,
    /// Which way (`None` for opaque rows).
    pub access: Option<Access>,
    /// The row's source.
    pub source: &'static str,
}

/// A row the table parser refuses (a test keeps the table free of them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tables/user-buffers.tsv line {line}: {why}")]
pub struct RuleError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

fn field_ref(s: &'static str) -> FieldRef {
    if let Some(f) = s.strip_prefix('^') {
        FieldRef::Parent(f)
    } else if let Some(f) = s.strip_prefix('$') {
        FieldRef::Root(f)
    } else {
        FieldRef::Own(s)
    }
}

fn count(s: &'static str) -> Option<Count> {
    let (base, times) = match s.split_once('*') {
        Some((b, t)) => (b, t.parse().ok()?),
        None => (s, 1),
    };
    let base = match base.parse() {
        Ok(n) => CountBase::Const(n),
        Err(_) if !base.is_empty() => CountBase::Field(field_ref(base)),
        Err(_) => return None,
    };
    Some(Count { base, times })
}

fn element(s: &'static str) -> Option<Element> {
    Some(match s {
        "byte" => Element::Byte,
        "descriptor" => Element::Descriptor,
        _ => match s.strip_prefix("struct ") {
            Some(tag) => Element::Struct(tag),
            None => {
                ctype::scalar_size(s)?;
                Element::Scalar(s)
            }
        },
    })
}

fn access(s: &'static str) -> Option<Access> {
    Some(match s {
        "in" => Access::In,
        "out" => Access::Out,
        "inout" => Access::InOut,
        _ => Access::InIf(field_ref(s.strip_suffix("?in:out")?)),
    })
}

/// Parses the table text.
pub fn parse(text: &'static str) -> Result<Vec<Rule>, RuleError> {
    let mut rules = Vec::new();
    let mut header = false;
    for (i, line) in text.lines().enumerate() {
        let err = |why: String| RuleError { line: i + 1, why };
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&'static str> = line.split('\t').collect();
        let [owner, field, at, n, elem, acc, source] = cols[..] else {
            return Err(err(format!("{} columns, expected 7", cols.len())));
        };
        if !header {
            header = true;
            continue;
        }
        let at = match at {
            "pointer" => At::Pointer,
            "trailing" => At::Trailing,
            "opaque" => At::Opaque,
            other => return Err(err(format!("unknown placement '{other}'"))),
        };
        let rule = if at == At::Opaque {
            if (n, elem, acc) != ("-", "-", "-") {
                return Err(err("an opaque row has no count, element or access".into()));
            }
            Rule {
                owner,
                field,
                at,
                count: None,
                element: None,
                access: None,
                source,
            }
        } else {
            Rule {
                owner,
                field,
                at,
                count: Some(count(n).ok_or_else(|| err(format!("bad count '{n}'")))?),
                element: Some(element(elem).ok_or_else(|| err(format!("bad element '{elem}'")))?),
                access: Some(access(acc).ok_or_else(|| err(format!("bad access '{acc}'")))?),
                source,
            }
        };
        rules.push(rule);
    }
    Ok(rules)
}

/// Every rule of the table (parsed once).
pub fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| parse(USER_BUFFERS_TSV).unwrap_or_default())
}

/// The rules for fields of struct `owner`.
pub fn of(owner: &str) -> impl Iterator<Item = &'static Rule> + '_ {
    rules().iter().filter(move |r| r.owner == owner)
}

/// The rule for `owner.field`.
pub fn find(owner: &str, field: &str) -> Option<&'static Rule> {
    rules()
        .iter()
        .find(|r| r.owner == owner && r.field == field)
}

impl Element {
    /// Bytes per element in `abi` (`None`: a struct the release does not lay out).
    pub fn size(self, abi: &Abi) -> Option<u64> {
        Some(match self {
            Element::Byte => 1,
            Element::Descriptor => udma_desc::DESC_BYTES as u64,
            Element::Scalar(t) => ctype::scalar_size(t)? as u64,
            Element::Struct(tag) => abi.struct_layout(tag)?.size as u64,
        })
    }

    /// The layout of a struct element.
    pub fn layout(self, abi: &'static Abi) -> Option<&'static StructLayout> {
        match self {
            Element::Struct(tag) => abi.struct_layout(tag),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctype::{CType, classify};

    #[test]
    fn the_table_parses() {
        let parsed = parse(USER_BUFFERS_TSV).unwrap();
        assert_eq!(parsed.len(), rules().len());
        assert!(
            parsed
                .iter()
                .any(|r| r.owner == "neuron_ioctl_dma_queue_get_state"
                    && r.field == "tx"
                    && r.element == Some(Element::Struct("neuron_dma_queue_state")))
        );
    }

    #[test]
    fn every_pointer_and_flexible_array_of_every_release_has_a_row() {
        // ioctl-README.md "Files": user_ptr = yes marks the pointer-typed fields plus the
        // `__u64` fields that hold user addresses; flexible array members have size 0.
        for release in ndl_abi::Release::ALL {
            let abi = release.abi();
            for s in abi.structs {
                for f in s.fields {
                    let pointer = matches!(classify(abi, f.c_type), CType::Pointer(_));
                    let flex = f.size == 0;
                    if pointer || flex {
                        assert!(
                            find(s.c_name, f.name).is_some(),
                            "{release}: {}.{} ({}) has no row",
                            s.c_name,
                            f.name,
                            f.c_type
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_row_names_a_field_and_resolves() {
        for r in rules() {
            let mut seen = false;
            for release in ndl_abi::Release::ALL {
                let abi = release.abi();
                let Some(s) = abi.struct_layout(r.owner) else {
                    continue;
                };
                let Some(f) = s.field(r.field) else { continue };
                seen = true;
                let Some(count) = r.count else { continue };
                if let CountBase::Field(FieldRef::Own(name)) = count.base {
                    assert!(s.field(name).is_some(), "{}: no field {name}", r.owner);
                }
                if let Some(Access::InIf(FieldRef::Own(name))) = r.access {
                    assert!(s.field(name).is_some(), "{}: no field {name}", r.owner);
                }
                assert!(
                    r.element.and_then(|e| e.size(abi)).is_some(),
                    "{release}: {}.{} element",
                    r.owner,
                    r.field
                );
                match r.at {
                    At::Pointer => {
                        let CType::Pointer(pointee) = classify(abi, f.c_type) else {
                            panic!("{}.{} is no pointer", r.owner, r.field);
                        };
                        // The element is the pointee's type, or bytes of it.
                        let ok = match (classify(abi, pointee), r.element) {
                            (_, Some(Element::Byte)) => true,
                            (CType::Struct(tag), Some(Element::Struct(e))) => tag == e,
                            (_, Some(Element::Scalar(e))) => e == pointee,
                            (CType::Unsigned, Some(Element::Descriptor)) => pointee == "void",
                            _ => false,
                        };
                        assert!(ok, "{}.{}: {pointee} vs {:?}", r.owner, r.field, r.element);
                    }
                    At::Trailing => assert_eq!(f.size, 0, "{}.{}", r.owner, r.field),
                    At::Opaque => {}
                }
            }
            assert!(seen, "{}.{} is in no release", r.owner, r.field);
        }
    }
}
