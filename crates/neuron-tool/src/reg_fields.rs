//! A register's raw value decoded by field name, from the declarations alone.
//!
//! A register declared with a typed value (`mmio::register!`, a `bitfield-struct` word) is
//! decoded by that type: the field names and values are what the type's `Debug` prints, so
//! no field position is restated here — only which marker types have a typed value, named
//! by type, and looked up by the block and offset their declaration gives. Enumerated fields
//! print their variant (`SubUnitState`: `Idle`, `Normal`, `Abort`). Interrupt-controller
//! cause, mask, status and abort-mask words are named bit by bit from the `iofic` crate's
//! cause sets (`reference/iofic.tsv`).
//!
//! Registers declared as plain `u32` have no fields: they print raw.

use std::fmt::Debug;

use iofic::regs::{GroupRegs, IntControl};
use iofic::{M2sCause, ParityCause, PrimaryDSummary, S2mCause};
use khal::regs::general::{self, Gen};
use khal::regs::m2s::{self, M2s};
use khal::regs::queue::{self as kq, QueueRings, RxQueue, TxQueue};
use khal::regs::s2m::{self, S2m};
use khal::regs::{Register, RegisterBlock};

/// One decoded field: its name and its value as the typed word prints it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    /// The field's name in the declaration (or a cause bit's name in the reference).
    pub name: String,
    /// Its value (`true`, `3`, `Normal`; `1` for a set cause bit).
    pub value: String,
}

/// Decodes a raw word into fields.
pub type Decode = fn(u32) -> Vec<Field>;

/// The fields `R`'s typed value holds in `raw`.
fn typed<R: Register>(raw: u32) -> Vec<Field>
where
    R::Value: Debug,
{
    parse_debug(&format!("{:?}", R::Value::from(raw)))
}

/// `Name { a: 1, b: Normal }` (the `Debug` of a `bitfield-struct` word) as fields; nested
/// parentheses and braces stay inside one value.
pub fn parse_debug(text: &str) -> Vec<Field> {
    let (Some(open), Some(close)) = (text.find('{'), text.rfind('}')) else {
        return Vec::new();
    };
    let Some(body) = text.get(open + 1..close) else {
        return Vec::new();
    };
    let mut fields = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let mut push = |part: &str| {
        if let Some((name, value)) = part.split_once(':') {
            fields.push(Field {
                name: name.trim().to_string(),
                value: value.trim().to_string(),
            });
        }
    };
    for (i, c) in body.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                push(body.get(start..i).unwrap_or_default());
                start = i + 1;
            }
            _ => {}
        }
    }
    push(body.get(start..).unwrap_or_default());
    fields
}

/// `(block name, offset in the block, decoder)` of a marker type `R`.
const fn entry<R: Register>(decode: Decode) -> (&'static str, usize, Decode) {
    (<R::Block as RegisterBlock>::NAME, R::OFFSET, decode)
}

/// Every register declared with a typed value, by marker type.
fn typed_registers() -> [(&'static str, usize, Decode); 35] {
    [
        entry::<m2s::AxiDataRdCfg>(typed::<m2s::AxiDataRdCfg>),
        entry::<m2s::AxiDescRdCfg3>(typed::<m2s::AxiDescRdCfg3>),
        entry::<m2s::AxiOstandCfg>(typed::<m2s::AxiOstandCfg>),
        entry::<m2s::State>(typed::<m2s::State>),
        entry::<m2s::ChangeState>(typed::<m2s::ChangeState>),
        entry::<m2s::ErrLogMaskReg>(typed::<m2s::ErrLogMaskReg>),
        entry::<m2s::CfgLenReg>(typed::<m2s::CfgLenReg>),
        entry::<m2s::StreamCfgReg>(typed::<m2s::StreamCfgReg>),
        entry::<m2s::DescPrefCfg2Reg>(typed::<m2s::DescPrefCfg2Reg>),
        entry::<m2s::DescPrefCfg3Reg>(typed::<m2s::DescPrefCfg3Reg>),
        entry::<m2s::DataCfgReg>(typed::<m2s::DataCfgReg>),
        entry::<s2m::AxiDescRdCfg3>(typed::<s2m::AxiDescRdCfg3>),
        entry::<s2m::AxiOstandCfgRd>(typed::<s2m::AxiOstandCfgRd>),
        entry::<s2m::AxiOstandCfgWr>(typed::<s2m::AxiOstandCfgWr>),
        entry::<s2m::AxiOstandCfgWr2>(typed::<s2m::AxiOstandCfgWr2>),
        entry::<s2m::State>(typed::<s2m::State>),
        entry::<s2m::ChangeState>(typed::<s2m::ChangeState>),
        entry::<s2m::ErrLogMaskReg>(typed::<s2m::ErrLogMaskReg>),
        entry::<s2m::StreamCfgReg>(typed::<s2m::StreamCfgReg>),
        entry::<s2m::DescPrefCfg3Reg>(typed::<s2m::DescPrefCfg3Reg>),
        entry::<s2m::CompCfg1cReg>(typed::<s2m::CompCfg1cReg>),
        entry::<s2m::NoDescCfgReg>(typed::<s2m::NoDescCfgReg>),
        entry::<general::SpareZeroes0Reg>(typed::<general::SpareZeroes0Reg>),
        entry::<kq::Cfg>(typed::<kq::Cfg>),
        entry::<kq::Drl>(typed::<kq::Drl>),
        entry::<kq::Drhp>(typed::<kq::Drhp>),
        entry::<kq::DrtpInc>(typed::<kq::DrtpInc>),
        entry::<kq::Drtp>(typed::<kq::Drtp>),
        entry::<kq::Crhp>(typed::<kq::Crhp>),
        entry::<kq::TxRlimitMaskReg>(typed::<kq::TxRlimitMaskReg>),
        entry::<kq::TxCompCfg>(typed::<kq::TxCompCfg>),
        entry::<kq::TxQSwCtrl>(typed::<kq::TxQSwCtrl>),
        entry::<kq::RxCompCfg>(typed::<kq::RxCompCfg>),
        entry::<kq::RxQSwCtrl>(typed::<kq::RxQSwCtrl>),
        entry::<IntControl>(typed::<IntControl>),
    ]
}

/// The decoder of the register at `offset` in block `block` (a block's table name, as
/// `khal::regs::REGISTERS` gives it), if it was declared with a typed value. The queue
/// blocks include the shared ring registers (`q_rings`), found at the same offset.
pub fn decoder(block: &str, offset: usize) -> Option<Decode> {
    let table = typed_registers();
    let find = |b: &str| {
        table
            .iter()
            .find(|(tb, to, _)| *tb == b && *to == offset)
            .map(|e| e.2)
    };
    find(block).or_else(|| {
        [TxQueue::NAME, RxQueue::NAME]
            .contains(&block)
            .then(|| find(QueueRings::NAME))
            .flatten()
    })
}

/// What the bits of an interrupt group's cause-like word (cause, mask, status, abort mask)
/// mean, by the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CauseSet {
    /// Secondary group A: TX (M2S) error causes.
    M2s,
    /// Secondary group B: RX (S2M) error causes.
    S2m,
    /// Secondary group C: AXI FIFO parity causes.
    Parity,
    /// Primary group D: bits 8.. summarise the secondary groups.
    PrimaryD,
    /// Primary group B (RX) or C (TX) completions: bit q is queue q.
    Queues,
    /// No names known (primary group A's summary bits, the AXI-error controllers): the
    /// word prints raw.
    Unnamed,
}

impl CauseSet {
    /// The names of the set bits of `raw` (bit numbers for bits the set does not name).
    pub fn names(self, raw: u32) -> Vec<String> {
        let (mut names, rest): (Vec<String>, u32) = match self {
            Self::M2s => named(M2sCause::from_bits_retain(raw)),
            Self::S2m => named(S2mCause::from_bits_retain(raw)),
            Self::Parity => named(ParityCause::from_bits_retain(raw)),
            Self::PrimaryD => named(PrimaryDSummary::from_bits_retain(raw)),
            Self::Queues => (
                (0..16)
                    .filter(|q| raw & (1 << q) != 0)
                    .map(|q| format!("queue{q}"))
                    .collect(),
                raw & !0xffff,
            ),
            // No source names these bits: the raw value says it all.
            Self::Unnamed => (Vec::new(), 0),
        };
        names.extend(
            (0..32)
                .filter(|b| rest & (1u32 << b) != 0)
                .map(|b| format!("bit{b}")),
        );
        names
    }

    /// The fields of a cause-like word: each set bit by name.
    pub fn fields(self, raw: u32) -> Vec<Field> {
        self.names(raw)
            .into_iter()
            .map(|name| Field {
                name,
                value: "1".into(),
            })
            .collect()
    }
}

macro_rules! named_impl {
    ($($t:ty),*) => {$(
        impl Named for $t {
            fn parts(self) -> (Vec<String>, u32) {
                (self.names().map(String::from).collect(), self.unnamed())
            }
        }
    )*};
}

/// A cause set's names and the bits it leaves unnamed.
trait Named {
    fn parts(self) -> (Vec<String>, u32);
}

named_impl!(M2sCause, S2mCause, ParityCause, PrimaryDSummary);

fn named(set: impl Named) -> (Vec<String>, u32) {
    set.parts()
}

/// The blocks whose rows [`decoder`] knows (for the tests: every entry names a row of one).
pub fn declared_blocks() -> [(&'static str, &'static [mmio::RegisterInfo]); 7] {
    [
        (M2s::NAME, M2s::REGISTERS),
        (S2m::NAME, S2m::REGISTERS),
        (QueueRings::NAME, QueueRings::REGISTERS),
        (TxQueue::NAME, TxQueue::REGISTERS),
        (RxQueue::NAME, RxQueue::REGISTERS),
        (Gen::NAME, Gen::REGISTERS),
        (GroupRegs::NAME, GroupRegs::REGISTERS),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_typed_register_is_a_declared_row() {
        for (block, offset, _) in typed_registers() {
            let rows = declared_blocks()
                .into_iter()
                .find(|(b, _)| *b == block)
                .map(|(_, r)| r)
                .unwrap_or_else(|| panic!("block {block}"));
            assert!(
                rows.iter()
                    .any(|r| r.offset == offset && r.window.is_none()),
                "{block} +{offset:#x}"
            );
        }
    }

    #[test]
    fn fields_come_from_the_typed_word() {
        // m2s.state with every sub-unit NORMAL (udma-bitfields.tsv: 2-bit fields at 0, 4, 8,
        // 12; value 1 = normal).
        let d = decoder("m2s", 0x200).unwrap();
        let f = d(0x1111);
        assert_eq!(f.len(), 4, "{f:?}");
        assert!(f.iter().all(|f| f.value == "Normal"), "{f:?}");
        assert_eq!(f[0].name, "comp_ctrl");
        // A queue's cfg through the TX queue block (the shared ring registers).
        let cfg = decoder("m2s_q", 0x20).unwrap()(0x0303_0000);
        let by = |n: &str| cfg.iter().find(|f| f.name == n).map(|f| f.value.clone());
        assert_eq!(by("en_pref").as_deref(), Some("true"));
        assert_eq!(by("en_scheduling").as_deref(), Some("true"));
        // tdrhp: index 5, ring id 2 (udma-bitfields.tsv: OFFSET 23:0, RING_ID 31:30).
        let head = decoder("s2m_q", 0x34).unwrap()(0x8000_0005);
        assert_eq!(
            head,
            [
                Field {
                    name: "offset".into(),
                    value: "5".into()
                },
                Field {
                    name: "ring_id".into(),
                    value: "2".into()
                }
            ]
        );
        assert!(decoder("m2s_q", 0x28).is_none(), "ring base is a plain u32");
    }

    #[test]
    fn cause_words_are_named_bit_by_bit() {
        // iofic.tsv: secondary A bit 8 DATA_AXI_RESP, bit 17 PREFETCH_RING_ID.
        assert_eq!(
            CauseSet::M2s.names(0x0002_0100 | 1 << 30),
            ["DATA_AXI_RESP", "PREFETCH_RING_ID", "bit30"]
        );
        assert_eq!(CauseSet::S2m.names(1 << 11), ["PREFETCH_RING_ID"]);
        assert_eq!(CauseSet::PrimaryD.names(0x100), ["GROUP_D_M2S"]);
        assert_eq!(CauseSet::Queues.names(0b1001), ["queue0", "queue3"]);
        assert!(
            CauseSet::Unnamed.names(u32::MAX).is_empty(),
            "no source names them"
        );
    }

    #[test]
    fn debug_text_splits_at_top_level_commas_only() {
        let f = parse_debug("Control { clear_on_read: false, revision: ControllerRev(0) }");
        assert_eq!(f[1].value, "ControllerRev(0)");
        assert!(parse_debug("5").is_empty());
    }
}
