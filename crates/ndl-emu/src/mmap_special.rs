//! The special resources RESOURCE_MMAP_INFO names and mmap serves, per arch: khal's
//! [`khal::mmap_special`] (the driver's `dm_mmap_special` tables, driver 2.26.5.0), the one
//! home of that table. This crate's tests pin it to `tests/data/mmap-special.tsv`, a copy of
//! `reference/mmap-special.tsv`.
//!
//! RESOURCE_MMAP_INFO answers the (offset, size) of the first entry with the asked
//! (block, block_id, resource); mmap serves the entry only for exactly that pair, always
//! uncached, read-only for RESOURCE_ALL entries. BAR0 entries are windows on the model's
//! register space at `bar_offset`; BAR4 entries (whole HBM channels, V3/V4) windows on the
//! model's memory of that channel.

use khal::Generation;

use crate::arch::Facts;

/// One entry of an arch's table (khal's type).
pub type Special = khal::MmapSpecial;

/// The entries of generation `g`, in the driver's order (none for a generation this build
/// does not support).
pub fn entries(g: Generation) -> impl Iterator<Item = Special> {
    let scalars = Facts::of(g).map(|f| f.scalars);
    scalars
        .into_iter()
        .flat_map(move |s| khal::mmap_special(g, &s).collect::<Vec<_>>())
}

/// RESOURCE_MMAP_INFO's lookup: the first entry with this key.
pub fn lookup(g: Generation, block: u32, block_id: u32, resource: u32) -> Option<Special> {
    let s = Facts::of(g)?.scalars;
    khal::mmap_special(g, &s)
        .find(|s| (s.block, s.block_id, s.resource) == (block, block_id, resource))
}

/// mmap's lookup: the first entry whose (offset, size) is exactly (`offset`, `len`).
pub fn by_key(g: Generation, offset: u64, len: u64) -> Option<Special> {
    let s = Facts::of(g)?.scalars;
    khal::mmap_special(g, &s).find(|s| s.offset == offset && s.size == len)
}
