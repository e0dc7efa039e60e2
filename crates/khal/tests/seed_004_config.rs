//! Seed 004 §2, the configuration layer (`al_hal_udma_config.c`): the S2M no-descriptor
//! policy, target-id steering, the Target Translation Table and `al_udma_state_set_wait`.
//! Each test is named after the seed section and function it pins and asserts the exact
//! register trace.

mod common;

use common::{Regs, Rev3Engine, al_hal};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::udma::{TttDefaults, TttEntry, TttField, Udma, UdmaError, UdmaState};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use mmio::{Access, FakeRegs};
use udma_desc::QueueId;

fn q(n: u32) -> QueueId {
    QueueId::new(n).unwrap()
}
fn w(offset: usize, value: u32) -> Access {
    Access::Write { offset, value }
}
fn rd(offset: usize, value: u32) -> Access {
    Access::Read { offset, value }
}

/// S2M common `+0x344`, from the unit base.
const NO_DESC: usize = 0x2_0344;

#[test]
fn s2_s2m_no_desc_cfg_set_register_is_s2m_common_0x344() {
    // "al_reg_read32(udma->s2m_common(@+0x38) + 0x344)"; "s2m = regs_base + 0x20000". The
    // ancestor (al-hal g): s2m_wr.data_cfg_2 at S2M+0x344 (unit+0x20344): s2m_common is the
    // S2M block base.
    use khal::regs::s2m::{NoDescCfg, NoDescCfgReg};
    assert_eq!(<NoDescCfgReg as mmio::Register>::OFFSET, 0x344);
    assert_eq!(NoDescCfgReg::ABS, NO_DESC);
    let row = al_hal("g", "the S2M no-descriptor register is s2m_wr.data_cfg_2");
    assert_eq!(row.value, "S2M+0x344 (unit+0x20344)");
    assert_eq!(row.confidence, "matches seed exactly");
    // Every bit the ancestor names, at its place.
    let bits = al_hal("g", "data_cfg_2 fields");
    assert_eq!(
        bits.value,
        "0x00FFFFFF / 0x08000000 / 0x10000000 / 0x20000000 / 0x40000000 / 0x80000000"
    );
    let one = |f: fn(NoDescCfg) -> NoDescCfg| f(NoDescCfg::new()).into_bits();
    assert_eq!(one(|v| v.with_timeout(0xFF_FFFF)), 0x00FF_FFFF);
    assert_eq!(one(|v| v.with_drop_en(true)), 0x0800_0000);
    assert_eq!(one(|v| v.with_mask(true)), 0x1000_0000);
    assert_eq!(one(|v| v.with_wait_for_prefetch(true)), 0x2000_0000);
    assert_eq!(one(|v| v.with_full_line_write(true)), 0x4000_0000);
    assert_eq!(one(|v| v.with_hdr_in_buf1(true)), 0x8000_0000);
    // The unit of the timeout (ancestor only): south-bridge clock cycles, 0 = wait forever.
    let unit = al_hal("g", "timeout unit");
    assert_eq!(unit.value, "SB clock cycles");
    assert!(unit.fact.contains("0 means wait forever"));
}

#[test]
fn s2_s2m_no_desc_cfg_set_ancestor_procedure_replaces_the_timer_and_clears_bit29() {
    // al-hal g: "drop with timeout 0 -> error -EINVAL, nothing written; drop sets bit27 and
    // clears bit29 ...; gen_interrupt sets or clears bit28; the timer field is replaced ...;
    // write. Then, rev 4 only and drop set: clear bit0 ... of gen dma_misc.bw_bug_fixes"
    // (bw_bug_fixes at unit+0x3A120).
    const BW_BUG_FIXES: usize = 0x3_a120;
    let fixes = al_hal(
        "g",
        "al_udma_s2m_no_desc_cfg_set(drop, gen_interrupt, timeout)",
    );
    assert_eq!(fixes.value, "bw_bug_fixes at gen+0x2120 (unit+0x3A120)");
    assert_eq!(khal::regs::dma_misc::BwBugFixesReg::ABS, BW_BUG_FIXES);
    let regs = Regs::new();
    regs.preset(NO_DESC, 0x2fff_ffff);
    regs.preset(BW_BUG_FIXES, 0x3);
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    assert_eq!(
        e.set_s2m_no_desc_ancestor(true, false, 0),
        Err(UdmaError::NoDescDropWithoutTimeout)
    );
    assert!(regs.trace().is_empty());
    e.set_s2m_no_desc_ancestor(true, false, 0x12).unwrap();
    assert_eq!(
        regs.trace().as_slice(),
        [
            rd(NO_DESC, 0x2fff_ffff),
            // bit 27 set, bits 28 and 29 clear, timer replaced by 0x12.
            w(NO_DESC, 0x0f00_0012),
            rd(BW_BUG_FIXES, 0x3),
            w(BW_BUG_FIXES, 0x2),
        ]
    );
    // Without drop: bit 27 cleared, bit 29 kept, no bug-fix step; timeout 0 waits forever.
    regs.clear_trace();
    regs.preset(NO_DESC, 0x2800_0005);
    e.set_s2m_no_desc_ancestor(false, true, 0).unwrap();
    assert_eq!(regs.writes().as_slice(), [(NO_DESC, 0x3000_0000)]);
}

#[test]
fn s2_s2m_no_desc_cfg_set_clears_bits_27_28_then_ors_drop_mask_and_timeout() {
    // r = (r & ~0x18000000) | (drop_en ? 0x08000000 : 0) | (timeout & 0x00FFFFFF)
    let regs = Regs::new();
    regs.preset(NO_DESC, 0xF0F0_0F0F);
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    e.set_s2m_no_desc(true, false, 0x12_3456).unwrap();
    assert_eq!(
        regs.trace().as_slice(),
        [rd(NO_DESC, 0xF0F0_0F0F), w(NO_DESC, 0xE8F2_3F5F)]
    );
    // Bit 28 ("mask") follows the argument; the old drop bit is cleared.
    let regs = Regs::new();
    regs.preset(NO_DESC, 0x0800_0000);
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    e.set_s2m_no_desc(false, true, 1).unwrap();
    assert_eq!(regs.writes().as_slice(), [(NO_DESC, 0x1000_0001)]);
    assert!(e.s2m_no_desc().mask());
}

#[test]
fn s2_s2m_no_desc_cfg_set_zero_timeout_without_drop_is_refused_or_explicit() {
    // The seed's warning: "setting timeout to 0 will cause the udma to wait forever instead
    // of dropping the packet".
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    assert_eq!(
        e.set_s2m_no_desc(false, false, 0),
        Err(UdmaError::NoDescWaitForever)
    );
    assert_eq!(
        e.set_s2m_no_desc(true, false, 0x100_0000),
        Err(UdmaError::NoDescTimeoutTooWide {
            timeout: 0x100_0000
        })
    );
    assert!(regs.trace().is_empty());
    regs.preset(NO_DESC, 0xffff_ffff);
    e.set_s2m_no_desc_wait_forever(false);
    // Bits 27/28 cleared and the timeout [23:0] really 0, so the engine waits forever;
    // the bits the seed does not name (24..=26, 29..=31) are kept as read.
    assert_eq!(regs.writes().as_slice(), [(NO_DESC, 0xe700_0000)]);
    assert_eq!(e.s2m_no_desc().timeout(), 0);
}

#[test]
fn s2_s2m_no_desc_cfg_set_seed_or_keeps_timeout_but_wait_forever_clears_it() {
    // The seed ORs `timeout & 0x00FFFFFF` into the word read back after clearing only
    // 0x18000000: a second seed-shaped call cannot lower a timeout ...
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    e.set_s2m_no_desc(true, false, 0x00F0_0000).unwrap();
    e.set_s2m_no_desc(true, false, 0x0000_0001).unwrap();
    assert_eq!(e.s2m_no_desc().timeout(), 0x00F0_0001);
    // ... but "setting timeout to 0 will cause the udma to wait forever" must leave 23:0 at
    // 0 after any earlier timeout, or the engine would not wait forever.
    e.set_s2m_no_desc_wait_forever(true);
    let cfg = e.s2m_no_desc();
    assert_eq!(cfg.into_bits() & 0x00FF_FFFF, 0);
    assert!(!cfg.drop_en());
    assert!(cfg.mask());
}

#[test]
fn s2_gen_tgtid_conf_queue_set_adv_v4_writes_the_16_qid_plus_608_block() {
    // "write 16*(qid+608) block" from gen (0x38000): queue 3 at 0x38000 + 0x2630.
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 16, Some(4)).unwrap();
    e.set_tgtid_queue_v4(q(3), [1, 2, 3, 4]);
    assert_eq!(
        regs.writes().as_slice(),
        [(0x3a630, 1), (0x3a634, 2), (0x3a638, 3), (0x3a63c, 4)]
    );
    assert_eq!(khal::regs::tgtid::tgtid_queue_v4(q(0)), 16 * 608);
}

#[test]
fn s2_gen_tgtid_conf_queue_set_adv_v3_writes_gen_0x23ec_for_configured_queues() {
    // "assert(qid < udma->num_of_queues)"; "pack ... into gen+0x23EC".
    let regs = Regs::new();
    let e = Udma::<Rev3Engine, _>::attach(&regs, 4, None).unwrap();
    e.set_tgtid_conf_v3(q(3), 0xabcd_0123).unwrap();
    assert_eq!(regs.writes().as_slice(), [(0x3a3ec, 0xabcd_0123)]);
    assert_eq!(
        e.set_tgtid_conf_v3(q(4), 0),
        Err(UdmaError::QueueNotConfigured { queue: 4, count: 4 })
    );
    assert_eq!(regs.writes().len(), 1);
}

type Tgtid = FakeRegs<16, 64>;

#[test]
fn s2_ttt_en_read_modify_writes_bit0_of_0x800() {
    let regs = Regs::new();
    let tgtid = Tgtid::new();
    let e = Udma::<Mariana, _>::attach(&regs, 16, Some(4)).unwrap();
    tgtid.preset(0x800, 0xffff_fffe);
    e.ttt_en(&tgtid, true);
    tgtid.preset(0x800, 0x3);
    e.ttt_en(&tgtid, false);
    assert_eq!(
        tgtid.trace().as_slice(),
        [
            rd(0x800, 0xffff_fffe),
            w(0x800, 0xffff_ffff),
            rd(0x800, 0x3),
            w(0x800, 0x2)
        ]
    );
    assert!(regs.trace().is_empty(), "the TTT is not in the unit window");
}

#[test]
fn s2_ttt_entry_set_writes_seven_dwords_at_0xc00() {
    // "idx<<5 | mask, key, valid | flags<<1, …"
    let tgtid = Tgtid::new();
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 16, Some(4)).unwrap();
    let entry = TttEntry {
        idx: 3,
        mask: 5,
        key: 0xdead,
        valid: true,
        flags: 2,
        rest: [6, 7, 8, 9],
    };
    e.ttt_entry_set(&tgtid, &entry).unwrap();
    assert_eq!(
        tgtid.writes().as_slice(),
        [
            (0xc00, 0x65),
            (0xc04, 0xdead),
            (0xc08, 0x5),
            (0xc0c, 6),
            (0xc10, 7),
            (0xc14, 8),
            (0xc18, 9)
        ]
    );
    // The seed's al_data_memory_barrier after the entry: after all seven words.
    assert_eq!(tgtid.barriers().as_slice(), [7]);
    let bad = TttEntry { mask: 32, ..entry };
    assert_eq!(
        e.ttt_entry_set(&tgtid, &bad),
        Err(UdmaError::TttEntryField {
            field: TttField::Mask,
            value: 32
        })
    );
    let bad = TttEntry {
        flags: 1 << 31,
        ..entry
    };
    assert!(e.ttt_entry_set(&tgtid, &bad).is_err());
    assert_eq!(tgtid.writes().len(), 7, "refused entries write nothing");
    assert_eq!(tgtid.barriers().len(), 1, "nor fence");
}

fn entry_for(q: QueueId) -> TttEntry {
    TttEntry {
        idx: u32::from(q.get()),
        mask: 0,
        key: 0x100 + u32::from(q.get()),
        valid: true,
        flags: 0,
        rest: [0; 4],
    }
}

const DEFAULTS: TttDefaults = TttDefaults {
    ctrl_update: |v| !v,
    ready_mask: 0x1,
    entry_for,
};

#[test]
fn s2_ttt_default_config_ctrl_bounded_ready_wait_enable_then_an_entry_per_queue() {
    let regs = Regs::new();
    let tgtid = Tgtid::new();
    let e = Udma::<Mariana, _>::attach(&regs, 2, Some(4)).unwrap();
    tgtid.preset(0x820, 0xf0);
    tgtid.queue_read(0x824, 0);
    tgtid.preset(0x824, 0x1);
    e.ttt_default_config(&tgtid, &DEFAULTS, 4).unwrap();
    let mut want = vec![
        rd(0x820, 0xf0),
        w(0x820, 0xffff_ff0f),
        rd(0x824, 0),
        rd(0x824, 1),
        rd(0x800, 0),
        w(0x800, 1),
    ];
    for n in 0..2u32 {
        want.extend([
            w(0xc00, n << 5),
            w(0xc04, 0x100 + n),
            w(0xc08, 1),
            w(0xc0c, 0),
            w(0xc10, 0),
            w(0xc14, 0),
            w(0xc18, 0),
        ]);
    }
    assert_eq!(tgtid.trace().as_slice(), want.as_slice());
}

#[test]
fn s2_ttt_default_config_gives_up_after_the_poll_bound() {
    let regs = Regs::new();
    let tgtid = Tgtid::new();
    let e = Udma::<Mariana, _>::attach(&regs, 2, Some(4)).unwrap();
    assert_eq!(
        e.ttt_default_config(&tgtid, &DEFAULTS, 3),
        Err(UdmaError::TttNotReady { polls: 3 })
    );
    let reads = tgtid
        .trace()
        .iter()
        .filter(|a| !a.is_write() && a.offset() == 0x824)
        .count();
    assert_eq!(reads, 3);
    assert!(
        !tgtid.writes().iter().any(|&(o, _)| o == 0x800),
        "not enabled"
    );
}

/// `m2s.state` / `s2m.state` with every sub-unit in `field` (2 bits at 0, 4, 8, 12).
fn state_word(field: u32) -> u32 {
    field | field << 4 | field << 8 | field << 12
}

#[test]
fn s2_udma_state_set_wait_commands_both_directions_then_polls_bounded() {
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    regs.preset(0x200, state_word(1));
    regs.preset(0x2_0200, state_word(1));
    e.state_set_wait(UdmaState::Normal, 2).unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [(0x204, 1), (0x2_0204, 1)],
        "NORMAL (0x1) to TX then RX change_state"
    );
    assert_eq!(e.state(Dir::Tx), UdmaState::Normal);

    // DISABLE is never reported: waiting for it waits for IDLE.
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    e.state_set_wait(UdmaState::Disable, 1).unwrap();
    assert_eq!(regs.writes().as_slice(), [(0x204, 2), (0x2_0204, 2)]);

    // Never reaching NORMAL: a typed error after the bound.
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    assert_eq!(
        e.state_set_wait(UdmaState::Normal, 5),
        Err(UdmaError::StateWaitTimeout {
            state: UdmaState::Normal,
            polls: 5
        })
    );
}

#[test]
fn s2_udma_state_set_wait_normal_on_mariana_runs_ttt_default_config_first() {
    // "ttt_default_config ... is reached only from al_udma_state_set_wait on the NORMAL
    // transition" and is "MARIANA-only".
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 1, Some(4)).unwrap();
    assert_eq!(
        e.state_set_wait(UdmaState::Normal, 2),
        Err(UdmaError::TttSetupRequired)
    );
    assert!(regs.trace().is_empty());
    // Other transitions need no TTT.
    e.state_set_wait(UdmaState::Disable, 1).unwrap();

    let regs = Regs::new();
    let tgtid = Tgtid::new();
    let e = Udma::<Mariana, _>::attach(&regs, 1, Some(4)).unwrap();
    tgtid.preset(0x824, 1);
    regs.preset(0x200, state_word(1));
    regs.preset(0x2_0200, state_word(1));
    e.state_set_wait_ttt(UdmaState::Normal, &tgtid, &DEFAULTS, 2)
        .unwrap();
    assert_eq!(tgtid.writes().first(), Some(&(0x820, 0xffff_ffff)));
    assert!(tgtid.writes().contains(&(0x800, 1)));
    assert_eq!(regs.writes().as_slice(), [(0x204, 1), (0x2_0204, 1)]);
    assert_eq!(
        (
            Cayman::TTT_DEFAULT_ON_NORMAL,
            Mariana::TTT_DEFAULT_ON_NORMAL
        ),
        (false, true)
    );
}

#[test]
fn s2_completion_coalescing_setter_flips_tx_comp_cfg_bit1() {
    // udma-bitfields.tsv m2s_q.comp_cfg DIS_COMP_COAL (bit 1); TX queue 2 at 0x3000 + 0xa0.
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 4, Some(4)).unwrap();
    regs.preset(0x30a0, 0x1);
    e.set_tx_queue_comp_coalescing(q(2), false).unwrap();
    assert_eq!(regs.writes().as_slice(), [(0x30a0, 0x3)]);
    assert_eq!(
        e.set_tx_queue_comp_coalescing(q(4), true),
        Err(UdmaError::QueueNotConfigured { queue: 4, count: 4 })
    );
}
