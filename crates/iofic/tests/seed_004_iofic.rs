//! Seed 004 §4, the userspace IOFIC twin (`al_hal_iofic.c`, `al_hal_udma_iofic.c`): each
//! test is named after the section and function it pins and asserts the exact writes.

use iofic::layout::{ABORT_MASK, CAUSE, CONTROL, GROUP_STRIDE, MASK, MASK_CLEAR};
use iofic::{Control, Group, Level, secondary_summary_bits};
use mmio::{FakeRegs, Window};

type Regs = FakeRegs<16, 32>;

#[test]
fn s4_group_window_is_0x40_with_cause_mask_mask_clear_control() {
    // "per-group 0x40-byte register window (cause@+0x00, mask@+0x10, mask_clear@+0x18,
    // control@+0x28)", indexed ctrl[group] with stride group << 6.
    assert_eq!(GROUP_STRIDE, 1 << 6);
    assert_eq!((CAUSE, MASK, MASK_CLEAR, CONTROL), (0x00, 0x10, 0x18, 0x28));
}

#[test]
fn s4_al_iofic_config_writes_posedge_and_mask_msi_x_to_control() {
    // "SET_ON_POSEDGE(bit3)|MASK_MSI_X(bit5) = 0x28" to ctrl[group].int_control (+0x28).
    let regs = Regs::new();
    let g2 = Group::<_, u32>::new(Window::new(&regs, 2 * GROUP_STRIDE));
    g2.configure(Control::PROGRAMMED);
    assert_eq!(regs.writes().as_slice(), [(0x80 + 0x28, 0x28)]);
}

#[test]
fn s4_al_iofic_unmask_writes_the_complement_to_mask_clear() {
    // "al_reg_write32(&regs->ctrl[group].int_mask_clear(@+0x18), ~bits)".
    let regs = Regs::new();
    Group::<_, u32>::new(&regs).unmask(0x0000_0100);
    assert_eq!(regs.writes().as_slice(), [(0x18, !0x0000_0100)]);
}

#[test]
fn s4_al_iofic_clear_cause_writes_the_complement_to_cause() {
    // "al_reg_write32(&regs->ctrl[group].int_cause(@+0x00), ~bits)".
    let regs = Regs::new();
    Group::<_, u32>::new(&regs).clear(0x8000_0001);
    assert_eq!(regs.writes().as_slice(), [(0x00, 0x7fff_fffe)]);
}

#[test]
fn s4_al_udma_iofic_error_ints_unmask_one_config_abort_clear_unmask_on_group_0() {
    // "al_iofic_config(iofic_ctrl, 0, POSEDGE | MASK_MSI_X); al_iofic_abort_mask_clear(.., 0,
    // bit); al_iofic_unmask(.., 0, bit)", called with bit = 0xFFFFFFFF by set_axi_error_abort.
    let regs = Regs::new();
    iofic::udma::enable_group_errors(&Group::new(&regs), Control::PROGRAMMED, 0xffff_ffff_u32);
    assert_eq!(
        regs.writes().as_slice(),
        [(CONTROL, 0x28), (ABORT_MASK, 0), (MASK_CLEAR, 0)]
    );
}

#[test]
fn s4_al_iofic_handle_init_reads_the_rev_from_control_bits_29_28() {
    // "derives the rev from (reg[+0x28] >> 28) & 3".
    for (word, rev) in [
        (0x0000_0028, 0),
        (0x1000_0000, 1),
        (0x2000_0028, 2),
        (0xf000_0000, 3),
    ] {
        assert_eq!(Control::from_bits(word).revision().get(), rev);
        let regs = Regs::new();
        regs.preset(CONTROL, word);
        let level = Level::new(&regs, 4).unwrap();
        assert_eq!(level.revision().get(), rev);
    }
}

#[test]
fn s4_al_udma_iofic_sec_level_int_get_tables_are_rev_keyed() {
    // .rodata 0x855060 (rev <= 3) {0x100, 0x200, 0, 0}; 0x855070 (rev > 3)
    // {0x100, 0x200, 0x400, 0x800}.
    assert_eq!(
        secondary_summary_bits(3).unwrap().map(|b| b.bits()),
        [0x100, 0x200, 0, 0]
    );
    assert_eq!(
        secondary_summary_bits(4).unwrap().map(|b| b.bits()),
        [0x100, 0x200, 0x400, 0x800]
    );
}

#[test]
fn s4_error_ints_unmask_masks_are_keyed_on_the_udma_revision() {
    // "grp3 final unmask 256(v3)/1280(v4)"; "mask 0x7FFFE007(v3)/0xFFFFEF07(v4)".
    use iofic::error_masks as m;
    assert_eq!(
        (
            m::M2S_PRIMARY_D_UNMASK_UP_TO_REV3,
            m::M2S_PRIMARY_D_UNMASK_REV4
        ),
        (256, 1280)
    );
    assert_eq!(
        (m::S2M_ERROR_MASK_UP_TO_REV3, m::S2M_ERROR_MASK_REV4),
        (0x7FFF_E007, 0xFFFF_EF07)
    );
}
