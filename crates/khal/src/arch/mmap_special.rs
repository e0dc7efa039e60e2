//! The special resources user space may mmap (the driver's `dm_mmap_special` tables,
//! `reference/mmap-special.tsv`, driver 2.26.5.0): the one home of this kernel-side fact.
//!
//! RESOURCE_MMAP_INFO answers the (offset, size) of the first entry with the asked
//! (block, block_id, resource), and mmap serves an entry only for exactly that (offset, size),
//! uncached, read-only for `RESOURCE_ALL` entries (`reference/mmap-README.md`). BAR0 entries
//! window the register space at `bar_offset`; the BAR4 entries (V3 and V4 only) are whole
//! active HBM channels, so they come from the arch's scalars (`hbm_bases`, `hbm_active_size`,
//! `bar4_hbm_stride`): V4's rows are V3's with its one `hbm_active_size` override, never a
//! copy.

use super::{Generation, Scalars};

/// `NEURON_DM_BLOCK_*` values (`mmap-special.tsv`, `block_enum`).
pub mod block {
    /// `NEURON_DM_BLOCK_TPB`.
    pub const TPB: u32 = 0;
    /// `NEURON_DM_BLOCK_TOPSP`.
    pub const TOP_SP: u32 = 1;
    /// `NEURON_DM_BLOCK_HBM`.
    pub const HBM: u32 = 2;
}

/// `NEURON_DM_RESOURCE_*` values (`mmap-special.tsv`, `resource_enum`).
pub mod resource {
    /// `NEURON_DM_RESOURCE_SEMAPHORE`.
    pub const SEMAPHORE: u32 = 0;
    /// `NEURON_DM_RESOURCE_ALL` (mapped read-only).
    pub const ALL: u32 = 1;
    /// `NEURON_DM_RESOURCE_SBUF`.
    pub const SBUF: u32 = 2;
    /// `NEURON_DM_RESOURCE_DMEM`.
    pub const DMEM: u32 = 3;
}

/// One entry of an arch's `dm_mmap_special` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmapSpecial {
    /// `NEURON_DM_BLOCK_*` value ([`block`]).
    pub block: u32,
    /// Block instance.
    pub block_id: u32,
    /// `NEURON_DM_RESOURCE_*` value ([`resource`]).
    pub resource: u32,
    /// The mmap key (a device-side address).
    pub offset: u64,
    /// The exact mmap length the key requires.
    pub size: u64,
    /// 0 (registers) or 4 (device memory).
    pub bar: u8,
    /// Where the mapping starts inside that BAR.
    pub bar_offset: u64,
    /// Mapped read-only (the `RESOURCE_ALL` entries).
    pub read_only: bool,
}

/// A BAR0 row of the driver's table.
const fn reg(
    block: u32,
    block_id: u32,
    resource: u32,
    offset: u64,
    size: u64,
    bar_offset: u64,
) -> MmapSpecial {
    MmapSpecial {
        block,
        block_id,
        resource,
        offset,
        size,
        bar: 0,
        bar_offset,
        read_only: resource == resource::ALL,
    }
}

/// V2's table (entries 0..16; V2 has no BAR4 entries). One row per line: (block,
/// block_id, resource, offset, size, BAR0 offset).
#[rustfmt::skip]
const V2_BAR0: &[MmapSpecial] = &[
    reg(block::TPB, 0, resource::SEMAPHORE, 0xfff_c270_0000, 0x2000, 0x270_0000),
    reg(block::TPB, 1, resource::SEMAPHORE, 0xfff_c670_0000, 0x2000, 0x670_0000),
    reg(block::TPB, 0, resource::SBUF, 0xfff_c000_0000, 0x200_0000, 0x0),
    reg(block::TPB, 1, resource::SBUF, 0xfff_c400_0000, 0x200_0000, 0x400_0000),
    reg(block::TOP_SP, 0, resource::SEMAPHORE, 0xfff_d000_0000, 0x2000, 0x1000_0000),
    reg(block::TOP_SP, 1, resource::SEMAPHORE, 0xfff_d040_0000, 0x2000, 0x1040_0000),
    reg(block::TOP_SP, 2, resource::SEMAPHORE, 0xfff_d080_0000, 0x2000, 0x1080_0000),
    reg(block::TOP_SP, 3, resource::SEMAPHORE, 0xfff_d0c0_0000, 0x2000, 0x10c0_0000),
    reg(block::TOP_SP, 4, resource::SEMAPHORE, 0xfff_d100_0000, 0x2000, 0x1100_0000),
    reg(block::TOP_SP, 5, resource::SEMAPHORE, 0xfff_d140_0000, 0x2000, 0x1140_0000),
    reg(block::TOP_SP, 0, resource::ALL, 0xfff_d000_0000, 0x40_0000, 0x1000_0000),
    reg(block::TOP_SP, 1, resource::ALL, 0xfff_d040_0000, 0x40_0000, 0x1040_0000),
    reg(block::TOP_SP, 2, resource::ALL, 0xfff_d080_0000, 0x40_0000, 0x1080_0000),
    reg(block::TOP_SP, 3, resource::ALL, 0xfff_d0c0_0000, 0x40_0000, 0x10c0_0000),
    reg(block::TOP_SP, 4, resource::ALL, 0xfff_d100_0000, 0x40_0000, 0x1100_0000),
    reg(block::TOP_SP, 5, resource::ALL, 0xfff_d140_0000, 0x40_0000, 0x1140_0000),
];

/// V3's BAR0 entries (0..48), which V4 keeps unchanged; rows as [`V2_BAR0`]'s.
#[rustfmt::skip]
const V3_BAR0: &[MmapSpecial] = &[
    reg(block::TPB, 0, resource::SEMAPHORE, 0x20_0270_0000, 0x2000, 0xd270_0000),
    reg(block::TPB, 1, resource::SEMAPHORE, 0x20_0670_0000, 0x2000, 0xd670_0000),
    reg(block::TPB, 2, resource::SEMAPHORE, 0x20_0a70_0000, 0x2000, 0xda70_0000),
    reg(block::TPB, 3, resource::SEMAPHORE, 0x20_0e70_0000, 0x2000, 0xde70_0000),
    reg(block::TPB, 4, resource::SEMAPHORE, 0x20_1270_0000, 0x2000, 0xe270_0000),
    reg(block::TPB, 5, resource::SEMAPHORE, 0x20_1670_0000, 0x2000, 0xe670_0000),
    reg(block::TPB, 6, resource::SEMAPHORE, 0x20_1a70_0000, 0x2000, 0xea70_0000),
    reg(block::TPB, 7, resource::SEMAPHORE, 0x20_1e70_0000, 0x2000, 0xee70_0000),
    reg(block::TPB, 0, resource::SBUF, 0x20_0000_0000, 0x200_0000, 0xd000_0000),
    reg(block::TPB, 1, resource::SBUF, 0x20_0400_0000, 0x200_0000, 0xd400_0000),
    reg(block::TPB, 2, resource::SBUF, 0x20_0800_0000, 0x200_0000, 0xd800_0000),
    reg(block::TPB, 3, resource::SBUF, 0x20_0c00_0000, 0x200_0000, 0xdc00_0000),
    reg(block::TPB, 4, resource::SBUF, 0x20_1000_0000, 0x200_0000, 0xe000_0000),
    reg(block::TPB, 5, resource::SBUF, 0x20_1400_0000, 0x200_0000, 0xe400_0000),
    reg(block::TPB, 6, resource::SBUF, 0x20_1800_0000, 0x200_0000, 0xe800_0000),
    reg(block::TPB, 7, resource::SBUF, 0x20_1c00_0000, 0x200_0000, 0xec00_0000),
    reg(block::TOP_SP, 0, resource::SEMAPHORE, 0x82_8000_0000, 0x2000, 0xf000_0000),
    reg(block::TOP_SP, 1, resource::SEMAPHORE, 0x82_c000_0000, 0x2000, 0xf040_0000),
    reg(block::TOP_SP, 2, resource::SEMAPHORE, 0x83_0000_0000, 0x2000, 0xf080_0000),
    reg(block::TOP_SP, 3, resource::SEMAPHORE, 0x83_4000_0000, 0x2000, 0xf0c0_0000),
    reg(block::TOP_SP, 4, resource::SEMAPHORE, 0x83_8000_0000, 0x2000, 0xf100_0000),
    reg(block::TOP_SP, 5, resource::SEMAPHORE, 0x83_c000_0000, 0x2000, 0xf140_0000),
    reg(block::TOP_SP, 6, resource::SEMAPHORE, 0x84_0000_0000, 0x2000, 0xf180_0000),
    reg(block::TOP_SP, 7, resource::SEMAPHORE, 0x84_4000_0000, 0x2000, 0xf1c0_0000),
    reg(block::TOP_SP, 8, resource::SEMAPHORE, 0x8082_8000_0000, 0x2000, 0xf280_0000),
    reg(block::TOP_SP, 9, resource::SEMAPHORE, 0x8082_c000_0000, 0x2000, 0xf2c0_0000),
    reg(block::TOP_SP, 10, resource::SEMAPHORE, 0x8083_0000_0000, 0x2000, 0xf300_0000),
    reg(block::TOP_SP, 11, resource::SEMAPHORE, 0x8083_4000_0000, 0x2000, 0xf340_0000),
    reg(block::TOP_SP, 12, resource::SEMAPHORE, 0x8083_8000_0000, 0x2000, 0xf380_0000),
    reg(block::TOP_SP, 13, resource::SEMAPHORE, 0x8083_c000_0000, 0x2000, 0xf3c0_0000),
    reg(block::TOP_SP, 14, resource::SEMAPHORE, 0x8084_0000_0000, 0x2000, 0xf400_0000),
    reg(block::TOP_SP, 15, resource::SEMAPHORE, 0x8084_4000_0000, 0x2000, 0xf440_0000),
    reg(block::TOP_SP, 0, resource::ALL, 0x82_8000_0000, 0x40_0000, 0xf000_0000),
    reg(block::TOP_SP, 1, resource::ALL, 0x82_c000_0000, 0x40_0000, 0xf040_0000),
    reg(block::TOP_SP, 2, resource::ALL, 0x83_0000_0000, 0x40_0000, 0xf080_0000),
    reg(block::TOP_SP, 3, resource::ALL, 0x83_4000_0000, 0x40_0000, 0xf0c0_0000),
    reg(block::TOP_SP, 4, resource::ALL, 0x83_8000_0000, 0x40_0000, 0xf100_0000),
    reg(block::TOP_SP, 5, resource::ALL, 0x83_c000_0000, 0x40_0000, 0xf140_0000),
    reg(block::TOP_SP, 6, resource::ALL, 0x84_0000_0000, 0x40_0000, 0xf180_0000),
    reg(block::TOP_SP, 7, resource::ALL, 0x84_4000_0000, 0x40_0000, 0xf1c0_0000),
    reg(block::TOP_SP, 8, resource::ALL, 0x8082_8000_0000, 0x40_0000, 0xf280_0000),
    reg(block::TOP_SP, 9, resource::ALL, 0x8082_c000_0000, 0x40_0000, 0xf2c0_0000),
    reg(block::TOP_SP, 10, resource::ALL, 0x8083_0000_0000, 0x40_0000, 0xf300_0000),
    reg(block::TOP_SP, 11, resource::ALL, 0x8083_4000_0000, 0x40_0000, 0xf340_0000),
    reg(block::TOP_SP, 12, resource::ALL, 0x8083_8000_0000, 0x40_0000, 0xf380_0000),
    reg(block::TOP_SP, 13, resource::ALL, 0x8083_c000_0000, 0x40_0000, 0xf3c0_0000),
    reg(block::TOP_SP, 14, resource::ALL, 0x8084_0000_0000, 0x40_0000, 0xf400_0000),
    reg(block::TOP_SP, 15, resource::ALL, 0x8084_4000_0000, 0x40_0000, 0xf440_0000),
];

/// The arch's BAR0 rows and whether whole-HBM BAR4 rows follow them. Exhaustive: a new
/// generation must name its rows here; none falls into another's.
const fn layout(g: Generation) -> (&'static [MmapSpecial], bool) {
    match g {
        Generation::V2 => (V2_BAR0, false),
        Generation::V3 | Generation::V4 => (V3_BAR0, true),
    }
}

/// The `dm_mmap_special` table of generation `g` whose scalars are `s`, in the driver's
/// entry order (BAR0 rows, then one BAR4 row per HBM channel: key `hbm_bases[c]`, size
/// `hbm_active_size`, BAR4 offset `c * bar4_hbm_stride`).
pub fn mmap_special(g: Generation, s: &Scalars) -> impl Iterator<Item = MmapSpecial> + '_ {
    let (bar0, hbm) = layout(g);
    let channels: &[u64] = if hbm { s.hbm_bases } else { &[] };
    let bar4 = (0u32..).zip(channels).map(|(c, &base)| MmapSpecial {
        block: block::HBM,
        block_id: c,
        resource: resource::DMEM,
        offset: base,
        size: s.hbm_active_size,
        bar: 4,
        bar_offset: u64::from(c).saturating_mul(s.bar4_hbm_stride),
        read_only: false,
    });
    bar0.iter().copied().chain(bar4)
}
