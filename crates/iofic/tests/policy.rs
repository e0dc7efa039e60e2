//! The UDMA policy sequences, step by step against reference/iofic.tsv and udma-notes.md
//! sections 9 and 10, for every arch's caps values.

mod common;

use common::{
    GroupState, Model, Place, Rev3Engine, V2, V4, hex32, section, write_sequence, write_steps,
};
use iofic::caps::IoficCaps;
use iofic::layout::{GEN_BASE_IN_UNIT, SECONDARY_BASE_IN_UNIT};
use iofic::udma;
use mmio::{Access, FakeRegs, MmioExt};

type Unit = FakeRegs<64, 128>;

/// Runs `f` on the `gen` window of a fresh unit-wide fake; returns the unit-relative trace.
fn run(f: impl FnOnce(&mmio::Window<&Unit>)) -> Vec<Access> {
    let unit = Unit::new();
    let gen_block = unit.window(GEN_BASE_IN_UNIT);
    f(&gen_block);
    assert_eq!(unit.lost(), 0);
    unit.trace().to_vec()
}

fn writes_only(trace: &[Access]) -> Vec<(usize, u32)> {
    assert!(
        trace.iter().all(Access::is_write),
        "policy bring-up never reads"
    );
    trace.iter().map(|a| (a.offset(), a.value())).collect()
}

fn kernel(name: &str) -> Vec<(usize, u32)> {
    write_sequence(name)
        .into_iter()
        .map(|(o, v, _)| (o, v))
        .collect()
}

/// Compares step by step so a failure names the step.
fn assert_steps(name: &str, got: &[(usize, u32)], want: &[(usize, u32)]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(
            g,
            w,
            "{name} step {}: got ({:#x}, {:#010x}), want ({:#x}, {:#010x})",
            i + 1,
            g.0,
            g.1,
            w.0,
            w.1
        );
    }
    assert_eq!(got.len(), want.len(), "{name}: number of writes");
}

fn m2s<A: IoficCaps>() -> Vec<(usize, u32)> {
    writes_only(&run(|g| udma::m2s_bring_up::<A, _>(g)))
}

fn s2m<A: IoficCaps>() -> Vec<(usize, u32)> {
    writes_only(&run(|g| udma::s2m_bring_up::<A, _>(g)))
}

#[test]
fn m2s_bring_up_equals_the_kernel_trace_for_v4_and_v2() {
    let want = kernel("unmask_write.m2s");
    assert_eq!(want.len(), 7);
    assert_steps("m2s V4", &m2s::<V4>(), &want);
    assert_steps("m2s V2", &m2s::<V2>(), &want);
}

#[test]
fn s2m_bring_up_equals_the_kernel_trace_for_v4_and_v2() {
    let want = kernel("unmask_write.s2m");
    assert_eq!(want.len(), 7);
    assert_steps("s2m V4", &s2m::<V4>(), &want);
    assert_steps("s2m V2", &s2m::<V2>(), &want);
}

#[test]
fn rev3_differs_from_the_kernel_only_in_its_two_masks() {
    // M2S: only step 7 (primary D mask-clear) changes, to the complement of 0x100.
    let mut want = kernel("unmask_write.m2s");
    let (off, kernel_value) = want[6];
    assert_eq!((off, kernel_value), (0x380d8, !0x500));
    want[6] = (off, !0x100);
    assert_steps("m2s Rev3Engine", &m2s::<Rev3Engine>(), &want);

    // S2M: steps 3 and 5 (secondary B abort mask and mask-clear) carry ~0x7FFFE007.
    let mut want = kernel("unmask_write.s2m");
    for step in [2, 4] {
        assert_eq!(want[step].1, !0xffff_ef07);
        want[step].1 = !0x7fff_e007;
    }
    let got = s2m::<Rev3Engine>();
    assert_steps("s2m Rev3Engine", &got, &want);
    assert_eq!(got[2], (0x3a070, 0x8000_1ff8));
}

#[test]
fn the_kernel_trace_is_what_section_9_describes() {
    // Cross-check the two reference sources: the TSV trace and the prose order of section 9.
    let names: Vec<String> = write_sequence("unmask_write.m2s")
        .into_iter()
        .map(|s| s.2)
        .collect();
    assert_eq!(
        names,
        [
            "iofic_secondary.A.int_control_grp",
            "iofic_primary.D.int_control_grp",
            "iofic_secondary.A.int_abort_msk_grp",
            "iofic_secondary.C.int_abort_msk_grp",
            "iofic_secondary.A.int_mask_clear_grp",
            "iofic_secondary.C.int_mask_clear_grp",
            "iofic_primary.D.int_mask_clear_grp",
        ]
    );
}

#[test]
fn axi_error_programming_equals_the_kernel_trace() {
    let want = kernel("unmask_write.axi_error");
    assert_eq!(want.len(), 18);
    let got = writes_only(&run(|g| udma::enable_axi_error_aborts(g)));
    assert_steps("axi_error", &got, &want);
    // The MSI-X controller (gen + 0x3300) is not touched.
    assert!(got.iter().all(|&(o, _)| !(0x3b300..0x3b400).contains(&o)));
}

#[test]
fn axi_error_controllers_are_reachable_one_by_one() {
    let unit = Unit::new();
    let gen_block = unit.window(GEN_BASE_IN_UNIT);
    assert!(udma::axi_error(&gen_block, 6).is_none());
    udma::axi_error(&gen_block, 5).unwrap().unmask(1);
    assert_eq!(unit.writes(), [(0x3b218, !1)]);
}

/// Ring-id masking inside the unit: section 10 steps 1-2 of `ring_id_mask_write`.
fn ring_id_kernel_steps() -> Vec<(usize, u32)> {
    let all = write_steps("ring_id_mask_write");
    assert_eq!(all.len(), 8);
    all.into_iter()
        .filter(|(_, _, what)| what.starts_with("iofic_secondary."))
        .map(|(p, v, _)| match p {
            Place::Unit(o) => (o, v),
            Place::Ext(_) => panic!("secondary level is inside the unit"),
        })
        .collect()
}

#[test]
fn ring_id_masking_from_zero_equals_the_kernel_trace() {
    let want = ring_id_kernel_steps();
    assert_eq!(want.len(), 4);
    let trace = run(|g| udma::mask_ring_id_errors(g));
    let w = |offset, value| Access::Write { offset, value };
    let r = |offset, value| Access::Read { offset, value };
    // The kernel values assume the masks read back 0: a read of each mask, then two writes.
    assert_eq!(
        trace,
        [
            r(0x3a010, 0),
            w(want[0].0, want[0].1),
            w(want[1].0, want[1].1),
            r(0x3a050, 0),
            w(want[2].0, want[2].1),
            w(want[3].0, want[3].1),
        ]
    );
}

#[test]
fn ring_id_masking_copies_the_new_mask_into_the_abort_mask() {
    let unit = Unit::new();
    unit.preset(SECONDARY_BASE_IN_UNIT + 0x10, 0xf000_0000); // after the TX bring-up
    unit.preset(SECONDARY_BASE_IN_UNIT + 0x50, 0x0000_10f8); // after the RX bring-up
    unit.preset(SECONDARY_BASE_IN_UNIT + 0x30, 0xdead_beef); // replaced, never read
    udma::mask_ring_id_errors(&unit.window(GEN_BASE_IN_UNIT));
    assert_eq!(
        unit.writes(),
        [
            (0x3a010, 0xf002_0000),
            (0x3a030, 0xf002_0000),
            (0x3a050, 0x0000_18f8),
            (0x3a070, 0x0000_18f8),
        ]
    );
}

#[test]
fn external_ring_id_masking_uses_its_own_window() {
    let want: Vec<(usize, u32)> = write_steps("ring_id_mask_write")
        .into_iter()
        .filter_map(|(p, v, _)| match p {
            Place::Ext(o) => Some((o, v)),
            Place::Unit(_) => None,
        })
        .collect();
    assert_eq!(want.len(), 2);
    // The external controller is somewhere else entirely: its own window, here at 1 MiB.
    let ext: FakeRegs<8, 8> = FakeRegs::new();
    udma::mask_ring_id_errors_external(&ext.window(0x10_0000));
    let got: Vec<(usize, u32)> = ext
        .writes()
        .iter()
        .map(|&(o, v)| (o - 0x10_0000, v))
        .collect();
    assert_eq!(got, want);
    assert_eq!(got, [(0x90, 0x800), (0xd0, 0x4)]);
}

#[test]
fn err_log_steps_are_left_to_khal_with_the_right_bits() {
    let log: Vec<(Place, u32)> = write_steps("ring_id_mask_write")
        .into_iter()
        .filter(|(_, _, what)| what.ends_with("err_log_mask"))
        .map(|(p, v, _)| (p, v))
        .collect();
    assert_eq!(
        log,
        [
            (Place::Unit(0x0020c), udma::M2S_ERR_LOG_RING_ID),
            (Place::Unit(0x2020c), udma::S2M_ERR_LOG_RING_ID)
        ]
    );
}

/// The net state after both bring-ups, on the behavioural model, against `net_after_init`.
fn net_state<A: IoficCaps>() -> Vec<(&'static str, GroupState)> {
    let unit = Model::default();
    let gen_block = unit.window(GEN_BASE_IN_UNIT);
    udma::m2s_bring_up::<A, _>(&gen_block);
    udma::s2m_bring_up::<A, _>(&gen_block);
    assert!(unit.reads.borrow().is_empty());
    [
        ("secondary.A", 0x3a000),
        ("secondary.B", 0x3a040),
        ("secondary.C", 0x3a080),
        ("primary.D", 0x380c0),
    ]
    .into_iter()
    .map(|(n, base)| (n, unit.group(base)))
    .collect()
}

#[test]
fn net_state_after_init_matches_the_table_for_v4_and_v2() {
    let table = section("net_after_init");
    for state in [net_state::<V4>(), net_state::<V2>()] {
        for (name, g) in &state {
            let r = table.iter().find(|r| r.item == *name).unwrap();
            let mut fields = r.value.split_whitespace();
            let unmasked = fields.next().unwrap().strip_prefix("unmasked=").unwrap();
            assert_eq!(!g.mask, hex32(unmasked), "{name} unmasked");
            let aborting = fields
                .next()
                .unwrap()
                .strip_prefix("abort_enabled=")
                .unwrap();
            if aborting == "-" {
                assert_eq!(g.abort_mask, 0xffff_ffff, "{name}: abort mask untouched");
            } else {
                assert_eq!(!g.abort_mask, hex32(aborting), "{name} aborting");
            }
            // Secondary C's control is never written by either bring-up.
            let control = if *name == "secondary.C" { 0 } else { 0x28 };
            assert_eq!(g.control, control, "{name} control");
        }
    }
}

#[test]
fn net_state_after_init_for_v3() {
    let state = net_state::<Rev3Engine>();
    let get = |n: &str| state.iter().find(|(m, _)| *m == n).unwrap().1;
    assert_eq!(!get("secondary.A").mask, 0x0fff_ffff);
    assert_eq!(!get("secondary.B").mask, 0x7fff_e007);
    assert_eq!(!get("secondary.B").abort_mask, 0x7fff_e007);
    assert_eq!(!get("secondary.C").mask, 0xfff);
    assert_eq!(!get("secondary.C").abort_mask, 0xfc0);
    // TX lifts only secondary A's summary on Rev3Engine; RX lifts B and C's.
    assert_eq!(!get("primary.D").mask, 0x100 | 0x600);
}
