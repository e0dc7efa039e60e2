//! From table rows to what the generated code says: per release, every command (request
//! constant, routing row) and every struct (Rust type, padding, layout, marker), with every
//! cross-check the tables allow done before a line is written.

use std::collections::BTreeMap;

use super::tsv::{self, Row};

/// A project table that maps names to rows, keyed by its first column.
pub type Keyed = BTreeMap<String, Row>;

/// Everything the generator reads.
pub struct Inputs {
    /// `(release, commands rows, structs rows)`, oldest release first.
    pub releases: Vec<(String, Vec<Row>, Vec<Row>)>,
    /// `command-facts.tsv` by name.
    pub facts: Keyed,
    /// `c-types.tsv` by C type.
    pub ctypes: Keyed,
    /// `struct-names.tsv` by C name.
    pub names: Keyed,
    /// `errno.tsv` rows.
    pub errno: Vec<Row>,
    /// `limits.tsv` rows.
    pub limits: Vec<Row>,
    /// `compat.tsv` rows.
    pub compat: Vec<Row>,
    /// `driver-version.tsv` rows.
    pub versions: Vec<Row>,
}

/// One generated release module.
pub struct Release {
    /// `2.26.5.0`.
    pub name: String,
    /// `v2_26_5_0`.
    pub module: String,
    /// `V2_26_5_0` (the `Release` variant).
    pub variant: String,
    pub commands: Vec<Cmd>,
    pub structs: Vec<Struct>,
    /// `(arch ident, min, max)`.
    pub compat: Vec<(String, u64, u64)>,
    /// `(module_version, driver_version, driver_revision)`.
    pub version: (String, String, String),
}

/// One command of a release.
pub struct Cmd {
    /// Without `NEURON_IOCTL_`.
    pub short: String,
    pub code: u32,
    /// `Dir` variant.
    pub dir: &'static str,
    pub nr: u64,
    /// `Request` constructor.
    pub ctor: &'static str,
    /// The Rust argument type.
    pub arg: String,
    /// The table's `arg_type`.
    pub arg_type: String,
    /// `Returns` variant, with its errno in parentheses.
    pub returns: String,
    pub note: String,
    /// `Lane` / `Match` variants.
    pub lane: &'static str,
    pub matching: &'static str,
    pub attach: bool,
}

/// One struct of a release.
pub struct Struct {
    pub c_name: String,
    pub rust: String,
    pub size: u64,
    pub align: u64,
    /// Not `NoUserPtr`.
    pub user_memory: bool,
    pub fields: Vec<Field>,
    /// Commands of this release whose argument it is (short names).
    pub args_of: Vec<String>,
    /// The module of the earliest release with the identical struct (`None`: defined here).
    pub home: Option<String>,
}

/// One field (padding included).
pub struct Field {
    /// The Rust identifier.
    pub ident: String,
    pub ty: String,
    pub offset: u64,
    pub c_type: String,
    pub doc: String,
}

/// A resolved C type.
#[derive(Clone, Debug)]
enum Ty {
    Prim(&'static str, u64),
    Struct(String),
    Ptr(Box<Ty>),
}

const PRIMS: [(&str, u64); 8] = [
    ("u8", 1),
    ("u16", 2),
    ("u32", 4),
    ("u64", 8),
    ("i8", 1),
    ("i16", 2),
    ("i32", 4),
    ("i64", 8),
];

/// LP64 pointer size and alignment (ioctl-README.md, "Source and target").
const POINTER_BYTES: u64 = 8;

fn prim(name: &str) -> Result<Ty, String> {
    PRIMS
        .iter()
        .find(|(p, _)| *p == name)
        .map(|(p, s)| Ty::Prim(p, *s))
        .ok_or_else(|| format!("c-types.tsv: `{name}` is neither a primitive nor `struct TAG`"))
}

fn base_type(c: &str, owner: &str, field: &str, ctypes: &Keyed) -> Result<Ty, String> {
    if c == "struct (anonymous)" {
        return Ok(Ty::Struct(format!("{owner}.{field}")));
    }
    if let Some(tag) = c.strip_prefix("struct ") {
        return Ok(Ty::Struct(tag.to_string()));
    }
    let row = ctypes
        .get(c)
        .ok_or_else(|| format!("{owner}.{field}: C type `{c}` has no row in c-types.tsv"))?;
    let rust = tsv::cell(row, "rust")?;
    match rust.strip_prefix("struct ") {
        Some(tag) => Ok(Ty::Struct(tag.to_string())),
        None => prim(rust),
    }
}

fn resolve(c_type: &str, owner: &str, field: &str, ctypes: &Keyed) -> Result<Ty, String> {
    match c_type.strip_suffix(" *") {
        Some(pointee) => {
            let pointee = pointee.trim_start_matches("const ");
            Ok(Ty::Ptr(Box::new(base_type(pointee, owner, field, ctypes)?)))
        }
        None => base_type(c_type, owner, field, ctypes),
    }
}

/// The Rust name of a C struct: `struct-names.tsv`, else the rule it documents.
pub fn rust_name(c_name: &str, names: &Keyed) -> Result<String, String> {
    if let Some(row) = names.get(c_name) {
        return Ok(tsv::cell(row, "rust")?.to_string());
    }
    if c_name.contains('.') {
        return Err(format!(
            "{c_name}: a nested anonymous struct needs a row in struct-names.tsv"
        ));
    }
    let stem = ["neuron_ioctl_", "neuron_", "nrt_"]
        .iter()
        .find_map(|p| c_name.strip_prefix(p))
        .unwrap_or(c_name);
    Ok(stem
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect())
}

/// Rust keywords a header field name may collide with.
const KEYWORDS: [&str; 12] = [
    "type", "match", "ref", "mod", "move", "fn", "impl", "loop", "use", "where", "box", "in",
];

fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// `release` as a module name: `2.26.5.0` -> `v2_26_5_0`.
pub fn module_of(release: &str) -> String {
    format!("v{}", release.replace('.', "_"))
}

fn io_text(io: &str) -> Result<(&'static str, &'static str), String> {
    Ok(match io {
        "in" => ("Input", "input"),
        "out" => ("Output", "output"),
        "inout" => ("Input and output", "input and output"),
        "unknown" => (
            "Direction not marked in the header",
            "direction not marked in the header",
        ),
        other => return Err(format!("io `{other}`")),
    })
}

/// One raw row of ioctl-structs.tsv.
struct RawField {
    name: String,
    c_type: String,
    offset: u64,
    size: u64,
    /// `None` scalar, `Some(0)` flexible, `Some(n)` fixed array.
    array: Option<u64>,
    io: String,
    user_ptr: bool,
    ty: Ty,
}

struct RawStruct {
    c_name: String,
    fields: Vec<RawField>,
}

fn raw_structs(rows: &[Row], ctypes: &Keyed) -> Result<Vec<RawStruct>, String> {
    let mut out: Vec<RawStruct> = Vec::new();
    for row in rows {
        let owner = tsv::cell(row, "struct")?;
        let name = tsv::cell(row, "field")?;
        let c_type = tsv::cell(row, "c_type")?;
        let array = match tsv::cell(row, "array_len")? {
            "-" => None,
            "flex" => Some(0),
            _ => Some(tsv::num(row, "array_len")?),
        };
        let user_ptr = match tsv::cell(row, "user_ptr")? {
            "yes" => true,
            "no" => false,
            other => return Err(format!("{owner}.{name}: user_ptr `{other}`")),
        };
        let field = RawField {
            name: name.to_string(),
            c_type: c_type.to_string(),
            offset: tsv::num(row, "offset")?,
            size: tsv::num(row, "size")?,
            array,
            io: tsv::cell(row, "io")?.to_string(),
            user_ptr,
            ty: resolve(c_type, owner, name, ctypes)?,
        };
        match out.last_mut() {
            Some(s) if s.c_name == owner => s.fields.push(field),
            _ => {
                if out.iter().any(|s| s.c_name == owner) {
                    return Err(format!("{owner}: rows are not contiguous"));
                }
                out.push(RawStruct {
                    c_name: owner.to_string(),
                    fields: vec![field],
                });
            }
        }
    }
    Ok(out)
}

/// Layout work for one release: struct sizes and alignments, computed once each.
struct Layouts<'a> {
    raw: &'a [RawStruct],
    /// Sizes and alignments the commands table states for argument structs.
    stated: BTreeMap<String, (u64, u64)>,
    done: BTreeMap<String, (u64, u64)>,
}

impl Layouts<'_> {
    fn find(&self, c_name: &str) -> Result<&RawStruct, String> {
        self.raw
            .iter()
            .find(|s| s.c_name == c_name)
            .ok_or_else(|| format!("struct {c_name} is named but has no rows"))
    }

    /// `(size, align)` of one element of type `ty`.
    fn of(&mut self, ty: &Ty, depth: u32) -> Result<(u64, u64), String> {
        match ty {
            Ty::Prim(_, s) => Ok((*s, *s)),
            Ty::Ptr(_) => Ok((POINTER_BYTES, POINTER_BYTES)),
            Ty::Struct(tag) => self.strukt(tag, depth + 1),
        }
    }

    /// `(size, align)` of struct `c_name`: alignment the largest of its fields', size the end
    /// of its last field rounded up to it (the C rules gcc applied); where the commands table
    /// states them for an argument struct, they must agree.
    fn strukt(&mut self, c_name: &str, depth: u32) -> Result<(u64, u64), String> {
        if let Some(l) = self.done.get(c_name) {
            return Ok(*l);
        }
        if depth > 16 {
            return Err(format!("{c_name}: structs nest too deep (a cycle?)"));
        }
        let tys: Vec<(Ty, Option<u64>, u64, u64, String)> = self
            .find(c_name)?
            .fields
            .iter()
            .map(|f| (f.ty.clone(), f.array, f.offset, f.size, f.name.clone()))
            .collect();
        let (mut align, mut end) = (1, 0);
        for (ty, array, offset, size, name) in tys {
            let (elem, a) = self.of(&ty, depth)?;
            let expect = elem * array.unwrap_or(1);
            if expect != size {
                return Err(format!(
                    "{c_name}.{name}: the table says {size} bytes, the type gives {expect}"
                ));
            }
            if offset % a != 0 {
                return Err(format!("{c_name}.{name}: offset {offset} not {a}-aligned"));
            }
            align = align.max(a);
            end = end.max(offset + size);
        }
        let size = end.div_ceil(align) * align;
        if let Some(&(s, a)) = self.stated.get(c_name) {
            if (s, a) != (size, align) {
                return Err(format!(
                    "{c_name}: the commands table says size {s} align {a}, the fields give \
                     {size} / {align}"
                ));
            }
        }
        self.done.insert(c_name.to_string(), (size, align));
        Ok((size, align))
    }

    /// True when the driver may reach user memory through the struct (see `user_memory`).
    fn user_memory(&self, c_name: &str, depth: u32) -> Result<bool, String> {
        if depth > 16 {
            return Err(format!("{c_name}: structs nest too deep"));
        }
        for f in &self.find(c_name)?.fields {
            if f.user_ptr || f.array == Some(0) {
                return Ok(true);
            }
            if let Ty::Struct(tag) = &f.ty {
                if self.user_memory(tag, depth + 1)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Everything that makes two releases' structs the same type: every row, the name, the
    /// layout and the signatures of the structs it names (nested or pointed to).
    fn signature(&self, c_name: &str, names: &Keyed, depth: u32) -> Result<String, String> {
        if depth > 16 {
            return Err(format!("{c_name}: structs nest too deep"));
        }
        let s = self.find(c_name)?;
        let layout = self.done.get(c_name).copied().unwrap_or_default();
        let mut sig = format!("{c_name}|{}|{layout:?}|", rust_name(c_name, names)?);
        for f in &s.fields {
            sig += &format!(
                "{}:{}:{}:{}:{:?}:{}:{};",
                f.name, f.c_type, f.offset, f.size, f.array, f.io, f.user_ptr
            );
            let mut ty = &f.ty;
            while let Ty::Ptr(inner) = ty {
                ty = inner;
            }
            if let Ty::Struct(tag) = ty {
                sig += &format!("[{}]", self.signature(tag, names, depth + 1)?);
            }
        }
        Ok(sig)
    }
}

fn rust_type(ty: &Ty, names: &Keyed) -> Result<String, String> {
    Ok(match ty {
        Ty::Prim(p, _) => (*p).to_string(),
        Ty::Struct(tag) => rust_name(tag, names)?,
        Ty::Ptr(inner) => format!("UserPtr<{}>", rust_type(inner, names)?),
    })
}

fn field_doc(f: &RawField) -> Result<String, String> {
    let (cap, lower) = io_text(&f.io)?;
    let c = &f.c_type;
    Ok(match (&f.ty, f.array) {
        (Ty::Ptr(_), _) => format!("User address of the pointee ({lower}); `{c}` in the header."),
        (_, Some(0)) => {
            format!(
                "{cap}; flexible array member (its entries follow the struct); `{c}` in the header."
            )
        }
        (_, Some(n)) => format!("{cap}; `{c}[{n}]` in the header."),
        _ if f.user_ptr => {
            format!("{cap}; holds a user virtual address (`user_ptr`); `{c}` in the header.")
        }
        _ => format!("{cap}; `{c}` in the header."),
    })
}

/// The fields of `s` with the implicit padding spelled out, up to `size`.
fn fields_with_padding(s: &RawStruct, size: u64, names: &Keyed) -> Result<Vec<Field>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    let pad = |offset: u64, len: u64, tail: bool| Field {
        ident: format!("_pad{offset}"),
        ty: format!("[u8; {len}]"),
        offset,
        c_type: "-".into(),
        doc: if tail {
            "Tail padding of the C layout (kept zero).".into()
        } else {
            "Implicit padding of the C layout (kept zero).".into()
        },
    };
    for f in &s.fields {
        if f.offset < at {
            return Err(format!(
                "{}.{}: overlaps the field before",
                s.c_name, f.name
            ));
        }
        if f.offset > at {
            out.push(pad(at, f.offset - at, false));
        }
        let base = rust_type(&f.ty, names)?;
        let ty = match f.array {
            None => base,
            Some(n) => format!("[{base}; {n}]"),
        };
        out.push(Field {
            ident: ident(&f.name),
            ty,
            offset: f.offset,
            c_type: f.c_type.clone(),
            doc: field_doc(f)?,
        });
        at = f.offset + f.size;
    }
    if size > at {
        out.push(pad(at, size - at, true));
    }
    Ok(out)
}

fn dir_ident(dir: &str) -> Result<&'static str, String> {
    Ok(match dir {
        "none" => "None",
        "W" => "Write",
        "R" => "Read",
        "WR" => "ReadWrite",
        other => return Err(format!("dir `{other}`")),
    })
}

fn dir_bits(dir: &str) -> u64 {
    match dir {
        "W" => 1,
        "R" => 2,
        "WR" => 3,
        _ => 0,
    }
}

fn lane_ident(lane: &str) -> Result<&'static str, String> {
    Ok(match lane {
        "device" => "Device",
        "device+attach" => "DeviceAttach",
        "misc" => "Misc",
        other => return Err(format!("lane `{other}`")),
    })
}

fn returns_of(facts: &Row, errno: &[Row]) -> Result<String, String> {
    let r = tsv::cell(facts, "returns")?;
    Ok(match r {
        "status" => "Status".into(),
        "zero" => "Zero".into(),
        "positive-errno" => "PositiveErrno".into(),
        _ => match r.strip_prefix("refused:") {
            Some(e)
                if errno
                    .iter()
                    .any(|row| row.get("name").is_some_and(|n| n == e)) =>
            {
                format!("Refused({e})")
            }
            _ => return Err(format!("command-facts.tsv: returns `{r}`")),
        },
    })
}

/// The struct tag of a command's argument, if it is a struct.
fn arg_tag(arg_type: &str) -> Option<String> {
    let t = arg_type.strip_prefix("struct ")?;
    Some(t.strip_suffix(" *").unwrap_or(t).to_string())
}

fn command(row: &Row, inputs: &Inputs, structs: &Keyed) -> Result<Cmd, String> {
    let name = tsv::cell(row, "name")?;
    let short = name
        .strip_prefix("NEURON_IOCTL_")
        .ok_or_else(|| format!("{name}: no NEURON_IOCTL_ prefix"))?;
    let facts = inputs
        .facts
        .get(name)
        .ok_or_else(|| format!("{name} has no row in command-facts.tsv"))?;
    let code = u32::try_from(tsv::num(row, "request_hex")?).map_err(|e| format!("{name}: {e}"))?;
    let dir = tsv::cell(row, "dir")?;
    let nr = tsv::num(row, "nr")?;
    let ioc_size = tsv::num(row, "ioc_size")?;
    let recomputed = dir_bits(dir) << 30 | ioc_size << 16 | 0x4E << 8 | nr;
    if recomputed != u64::from(code) {
        return Err(format!("{name}: request {code:#x} does not re-encode"));
    }
    let form = tsv::cell(row, "form")?;
    let arg_type = tsv::cell(row, "arg_type")?;
    let stated = tsv::opt_num(row, "struct_size")?;
    let over = tsv::cell(facts, "arg")?;
    let (ctor, arg) = match form {
        "none" => ("none", "()".to_string()),
        "pointer" | "struct" => {
            let tag = if over != "-" {
                Some(over.to_string())
            } else {
                arg_tag(arg_type)
            };
            let rust = match tag {
                Some(tag) => {
                    let s = structs
                        .get(&tag)
                        .ok_or_else(|| format!("{name}: argument struct {tag} has no rows"))?;
                    tsv::cell(s, "rust")?.to_string()
                }
                None => rust_type(
                    &base_type(arg_type, name, "arg", &inputs.ctypes)?,
                    &inputs.names,
                )?,
            };
            let ctor = match (form, stated) {
                ("pointer", None) => "pointer_undefined",
                ("pointer", Some(_)) => "pointer",
                _ => "value",
            };
            (ctor, rust)
        }
        other => return Err(format!("{name}: form `{other}`")),
    };
    let lane_cell = tsv::cell(row, "lane")?;
    let attach = match tsv::cell(facts, "attach")? {
        "lane" => lane_cell == "device+attach",
        "yes" => true,
        other => return Err(format!("{name}: attach `{other}`")),
    };
    Ok(Cmd {
        short: short.to_string(),
        code,
        dir: dir_ident(dir)?,
        nr,
        ctor,
        arg,
        arg_type: arg_type.to_string(),
        returns: returns_of(facts, &inputs.errno)?,
        note: tsv::cell(row, "handler_note")?.to_string(),
        lane: lane_ident(lane_cell)?,
        matching: match tsv::cell(row, "match")? {
            "exact" => "Exact",
            "nr" => "Nr",
            other => return Err(format!("{name}: match `{other}`")),
        },
        attach,
    })
}

fn arch_ident(arch: &str) -> Result<String, String> {
    match arch {
        "v1" | "v2" | "v3" | "v4" => Ok(arch.to_uppercase()),
        other => Err(format!("compat.tsv: arch `{other}`")),
    }
}

/// Builds every release, checking what the tables allow; structs unchanged since an earlier
/// release point there (`home`).
pub fn build(inputs: &Inputs) -> Result<Vec<Release>, String> {
    let mut out: Vec<Release> = Vec::new();
    // Signature -> module of the release that defines the type.
    let mut homes: BTreeMap<String, String> = BTreeMap::new();
    let mut named_anywhere = std::collections::BTreeSet::new();
    for (name, command_rows, struct_rows) in &inputs.releases {
        let release = build_one(name, command_rows, struct_rows, inputs, &mut homes)
            .map_err(|e| format!("release {name}: {e}"))?;
        for row in command_rows {
            named_anywhere.insert(tsv::cell(row, "name")?.to_string());
        }
        out.push(release);
    }
    if let Some(extra) = inputs.facts.keys().find(|k| !named_anywhere.contains(*k)) {
        return Err(format!("command-facts.tsv: {extra} is in no release"));
    }
    Ok(out)
}

/// The sizes and alignments the command table states, by argument tag; two commands that
/// name one struct must agree.
fn stated_sizes(command_rows: &[Row]) -> Result<BTreeMap<String, (u64, u64)>, String> {
    let mut stated = BTreeMap::new();
    for row in command_rows {
        if let (Some(tag), Some(size), Some(align)) = (
            arg_tag(tsv::cell(row, "arg_type")?),
            tsv::opt_num(row, "struct_size")?,
            tsv::opt_num(row, "struct_align")?,
        ) {
            if let Some(prev) = stated.insert(tag.clone(), (size, align)) {
                if prev != (size, align) {
                    return Err(format!("{tag}: two commands state different sizes"));
                }
            }
        }
    }
    Ok(stated)
}

/// Rust names by C name (for argument types), each struct's layout computed once; two
/// structs may not share a Rust name.
fn rust_names(raw: &[RawStruct], inputs: &Inputs, layouts: &mut Layouts) -> Result<Keyed, String> {
    let mut by_c: Keyed = BTreeMap::new();
    for s in raw {
        let rust = rust_name(&s.c_name, &inputs.names)?;
        if by_c
            .values()
            .any(|r| r.get("rust").is_some_and(|n| *n == rust))
        {
            return Err(format!("two structs are named {rust}"));
        }
        by_c.insert(s.c_name.clone(), Row::from([("rust".to_string(), rust)]));
        layouts.strukt(&s.c_name, 0)?;
    }
    Ok(by_c)
}

/// The release's structs; a struct whose signature an earlier release already emitted gets
/// that module as its home (re-exported, not emitted twice).
fn structs(
    raw: &[RawStruct],
    commands: &[Cmd],
    layouts: &mut Layouts,
    inputs: &Inputs,
    module: &str,
    homes: &mut BTreeMap<String, String>,
) -> Result<Vec<Struct>, String> {
    let mut structs = Vec::new();
    for s in raw {
        let (size, align) = layouts.strukt(&s.c_name, 0)?;
        let signature = layouts.signature(&s.c_name, &inputs.names, 0)?;
        let home = homes.get(&signature).cloned();
        if home.is_none() {
            homes.insert(signature, module.to_string());
        }
        let rust = rust_name(&s.c_name, &inputs.names)?;
        structs.push(Struct {
            c_name: s.c_name.clone(),
            args_of: commands
                .iter()
                .filter(|c| c.arg == rust)
                .map(|c| c.short.clone())
                .collect(),
            rust,
            size,
            align,
            user_memory: layouts.user_memory(&s.c_name, 0)?,
            fields: fields_with_padding(s, size, &inputs.names)?,
            home,
        });
    }
    Ok(structs)
}

/// The release's compatible-version windows (compat.tsv), one per arch; none is an error.
fn compat_windows(name: &str, inputs: &Inputs) -> Result<Vec<(String, u64, u64)>, String> {
    let compat = inputs
        .compat
        .iter()
        .filter(|r| r.get("release").is_some_and(|r| r == name))
        .map(|r| {
            Ok((
                arch_ident(tsv::cell(r, "arch")?)?,
                tsv::num(r, "min")?,
                tsv::num(r, "max")?,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if compat.is_empty() {
        return Err("no row in compat.tsv".into());
    }
    Ok(compat)
}

fn build_one(
    name: &str,
    command_rows: &[Row],
    struct_rows: &[Row],
    inputs: &Inputs,
    homes: &mut BTreeMap<String, String>,
) -> Result<Release, String> {
    let module = module_of(name);
    let raw = raw_structs(struct_rows, &inputs.ctypes)?;
    let mut layouts = Layouts {
        raw: &raw,
        stated: stated_sizes(command_rows)?,
        done: BTreeMap::new(),
    };
    let by_c = rust_names(&raw, inputs, &mut layouts)?;
    let commands = command_rows
        .iter()
        .map(|row| command(row, inputs, &by_c))
        .collect::<Result<Vec<_>, _>>()?;
    let structs = structs(&raw, &commands, &mut layouts, inputs, &module, homes)?;
    let v = inputs
        .versions
        .iter()
        .find(|r| r.get("release").is_some_and(|r| r == name))
        .ok_or("no row in driver-version.tsv")?;
    Ok(Release {
        name: name.to_string(),
        variant: module.to_uppercase(),
        commands,
        structs,
        compat: compat_windows(name, inputs)?,
        module,
        version: (
            tsv::cell(v, "module_version")?.to_string(),
            tsv::cell(v, "driver_version")?.to_string(),
            tsv::cell(v, "driver_revision")?.to_string(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_names_follow_the_rule() {
        let names = Keyed::new();
        assert_eq!(
            rust_name("neuron_ioctl_mem_copy64", &names).unwrap(),
            "MemCopy64"
        );
        assert_eq!(
            rust_name("neuron_ioctl_mem_alloc_v2_mem_type64", &names).unwrap(),
            "MemAllocV2MemType64"
        );
        assert_eq!(
            rust_name("nrt_tensor_batch_op", &names).unwrap(),
            "TensorBatchOp"
        );
        assert_eq!(rust_name("neuron_uuid", &names).unwrap(), "Uuid");
        assert!(rust_name("a.b", &names).is_err());
        assert_eq!(module_of("2.26.5.0"), "v2_26_5_0");
        assert_eq!(ident("type"), "r#type");
    }
}
