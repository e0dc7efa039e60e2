//! Each primitive against the recording fake: the exact (offset, value) trace.

use iofic::layout::{GROUP_STRIDE, MAX_GROUPS, SECONDARY_BASE_IN_GEN};
use iofic::{Control, Error, Group, Level, M2sCause, ParityCause, S2mCause};
use mmio::{Access, FakeRegs, MmioExt};

type Fake = FakeRegs<32, 64>;

fn r(offset: usize, value: u32) -> Access {
    Access::Read { offset, value }
}
fn w(offset: usize, value: u32) -> Access {
    Access::Write { offset, value }
}

/// A group at +0x100 inside the fake, so a wrong base shows in the trace.
const BASE: usize = 0x100;

fn group(regs: &Fake) -> Group<mmio::Window<&Fake>, M2sCause> {
    Group::new(regs.window(BASE)).with_causes()
}

#[test]
fn configure_writes_control_once() {
    let regs = Fake::new();
    group(&regs).configure(Control::PROGRAMMED);
    group(&regs).configure(Control::new().with_clear_on_read(true).with_auto_mask(true));
    assert_eq!(regs.trace(), [w(0x128, 0x28), w(0x128, 0x3)]);
}

#[test]
fn control_reads_once_and_decodes() {
    let regs = Fake::new();
    regs.preset(0x128, 0x3000_0028);
    let c = group(&regs).control();
    assert!(c.set_on_posedge() && c.mask_msi_x() && !c.auto_clear());
    assert_eq!(c.revision().get(), 3);
    assert_eq!(regs.trace(), [r(0x128, 0x3000_0028)]);
}

#[test]
fn unmask_writes_the_complement_to_mask_clear() {
    let regs = Fake::new();
    group(&regs).unmask(M2sCause::PREFETCH_RING_ID | M2sCause::STRM_COMPL_MISMATCH);
    group(&regs).unmask(M2sCause::empty());
    assert_eq!(regs.trace(), [w(0x118, 0xfffd_fffe), w(0x118, 0xffff_ffff)]);
}

#[test]
fn mask_is_a_read_modify_write_of_the_mask() {
    let regs = Fake::new();
    regs.preset(0x110, 0xf000_0000);
    let now = group(&regs).mask(M2sCause::PKT_LEN);
    assert_eq!(now.bits(), 0xf000_2000);
    assert_eq!(regs.trace(), [r(0x110, 0xf000_0000), w(0x110, 0xf000_2000)]);
}

#[test]
fn set_mask_and_masked_are_plain() {
    let regs = Fake::new();
    group(&regs).set_mask(M2sCause::MSIX_TO);
    assert_eq!(group(&regs).masked(), M2sCause::MSIX_TO);
    assert_eq!(regs.trace(), [w(0x110, 0x0400_0000), r(0x110, 0x0400_0000)]);
}

#[test]
fn clear_writes_the_complement_to_cause() {
    let regs = Fake::new();
    group(&regs).clear(M2sCause::DATA_AXI_TO | M2sCause::MSIX_RESP);
    assert_eq!(regs.trace(), [w(0x100, !0x0800_0200)]);
}

#[test]
fn cause_and_status_read_once() {
    let regs = Fake::new();
    regs.preset(0x100, 0x0002_0001);
    regs.preset(0x120, 0x0000_0001);
    let g = group(&regs);
    assert_eq!(
        g.cause(),
        M2sCause::PREFETCH_RING_ID | M2sCause::STRM_COMPL_MISMATCH
    );
    assert_eq!(g.status(), M2sCause::STRM_COMPL_MISMATCH);
    assert_eq!(regs.trace(), [r(0x100, 0x0002_0001), r(0x120, 0x1)]);
}

#[test]
fn raise_writes_the_bits_to_cause_set() {
    let regs = Fake::new();
    group(&regs).raise(M2sCause::STRM_TO);
    assert_eq!(regs.trace(), [w(0x108, 0x8)]);
}

#[test]
fn abort_exactly_replaces_the_abort_mask_with_the_complement() {
    let regs = Fake::new();
    regs.preset(0x130, 0x1234_5678);
    group(&regs).abort_exactly(M2sCause::from_bits_retain(0x0fff_ffff));
    assert_eq!(
        regs.trace(),
        [w(0x130, 0xf000_0000)],
        "no read: the register is replaced"
    );
}

#[test]
fn aborting_decodes_the_abort_mask() {
    let regs = Fake::new();
    regs.preset(0x130, 0xffff_fff0);
    assert_eq!(group(&regs).aborting().bits(), 0xf);
    assert_eq!(regs.trace(), [r(0x130, 0xffff_fff0)]);
}

#[test]
fn enable_abort_clears_abort_mask_bits() {
    let regs = Fake::new();
    regs.preset(0x130, 0xffff_fff0);
    let now = group(&regs).enable_abort(M2sCause::COMP_AXI_PARITY);
    assert_eq!(now.bits(), 0x1f);
    assert_eq!(regs.trace(), [r(0x130, 0xffff_fff0), w(0x130, 0xffff_ffe0)]);
}

#[test]
fn disable_abort_sets_abort_mask_bits() {
    let regs = Fake::new();
    regs.preset(0x130, 0xffff_fff0);
    let now = group(&regs).disable_abort(M2sCause::STRM_PARITY);
    assert_eq!(now.bits(), 0xd);
    assert_eq!(regs.trace(), [r(0x130, 0xffff_fff0), w(0x130, 0xffff_fff2)]);
}

#[test]
fn untyped_groups_speak_u32() {
    let regs = Fake::new();
    let g = Group::new(&regs);
    g.unmask(0x500);
    g.clear(0x1);
    assert_eq!(regs.writes(), [(0x18, 0xffff_faff), (0x0, 0xffff_fffe)]);
}

#[test]
fn level_reads_revision_from_group_a_control_bits_29_28() {
    let regs = Fake::new();
    regs.preset(0x28, 0x2000_0028);
    regs.preset(0x68, 0x1000_0000); // group B: must not be the one read
    let level = Level::new(&regs, 4).unwrap();
    assert_eq!(level.revision().get(), 2);
    assert_eq!(level.groups(), 4);
    assert_eq!(regs.trace(), [r(0x28, 0x2000_0028)]);
}

#[test]
fn level_group_count_is_checked() {
    let regs = Fake::new();
    assert_eq!(
        Level::new(&regs, 0).err().unwrap(),
        Error::GroupCount {
            requested: 0,
            max: 16
        }
    );
    assert_eq!(
        Level::new(&regs, MAX_GROUPS + 1).err().unwrap(),
        Error::GroupCount {
            requested: 17,
            max: 16
        }
    );
    assert!(regs.trace().is_empty(), "a rejected level touches nothing");
    assert!(Level::new(&regs, MAX_GROUPS).is_ok());
}

#[test]
fn level_groups_are_stride_apart_and_index_checked() {
    let regs = Fake::new();
    let level = Level::new(regs.window(0x400), 3).unwrap();
    regs.clear_trace();
    for i in 0..3 {
        level.group(i).unwrap().unmask(1 << i);
    }
    assert_eq!(
        regs.writes(),
        [
            (0x418, !1),
            (0x418 + GROUP_STRIDE, !2),
            (0x418 + 2 * GROUP_STRIDE, !4)
        ]
    );
    assert_eq!(
        level.group(3).err().unwrap(),
        Error::GroupIndex {
            index: 3,
            groups: 3
        }
    );
}

#[test]
fn primary_and_secondary_levels_sit_in_gen() {
    let gen_block = Fake::new();
    gen_block.preset(SECONDARY_BASE_IN_GEN + 0x28, 0x1000_0000);
    let primary = Level::primary(&gen_block);
    assert_eq!(primary.groups(), 4);
    primary.group(3).unwrap().unmask(0x100);
    let secondary = Level::secondary(&gen_block, 4).unwrap();
    assert_eq!((secondary.groups(), secondary.revision().get()), (3, 1));
    secondary
        .group(2)
        .unwrap()
        .with_causes::<ParityCause>()
        .unmask(ParityCause::S2M);
    assert_eq!(
        gen_block.trace(),
        [
            r(0x28, 0),
            w(0xd8, !0x100),
            r(0x2028, 0x1000_0000),
            w(0x2098, !0xfc0)
        ]
    );
    let old = Level::secondary(&gen_block, 3).unwrap();
    assert_eq!(old.groups(), 2, "group C exists from UDMA revision 4");
    assert!(old.group(2).is_err());
    assert_eq!(
        Level::secondary(&gen_block, 5).err().unwrap(),
        Error::UnknownUdmaRevision {
            rev: 5,
            newest_known: 4
        }
    );
}

#[test]
fn summary_table_by_udma_revision() {
    for rev in 0..=3 {
        let t = iofic::secondary_summary_bits(rev)
            .unwrap()
            .map(|b| b.bits());
        assert_eq!(t, [0x100, 0x200, 0, 0], "rev {rev}");
        assert_eq!(iofic::secondary_groups(rev), Ok(2));
    }
    let t = iofic::secondary_summary_bits(4).unwrap().map(|b| b.bits());
    assert_eq!(t, [0x100, 0x200, 0x400, 0x800]);
    assert_eq!(iofic::secondary_groups(4), Ok(3));
    for rev in 5..=u8::MAX {
        assert_eq!(
            iofic::secondary_summary_bits(rev),
            Err(Error::UnknownUdmaRevision {
                rev,
                newest_known: 4
            })
        );
    }
}

#[test]
fn error_messages_name_the_values() {
    let e = Error::GroupIndex {
        index: 7,
        groups: 3,
    };
    assert_eq!(
        e.to_string(),
        "group 7 does not exist in a level of 3 groups"
    );
    let e = Error::UnknownUdmaRevision {
        rev: 9,
        newest_known: 4,
    };
    assert!(e.to_string().contains('9'));
}

#[test]
fn typed_s2m_group() {
    let regs = Fake::new();
    let g: Group<_, S2mCause> = Group::new(&regs).with_causes();
    g.unmask(S2mCause::from_bits_retain(0xffff_ef07));
    assert_eq!(regs.writes(), [(0x18, 0x0000_10f8)]);
}
