//! The reference table this crate ships (`tables/mmap-special.tsv`, a copy of the repo's
//! `reference/`, driver 2.26.5.0): its TSV shape and arch column.

use khal::Generation;

/// The `arch` column value of generation `g` (`v2`, `v3`, `v4`). Exhaustive on purpose: a
/// new generation must name its own rows (the tables give V4 rows of its own, so nothing
/// falls back to another generation's).
pub(crate) fn arch_column(g: Generation) -> &'static str {
    match g {
        Generation::V2 => "v2",
        Generation::V3 => "v3",
        Generation::V4 => "v4",
    }
}

/// The data rows of a TSV table (the header line skipped), each split into its fields.
pub(crate) fn rows(table: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    table.lines().skip(1).map(|line| line.split('\t').collect())
}

/// The rows of `rows` (arch column first) that belong to generation `g`, in table order.
pub(crate) fn of_arch<T>(
    rows: &'static [(&'static str, T)],
    g: Generation,
) -> impl Iterator<Item = &'static T> {
    let arch = arch_column(g);
    rows.iter().filter(move |(a, _)| *a == arch).map(|(_, t)| t)
}

/// A `0x`-prefixed hexadecimal or a decimal number.
pub(crate) fn number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}
