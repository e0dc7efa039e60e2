//! `neuron-tool regs --arch A [--block B]`: the UDMA register map with offsets.
//!
//! Nothing here restates an offset or a name: the registers are `khal`'s one register list
//! (`khal::regs::REGISTERS`, built from the block declarations and checked against
//! `reference/udma-registers.tsv`), block bases and the queue block arrays come from the
//! same declarations, and the interrupt-controller windows from `iofic::layout`.

use std::io::Write;

use iofic::layout::{self as il, GroupReg};
use khal::Arch;
use khal::regs::added_2_27::{AddedQueueWord, PREFETCH_WORDS_2_27};
use khal::regs::gen_ex::{GenEx, VmprV4};
use khal::regs::general::{self, Gen};
use khal::regs::m2s::M2s;
use khal::regs::queue::{Dir, RxQueue, TxQueue};
use khal::regs::s2m::S2m;
use khal::regs::{Placed, RegisterBlock, Source, in_block};

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::{BlockName, RegsArgs};
use crate::error::{Result, ToolError};

/// One line of the map: offset from the unit base, offset in the block, name.
fn row(out: &mut impl Write, abs: usize, rel: usize, name: &str) -> std::io::Result<()> {
    writeln!(out, "  {abs:#07x}  +{rel:#06x}  {name}")
}

/// The rows of list block `block`, by offset, from `base` (the arch's block base); a
/// register only seed 004 names is marked, and so is a word only a later driver release
/// names (`added`: offset in the block, what it is, the release).
fn block_rows(
    out: &mut impl Write,
    base: usize,
    block: &str,
    added: &[AddedQueueWord],
) -> std::io::Result<()> {
    let mut rows: Vec<(usize, String)> = in_block(block)
        .map(|r| match r.source {
            Source::Reference => (r.offset, r.name.to_string()),
            Source::Seed004 => (r.offset, format!("{} [seed 004 only]", r.name)),
        })
        .collect();
    rows.extend(added.iter().map(|w| {
        let what = format!(
            "({}) [driver {} on: no fields known, the kernel never writes it]",
            w.name, w.since
        );
        (w.offset, what)
    }));
    rows.sort_by_key(|r| r.0);
    for (offset, name) in rows {
        row(out, base + offset, offset, &name)?;
    }
    Ok(())
}

/// Prints the map of arch `A`, all blocks or one.
fn print<A: Arch>(out: &mut impl Write, only: Option<BlockName>) -> std::io::Result<()> {
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
            "\n[{}] TX (memory-to-stream) engine block at {:#07x}",
            M2s::NAME,
            M2s::BASE
        )?;
        block_rows(out, M2s::BASE, M2s::NAME, &[])?;
    }
    if want(BlockName::S2m) {
        writeln!(
            out,
            "\n[{}] RX (stream-to-memory) engine block at {:#07x}",
            S2m::NAME,
            S2m::BASE
        )?;
        block_rows(out, S2m::BASE, S2m::NAME, &[])?;
    }
    if want(BlockName::Gen) {
        print_gen(out)?;
    }
    if want(BlockName::Queue) {
        print_queues(out)?;
    }
    if want(BlockName::Iofic) {
        print_iofic(out)?;
    }
    Ok(())
}

/// The general and extended general blocks.
fn print_gen(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "\n[{}] general block at {:#07x}", Gen::NAME, Gen::BASE)?;
    block_rows(out, Gen::BASE, Gen::NAME, &[])?;
    writeln!(
        out,
        "\n[{}] extended general block at {:#07x} (queue q's selectors at +{:#x}*q)",
        GenEx::NAME,
        GenEx::BASE,
        VmprV4::STRIDE
    )?;
    block_rows(out, GenEx::BASE, GenEx::NAME, &[])?;
    writeln!(
        out,
        "  (AXI-error interrupt controllers at +{:#x}..: see --block iofic)",
        il::AXI_ERROR_M2S_DESC_RD_IN_GEN
    )
}

/// The TX and RX queue block arrays (queue 0's offsets).
fn print_queues(out: &mut impl Write) -> std::io::Result<()> {
    let arrays = [
        (
            Dir::Tx,
            TxQueue::NAME,
            TxQueue::BASE,
            TxQueue::STRIDE,
            TxQueue::COUNT,
        ),
        (
            Dir::Rx,
            RxQueue::NAME,
            RxQueue::BASE,
            RxQueue::STRIDE,
            RxQueue::COUNT,
        ),
    ];
    for (dir, name, base, stride, count) in arrays {
        let added: Vec<AddedQueueWord> = PREFETCH_WORDS_2_27
            .into_iter()
            .filter(|w| w.dir == dir)
            .collect();
        writeln!(
            out,
            "\n[queue] {dir} ({name}) queue q block at {base:#07x} + q*{stride:#x} ({count} queues; queue 0 shown)",
        )?;
        block_rows(out, base, name, &added)?;
    }
    Ok(())
}

/// The interrupt controller: the group windows of both levels, the AXI-error controllers,
/// and the registers of every window.
fn print_iofic(out: &mut impl Write) -> std::io::Result<()> {
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
                Gen::BASE + off,
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
        let name = format!("AXI-error controller {c:?} (one group)");
        row(out, Gen::BASE + off, off, &name)?;
    }
    writeln!(out, "  registers of every group window:")?;
    for r in GroupReg::ALL {
        writeln!(out, "  +{:#04x}  {}", r.offset(), r.name())?;
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
    let arch = args
        .arch
        .ok_or_else(|| ToolError::BadArgument("regs needs --arch (or read, dump)".into()))?;
    dispatch(arch.generation(), Map(out, args.block))??;
    Ok(())
}
