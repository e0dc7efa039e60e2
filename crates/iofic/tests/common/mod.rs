//! Shared test helpers: the reference table parser, per-arch caps, and a behavioural model
//! of IOFIC groups written from the register descriptions (independent of the library).
#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::BTreeMap;

use iofic::caps::IoficCaps;
use mmio::Mmio;

pub const IOFIC_TSV: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/iofic.tsv"));

/// One row of `iofic.tsv`.
#[derive(Clone, Debug)]
pub struct Row {
    pub section: String,
    pub item: String,
    pub offset: String,
    pub bit: String,
    pub value: String,
    pub meaning: String,
}

pub fn rows() -> Vec<Row> {
    let mut lines = IOFIC_TSV.lines();
    assert_eq!(
        lines.next().unwrap(),
        "section\titem\toffset\tbit\tvalue\tmeaning"
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 6, "row {l:?}");
            Row {
                section: f[0].into(),
                item: f[1].into(),
                offset: f[2].into(),
                bit: f[3].into(),
                value: f[4].into(),
                meaning: f[5].into(),
            }
        })
        .collect()
}

pub fn section(name: &str) -> Vec<Row> {
    let r: Vec<Row> = rows().into_iter().filter(|r| r.section == name).collect();
    assert!(!r.is_empty(), "section {name} missing from iofic.tsv");
    r
}

pub fn row(section_name: &str, item: &str) -> Row {
    section(section_name)
        .into_iter()
        .find(|r| r.item == item)
        .unwrap_or_else(|| panic!("{section_name}/{item} missing"))
}

pub fn hex(s: &str) -> u64 {
    let s = s.trim();
    let digits = s
        .strip_prefix("0x")
        .unwrap_or_else(|| panic!("not hex: {s:?}"));
    u64::from_str_radix(digits, 16).unwrap()
}

pub fn hex32(s: &str) -> u32 {
    u32::try_from(hex(s)).unwrap()
}

pub fn hexu(s: &str) -> usize {
    usize::try_from(hex(s)).unwrap()
}

/// Where a traced write went: the unit (offset from the unit base) or the external
/// top-level controller (`ext+0x...`, offset from its base).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Unit(usize),
    Ext(usize),
}

/// The ordered (place, value, register name) writes of an `unmask_write.*`-style section,
/// checking that the `N:` step prefixes count up from 1.
pub fn write_steps(name: &str) -> Vec<(Place, u32, String)> {
    section(name)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let (n, what) = r.item.split_once(':').unwrap();
            assert_eq!(n.parse::<usize>().unwrap(), i + 1, "{name} step order");
            let place = match r.offset.strip_prefix("ext+") {
                Some(off) => Place::Ext(hexu(off)),
                None => Place::Unit(hexu(&r.offset)),
            };
            (place, hex32(&r.value), what.to_string())
        })
        .collect()
}

/// [`write_steps`] for a section whose writes all go to the unit.
pub fn write_sequence(name: &str) -> Vec<(usize, u32, String)> {
    write_steps(name)
        .into_iter()
        .map(|(p, v, what)| match p {
            Place::Unit(o) => (o, v, what),
            Place::Ext(_) => panic!("{name}: {what} is outside the unit"),
        })
        .collect()
}

// Caps test doubles: a UDMA revision <= 3 engine (seed 004 §4 "(v3)" masks, from
// `iofic::error_masks`) and revision-4 engines (V2, V4: the kernel's values).
pub struct V2;
pub struct Rev3Engine;
pub struct V4;

impl IoficCaps for V2 {
    const M2S_PRIMARY_D_UNMASK: u32 = 0x500;
    const S2M_ERROR_MASK: u32 = 0xFFFF_EF07;
}
impl IoficCaps for Rev3Engine {
    const M2S_PRIMARY_D_UNMASK: u32 = iofic::error_masks::M2S_PRIMARY_D_UNMASK_UP_TO_REV3;
    const S2M_ERROR_MASK: u32 = iofic::error_masks::S2M_ERROR_MASK_UP_TO_REV3;
}
impl IoficCaps for V4 {
    const M2S_PRIMARY_D_UNMASK: u32 = 1280;
    const S2M_ERROR_MASK: u32 = 0xFFFF_EF07;
}

/// Hardware state of one group, in the register semantics of udma-notes.md section 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupState {
    pub cause: u32,
    pub mask: u32,
    pub abort_mask: u32,
    pub control: u32,
}

impl GroupState {
    /// Reset: everything masked, nothing aborts, no cause latched.
    pub const RESET: GroupState = GroupState {
        cause: 0,
        mask: 0xffff_ffff,
        abort_mask: 0xffff_ffff,
        control: 0,
    };

    /// Causes that are latched and unmasked: what raises the interrupt.
    pub fn pending(&self) -> u32 {
        self.cause & !self.mask
    }

    /// Latched causes that abort the engine (abort mask 0 = aborts).
    pub fn aborting_now(&self) -> u32 {
        self.cause & !self.abort_mask
    }

    /// A hardware source fires: the cause latches.
    pub fn fire(&mut self, bits: u32) {
        self.cause |= bits;
    }
}

/// A register file of IOFIC groups (any number of them, 0x40 apart) with the hardware
/// semantics of each register, plus a log of writes.
#[derive(Default)]
pub struct Model {
    pub groups: RefCell<BTreeMap<usize, GroupState>>,
    pub log: RefCell<Vec<(usize, u32)>>,
    pub reads: RefCell<Vec<usize>>,
}

impl Model {
    pub fn group(&self, base: usize) -> GroupState {
        *self
            .groups
            .borrow_mut()
            .entry(base)
            .or_insert(GroupState::RESET)
    }

    pub fn set_group(&self, base: usize, state: GroupState) {
        self.groups.borrow_mut().insert(base, state);
    }

    fn split(offset: usize) -> (usize, usize) {
        (offset - offset % 0x40, offset % 0x40)
    }
}

impl Mmio for Model {
    fn read32(&self, offset: usize) -> u32 {
        self.reads.borrow_mut().push(offset);
        let (base, reg) = Self::split(offset);
        let g = self.group(base);
        match reg {
            0x00 => g.cause,
            0x10 => g.mask,
            0x20 => g.pending(),
            0x28 => g.control,
            0x30 => g.abort_mask,
            // cause-set and mask-clear are write-only views; holes read as a bus error.
            _ => 0xffff_ffff,
        }
    }

    fn write32(&self, offset: usize, value: u32) {
        self.log.borrow_mut().push((offset, value));
        let (base, reg) = Self::split(offset);
        let mut g = self.group(base);
        match reg {
            // write-0-to-clear: bits written as 0 clear, 1 keep
            0x00 => g.cause &= value,
            // write-1-to-set
            0x08 => g.cause |= value,
            0x10 => g.mask = value,
            // 0 bits clear the matching mask bit, 1 bits leave it
            0x18 => g.mask &= value,
            0x28 => g.control = value,
            0x30 => g.abort_mask = value,
            _ => panic!("write to a hole at {offset:#x}"),
        }
        self.set_group(base, g);
    }
}
