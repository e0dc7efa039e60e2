//! The one register list: every named UDMA unit register as (block, name, offset, block
//! base, source), built from the block declarations' own lists (no register is named
//! here: only the blocks, one line each).
//!
//! `neuron-tool regs` prints from [`REGISTERS`], every row is checked against
//! `reference/udma-registers.tsv` at compile time (below) and the `registers` integration
//! test compares the whole list with the table, and [`QueueReg`](super::QueueReg) names its
//! per-queue entries. Registers that only a seed names (declared with a `source`) are listed
//! with [`Source::Seed004`] and proven at compile time not to collide with a reference row.
//!
//! Naming rule for the register types: a marker is the table name after its sub-block
//! prefix, in `UpperCamelCase` (`m2s.change_state` → `ChangeState`, `m2s_rd.data_cfg` →
//! `DataCfg…`), except that the AXI sub-blocks keep `Axi` (`axi_m2s.ostand_cfg` →
//! `AxiOstandCfg`); the module (`m2s`, `s2m`, `general`, `queue`) says the direction. When a
//! typed value takes that name, the value keeps it and the marker gets a `Reg` suffix
//! (`CfgLen` value, `CfgLenReg` marker), and so do the other members of that numbered
//! family (`DescPrefCfg1Reg` beside `DescPrefCfg2Reg`). Per-queue markers of one direction
//! only carry a `Tx`/`Rx` prefix (`TxCompCfg`, `RxQSwCtrl`). Value types are named after what
//! they hold (`EngineStateWord`, `ChangeStateCmd`).

use mmio::{Placed, RegisterBlock};

use super::gen_ex::{GenEx, VmprV4};
use super::general::{AxiErrorControl, AxiErrorDetectionTable, AxiQueue, Gen};
use super::m2s::M2s;
use super::queue::{QueueRings, RxQueue, TxQueue};
use super::s2m::S2m;

/// Where a register fact comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// `reference/udma-registers.tsv` (kernel driver 2.26.5.0).
    Reference,
    /// Seed 004 (KaenaHal, libnrt 2.31.24.0) only.
    Seed004,
}

/// One register of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegisterInfo {
    /// Block, as the reference table names it (`m2s`, `s2m`, `gen`, `gen_ex`, `m2s_q`,
    /// `s2m_q`, `q_rings`).
    pub block: &'static str,
    /// Register name (the table's, or this crate's for a seed-only register).
    pub name: &'static str,
    /// Offset inside the block.
    pub offset: usize,
    /// Offset of the block from the unit base (queue blocks: queue 0's); `None` for the
    /// `q_rings` overlay, which is a view of either direction's queue block.
    pub block_base: Option<usize>,
    /// Where the fact comes from.
    pub source: Source,
}

impl RegisterInfo {
    /// Offset from the unit base (`None` for overlay rows).
    pub const fn abs(&self) -> Option<usize> {
        match self.block_base {
            Some(b) => Some(b + self.offset),
            None => None,
        }
    }
}

/// One block's share of the list: its table name, base and rows.
#[derive(Clone, Copy)]
struct Part {
    block: &'static str,
    base: Option<usize>,
    rows: &'static [mmio::RegisterInfo],
}

/// A placed block's own rows.
const fn placed<B: Placed>() -> Part {
    Part {
        block: B::NAME,
        base: Some(B::BASE),
        rows: B::REGISTERS,
    }
}

/// Rows an array inside block `P` adds to `P`'s list (`"name[0].reg"`, offsets in `P`).
const fn nested<P: Placed>(rows: &'static [mmio::RegisterInfo]) -> Part {
    Part {
        block: P::NAME,
        base: Some(P::BASE),
        rows,
    }
}

/// The blocks of a unit, in list order (the overlay has no base: it is a view of either
/// direction's queue blocks).
const PARTS: [Part; 11] = [
    placed::<M2s>(),
    placed::<S2m>(),
    Part {
        block: QueueRings::NAME,
        base: None,
        rows: QueueRings::REGISTERS,
    },
    placed::<TxQueue>(),
    placed::<RxQueue>(),
    placed::<Gen>(),
    nested::<Gen>(AxiErrorDetectionTable::ROWS_IN_PARENT),
    nested::<Gen>(AxiErrorControl::ROWS_IN_PARENT),
    nested::<Gen>(AxiQueue::ROWS_IN_PARENT),
    placed::<GenEx>(),
    nested::<GenEx>(VmprV4::ROWS_IN_PARENT),
];

/// Rows of every part.
const fn total(mut parts: &[Part]) -> usize {
    let mut n = 0;
    while let Some((p, rest)) = parts.split_first() {
        n += p.rows.len();
        parts = rest;
    }
    n
}

/// Number of registers in [`REGISTERS`].
const COUNT: usize = total(&PARTS);

/// A row's source: a declaration that names one is a seed fact (seed 004 is the only source
/// other than the reference that names UDMA registers).
const fn source_of(row: &mmio::RegisterInfo) -> Source {
    match row.source {
        Some(_) => Source::Seed004,
        None => Source::Reference,
    }
}

/// The parts as one list, in order.
const fn flatten(parts: &[Part]) -> [RegisterInfo; COUNT] {
    let empty = RegisterInfo {
        block: "",
        name: "",
        offset: 0,
        block_base: None,
        source: Source::Reference,
    };
    let mut out = [empty; COUNT];
    let mut slots: &mut [RegisterInfo] = &mut out;
    let mut parts = parts;
    while let Some((p, rest)) = parts.split_first() {
        let mut rows = p.rows;
        while let Some((r, more)) = rows.split_first() {
            let Some((slot, free)) = slots.split_first_mut() else {
                return out;
            };
            *slot = RegisterInfo {
                block: p.block,
                name: r.name,
                offset: r.offset,
                block_base: p.base,
                source: source_of(r),
            };
            slots = free;
            rows = more;
        }
        parts = rest;
    }
    out
}

/// Every named register of a UDMA unit, from the block declarations.
pub const REGISTERS: [RegisterInfo; COUNT] = flatten(&PARTS);

// Every row against `udma-registers.tsv`, at compile time: a reference row must be in the
// table with that offset and absolute offset (none for the overlay); a seed row must be at
// an offset where the table has no row of its block. A failure names the register.
const _: () = {
    use crate::table::{Column, lookup, no_row_at, offset_is};
    let mut rows: &[RegisterInfo] = &REGISTERS;
    while let Some((r, rest)) = rows.split_first() {
        match r.source {
            Source::Reference => {
                assert!(offset_is(r.block, r.name, r.offset), "{}", r.name);
                let abs = lookup(r.block, r.name, Column::Abs);
                let ok = match (r.abs(), abs) {
                    (Some(a), Some(b)) => a == b,
                    (None, None) => true,
                    _ => false,
                };
                assert!(ok, "{}", r.name);
            }
            Source::Seed004 => assert!(no_row_at(r.block, r.offset), "{}", r.name),
        }
        rows = rest;
    }
};

/// The registers of `block`, in list order.
pub fn in_block(block: &str) -> impl Iterator<Item = &'static RegisterInfo> + '_ {
    REGISTERS.iter().filter(move |r| r.block == block)
}
