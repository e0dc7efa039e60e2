//! Shared test helpers: the reference tables and a parser.
#![allow(dead_code)]

/// The crate's own copy of the register table, the one `src/table.rs` compiles against.
pub const UDMA_REGISTERS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tables/udma-registers.tsv"
));
pub const UDMA_BITFIELDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/udma-bitfields.tsv"
));
pub const IOFIC: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/iofic.tsv"));

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

/// The kernel's IOFIC unmask writes of one direction (`iofic.tsv`, `unmask_write.<dir>`), in
/// order, as (offset, value).
pub fn iofic_writes(dir: &str) -> Vec<(usize, u32)> {
    rows(IOFIC)
        .filter(|r| r[0] == format!("unmask_write.{dir}"))
        .map(|r| {
            (
                usize::try_from(hex(r[2])).unwrap(),
                u32::try_from(hex(r[4])).unwrap(),
            )
        })
        .collect()
}

/// An engine of UDMA revision 3 (no shipped generation has one): the revision-gated paths
/// and refusals. Its IOFIC masks are its revision's ([`khal::Rev3`]: the seed's revision <= 3
/// values).
#[derive(Clone, Copy, Debug, Default)]
pub struct Rev3Engine;
impl khal::caps::PacketCaps for Rev3Engine {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    type NotificationMasks = khal::caps::Unsupported;
    type StrongOrdering = khal::caps::Supported;
}
impl khal::Arch for Rev3Engine {
    const GENERATION: khal::Generation = khal::Generation::V3;
    const PRODUCTS: &'static [khal::Product] = &[];
    type Revision = khal::Rev3;
    const SCALARS: khal::Scalars = khal_cayman::SCALARS;
}

/// `reference/al-hal/facts.tsv` (the ancestor HAL's facts, the third source), copied.
pub const AL_HAL_FACTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/al-hal/facts.tsv"
));

/// One row of the ancestor HAL's facts: what it states, the value, its provenance and how far
/// the seed corroborates it.
#[derive(Debug)]
pub struct AlHalRow {
    pub fact: &'static str,
    pub value: &'static str,
    pub source: &'static str,
    pub confidence: &'static str,
}

/// The one row of `al-hal/facts.tsv` under unknown `id` whose fact starts with `prefix`.
pub fn al_hal(id: &str, prefix: &str) -> AlHalRow {
    let mut found = AL_HAL_FACTS
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|r| r[0] == id && r[1].starts_with(prefix));
    let r = found
        .next()
        .unwrap_or_else(|| panic!("no al-hal row {id} {prefix:?}"));
    assert!(found.next().is_none(), "two al-hal rows {id} {prefix:?}");
    AlHalRow {
        fact: r[1],
        value: r[2],
        source: r[3],
        confidence: r[5],
    }
}
