//! The register map, cause names and policy masks, checked against reference/iofic.tsv.

mod common;

use common::{Rev3Engine, V2, V4, hex32, hexu, row, rows, section};
use iofic::caps::IoficCaps;
use iofic::layout::*;
use iofic::{Control, M2sCause, ParityCause, PrimaryDSummary, S2mCause, udma};

#[test]
fn group_window_matches_the_table() {
    let fields = section("group_field");
    assert_eq!(
        fields.len(),
        GroupReg::ALL.len(),
        "every register is modelled"
    );
    for r in &fields {
        let reg = GroupReg::ALL
            .iter()
            .copied()
            .find(|g| g.name() == r.item)
            .unwrap_or_else(|| panic!("no GroupReg for {}", r.item));
        assert_eq!(reg.offset(), hexu(&r.offset), "{}", r.item);
        assert_eq!(GroupReg::from_offset(reg.offset()), Some(reg));
    }
    let named = [
        ("int_cause_grp", CAUSE),
        ("int_cause_set_grp", CAUSE_SET),
        ("int_mask_grp", MASK),
        ("int_mask_clear_grp", MASK_CLEAR),
        ("int_status_grp", STATUS),
        ("int_control_grp", CONTROL),
        ("int_abort_msk_grp", ABORT_MASK),
    ];
    for (name, off) in named {
        assert_eq!(hexu(&row("group_field", name).offset), off, "{name}");
    }
}

#[test]
fn typed_registers_agree_with_the_offsets() {
    use iofic::regs::*;
    use mmio::Register;
    assert_eq!((IntCause::OFFSET, IntCause::NAME), (CAUSE, "int_cause_grp"));
    assert_eq!(IntCauseSet::OFFSET, CAUSE_SET);
    assert_eq!(IntMask::OFFSET, MASK);
    assert_eq!(IntMaskClear::OFFSET, MASK_CLEAR);
    assert_eq!(IntStatus::OFFSET, STATUS);
    assert_eq!(
        (IntControl::OFFSET, IntControl::NAME),
        (CONTROL, "int_control_grp")
    );
    assert_eq!(
        (IntAbortMask::OFFSET, IntAbortMask::NAME),
        (ABORT_MASK, "int_abort_msk_grp")
    );
}

#[test]
fn layout_rows_match() {
    assert_eq!(hexu(&row("layout", "group_stride").offset), GROUP_STRIDE);
    let win = row("layout", "primary_window_size");
    assert_eq!(hexu(&win.offset), LEVEL_WINDOW_SIZE);
    assert_eq!(win.value.parse::<usize>().unwrap(), MAX_GROUPS);
    assert_eq!(
        row("layout", "primary_groups_valid")
            .value
            .parse::<usize>()
            .unwrap(),
        PRIMARY_GROUPS
    );
    assert_eq!(
        row("layout", "secondary_groups_valid")
            .value
            .parse::<usize>()
            .unwrap(),
        SECONDARY_GROUPS_REV4
    );
    assert_eq!(
        hexu(&row("layout", "primary_base_in_gen").offset),
        PRIMARY_BASE_IN_GEN
    );
    assert_eq!(
        hexu(&row("layout", "secondary_base_in_gen").offset),
        SECONDARY_BASE_IN_GEN
    );
    assert_eq!(
        hexu(&row("layout", "primary_base_abs").offset),
        PRIMARY_BASE_IN_UNIT
    );
    assert_eq!(
        hexu(&row("layout", "secondary_base_abs").offset),
        SECONDARY_BASE_IN_UNIT
    );
}

#[test]
fn level_rows_match_group_bases() {
    for r in section("level") {
        let (_, letter) = r.item.split_once('.').unwrap();
        let index = usize::from(letter.as_bytes()[0] - b'A');
        assert_eq!(group_base(index), hexu(&r.offset), "{}", r.item);
    }
    assert_eq!((GROUP_A, GROUP_B, GROUP_C, GROUP_D), (0, 1, 2, 3));
}

#[test]
fn axi_error_controllers_match() {
    let rows = section("axi_error_iofic");
    assert_eq!(rows.len(), 7);
    let (msix, used) = rows.split_last().unwrap();
    assert_eq!(msix.item, "iofic_base_msix");
    assert_eq!(hexu(&msix.offset), AXI_ERROR_MSIX_IN_GEN);
    let from_table: Vec<usize> = used.iter().map(|r| hexu(&r.offset)).collect();
    assert_eq!(from_table, AXI_ERROR_IN_GEN);
    let names = [
        ("iofic_base_m2s_desc_rd", AXI_ERROR_M2S_DESC_RD_IN_GEN),
        ("iofic_base_m2s_data_rd", AXI_ERROR_M2S_DATA_RD_IN_GEN),
        ("iofic_base_m2s_cmpl_wr", AXI_ERROR_M2S_CMPL_WR_IN_GEN),
        ("iofic_base_s2m_desc_rd", AXI_ERROR_S2M_DESC_RD_IN_GEN),
        ("iofic_base_s2m_data_wr", AXI_ERROR_S2M_DATA_WR_IN_GEN),
        ("iofic_base_s2m_cmpl_wr", AXI_ERROR_S2M_CMPL_WR_IN_GEN),
    ];
    for (name, off) in names {
        assert_eq!(hexu(&row("axi_error_iofic", name).offset), off, "{name}");
    }
}

#[test]
fn locate_inverts_group_base_plus_register() {
    for g in 0..MAX_GROUPS {
        for reg in GroupReg::ALL {
            assert_eq!(locate(group_base(g) + reg.offset()), Some((g, reg)));
        }
        for hole in [0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c, 0x34, 0x38, 0x3c] {
            assert_eq!(locate(group_base(g) + hole), None);
        }
    }
    assert_eq!(locate(LEVEL_WINDOW_SIZE), None);
}

#[test]
fn control_flags_match() {
    let c = |name: &str, sec: &str| {
        let r = row(sec, name);
        assert_eq!(hexu(&r.offset), CONTROL);
        hex32(&r.value)
    };
    let word = |f: fn(Control) -> Control| f(Control::new()).into_bits();
    assert_eq!(
        word(|c| c.with_set_on_posedge(true)),
        c("SET_ON_POSEDGE", "control_flag")
    );
    assert_eq!(
        word(|c| c.with_mask_msi_x(true)),
        c("MASK_MSI_X", "control_flag")
    );
    assert_eq!(
        word(|c| c.with_clear_on_read(true)),
        c("CLEAR_ON_READ", "control_flag_external")
    );
    assert_eq!(
        word(|c| c.with_auto_mask(true)),
        c("AUTO_MASK", "control_flag_external")
    );
    assert_eq!(
        word(|c| c.with_auto_clear(true)),
        c("AUTO_CLEAR", "control_flag_external")
    );
    assert_eq!(
        Control::PROGRAMMED.into_bits(),
        hex32(&row("control_flag", "PROGRAMMED_VALUE").value)
    );
}

#[test]
fn control_revision_is_bits_29_28_and_reserved_bits_survive() {
    for rev in 0..4u32 {
        let raw = (rev << 28) | 0xc000_0010 | 0x0fff_ffc0;
        let c = Control::from_bits(raw);
        assert_eq!(u32::from(c.revision().get()), rev);
        assert_eq!(c.into_bits(), raw, "read-back value is kept whole");
        assert!(!c.set_on_posedge() && !c.mask_msi_x());
    }
}

/// Checks a cause type against one `cause_bit.*` section, both ways: every row is a named
/// constant of that value, and every named constant is a row.
fn check_causes(sec: &str, named: &[(&str, u32)]) {
    let rows = section(sec);
    assert_eq!(rows.len(), named.len(), "{sec}: same number of names");
    for r in &rows {
        let bit: u32 = r.bit.parse().unwrap();
        assert_eq!(hex32(&r.value), 1 << bit, "{sec}/{}", r.item);
        let (_, v) = named
            .iter()
            .find(|(n, _)| *n == r.item)
            .unwrap_or_else(|| panic!("{sec}: {} not named", r.item));
        assert_eq!(*v, hex32(&r.value), "{sec}/{}", r.item);
    }
}

#[test]
fn cause_names_match_the_table() {
    let m2s: Vec<(&str, u32)> = M2sCause::NAMED
        .iter()
        .map(|(n, f)| (*n, f.bits()))
        .collect();
    check_causes("cause_bit.secondary.A", &m2s);
    let s2m: Vec<(&str, u32)> = S2mCause::NAMED
        .iter()
        .map(|(n, f)| (*n, f.bits()))
        .collect();
    check_causes("cause_bit.secondary.B", &s2m);
    let par: Vec<(&str, u32)> = ParityCause::NAMED
        .iter()
        .map(|(n, f)| (*n, f.bits()))
        .collect();
    check_causes("cause_bit.secondary.C", &par);
    // primary_D_bit names bits 8..10; bit 11 comes from seed 004 §4.
    let d: Vec<(&str, u32)> = PrimaryDSummary::NAMED
        .iter()
        .filter(|(n, _)| *n != "GROUP_D_2ND_IOFIC_GROUP_D")
        .map(|(n, f)| (*n, f.bits()))
        .collect();
    check_causes("primary_D_bit", &d);
    assert_eq!(PrimaryDSummary::GROUP_D_2ND_IOFIC_GROUP_D.bits(), 0x800);
    assert_eq!(
        M2sCause::from_name("PREFETCH_RING_ID"),
        Some(M2sCause::PREFETCH_RING_ID)
    );
    assert_eq!(S2mCause::from_name("NOPE"), None);
}

#[test]
fn debug_prints_names_and_leftover_bits() {
    assert_eq!(format!("{:?}", M2sCause::empty()), "M2sCause(0x0)");
    assert_eq!(
        format!("{:?}", M2sCause::PREFETCH_RING_ID | M2sCause::STRM_TO),
        "M2sCause(STRM_TO | PREFETCH_RING_ID)"
    );
    assert_eq!(
        format!("{:?}", S2mCause::from_bits_retain(0x0000_0018)),
        "S2mCause(0x18)"
    );
    assert_eq!(
        format!("{:?}", ParityCause::from_bits_retain(0x1041)),
        "ParityCause(M2S_DATA_FTCH_AXI_CMD_PARITY | S2M_DATA_WR_AXI_DATA_PARITY | 0x1000)"
    );
}

#[test]
fn policy_masks_match_defaults_and_arch_values() {
    let m = |name: &str| hex32(&row("policy_mask", name).value);
    // Defaults shared by every arch are the kernel's.
    assert_eq!(V4::M2S_ERROR_MASK, m("SEC_A_M2S_ERRORS"));
    assert_eq!(V4::M2S_PARITY_MASK, m("SEC_C_M2S_ERRORS"));
    assert_eq!(V4::S2M_PARITY_MASK, m("SEC_C_S2M_ERRORS"));
    assert_eq!(V4::S2M_PRIMARY_D_UNMASK, m("PRI_D_S2M"));
    assert_eq!(ParityCause::M2S.bits(), m("SEC_C_M2S_ERRORS"));
    assert_eq!(ParityCause::S2M.bits(), m("SEC_C_S2M_ERRORS"));
    // Revision 4 (V2, V4; also V3) takes the kernel values; a revision-3 engine the seed's
    // "(v3)" values (seed 004 §4: 256, 0x7FFFE007).
    assert_eq!(
        (
            iofic::error_masks::M2S_PRIMARY_D_UNMASK_REV4,
            iofic::error_masks::S2M_ERROR_MASK_REV4
        ),
        (m("PRI_D_M2S"), m("SEC_B_S2M_ERRORS_V4"))
    );
    for (d, s2m) in [
        (V4::M2S_PRIMARY_D_UNMASK, V4::S2M_ERROR_MASK),
        (V2::M2S_PRIMARY_D_UNMASK, V2::S2M_ERROR_MASK),
    ] {
        assert_eq!(d, m("PRI_D_M2S"));
        assert_eq!(s2m, m("SEC_B_S2M_ERRORS_V4"));
    }
    assert_eq!(
        (Rev3Engine::M2S_PRIMARY_D_UNMASK, Rev3Engine::S2M_ERROR_MASK),
        (256, 0x7fff_e007)
    );
    // The kernel's older RX set (iofic.tsv row `SEC_B_S2M_ERRORS_BASE`, "RX error causes
    // (older set)") is kept beside the seed's "(v3)" value; they differ in bits 11:8, and
    // the kernel's revision-4 set is the older one plus bit 31.
    assert_eq!(
        iofic::error_masks::S2M_ERROR_MASK_KERNEL_BASE,
        m("SEC_B_S2M_ERRORS_BASE")
    );
    assert_eq!(
        iofic::error_masks::S2M_ERROR_MASK_KERNEL_BASE | 1 << 31,
        m("SEC_B_S2M_ERRORS_V4")
    );
    assert_ne!(
        iofic::error_masks::S2M_ERROR_MASK_KERNEL_BASE,
        iofic::error_masks::S2M_ERROR_MASK_UP_TO_REV3
    );
    assert_eq!(udma::AXI_ERROR_ALL, m("AXI_ERROR_IOFIC_ALL"));
    assert_eq!(udma::M2S_ERR_LOG_RING_ID, m("M2S_ERR_LOG_PREF_RING_ID"));
    assert_eq!(udma::S2M_ERR_LOG_RING_ID, m("S2M_ERR_LOG_PREF_RING_ID"));
    assert_eq!(udma::EXT_M2S_RING_ID, m("EXT_GRP2_M2S_PREF_RING_ID"));
    assert_eq!(udma::EXT_S2M_RING_ID, m("EXT_GRP3_S2M_PREF_RING_ID"));
    assert_eq!(
        row("policy_mask", "EXT_GRP2_M2S_PREF_RING_ID").offset,
        format!("group {} +0x10", udma::EXT_M2S_RING_ID_GROUP)
    );
    assert_eq!(
        row("policy_mask", "EXT_GRP3_S2M_PREF_RING_ID").offset,
        format!("group {} +0x10", udma::EXT_S2M_RING_ID_GROUP)
    );
}

#[test]
fn err_log_mask_bits_match_the_bitfield_table() {
    let tsv = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/udma-bitfields.tsv"
    ));
    let value = |reg: &str| {
        let line = tsv
            .lines()
            .find(|l| l.starts_with(&format!("{reg}\tPREF_RING_ID\t")))
            .unwrap_or_else(|| panic!("{reg} PREF_RING_ID missing"));
        hex32(line.split('\t').nth(4).unwrap())
    };
    assert_eq!(udma::M2S_ERR_LOG_RING_ID, value("m2s.err_log_mask"));
    assert_eq!(udma::S2M_ERR_LOG_RING_ID, value("s2m.err_log_mask"));
}

#[test]
fn table_parses_whole() {
    // reference/iofic.tsv: 160 rows under the header, each of six fields (checked by rows).
    assert_eq!(rows().len(), 160);
}
