//! The special resources RESOURCE_MMAP_INFO names and mmap serves, per arch, driven by the
//! driver's `dm_mmap_special` tables (`tables/mmap-special.tsv`, a copy of
//! `reference/mmap-special.tsv`, driver 2.26.5.0).
//!
//! RESOURCE_MMAP_INFO answers the (offset, size) of the first entry with the asked
//! (block, block_id, resource); mmap serves the entry only for exactly that pair, always
//! uncached, read-only for RESOURCE_ALL entries. BAR0 entries are windows on the model's
//! register space at `bar_offset`; BAR4 entries (whole HBM channels, V3/V4) windows on the
//! model's memory of that channel.

use std::sync::OnceLock;

use khal::Generation;

use crate::tables;

/// The table, as shipped with this crate.
pub const TABLE: &str = include_str!("../tables/mmap-special.tsv");

/// One entry of an arch's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Special {
    /// `NEURON_DM_BLOCK_*` value.
    pub block: u32,
    /// Block instance.
    pub block_id: u32,
    /// `NEURON_DM_RESOURCE_*` value.
    pub resource: u32,
    /// The mmap key (a device-side address).
    pub offset: u64,
    /// The exact mmap length the key requires.
    pub size: u64,
    /// 0 (registers) or 4 (device memory).
    pub bar: u8,
    /// Where the mapping starts inside that BAR.
    pub bar_offset: u64,
    /// Mapped read-only (RESOURCE_ALL entries).
    pub read_only: bool,
}

fn parse() -> Vec<(&'static str, Special)> {
    tables::rows(TABLE)
        .filter_map(|f| {
            let n = |i: usize| f.get(i).and_then(|s| tables::number(s));
            Some((
                *f.first()?,
                Special {
                    block: u32::try_from(n(3)?).ok()?,
                    block_id: u32::try_from(n(4)?).ok()?,
                    resource: u32::try_from(n(6)?).ok()?,
                    offset: n(7)?,
                    size: n(8)?,
                    bar: u8::try_from(n(9)?).ok()?,
                    bar_offset: n(10)?,
                    read_only: *f.get(11)? == "yes",
                },
            ))
        })
        .collect()
}

fn all() -> &'static [(&'static str, Special)] {
    static ROWS: OnceLock<Vec<(&'static str, Special)>> = OnceLock::new();
    ROWS.get_or_init(parse)
}

/// The entries of generation `g`, in table order.
pub fn entries(g: Generation) -> impl Iterator<Item = &'static Special> {
    tables::of_arch(all(), g)
}

/// RESOURCE_MMAP_INFO's lookup: the first entry with this key.
pub fn lookup(g: Generation, block: u32, block_id: u32, resource: u32) -> Option<&'static Special> {
    entries(g).find(|s| (s.block, s.block_id, s.resource) == (block, block_id, resource))
}

/// mmap's lookup: the first entry whose (offset, size) is exactly (`offset`, `len`).
pub fn by_key(g: Generation, offset: u64, len: u64) -> Option<&'static Special> {
    entries(g).find(|s| s.offset == offset && s.size == len)
}
