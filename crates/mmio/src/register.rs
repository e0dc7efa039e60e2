//! Typed registers and register blocks: what [`register!`](crate::register!) declares.
//!
//! * A [`Register`] is a zero-sized marker: its offset inside its block, its name and its
//!   typed value.
//! * A [`RegisterBlock`] is a kind of register file (a UDMA direction block, one queue's
//!   block, an interrupt group's window): its name and the list of what it holds, made by the
//!   declarations themselves, so a register map never restates them.
//! * A [`Placed`] block also says where it sits in the window above it: one block, or an
//!   array of `COUNT` blocks `STRIDE` bytes apart, addressed by index.
//! * [`Contains`] says which registers a block holds: its own and those of the blocks it
//!   includes (two directions' queue blocks sharing one set of ring registers, for example),
//!   so a [`BlockWindow`](crate::BlockWindow) only reads registers that are there.

/// A register at a fixed byte offset inside its block, with a typed value.
///
/// Implemented by zero-sized marker types (one per register) that
/// [`register!`](crate::register!) declares, in the style of nova-core's `register!`: the
/// value type is usually a `bitfield-struct` word, which converts to and from `u32`
/// losslessly.
pub trait Register {
    /// Byte offset inside [`Block`](Self::Block).
    const OFFSET: usize;
    /// Name as in the reference tables (for register maps and traces).
    const NAME: &'static str;
    /// The typed value.
    type Value: Copy + From<u32> + Into<u32>;
    /// The block whose start [`OFFSET`](Self::OFFSET) counts from.
    type Block: RegisterBlock;
}

/// A kind of register block: a name and every register (and sub-window) it holds.
pub trait RegisterBlock {
    /// Name as in the reference tables.
    const NAME: &'static str;
    /// What the block holds, in declaration order: its own entries, then those of the
    /// blocks it includes (under the names they have in this block).
    const REGISTERS: &'static [RegisterInfo];
}

/// A block with a place in the window that holds it: `COUNT` blocks, `STRIDE` bytes apart,
/// the first `BASE` bytes in.
pub trait Placed: RegisterBlock {
    /// Offset of block 0 from the start of the window that holds it.
    const BASE: usize;
    /// Number of blocks (1 for a single block).
    const COUNT: usize;
    /// Bytes between blocks (0 for a single block, whose size is not declared).
    const STRIDE: usize;
}

/// The registers of block `B` are present in every block of this kind: `B` itself, or a
/// block this one includes. [`BlockWindow`](crate::BlockWindow) access is bounded on it.
pub trait Contains<B: RegisterBlock>: RegisterBlock {}

/// One entry of a [`RegisterBlock`]: a register, or a window that opens another block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegisterInfo {
    /// Name (for an included register: its name in the including block, see
    /// [`aliases`](Self::aliases)).
    pub name: &'static str,
    /// Byte offset inside the block.
    pub offset: usize,
    /// Other names of the register, by the name of a block that includes its block: a
    /// reference table may name one shared register differently per direction.
    pub aliases: &'static [(&'static str, &'static str)],
    /// Where the fact comes from when it is not the block's own reference (`None`): a
    /// register a secondary source names, said with the declaration.
    pub source: Option<&'static str>,
    /// For an entry that is the start of a sub-block (an interrupt group's window, say),
    /// the name of that block's kind; `None` for a register.
    pub window: Option<&'static str>,
}

impl RegisterInfo {
    /// A register row.
    pub const fn register(name: &'static str, offset: usize) -> Self {
        Self {
            name,
            offset,
            aliases: &[],
            source: None,
            window: None,
        }
    }

    /// The same row with other names by including block.
    pub const fn with_aliases(self, aliases: &'static [(&'static str, &'static str)]) -> Self {
        Self { aliases, ..self }
    }

    /// The same row, stated by `source` rather than the block's reference.
    pub const fn with_source(self, source: &'static str) -> Self {
        Self {
            source: Some(source),
            ..self
        }
    }

    /// The same row as the start of a window on a block of kind `block`.
    pub const fn with_window(self, block: &'static str) -> Self {
        Self {
            window: Some(block),
            ..self
        }
    }

    /// The name this row has inside block `block`: its alias there, or its own name.
    pub const fn name_in(&self, block: &str) -> &'static str {
        let mut rest = self.aliases;
        while let Some(((b, alias), tail)) = rest.split_first() {
            if str_eq(b, block) {
                return alias;
            }
            rest = tail;
        }
        self.name
    }
}

/// `a == b`, in a `const fn`.
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    while let (Some((x, ra)), Some((y, rb))) = (a.split_first(), b.split_first()) {
        if *x != *y {
            return false;
        }
        (a, b) = (ra, rb);
    }
    true
}

/// Offset of block `index` of `B` from the start of the window that holds it; `None` past
/// `B::COUNT` (or where the sum would not fit a `usize`).
pub const fn block_base<B: Placed>(index: usize) -> Option<usize> {
    if index >= B::COUNT {
        return None;
    }
    match index.checked_mul(B::STRIDE) {
        Some(step) => B::BASE.checked_add(step),
        None => None,
    }
}

/// An offset no register window maps (the top of the address space), that still leaves room
/// for an offset inside a block of `B` to be added without overflowing.
pub const fn unmapped<B: Placed>() -> usize {
    usize::MAX - B::STRIDE
}

/// [`block_base`] for an index its type already bounds (a queue id, say): a past-the-end
/// index, which that type rules out, gives [`unmapped`] instead of `None`, so an access
/// through it reads as a bus error rather than reaching another register.
pub const fn block_base_or_unmapped<B: Placed>(index: usize) -> usize {
    match block_base::<B>(index) {
        Some(base) => base,
        None => unmapped::<B>(),
    }
}

/// Which block of the array `B` an offset (from the start of the window that holds it)
/// falls in: `(index, offset inside that block)`. `None` outside the array, and for a single
/// block, whose size is not declared.
pub const fn locate<B: Placed>(offset: usize) -> Option<(usize, usize)> {
    if B::STRIDE == 0 {
        return None;
    }
    let Some(rel) = offset.checked_sub(B::BASE) else {
        return None;
    };
    let index = rel / B::STRIDE;
    if index < B::COUNT {
        Some((index, rel % B::STRIDE))
    } else {
        None
    }
}

/// Number of rows in `parts` (for [`join_rows`]).
#[doc(hidden)]
pub const fn count_rows(mut parts: &[&[RegisterInfo]]) -> usize {
    let mut n = 0;
    while let Some((rows, rest)) = parts.split_first() {
        n += rows.len();
        parts = rest;
    }
    n
}

/// The rows of `parts` in order, as block `block` lists them: `parts[0]` are its own, the
/// others come from included blocks and take their alias for `block`. `N` is
/// [`count_rows`]`(parts)` (the declaration macro computes it): rows past `N` would be
/// dropped and missing ones left empty, which no declaration produces.
#[doc(hidden)]
pub const fn join_rows<const N: usize>(
    parts: &[&[RegisterInfo]],
    block: &str,
) -> [RegisterInfo; N] {
    let mut out = [RegisterInfo::register("", 0); N];
    let mut slots: &mut [RegisterInfo] = &mut out;
    let (mut parts, mut own) = (parts, true);
    while let Some((rows, rest)) = parts.split_first() {
        let mut rows: &[RegisterInfo] = rows;
        while let Some((row, more)) = rows.split_first() {
            let Some((slot, free)) = slots.split_first_mut() else {
                return out;
            };
            *slot = *row;
            if !own {
                slot.name = row.name_in(block);
            }
            slots = free;
            rows = more;
        }
        parts = rest;
        own = false;
    }
    out
}
