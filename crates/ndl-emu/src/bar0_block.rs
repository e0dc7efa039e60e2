//! The BAR0 offsets BAR_WRITE refuses, per arch, driven by the driver's own list
//! (`tables/bar0-write-block.tsv`, a copy of `reference/bar0-write-block.tsv`, driver
//! 2.26.5.0, `ndma_is_bar0_write_blocked`).
//!
//! Two kinds of rows block writes: `dma-queue-regs` (in every DMA engine, both directions,
//! each of the 16 queue blocks of `stride` bytes from `range_start`: the words at the
//! `blocked_offsets` — ring base low/high, tail-increment doorbell, completion ring base
//! low/high) and `fw-mailbox-word` (one word). The test is exact equality of byte offsets:
//! an unaligned offset is never blocked. `check-window` rows only say where the driver runs
//! its per-engine test and block nothing by themselves.

use std::sync::OnceLock;

use khal::Generation;

use crate::tables;

/// The table, as shipped with this crate.
pub const TABLE: &str = include_str!("../tables/bar0-write-block.tsv");

/// One blocking row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedRange {
    /// `dma-queue-regs` or `fw-mailbox-word`.
    pub kind: &'static str,
    /// First byte of the range (BAR0 offset).
    pub start: u64,
    /// End of the range (exclusive).
    pub end: u64,
    /// Queue block stride (the range length for a mailbox word).
    pub stride: u64,
    /// Blocked byte offsets inside each block.
    pub offsets: Vec<u64>,
}

impl BlockedRange {
    /// Whether the row blocks a write at `offset`.
    pub fn blocks(&self, offset: u64) -> bool {
        if offset < self.start || offset >= self.end || self.stride == 0 {
            return false;
        }
        let within = (offset - self.start) % self.stride;
        self.offsets.contains(&within)
    }

    /// Every blocked offset of the row.
    pub fn blocked(&self) -> impl Iterator<Item = u64> + '_ {
        (self.start..self.end)
            .step_by(usize::try_from(self.stride.max(1)).unwrap_or(usize::MAX))
            .flat_map(|block| self.offsets.iter().map(move |o| block + o))
    }
}

fn parse() -> Vec<(&'static str, BlockedRange)> {
    tables::rows(TABLE)
        .filter_map(|f| {
            let (arch, kind) = (*f.first()?, *f.get(1)?);
            let (start, end) = (tables::number(f.get(6)?)?, tables::number(f.get(7)?)?);
            let row = match kind {
                "dma-queue-regs" => BlockedRange {
                    kind,
                    start,
                    end,
                    stride: tables::number(f.get(8)?)?,
                    offsets: f.get(10)?.split(',').filter_map(tables::number).collect(),
                },
                "fw-mailbox-word" => BlockedRange {
                    kind,
                    start,
                    end,
                    stride: end - start,
                    offsets: vec![0],
                },
                _ => return None,
            };
            Some((arch, row))
        })
        .collect()
}

fn all() -> &'static [(&'static str, BlockedRange)] {
    static ROWS: OnceLock<Vec<(&'static str, BlockedRange)>> = OnceLock::new();
    ROWS.get_or_init(parse)
}

/// The blocking rows of generation `g` (V4 has its own rows: the driver runs V3's function
/// on it).
pub fn ranges(g: Generation) -> impl Iterator<Item = &'static BlockedRange> {
    tables::of_arch(all(), g)
}

/// Whether BAR_WRITE refuses BAR0 offset `offset` on generation `g`.
pub fn is_blocked(g: Generation, offset: u64) -> bool {
    ranges(g).any(|r| r.blocks(offset))
}
