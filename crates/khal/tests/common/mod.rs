//! Shared test helpers: the reference tables and a parser.
#![allow(dead_code)]

pub const UDMA_REGISTERS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reference/udma-registers.tsv"
));
pub const UDMA_BITFIELDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reference/udma-bitfields.tsv"
));
pub const IOFIC: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reference/iofic.tsv"
));

/// Rows of a TSV table without its header, split on tabs.
pub fn rows(table: &str) -> impl Iterator<Item = Vec<&str>> {
    table
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').collect())
}

/// Parses `0x…` hex.
pub fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("hex {s}"))
}

/// The recording fake big enough for a whole engine init.
pub type Regs = mmio::FakeRegs<512, 1024>;
