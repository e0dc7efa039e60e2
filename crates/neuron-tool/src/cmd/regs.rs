//! `neuron-tool regs --arch A [--block B]`: the UDMA register map with offsets.
//!
//! Nothing here restates an offset: block bases and per-queue offsets come from the arch's
//! `A::UDMA` layout, register offsets and names from `khal`'s typed register markers
//! (`mmio::Register::{OFFSET, NAME}`, checked at compile time against
//! `reference/udma-registers.tsv`), and the interrupt-controller windows from `iofic::layout`.

use std::io::Write;

use iofic::layout::{self as il, GroupReg};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::regs::{QueueReg, gen_ex, general, m2s, queue, s2m};
use mmio::Register;
use udma_desc::QueueId;

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::{BlockName, RegsArgs};
use crate::error::Result;

/// `(name, offset inside the block)` of register markers.
macro_rules! rows {
    ($($m:path),* $(,)?) => {
        [$((<$m as Register>::NAME, <$m as Register>::OFFSET)),*]
    };
}

const M2S: [(&str, usize); 22] = rows![
    m2s::AxiCompWrCfg1,
    m2s::AxiCompWrCfg2,
    m2s::AxiDataRdCfg1,
    m2s::AxiDataRdCfg2,
    m2s::AxiDescRdCfg1,
    m2s::AxiDescRdCfg2,
    m2s::AxiDataRdCfg,
    m2s::AxiDescRdCfg3,
    m2s::AxiDescWrCfg1,
    m2s::AxiOstandCfg,
    m2s::State,
    m2s::ChangeState,
    m2s::ErrLogMaskReg,
    m2s::CfgLenReg,
    m2s::StreamCfgReg,
    m2s::DescPrefCfg1Reg,
    m2s::DescPrefCfg2Reg,
    m2s::DescPrefCfg3Reg,
    m2s::DataCfgReg,
    m2s::RlimitMask,
    m2s::CompCfgApplicationAck,
    m2s::DmaVersion,
];

const S2M: [(&str, usize); 22] = rows![
    s2m::AxiDataWrCfg1,
    s2m::AxiDataWrCfg2,
    s2m::AxiDescRdCfg4,
    s2m::AxiDescRdCfg5,
    s2m::AxiCompWrCfg1,
    s2m::AxiCompWrCfg2,
    s2m::AxiDataWrCfg,
    s2m::AxiDescRdCfg3,
    s2m::AxiDescWrCfg1,
    s2m::AxiOstandCfgRd,
    s2m::AxiOstandCfgWr,
    s2m::AxiOstandCfgWr2,
    s2m::State,
    s2m::ChangeState,
    s2m::ErrLogMaskReg,
    s2m::StreamCfgReg,
    s2m::DescPrefCfg1Reg,
    s2m::DescPrefCfg2Reg,
    s2m::DescPrefCfg3Reg,
    s2m::DescPrefCfg4Reg,
    s2m::CompCfg1cReg,
    s2m::CompCfgApplicationAck,
];

const GEN: [(&str, usize); 5] = rows![
    general::AxiCfg1,
    general::SpareZeroes0Reg,
    general::SpareZeroes1,
    general::SpareOnes0,
    general::SpareOnes1,
];

/// The table name of a per-queue register (from its marker).
const fn queue_reg_name(reg: QueueReg) -> &'static str {
    match reg {
        QueueReg::DescPrefCfg => queue::TxDescPrefCfg::NAME,
        QueueReg::Cfg => queue::Cfg::NAME,
        QueueReg::Status => queue::Status::NAME,
        QueueReg::DrbpLow => queue::DrbpLow::NAME,
        QueueReg::DrbpHigh => queue::DrbpHigh::NAME,
        QueueReg::Drl => queue::Drl::NAME,
        QueueReg::Drhp => queue::Drhp::NAME,
        QueueReg::DrtpInc => queue::DrtpInc::NAME,
        QueueReg::Drtp => queue::Drtp::NAME,
        QueueReg::Dcp => queue::Dcp::NAME,
        QueueReg::CrbpLow => queue::CrbpLow::NAME,
        QueueReg::CrbpHigh => queue::CrbpHigh::NAME,
        QueueReg::Crhp => queue::Crhp::NAME,
        QueueReg::RlimitMask => queue::TxRlimitMaskReg::NAME,
        QueueReg::CompCfg => queue::TxCompCfg::NAME,
        QueueReg::QSwCtrl => queue::TxQSwCtrl::NAME,
    }
}

/// One line of the map: offset from the unit base, offset in the block, name.
fn row(out: &mut impl Write, abs: usize, rel: usize, name: &str) -> std::io::Result<()> {
    writeln!(out, "  {abs:#07x}  +{rel:#06x}  {name}")
}

fn block_rows(
    out: &mut impl Write,
    base: usize,
    rows: &[(&'static str, usize)],
) -> std::io::Result<()> {
    let mut sorted = rows.to_vec();
    sorted.sort_by_key(|&(_, off)| off);
    for (name, off) in sorted {
        row(out, base + off, off, name)?;
    }
    Ok(())
}

/// Prints the map of arch `A`, all blocks or one.
fn print<A: Arch>(out: &mut impl Write, only: Option<BlockName>) -> std::io::Result<()> {
    let l = A::UDMA;
    let want = |b| only.is_none_or(|o| o == b);
    writeln!(
        out,
        "UDMA register map, {}, UDMA revision {}: offsets from the UDMA unit base, then inside the block",
        A::GENERATION,
        A::UDMA_REVISION
    )?;
    if want(BlockName::M2s) {
        writeln!(
            out,
            "\n[m2s] TX (memory-to-stream) engine block at {:#07x}",
            l.m2s_base
        )?;
        block_rows(out, l.m2s_base, &M2S)?;
    }
    if want(BlockName::S2m) {
        writeln!(
            out,
            "\n[s2m] RX (stream-to-memory) engine block at {:#07x}",
            l.s2m_base
        )?;
        block_rows(out, l.s2m_base, &S2M)?;
    }
    if want(BlockName::Gen) {
        writeln!(out, "\n[gen] general block at {:#07x}", l.gen_base)?;
        let mut rows: Vec<(String, usize)> = GEN.iter().map(|&(n, o)| (n.to_string(), o)).collect();
        rows.push((
            "interrupt_regs.main_iofic (primary IOFIC, groups A..D)".into(),
            general::PRIMARY_IOFIC,
        ));
        rows.push((
            "interrupt_regs.secondary_iofic_ctrl (secondary IOFIC, groups A..C)".into(),
            general::SECONDARY_IOFIC,
        ));
        rows.push((
            format!(
                "axi_error_detection_table[0..{}] (16 words each, stride {:#x})",
                general::AXI_ERROR_TABLES,
                general::AXI_ERROR_DETECTION_TABLE_STRIDE
            ),
            general::AXI_ERROR_DETECTION_TABLE,
        ));
        rows.push((
            format!(
                "axi_error_control[0..{}] (table_addr +0, table_data +4, stride {:#x})",
                general::AXI_ERROR_TABLES,
                general::AXI_ERROR_CONTROL_STRIDE
            ),
            general::AXI_ERROR_CONTROL,
        ));
        rows.push((
            format!(
                "axi_queue[q] (state_request +0, error_status +4, cfg +8, stride {:#x})",
                general::AXI_QUEUE_STRIDE
            ),
            general::axi_queue(Q0),
        ));
        rows.push((
            "AXI-error interrupt controllers (see --block iofic)".into(),
            il::AXI_ERROR_M2S_DESC_RD_IN_GEN,
        ));
        rows.sort_by_key(|(_, o)| *o);
        for (name, off) in &rows {
            row(out, l.gen_base + off, *off, name)?;
        }
        writeln!(
            out,
            "\n[gen_ex] extended general block at {:#07x}",
            l.gen_ex_base
        )?;
        let q0 = Q0;
        row(
            out,
            l.gen_ex_base + gen_ex::tx_sel(q0),
            gen_ex::tx_sel(q0),
            &format!(
                "vmpr_v4[q].tx_sel (stride {:#x} per queue)",
                gen_ex::VMPR_V4_STRIDE
            ),
        )?;
        for i in 0..gen_ex::RX_SELECTORS {
            if let Some(off) = gen_ex::rx_sel(q0, i) {
                row(
                    out,
                    l.gen_ex_base + off,
                    off,
                    &format!("vmpr_v4[q].rx_sel[{i}]"),
                )?;
            }
        }
    }
    if want(BlockName::Queue) {
        for dir in Dir::BOTH {
            let (name, base) = match dir {
                Dir::Tx => ("TX (m2s_q)", l.m2s_base),
                Dir::Rx => ("RX (s2m_q)", l.s2m_base),
            };
            writeln!(
                out,
                "\n[queue] {name} queue q block at {:#07x} + q*{:#x} ({} queues; queue 0 shown)",
                base + l.queue_block,
                l.queue_stride,
                l.queues
            )?;
            let q0 = Q0;
            let mut rows: Vec<(usize, usize, &str)> = QueueReg::ALL
                .into_iter()
                .filter_map(|r| {
                    let rel = l.queue_reg(dir, r)?;
                    let abs = l.queue_reg_abs(dir, q0, r)?;
                    Some((abs, rel, queue_reg_name(r)))
                })
                .collect();
            rows.sort_by_key(|&(abs, _, _)| abs);
            for (abs, rel, name) in rows {
                row(out, abs, rel, name)?;
            }
        }
    }
    if want(BlockName::Iofic) {
        writeln!(
            out,
            "\n[iofic] interrupt controller: levels of {:#x}-byte group windows in the gen block",
            il::GROUP_STRIDE
        )?;
        let levels = [
            ("primary", il::PRIMARY_BASE_IN_GEN, il::PRIMARY_GROUPS),
            (
                "secondary",
                il::SECONDARY_BASE_IN_GEN,
                il::SECONDARY_GROUPS_REV4,
            ),
        ];
        for (level, base, groups) in levels {
            for g in 0..groups {
                let off = base + il::group_base(g);
                let letter = char::from(b'A' + u8::try_from(g).unwrap_or(0));
                row(
                    out,
                    l.gen_base + off,
                    off,
                    &format!("{level} group {letter}"),
                )?;
            }
        }
        for c in general::AxiErrorIofic::PROGRAMMED
            .into_iter()
            .chain([general::AxiErrorIofic::Msix])
        {
            let off = c.offset();
            row(
                out,
                l.gen_base + off,
                off,
                &format!("AXI-error controller {c:?} (one group)"),
            )?;
        }
        writeln!(out, "  registers of every group window:")?;
        for r in GroupReg::ALL {
            writeln!(out, "  +{:#04x}  {}", r.offset(), r.name())?;
        }
    }
    Ok(())
}

/// Queue 0, whose registers the map shows (the others follow at the queue stride).
const Q0: QueueId = match QueueId::new(0) {
    Ok(q) => q,
    Err(_) => panic!("queue 0 exists"),
};

/// `regs --arch A [--block B]`.
pub fn run(args: &RegsArgs, out: &mut impl Write) -> Result<()> {
    struct Map<'a, W>(&'a mut W, Option<BlockName>);
    impl<W: Write> ArchVisitor for Map<'_, W> {
        type Output = std::io::Result<()>;
        fn visit<A: Arch>(self) -> Self::Output {
            print::<A>(self.0, self.1)
        }
    }
    dispatch(args.arch.generation(), Map(out, args.block))??;
    Ok(())
}
