//! Two driver releases' ioctl ABIs compared (`neuron-tool ioctl diff R1 R2`): commands
//! added, removed and changed (request number, argument, lane, match), and structs added,
//! removed and changed (size, alignment, fields added, removed, renamed at an unchanged
//! offset, moved, resized or retyped), all from `ndl-abi`'s per-release tables.

use std::fmt;

use ndl_abi::kernel::{Lane, Match, Routing};
use ndl_abi::{Abi, Command, FieldLayout, Release, StructLayout};

/// A command's argument: its struct tag (or C type) and the bytes the driver copies.
pub type Argument = (&'static str, Option<usize>);

/// What happened to one command between two releases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandChange {
    /// Only the newer release has it.
    Added(&'static Command, Routing),
    /// Only the older release has it.
    Removed(&'static Command, Routing),
    /// Both have it (by name), with these differences.
    Changed {
        /// The macro name.
        name: &'static str,
        /// `(old, new)` request number.
        request: Option<(u32, u32)>,
        /// `(old, new)` argument: struct tag (or C type) and size.
        arg: Option<(Argument, Argument)>,
        /// `(old, new)` lane.
        lane: Option<(Lane, Lane)>,
        /// `(old, new)` match kind.
        matching: Option<(Match, Match)>,
    },
}

/// What happened to one field of a struct both releases have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldChange {
    /// A field only the newer release has.
    Added(&'static FieldLayout),
    /// A field only the older release has.
    Removed(&'static FieldLayout),
    /// A field that kept its offset and size but not its name.
    Renamed {
        /// Old name.
        from: &'static str,
        /// New name.
        to: &'static str,
        /// The offset both have.
        offset: usize,
    },
    /// A field that moved.
    Moved {
        /// The name.
        name: &'static str,
        /// Old offset.
        from: usize,
        /// New offset.
        to: usize,
    },
    /// A field whose size or C type changed.
    Retyped {
        /// The name.
        name: &'static str,
        /// `(c_type, size)` before.
        from: (&'static str, usize),
        /// `(c_type, size)` after.
        to: (&'static str, usize),
    },
}

/// What happened to one struct between two releases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StructChange {
    /// Only the newer release has it.
    Added(&'static StructLayout),
    /// Only the older release has it.
    Removed(&'static StructLayout),
    /// Both have it (by C tag), with these differences.
    Changed {
        /// The C tag.
        c_name: &'static str,
        /// `(old, new)` size.
        size: Option<(usize, usize)>,
        /// `(old, new)` alignment.
        align: Option<(usize, usize)>,
        /// Field by field.
        fields: Vec<FieldChange>,
    },
}

/// Everything that differs from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbiDiff {
    /// The older release.
    pub from: Release,
    /// The newer release.
    pub to: Release,
    /// Commands, in the newer release's table order (removed ones last).
    pub commands: Vec<CommandChange>,
    /// Structs, in the newer release's table order (removed ones last).
    pub structs: Vec<StructChange>,
}

fn pairs(abi: &'static Abi) -> impl Iterator<Item = (&'static Command, Routing)> {
    abi.catalog.iter().zip(abi.routing.iter().copied())
}

fn changed<T: PartialEq + Copy>(a: T, b: T) -> Option<(T, T)> {
    (a != b).then_some((a, b))
}

fn argument(c: &Command) -> Argument {
    (c.arg_struct().unwrap_or(c.arg_type()), c.arg_size())
}

fn command_changes(a: &'static Abi, b: &'static Abi) -> Vec<CommandChange> {
    let mut out = Vec::new();
    for (new, r) in pairs(b) {
        let Some((old, q)) = pairs(a).find(|(c, _)| c.name() == new.name()) else {
            out.push(CommandChange::Added(new, r));
            continue;
        };
        let change = CommandChange::Changed {
            name: new.name(),
            request: changed(old.code(), new.code()),
            arg: changed(argument(old), argument(new)),
            lane: changed(q.lane, r.lane),
            matching: changed(q.matching, r.matching),
        };
        if !matches!(
            change,
            CommandChange::Changed {
                request: None,
                arg: None,
                lane: None,
                matching: None,
                ..
            }
        ) {
            out.push(change);
        }
    }
    for (old, q) in pairs(a) {
        if b.find(old.name()).is_none() {
            out.push(CommandChange::Removed(old, q));
        }
    }
    out
}

fn field_changes(a: &'static StructLayout, b: &'static StructLayout) -> Vec<FieldChange> {
    let named = |s: &'static StructLayout, n: &str| s.declared().find(|f| f.name == n);
    let mut added: Vec<&'static FieldLayout> = Vec::new();
    let mut out = Vec::new();
    for f in b.declared() {
        match named(a, f.name) {
            None => added.push(f),
            Some(o) => {
                if o.offset != f.offset {
                    out.push(FieldChange::Moved {
                        name: f.name,
                        from: o.offset,
                        to: f.offset,
                    });
                }
                if (o.c_type, o.size) != (f.c_type, f.size) {
                    out.push(FieldChange::Retyped {
                        name: f.name,
                        from: (o.c_type, o.size),
                        to: (f.c_type, f.size),
                    });
                }
            }
        }
    }
    let mut removed: Vec<&'static FieldLayout> = a
        .declared()
        .filter(|o| named(b, o.name).is_none())
        .collect();
    // A removed and an added field with the same offset and size: a rename.
    added.retain(|f| {
        let Some(i) = removed
            .iter()
            .position(|o| (o.offset, o.size) == (f.offset, f.size))
        else {
            return true;
        };
        let o = removed.remove(i);
        out.push(FieldChange::Renamed {
            from: o.name,
            to: f.name,
            offset: f.offset,
        });
        false
    });
    out.extend(added.into_iter().map(FieldChange::Added));
    out.extend(removed.into_iter().map(FieldChange::Removed));
    out
}

fn struct_changes(a: &'static Abi, b: &'static Abi) -> Vec<StructChange> {
    let mut out = Vec::new();
    for new in b.structs {
        let Some(old) = a.struct_layout(new.c_name) else {
            out.push(StructChange::Added(new));
            continue;
        };
        let fields = field_changes(old, new);
        let size = changed(old.size, new.size);
        let align = changed(old.align, new.align);
        if size.is_some() || align.is_some() || !fields.is_empty() {
            out.push(StructChange::Changed {
                c_name: new.c_name,
                size,
                align,
                fields,
            });
        }
    }
    for old in a.structs {
        if b.struct_layout(old.c_name).is_none() {
            out.push(StructChange::Removed(old));
        }
    }
    out
}

impl AbiDiff {
    /// Compares release `from` with release `to`.
    pub fn between(from: Release, to: Release) -> Self {
        let (a, b) = (from.abi(), to.abi());
        Self {
            from,
            to,
            commands: command_changes(a, b),
            structs: struct_changes(a, b),
        }
    }

    fn count<T>(items: &[T], f: impl Fn(&T) -> u8) -> [usize; 3] {
        let mut n = [0; 3];
        for i in items {
            if let Some(slot) = n.get_mut(usize::from(f(i))) {
                *slot += 1;
            }
        }
        n
    }
}

/// `NAME 0xXXXXXXXX DIR NR SIZE LANE`, the line of `ioctl list`.
pub fn list_line(c: &Command, r: &Routing) -> String {
    format!(
        "{} {:#010X} {} {} {} {}",
        c.name(),
        c.code(),
        c.dir(),
        c.nr(),
        c.size(),
        r.lane
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn arg_text((name, size): Argument) -> String {
    match size {
        Some(s) => format!("{name} ({s} bytes)"),
        None => name.to_string(),
    }
}

impl fmt::Display for CommandChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Added(c, r) => write!(f, "command added {} {}", list_line(c, r), r.matching),
            Self::Removed(c, r) => {
                write!(f, "command removed {} {}", list_line(c, r), r.matching)
            }
            Self::Changed {
                name,
                request,
                arg,
                lane,
                matching,
            } => {
                let mut parts = Vec::new();
                if let Some((a, b)) = request {
                    parts.push(format!("request {a:#010X} -> {b:#010X}"));
                }
                if let Some((a, b)) = arg {
                    parts.push(format!("argument {} -> {}", arg_text(*a), arg_text(*b)));
                }
                if let Some((a, b)) = lane {
                    parts.push(format!("lane {a} -> {b}"));
                }
                if let Some((a, b)) = matching {
                    parts.push(format!("match {a} -> {b}"));
                }
                write!(f, "command changed {name}: {}", parts.join("; "))
            }
        }
    }
}

impl fmt::Display for FieldChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Added(x) => write!(
                f,
                "field {} added (offset {}, {} bytes)",
                x.name, x.offset, x.size
            ),
            Self::Removed(x) => write!(f, "field {} removed (offset {})", x.name, x.offset),
            Self::Renamed { from, to, offset } => {
                write!(f, "field {from} renamed {to} (offset {offset})")
            }
            Self::Moved { name, from, to } => {
                write!(f, "field {name} moved (offset {from} -> {to})")
            }
            Self::Retyped { name, from, to } => write!(
                f,
                "field {name} retyped ({} {} bytes -> {} {} bytes)",
                from.0, from.1, to.0, to.1
            ),
        }
    }
}

impl fmt::Display for StructChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Added(s) => write!(
                f,
                "struct added {}: {} bytes, align {}",
                s.c_name, s.size, s.align
            ),
            Self::Removed(s) => write!(f, "struct removed {}", s.c_name),
            Self::Changed {
                c_name,
                size,
                align,
                fields,
            } => {
                let mut parts = Vec::new();
                if let Some((a, b)) = size {
                    parts.push(format!("size {a} -> {b}"));
                }
                if let Some((a, b)) = align {
                    parts.push(format!("align {a} -> {b}"));
                }
                parts.extend(fields.iter().map(ToString::to_string));
                write!(f, "struct changed {c_name}: {}", parts.join("; "))
            }
        }
    }
}

impl fmt::Display for AbiDiff {
    /// A summary line, then one line per change: commands, then structs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = |c: &CommandChange| match c {
            CommandChange::Added(..) => 0,
            CommandChange::Removed(..) => 1,
            CommandChange::Changed { .. } => 2,
        };
        let skind = |s: &StructChange| match s {
            StructChange::Added(_) => 0,
            StructChange::Removed(_) => 1,
            StructChange::Changed { .. } => 2,
        };
        let [ca, cr, cc] = Self::count(&self.commands, kind);
        let [sa, sr, sc] = Self::count(&self.structs, skind);
        writeln!(
            f,
            "driver {} -> {}: {} added, {cr} removed, {cc} changed; {} added, {sr} removed, \
             {sc} changed",
            self.from,
            self.to,
            plural(ca, "command"),
            plural(sa, "struct"),
        )?;
        for c in &self.commands {
            writeln!(f, "{c}")?;
        }
        for s in &self.structs {
            writeln!(f, "{s}")?;
        }
        Ok(())
    }
}
