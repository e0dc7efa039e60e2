//! The IOFIC calls of seed 004 §4 through the C ABI: `tests/c/iofic.c` drives
//! `al_iofic_{config,unmask,mask,read_cause,clear_cause}` and, per generation,
//! `al_udma_iofic_{m2s,s2m}_error_ints_unmask` over a C-side recording register block; its
//! trace must be, access for access, the trace of `iofic::Group` / `iofic::udma` doing the
//! same over `mmio::FakeRegs`, and carry the seed's register pokes and the kernel's write
//! sequence (`tests/data/iofic.tsv`, a copy of `reference/iofic.tsv` that `cargo xtask
//! package` keeps byte-identical).

mod common;

use iofic::Control;
use iofic::layout::{GEN_BASE_IN_UNIT, GROUP_STRIDE, SECONDARY_BASE_IN_UNIT};
use khal::Arch;
use mmio::{FakeRegs, MmioExt, Window};

use common::Cc;

const IOFIC_TSV: &str = include_str!("data/iofic.tsv");

/// The level `iofic.c` works on: the unit's secondary controller.
const LEVEL: usize = 0x3a000;
const _: () = assert!(LEVEL == SECONDARY_BASE_IN_UNIT);

use common::{revision_offset, trace_text as text};

/// `iofic::Group` doing what `primitives()` of `iofic.c` asks for.
fn rust_primitives() -> String {
    let regs: FakeRegs<16, 16> = FakeRegs::new();
    regs.preset(LEVEL + GROUP_STRIDE + 0x10, 0x0000_0c00);
    regs.preset(LEVEL + 3 * GROUP_STRIDE, 0x0000_1234);
    let group = |g: usize| iofic::Group::new(Window::new(&regs, LEVEL + g * GROUP_STRIDE));
    group(2).configure(Control::from_bits(0x28));
    group(2).unmask(0x505);
    group(1).mask(0x30);
    let cause = group(3).cause();
    group(3).clear(0x4);
    group(15).configure(Control::from_bits(0x8));
    format!("primitives\n{}cause {cause:x}\n", text(&regs))
}

/// `iofic::udma`'s bring-ups of `A`'s revision, each traced on its own.
fn rust_error_ints<A: Arch>() -> String {
    let regs: FakeRegs<16, 16> = FakeRegs::new();
    iofic::udma::m2s_bring_up::<A::Revision, _>(&regs.window(GEN_BASE_IN_UNIT));
    let m2s = text(&regs);
    regs.clear_trace();
    iofic::udma::s2m_bring_up::<A::Revision, _>(&regs.window(GEN_BASE_IN_UNIT));
    format!("m2s\n{m2s}s2m\n{}", text(&regs))
}

/// The writes of `iofic.tsv` section `section` (the kernel's order), as trace lines.
fn tsv_writes(section: &str) -> String {
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
    IOFIC_TSV
        .lines()
        .filter(|l| l.starts_with(&format!("{section}\t")))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!("W {:x} {:x}\n", hex(f[2]), hex(f[4]))
        })
        .collect()
}

fn run_c(cc: &Cc, arch: u8) -> String {
    cc.run("iofic.c", arch, &[revision_offset().to_string()])
}

/// What the primitives of `iofic.c` must send. Seed 004 §4: the per-group 0x40-byte window
/// (`ctrl[group]`, stride `group << 6`) with cause @+0x00, mask @+0x10, mask_clear @+0x18,
/// control @+0x28; `al_iofic_config` writes the flags to control, `al_iofic_unmask` writes
/// `~bits` to mask_clear, `al_iofic_clear_cause` writes `~bits` to cause (write-0-to-clear).
/// Masking is a read-modify-write of the mask and reading the causes one read of cause
/// (the seed names both without their bodies; this is `iofic::Group`'s choice).
const PINNED_PRIMITIVES: &str = "primitives\n\
    W 3a0a8 28\n\
    W 3a098 fffffafa\n\
    R 3a050 c00\n\
    W 3a050 c30\n\
    R 3a0c0 1234\n\
    W 3a0c0 fffffffb\n\
    W 3a3e8 8\n\
    cause 1234\n";

fn check<A: Arch>(cc: &Cc) {
    let arch = A::GENERATION.number();
    let c = run_c(cc, arch);
    let (primitives, error_ints) = c.split_at(c.find("m2s\n").unwrap());
    assert_eq!(primitives, rust_primitives(), "V{arch}: primitives");
    assert_eq!(primitives, PINNED_PRIMITIVES, "V{arch}: primitives");
    assert_eq!(
        error_ints,
        rust_error_ints::<A>(),
        "V{arch}: error interrupts"
    );
    // Every generation has UDMA revision 4 (the HAL refuses any other at init), so each
    // programs the kernel's seven writes per direction, values included: S2M group B gets
    // 0xFFFFEF07 (seed 004 §4 "(v4)"), the M2S primary D unmask 1280 = 0x500 ("(v4)").
    let (m2s, s2m) = error_ints.split_at(error_ints.find("s2m\n").unwrap());
    assert_eq!(m2s, format!("m2s\n{}", tsv_writes("unmask_write.m2s")));
    assert_eq!(s2m, format!("s2m\n{}", tsv_writes("unmask_write.s2m")));
    assert!(s2m.contains("W 3a058 10f8\n") && m2s.contains("W 380d8 fffffaff\n"));
}

#[test]
fn iofic_calls_from_c_match_iofic_on_every_generation() {
    let cc = Cc::find();
    check::<khal_sunda::Sunda>(&cc);
    check::<khal_cayman::Cayman>(&cc);
    check::<khal_mariana::Mariana>(&cc);
}
