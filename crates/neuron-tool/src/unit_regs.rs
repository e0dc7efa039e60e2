//! The registers of one UDMA unit (one engine) that `regs read` and `regs dump` read, made
//! from the block declarations (`khal::regs`, `iofic::regs`): every named register of the
//! M2S and S2M blocks, of each TX and RX queue block, of the general block and its arrays
//! (AXI error tables and control, per-queue AXI registers), of the extended general block
//! (per-queue selectors), and the seven registers of every interrupt group window the unit
//! uses. Nothing here names a register or restates an offset.
//!
//! Two kinds of register change the device when *read*, and are not read:
//! `axi_queue[q].error_status` ("per-queue AXI error status, cleared when read",
//! `reference/udma-registers.tsv`), and the cause register of an interrupt group whose
//! control has CLEAR_ON_READ set (`reference/iofic.tsv`, `control_flag_external`; the driver
//! never sets it, but a device someone else configured may have): its control is read
//! first, and the cause only when the flag is clear.

use iofic::layout::{self as il, GroupReg};
use iofic::regs::GroupRegs;
use khal::Arch;
use khal::regs::gen_ex::{GenEx, VmprV4};
use khal::regs::general::{
    AxiErrorControl, AxiErrorDetectionTable, AxiErrorIofic, AxiQueue, AxiQueueErrorStatus, Gen,
    MainIofic, SecondaryIofic,
};
use khal::regs::m2s::M2s;
use khal::regs::queue::{RxQueue, TxQueue};
use khal::regs::s2m::S2m;
use khal::regs::{Placed, Register, RegisterBlock};
use udma_desc::QUEUES_PER_ENGINE;

use crate::cli::BlockName;
use crate::reg_fields::{CauseSet, Decode, decoder};

/// How a register's value is decoded.
#[derive(Clone, Copy, Debug)]
pub enum RowDecode {
    /// By its typed value's fields.
    Fields(Decode),
    /// Bit by bit, as a group's cause-like word.
    Causes(CauseSet),
    /// Raw only (declared `u32`).
    Raw,
}

/// Whether reading a register is free of side effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadRule {
    /// A plain read.
    Plain,
    /// Reading clears it: never read.
    ClearsOnRead,
    /// An interrupt group's cause: read only when the group's control (at this unit offset)
    /// has CLEAR_ON_READ clear.
    CauseOfGroup {
        /// Unit offset of the group's control register.
        control: usize,
    },
}

/// One register of a unit to read.
#[derive(Clone, Debug)]
pub struct RegRow {
    /// Which `--block` it belongs to.
    pub block: BlockName,
    /// The queue, for queue-block registers.
    pub queue: Option<u32>,
    /// Full name: `m2s.state`, `m2s_q[3].tdrhp`, `gen.axi_queue[2].cfg`,
    /// `iofic.secondary.A.int_cause_grp`.
    pub name: String,
    /// The register's own name in its block (what `--register` matches besides `name`).
    pub short: &'static str,
    /// Offset from the unit base.
    pub offset: usize,
    /// How to decode it.
    pub decode: RowDecode,
    /// Whether to read it.
    pub read: ReadRule,
}

/// The rows of block `block` placed at unit offset `base`, by offset, named `prefix` + row
/// name; the window rows (interrupt controllers) are left to [`iofic_rows`].
fn rows_of<B: RegisterBlock>(
    out: &mut Vec<RegRow>,
    block: BlockName,
    queue: Option<u32>,
    prefix: &str,
    base: usize,
) {
    let mut regs: Vec<_> = B::REGISTERS.iter().filter(|r| r.window.is_none()).collect();
    regs.sort_by_key(|r| r.offset);
    for r in regs {
        let decode = decoder(B::NAME, r.offset).map_or(RowDecode::Raw, RowDecode::Fields);
        out.push(RegRow {
            block,
            queue,
            name: format!("{prefix}{}", r.name),
            short: r.name,
            offset: base + r.offset,
            decode,
            read: ReadRule::Plain,
        });
    }
}

/// The rows of every block `B` of an array placed in block `P` (`P.name[i].reg`).
fn array_rows<P: Placed, B: Placed>(out: &mut Vec<RegRow>, block: BlockName) {
    for i in 0..B::COUNT {
        let base = P::BASE + B::BASE + i * B::STRIDE;
        let prefix = format!("{}.{}[{i}].", P::NAME, B::NAME);
        rows_of::<B>(out, block, None, &prefix, base);
    }
}

/// The group windows a unit uses: (name, offset in `gen`, which causes its bits hold).
fn groups<A: Arch>() -> Vec<(String, usize, CauseSet)> {
    let letter = |g: usize| char::from(b'A' + u8::try_from(g).unwrap_or(25));
    let primary = [
        CauseSet::Unnamed,
        CauseSet::Queues,
        CauseSet::Queues,
        CauseSet::PrimaryD,
    ];
    let secondary = [CauseSet::M2s, CauseSet::S2m, CauseSet::Parity];
    // Secondary group C exists from UDMA revision 4 (iofic.tsv layout
    // `secondary_groups_valid`: 3 for rev 4, 2 for older revisions).
    let sec_groups = if A::UDMA_REVISION >= 4 {
        il::SECONDARY_GROUPS_REV4
    } else {
        il::SECONDARY_GROUPS_OLD
    };
    let mut out = Vec::new();
    for (g, set) in primary.into_iter().enumerate().take(il::PRIMARY_GROUPS) {
        let at = MainIofic::BASE + g * MainIofic::STRIDE;
        out.push((format!("iofic.primary.{}", letter(g)), at, set));
    }
    for (g, set) in secondary.into_iter().enumerate().take(sec_groups) {
        let at = SecondaryIofic::BASE + g * SecondaryIofic::STRIDE;
        out.push((format!("iofic.secondary.{}", letter(g)), at, set));
    }
    for c in AxiErrorIofic::PROGRAMMED
        .into_iter()
        .chain([AxiErrorIofic::Msix])
    {
        let name = Gen::REGISTERS
            .iter()
            .find(|r| r.window.is_some() && r.offset == c.offset())
            .map_or("axi_error", |r| r.name);
        let short = name.strip_prefix("iofic_base_").unwrap_or(name);
        out.push((format!("iofic.{short}"), c.offset(), CauseSet::Unnamed));
    }
    out
}

/// The seven registers of each group window of the unit.
fn iofic_rows<A: Arch>(out: &mut Vec<RegRow>) {
    for (name, at, set) in groups::<A>() {
        let base = Gen::BASE + at;
        let control = base + GroupReg::Control.offset();
        for r in GroupRegs::REGISTERS {
            let (decode, read) = match GroupReg::from_offset(r.offset) {
                Some(GroupReg::Cause) => {
                    (RowDecode::Causes(set), ReadRule::CauseOfGroup { control })
                }
                Some(GroupReg::CauseSet) | None => (RowDecode::Raw, ReadRule::Plain),
                Some(GroupReg::Control) => (
                    decoder(GroupRegs::NAME, r.offset).map_or(RowDecode::Raw, RowDecode::Fields),
                    ReadRule::Plain,
                ),
                Some(_) => (RowDecode::Causes(set), ReadRule::Plain),
            };
            out.push(RegRow {
                block: BlockName::Iofic,
                queue: None,
                name: format!("{name}.{}", r.name),
                short: r.name,
                offset: base + r.offset,
                decode,
                read,
            });
        }
    }
}

/// Every register of a unit of arch `A` in block `only` (all blocks when `None`), queue
/// blocks only for queue `queue` when given; in block order, queues ascending.
pub fn unit_rows<A: Arch>(only: Option<BlockName>, queue: Option<u32>) -> Vec<RegRow> {
    let want = |b| only.is_none_or(|o| o == b);
    let mut out = Vec::new();
    if want(BlockName::M2s) {
        rows_of::<M2s>(&mut out, BlockName::M2s, None, "", M2s::BASE);
    }
    if want(BlockName::S2m) {
        rows_of::<S2m>(&mut out, BlockName::S2m, None, "", S2m::BASE);
    }
    if want(BlockName::Queue) {
        for q in (0..u32::from(QUEUES_PER_ENGINE)).filter(|q| queue.is_none_or(|w| w == *q)) {
            let i = q as usize;
            let tx = TxQueue::BASE + i * TxQueue::STRIDE;
            let rx = RxQueue::BASE + i * RxQueue::STRIDE;
            rows_of::<TxQueue>(
                &mut out,
                BlockName::Queue,
                Some(q),
                &format!("m2s_q[{q}]."),
                tx,
            );
            rows_of::<RxQueue>(
                &mut out,
                BlockName::Queue,
                Some(q),
                &format!("s2m_q[{q}]."),
                rx,
            );
        }
    }
    if want(BlockName::Gen) {
        rows_of::<Gen>(&mut out, BlockName::Gen, None, "gen.", Gen::BASE);
        array_rows::<Gen, AxiErrorDetectionTable>(&mut out, BlockName::Gen);
        array_rows::<Gen, AxiErrorControl>(&mut out, BlockName::Gen);
        array_rows::<Gen, AxiQueue>(&mut out, BlockName::Gen);
        rows_of::<GenEx>(&mut out, BlockName::Gen, None, "gen_ex.", GenEx::BASE);
        array_rows::<GenEx, VmprV4>(&mut out, BlockName::Gen);
        for r in out
            .iter_mut()
            .filter(|r| r.short == AxiQueueErrorStatus::NAME)
        {
            r.read = ReadRule::ClearsOnRead;
        }
    }
    if want(BlockName::Iofic) {
        iofic_rows::<A>(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal_cayman::Cayman;
    use khal_sunda::Sunda;

    #[test]
    fn a_unit_holds_every_declared_register_once() {
        let rows = unit_rows::<Cayman>(None, None);
        let mut offsets: Vec<usize> = rows.iter().map(|r| r.offset).collect();
        offsets.sort_unstable();
        let n = offsets.len();
        offsets.dedup();
        assert_eq!(offsets.len(), n, "no register twice");
        // udma-registers.tsv: TX queue 3's head at 0x04034, RX queue 3's at 0x24034.
        let find = |name: &str| rows.iter().find(|r| r.name == name).map(|r| r.offset);
        assert_eq!(find("m2s_q[3].tdrhp"), Some(0x04034));
        assert_eq!(find("s2m_q[3].rdrhp"), Some(0x24034));
        assert_eq!(find("m2s.state"), Some(0x00200));
        assert_eq!(find("gen.axi.cfg_1"), Some(0x3a300));
        // iofic.tsv: secondary A at 0x3a000, its abort mask at +0x30.
        assert_eq!(find("iofic.secondary.A.int_abort_msk_grp"), Some(0x3a030));
        assert_eq!(find("iofic.m2s_desc_rd.int_control_grp"), Some(0x3ad28));
        assert_eq!(
            find("gen.axi_queue[15].error_status"),
            Some(0x3ac00 + 15 * 0xc + 4)
        );
    }

    #[test]
    fn reads_with_side_effects_are_marked() {
        let rows = unit_rows::<Sunda>(None, None);
        let status = rows.iter().filter(|r| r.short == "error_status");
        assert_eq!(status.clone().count(), 16);
        assert!(status.into_iter().all(|r| r.read == ReadRule::ClearsOnRead));
        let cause = rows
            .iter()
            .find(|r| r.name == "iofic.secondary.B.int_cause_grp")
            .unwrap();
        assert_eq!(cause.read, ReadRule::CauseOfGroup { control: 0x3a068 });
    }

    #[test]
    fn one_queue_and_one_block_narrow_the_list() {
        let rows = unit_rows::<Cayman>(Some(BlockName::Queue), Some(7));
        assert!(rows.iter().all(|r| r.queue == Some(7)));
        assert!(rows.iter().any(|r| r.name == "m2s_q[7].rlimit.mask"));
        assert!(rows.iter().any(|r| r.name == "s2m_q[7].q_sw_ctrl"));
    }
}
