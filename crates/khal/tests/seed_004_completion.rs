//! Seed 004 §2, the completion setters it names without registers (RX completion
//! coalescing and its timer, header split, `s2m_q_comp_get`, the completion-write burst) and
//! `al_udma_iofic_unmask_ext_app`: registers, fields and procedures from the ancestor HAL,
//! each test pinned to its `reference/al-hal/facts.tsv` row (`e`).

mod common;

use common::{Regs, al_hal};
use khal::udma::{S2mQueueComp, Udma, UdmaError};
use khal_mariana::Mariana;
use udma_desc::QueueId;

fn q(n: u32) -> QueueId {
    QueueId::new(n).unwrap()
}

/// RX queue 2's block: S2M `0x20000` + `0x1000` + 2 * `0x1000` (al-hal `f`, the S2M queue
/// block at S2M+0x1000+q*0x1000).
const RXQ2: usize = 0x2_3000;

#[test]
fn s2_s2m_q_compl_coal_config_flips_comp_cfg_bit1_then_writes_the_timer() {
    let cfg = al_hal("e", "S2M queue comp_cfg (+0x54)");
    assert_eq!(cfg.value, "0x1 / 0x2 / 0x4 / 0x8");
    assert!(
        al_hal("e", "S2M queue comp_cfg_2 (+0x58)")
            .fact
            .contains("SB (south-bridge)")
    );
    let proc_ = al_hal("e", "al_udma_s2m_q_compl_coal_config(enable, timeout)");
    assert!(
        proc_
            .fact
            .contains("enable clears comp_cfg bit1, disable sets it")
    );
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 4, Some(4)).unwrap();
    regs.preset(RXQ2 + 0x54, 0x1);
    e.s2m_q_compl_coal_config(q(2), false, 500).unwrap();
    e.s2m_q_compl_coal_config(q(2), true, 7).unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [
            (RXQ2 + 0x54, 0x3),
            (RXQ2 + 0x58, 500),
            (RXQ2 + 0x54, 0x1),
            (RXQ2 + 0x58, 7)
        ]
    );
    assert_eq!(
        e.s2m_q_compl_coal_config(q(4), true, 0),
        Err(UdmaError::QueueNotConfigured { queue: 4, count: 4 })
    );
}

#[test]
fn s2_s2m_q_compl_hdr_split_config_clears_then_sets_size_force_enable() {
    let row = al_hal("e", "header split: S2M queue pkt_cfg (+0x5C)");
    assert_eq!(row.value, "0x0000FFFF / 0x10000 / 0x20000");
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 4, Some(4)).unwrap();
    regs.preset(RXQ2 + 0x5c, 0xC001_0040);
    e.s2m_q_compl_hdr_split_config(q(2), true, false, 0x80)
        .unwrap();
    e.s2m_q_compl_hdr_split_config(q(2), false, true, 0x80)
        .unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [(RXQ2 + 0x5c, 0xC002_0080), (RXQ2 + 0x5c, 0xC000_0000)]
    );
}

#[test]
fn s2_s2m_q_comp_get_reads_comp_cfg_timer_pkt_cfg_and_qos() {
    let row = al_hal("e", "al_udma_s2m_q_comp_get reads");
    assert_eq!(row.confidence, "matches seed exactly");
    assert!(
        al_hal("e", "S2M queue qos_cfg (+0x60)")
            .fact
            .contains("QoS [7:0]")
    );
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 4, Some(4)).unwrap();
    regs.preset(RXQ2 + 0x54, 0x3);
    regs.preset(RXQ2 + 0x58, 1234);
    regs.preset(RXQ2 + 0x5c, 0x0003_0020);
    regs.preset(RXQ2 + 0x60, 0x1_05);
    assert_eq!(
        e.s2m_q_comp_get(q(2)).unwrap(),
        S2mQueueComp {
            ring_update: true,
            coalescing: false,
            coal_timer: 1234,
            hdr_split: true,
            force_hdr_split: true,
            hdr_size: 0x20,
            q_qos: 5,
        }
    );
}

#[test]
fn s2_s2m_compl_desc_burst_config_writes_beats_to_min_and_max() {
    let row = al_hal("e", "completion-descriptor write burst");
    assert_eq!(row.value, "4 / 8 / 16 beats");
    assert!(row.fact.contains("S2M+0x120"));
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 4, Some(4)).unwrap();
    regs.preset(0x2_0120, 0xFF00_FF00);
    for (bytes, beats) in [(64, 4), (128, 8), (256, 16)] {
        e.s2m_compl_desc_burst_config(bytes).unwrap();
        assert_eq!(
            regs.writes().last(),
            Some(&(0x2_0120, 0xFF00_FF00 | (beats << 16) | beats))
        );
    }
    let before = regs.writes().len();
    assert_eq!(
        e.s2m_compl_desc_burst_config(32),
        Err(UdmaError::BadCompDescBurst { bytes: 32 })
    );
    assert_eq!(regs.writes().len(), before, "nothing written");
}

#[test]
fn s2_iofic_unmask_ext_app_clears_then_unmasks_primary_d_bit() {
    let bit = al_hal("e", "external-application interrupt bit");
    assert_eq!(bit.value, "0x2000 (rev 4) / 0x800");
    let proc_ = al_hal("e", "al_udma_iofic_unmask_ext_app(clear)");
    assert!(
        proc_
            .fact
            .contains("primary group D is gen+0xC0 (unit+0x380C0)")
    );
    // Primary group D: unit 0x380C0; cause +0x00, mask-clear +0x18 (complement writes).
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 4, Some(4)).unwrap();
    e.unmask_ext_app(true).unwrap();
    e.unmask_ext_app(false).unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [(0x380C0, !0x2000), (0x380D8, !0x2000), (0x380D8, !0x2000)]
    );
    // Below revision 4, bit 11, on a window at a gen block (primary D at gen + 0xC0).
    let gen3 = Regs::new();
    iofic::unmask_ext_app(&gen3, 3, false).unwrap();
    assert_eq!(gen3.writes().as_slice(), [(0xD8, !0x800)]);
    assert_eq!(
        iofic::unmask_ext_app(&gen3, 5, true),
        Err(iofic::Error::UnknownUdmaRevision {
            rev: 5,
            newest_known: 4
        })
    );
    assert_eq!(gen3.writes().len(), 1, "an unknown revision writes nothing");
}
