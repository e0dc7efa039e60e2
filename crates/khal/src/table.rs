//! Compile-time lookups in the reference register table.
//!
//! `udma-registers.tsv` is included into the crate and searched by `const fn`s, so every
//! register offset below is checked by the compiler against the table the offsets were
//! extracted into (a typo in either fails the build, not a test).

/// The UDMA register table: `tables/udma-registers.tsv`, a byte-identical copy of the
/// repository's `reference/udma-registers.tsv` kept inside the crate so the crate packages
/// (the `registers` integration test reads this same file and compares it with
/// `reference/udma-registers.tsv`; in a checkout, where tests run, a missing reference file
/// fails that test).
pub(crate) const UDMA_REGISTERS: &str = include_str!("../tables/udma-registers.tsv");

/// Which column of a table row to read.
#[derive(Clone, Copy)]
pub(crate) enum Column {
    /// Offset inside the block (third column).
    Offset,
    /// Offset from the unit base (fourth column; `-` for overlay views).
    Abs,
}

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut a, mut b) = (a, b);
    while let (Some((x, ra)), Some((y, rb))) = (a.split_first(), b.split_first()) {
        if *x != *y {
            return false;
        }
        a = ra;
        b = rb;
    }
    true
}

/// Splits `s` at the first `sep`: (before, after-without-sep). No `sep`: (s, empty).
const fn split_once(s: &[u8], sep: u8) -> (&[u8], &[u8]) {
    let mut i = 0;
    let mut rest = s;
    while let Some((c, r)) = rest.split_first() {
        if *c == sep {
            if let Some((head, _)) = s.split_at_checked(i) {
                return (head, r);
            }
        }
        i += 1;
        rest = r;
    }
    (s, rest)
}

/// Parses `0x…` hex; `None` for anything else.
const fn parse_hex(s: &[u8]) -> Option<usize> {
    let Some((b'0', rest)) = s.split_first() else {
        return None;
    };
    let Some((b'x', mut digits)) = rest.split_first() else {
        return None;
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: usize = 0;
    while let Some((c, r)) = digits.split_first() {
        let d = match *c {
            b'0'..=b'9' => *c - b'0',
            b'a'..=b'f' => *c - b'a' + 10,
            b'A'..=b'F' => *c - b'A' + 10,
            _ => return None,
        };
        v = match v.checked_mul(16) {
            Some(x) => match x.checked_add(d as usize) {
                Some(y) => y,
                None => return None,
            },
            None => return None,
        };
        digits = r;
    }
    Some(v)
}

/// One parsed line of the table: block, register, offset and absolute offset (`None` where
/// the cell is not a hex number, such as the overlay's `-`).
#[derive(Clone, Copy)]
struct Row {
    block: &'static [u8],
    name: &'static [u8],
    offset: Option<usize>,
    abs: Option<usize>,
}

/// Lines of the table (the header included: it parses as a row no lookup matches).
const LINES: usize = {
    let mut n = 0;
    let mut rest = UDMA_REGISTERS.as_bytes();
    while !rest.is_empty() {
        rest = split_once(rest, b'\n').1;
        n += 1;
    }
    n
};

/// The table, split once into rows, so that each lookup compares short names instead of
/// rescanning the text (the register list checks every row at compile time).
const ROWS: [Row; LINES] = {
    let empty = Row {
        block: b"",
        name: b"",
        offset: None,
        abs: None,
    };
    let mut rows = [empty; LINES];
    let mut slots: &mut [Row] = &mut rows;
    let mut rest = UDMA_REGISTERS.as_bytes();
    while let Some((slot, free)) = slots.split_first_mut() {
        let (line, next) = split_once(rest, b'\n');
        rest = next;
        let (block, tail) = split_once(line, b'\t');
        let (name, tail) = split_once(tail, b'\t');
        let (off, tail) = split_once(tail, b'\t');
        *slot = Row {
            block,
            name,
            offset: parse_hex(off),
            abs: parse_hex(split_once(tail, b'\t').0),
        };
        slots = free;
    }
    rows
};

/// The `column` of the row whose block is `block` and register is `name`, parsed as hex.
/// `None` when the row is missing or the cell is not a hex number.
pub(crate) const fn lookup(block: &str, name: &str, column: Column) -> Option<usize> {
    let mut rows: &[Row] = &ROWS;
    while let Some((r, rest)) = rows.split_first() {
        if bytes_eq(r.block, block.as_bytes()) && bytes_eq(r.name, name.as_bytes()) {
            return match column {
                Column::Offset => r.offset,
                Column::Abs => r.abs,
            };
        }
        rows = rest;
    }
    None
}

/// True when the table row `block`/`name` has `offset` in its offset column.
pub(crate) const fn offset_is(block: &str, name: &str, offset: usize) -> bool {
    matches!(lookup(block, name, Column::Offset), Some(v) if v == offset)
}

/// True when no row of block `block` has `offset` in its offset column: a register the
/// seeds name but the reference table does not list must not collide with one it lists.
pub(crate) const fn no_row_at(block: &str, offset: usize) -> bool {
    let mut rows: &[Row] = &ROWS;
    while let Some((r, rest)) = rows.split_first() {
        if bytes_eq(r.block, block.as_bytes()) && matches!(r.offset, Some(v) if v == offset) {
            return false;
        }
        rows = rest;
    }
    true
}

/// True when the table row `block`/`name` has `abs` in its absolute-offset column.
pub(crate) const fn abs_is(block: &str, name: &str, abs: usize) -> bool {
    matches!(lookup(block, name, Column::Abs), Some(v) if v == abs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_rows_and_rejects_missing_ones() {
        assert_eq!(
            lookup("m2s", "m2s.change_state", Column::Offset),
            Some(0x204)
        );
        assert_eq!(lookup("s2m_q", "q_sw_ctrl", Column::Abs), Some(0x21064));
        assert_eq!(
            lookup("q_rings", "cfg", Column::Abs),
            None,
            "overlay rows have '-'"
        );
        assert_eq!(
            lookup("s2m_q", "desc_pref_cfg", Column::Offset),
            None,
            "TX only"
        );
        assert_eq!(lookup("m2s", "nope", Column::Offset), None);
        assert!(!no_row_at("m2s", 0x310), "m2s_rd.data_cfg is listed");
        assert!(
            no_row_at("s2m", 0x344),
            "the seed's no-descriptor register is not"
        );
        assert_eq!(parse_hex(b"0x3c000"), Some(0x3c000));
        assert_eq!(parse_hex(b"3c000"), None);
        assert_eq!(parse_hex(b"0x"), None);
        assert_eq!(parse_hex(b"0xg"), None);
    }
}
