//! `neuron-tool regs --arch A [--block B]`: the UDMA register map with offsets.
//!
//! Nothing here restates an offset or a name: the registers are `khal`'s one register list
//! (`khal::regs::REGISTERS`, built from the typed markers and tested against
//! `reference/udma-registers.tsv`), block bases come from the arch's `A::UDMA` layout, and
//! the interrupt-controller windows from `iofic::layout`.

use std::io::Write;

use iofic::layout::{self as il, GroupReg};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::regs::{Source, gen_ex, general, in_block};

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::{BlockName, RegsArgs};
use crate::error::Result;

/// One line of the map: offset from the unit base, offset in the block, name.
fn row(out: &mut impl Write, abs: usize, rel: usize, name: &str) -> std::io::Result<()> {
    writeln!(out, "  {abs:#07x}  +{rel:#06x}  {name}")
}

/// The rows of list block `block`, by offset, from `base` (the arch's block base); a
/// register only seed 004 names is marked.
fn block_rows(out: &mut impl Write, base: usize, block: &str) -> std::io::Result<()> {
    let mut rows: Vec<_> = in_block(block).collect();
    rows.sort_by_key(|r| r.offset);
    for r in rows {
        let name = match r.source {
            Source::Reference => r.name.to_string(),
            Source::Seed004 => format!("{} [seed 004 only]", r.name),
        };
        row(out, base + r.offset, r.offset, &name)?;
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
        block_rows(out, l.m2s_base, "m2s")?;
    }
    if want(BlockName::S2m) {
        writeln!(
            out,
            "\n[s2m] RX (stream-to-memory) engine block at {:#07x}",
            l.s2m_base
        )?;
        block_rows(out, l.s2m_base, "s2m")?;
    }
    if want(BlockName::Gen) {
        writeln!(out, "\n[gen] general block at {:#07x}", l.gen_base)?;
        block_rows(out, l.gen_base, "gen")?;
        writeln!(
            out,
            "\n[gen_ex] extended general block at {:#07x} (queue q's selectors at +{:#x}*q)",
            l.gen_ex_base,
            gen_ex::VMPR_V4_STRIDE
        )?;
        block_rows(out, l.gen_ex_base, "gen_ex")?;
        writeln!(
            out,
            "  (AXI-error interrupt controllers at +{:#x}..: see --block iofic)",
            il::AXI_ERROR_M2S_DESC_RD_IN_GEN
        )?;
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
            let block = match dir {
                Dir::Tx => "m2s_q",
                Dir::Rx => "s2m_q",
            };
            block_rows(out, base + l.queue_block, block)?;
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
