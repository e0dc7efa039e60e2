//! Seed 004 §2, the configuration layer (`al_hal_udma_config.c`): the S2M no-descriptor
//! policy, target-id steering, the Target Translation Table and `al_udma_state_set_wait`.
//! Each test is named after the seed section and function it pins and asserts the exact
//! register trace.

mod common;

use common::{Regs, Rev3Engine, al_hal};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::udma::{
    STATE_WAIT_POLL_INTERVAL_US, STATE_WAIT_POLLS, TgtidDir, TgtidMsix, TgtidQueue, TttEntry, Udma,
    UdmaError, UdmaState, WaitFor,
};
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

/// Queue 3's steering in the tests: TX from the descriptor, RX from the queue's target id.
const STEER: TgtidQueue = TgtidQueue {
    tx: TgtidDir {
        desc_en: true,
        queue_en: false,
        tgtid: 0x1234,
        tgtaddr: 0x0056,
    },
    rx: TgtidDir {
        desc_en: false,
        queue_en: true,
        tgtid: 0xabcd,
        tgtaddr: 0x0007,
    },
};

#[test]
fn s2_gen_tgtid_conf_queue_set_adv_v4_writes_the_16_qid_plus_608_block() {
    // Seed: "if udma->rev_id > 3: assert(qid < DMA_MAX_Q_V4 /*16*/); write 16*(qid+608)
    // block: sel/val flags + tgtid words". al-hal c: the block is gen_regs_v4.tgtaddr[q] at
    // gen+0x2600+16*q; cfg_vm_ctrl +0 (enables bits 0..3), cfg_tx_vm +8, cfg_rx_vm +0xC
    // (tgtid [15:0], tgtaddr [31:16]); every field a masked read-modify-write.
    let block = al_hal("c", "rev-4 per-queue target-id block");
    assert_eq!(
        block.value,
        "gen+0x2600+16*q = unit+0x3A600+16*q (= gen+16*(q+608))"
    );
    let layout = al_hal("c", "layout of one tgtaddr[q] entry");
    assert_eq!(layout.value, "+0x0 / +0x4 / +0x8 / +0xC");
    assert_eq!(
        al_hal("c", "cfg_vm_ctrl enable bits").value,
        "0x1 / 0x2 / 0x4 / 0x8"
    );
    assert_eq!(
        al_hal("c", "cfg_tx_vm and cfg_rx_vm").value,
        "0x0000FFFF / 0xFFFF0000"
    );
    assert_eq!(khal::regs::tgtid::tgtid_queue_v4(q(0)), 16 * 608);
    let regs = Regs::new();
    // Two queues configured: the bound is 16 (DMA_MAX_Q_V4), so queue 3 is steered.
    let e = Udma::<Mariana, _>::attach(&regs, 2, Some(4)).unwrap();
    regs.preset(0x3a630, 0xf0); // unrelated bits of cfg_vm_ctrl, kept
    regs.preset(0x3a638, 0xffff_ffff);
    e.set_tgtid_queue_v4(q(3), &STEER);
    assert_eq!(
        regs.trace().as_slice(),
        [
            rd(0x3a630, 0xf0),
            w(0x3a630, 0xf4), // TX descriptor target id (bit 2) on
            rd(0x3a630, 0xf4),
            w(0x3a630, 0xf4), // TX queue target id (bit 3) off
            rd(0x3a630, 0xf4),
            w(0x3a630, 0xf4), // RX descriptor target id (bit 0) off
            rd(0x3a630, 0xf4),
            w(0x3a630, 0xf6), // RX queue target id (bit 1) on
            rd(0x3a638, 0xffff_ffff),
            w(0x3a638, 0x0056_1234),
            rd(0x3a63c, 0),
            w(0x3a63c, 0x0007_abcd),
        ]
    );
    assert_eq!(e.tgtid_queue_v4(q(3)), STEER);
}

#[test]
fn s2_gen_tgtid_conf_queue_set_adv_v3_writes_gen_0x23ec_for_configured_queues() {
    // Seed: "else: assert(qid < udma->num_of_queues); pack sel/MSI-X bits into gen+0x23EC
    // per-qid shifts + per-qid 16-bit tgtid words". al-hal c: revision <= 3 (not CAYMAN),
    // gen of the revision-3 layout at unit+0x1C000; cfg_tgtid_0 enables TX desc bit q, TX
    // queue 4+q, RX desc 16+q, RX queue 20+q; TX ids of queues 2/3 in cfg_tgtid_2, RX in
    // cfg_tgtid_4, the odd queue in [31:16]; the address MSBs likewise in cfg_tgtaddr_1 / _3.
    let row = al_hal("c", "rev-3 target-id block");
    assert_eq!(row.value, "gen+0x23EC (unit+0x1E3EC in the v3 layout)");
    assert_eq!(
        al_hal("c", "cfg_tgtid_0 (rev 3)").value,
        "0x0000000F / 0x000000F0 / 0x100 / 0x200 / 0x000F0000 / 0x00F00000"
    );
    assert!(
        al_hal("f", "unit layout, rev 4")
            .fact
            .contains("rev 3: M2S 0, S2M 0x10000, gen 0x1C000")
    );
    let regs = Regs::new();
    let e = Udma::<Rev3Engine, _>::attach(&regs, 0xff, None).unwrap();
    assert_eq!(e.queue_count(), 4, "DMA_MAX_Q_V3 = 4");
    e.set_tgtid_queue_v3(q(3), &STEER).unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [
            (0x1e3ec, 0x0000_0008),
            (0x1e3ec, 0x0000_0008),
            (0x1e3ec, 0x0000_0008),
            (0x1e3ec, 0x0080_0008),
            (0x1e3f4, 0x1234_0000),
            (0x1e3fc, 0xabcd_0000),
            (0x1e404, 0x0056_0000),
            (0x1e40c, 0x0007_0000),
        ]
    );
    let regs = Regs::new();
    let e = Udma::<Rev3Engine, _>::attach(&regs, 2, None).unwrap();
    assert_eq!(
        e.set_tgtid_queue_v3(q(2), &STEER),
        Err(UdmaError::QueueNotConfigured { queue: 2, count: 2 })
    );
    assert!(regs.trace().is_empty());
    assert_eq!(
        Udma::<Rev3Engine, _>::attach(&regs, 5, None).err(),
        Some(UdmaError::BadQueueCount { requested: 5 })
    );
}

#[test]
fn s2_gen_tgtid_msix_conf_set_adv_masks_bits_8_and_9_of_cfg_tgtid_0() {
    // al-hal c: "rev-4 MSI-X target-id control: cfg_tgtid_0 of the rev-4 gen map at
    // gen+0x2500: bit 8 select, bit 9 access enable (... masked write)"; revision <= 3 the
    // same bits of gen+0x23EC.
    assert_eq!(
        al_hal("c", "rev-4 MSI-X target-id control").value,
        "unit+0x3A500, bits 8/9"
    );
    let regs = Regs::new();
    regs.preset(0x3a500, 0xffff_fcff);
    let e = Udma::<Mariana, _>::attach(&regs, 16, Some(4)).unwrap();
    e.set_tgtid_msix_v4(TgtidMsix {
        access_en: true,
        sel: false,
    });
    assert_eq!(regs.writes().as_slice(), [(0x3a500, 0xffff_feff)]);
    let regs = Regs::new();
    let e = Udma::<Rev3Engine, _>::attach(&regs, 4, None).unwrap();
    e.set_tgtid_msix_v3(TgtidMsix {
        access_en: false,
        sel: true,
    });
    assert_eq!(regs.writes().as_slice(), [(0x1e3ec, 0x100)]);
}

/// A window on a unit's `gen_ex` block, for the TTT.
type GenEx = FakeRegs<16, 64>;

#[test]
fn s2_ttt_en_read_modify_writes_bit0_of_0x800() {
    // Seed: "rmw_bit0(udma->tgtid_regs(@+0x58) + 0x800, enable)". al-hal d: the block is
    // gen_ex (unit+0x3C000), cfg_v4_section_en at +0x800 bit 0.
    let row = al_hal("d", "cfg_v4_section_en at gen_ex+0x800");
    assert_eq!(row.value, "unit+0x3C800, bit0");
    assert_eq!(row.confidence, "matches seed exactly");
    let regs = Regs::new();
    let gen_ex = GenEx::new();
    let e = Udma::<Mariana, _>::attach(&regs, 16, Some(4)).unwrap();
    gen_ex.preset(0x800, 0xffff_fffe);
    e.ttt_en(&gen_ex, true);
    gen_ex.preset(0x800, 0x3);
    e.ttt_en(&gen_ex, false);
    assert_eq!(
        gen_ex.trace().as_slice(),
        [
            rd(0x800, 0xffff_fffe),
            w(0x800, 0xffff_ffff),
            rd(0x800, 0x3),
            w(0x800, 0x2)
        ]
    );
    assert!(regs.trace().is_empty(), "another window than the unit's");
    // The default window is the unit's own gen_ex: unit+0x3C800.
    e.ttt_en(&e.gen_ex(), true);
    assert_eq!(regs.writes().as_slice(), [(0x3_c800, 1)]);
}

#[test]
fn s2_ttt_entry_set_writes_seven_words_then_commits_with_two_barriers() {
    // Seed: "ttt_entry_set writes a 7-dword entry at tgtid_regs+0xC00 (...) followed by two
    // al_data_memory_barrier fences after the trigger words". al-hal d: words +0x00..+0x14,
    // read back +0x14, barrier, write +0x18 (commits), read back +0x18, barrier.
    assert_eq!(
        al_hal("d", "entry window at gen_ex+0xC00").value,
        "unit+0x3CC00..0x3CC18"
    );
    assert_eq!(
        al_hal("d", "entry write protocol").value,
        "2 read-back + barrier pairs"
    );
    let regs = Regs::new();
    let gen_ex = GenEx::new();
    let e = Udma::<Mariana, _>::attach(&regs, 16, Some(4)).unwrap();
    e.ttt_entry_set(&gen_ex, &TttEntry::default_for_queue(q(5)));
    assert_eq!(
        gen_ex.trace().as_slice(),
        [
            w(0xc00, 5 << 5),
            w(0xc04, 0),
            w(0xc08, 3),
            w(0xc0c, 0),
            w(0xc10, 0xffff_ffff),
            w(0xc14, 0xffff_0000),
            rd(0xc14, 0xffff_0000),
            w(0xc18, 0),
            rd(0xc18, 0),
        ]
    );
    assert_eq!(gen_ex.barriers().as_slice(), [7, 9]);
}

#[test]
fn s2_ttt_default_entry_is_the_ancestors_buffer1_data_entry() {
    // al-hal d: "type 0 (BUF1_DATA), queue q, write_cmd 0, count_cmd 0x3 (accumulate into
    // buffer1 length), axi_msb_addr 0, axi_msb_addr_sel 0xFFFFFFFF, axi_tgtid_values
    // 0xFFFF0000 (...), axi_write_padding 0".
    let row = al_hal("d", "default per-queue entry");
    assert_eq!(row.value, "words: q<<5, 0, 3, 0, 0xFFFFFFFF, 0xFFFF0000, 0");
    for n in [0, 7, 15] {
        assert_eq!(
            TttEntry::default_for_queue(q(n)).words(),
            [n << 5, 0, 3, 0, 0xFFFF_FFFF, 0xFFFF_0000, 0]
        );
    }
}

#[test]
fn s2_ttt_default_config_init_poll_enable_then_an_entry_per_queue() {
    // Seed: "ttt_default_config clears/inverts the +0x820 ctrl, spins on the +0x824 ready bit,
    // calls ttt_en(1), then writes a TTT entry for every queue". al-hal d: set init_trig bit 0
    // (masked), spin while init_in_progress bit 0 reads 1, ttt_en(1), one entry per queue of
    // num_of_queues.
    let init = al_hal("d", "table init: init_trig at gen_ex+0x820");
    assert_eq!(init.value, "unit+0x3C820 bit0 / unit+0x3C824 bit0");
    assert!(
        al_hal("d", "ttt_default_config (RX handle")
            .fact
            .contains("loop over num_of_queues")
    );
    let regs = Regs::new();
    let gen_ex = GenEx::new();
    let e = Udma::<Mariana, _>::attach(&regs, 2, Some(4)).unwrap();
    gen_ex.preset(0x820, 0xf0);
    gen_ex.queue_read(0x824, 1); // in progress once, then done
    e.ttt_default_config(&gen_ex, 4).unwrap();
    let mut want = vec![
        rd(0x820, 0xf0),
        w(0x820, 0xf1),
        rd(0x824, 1),
        rd(0x824, 0),
        rd(0x800, 0),
        w(0x800, 1),
    ];
    for n in 0..2u32 {
        want.extend([
            w(0xc00, n << 5),
            w(0xc04, 0),
            w(0xc08, 3),
            w(0xc0c, 0),
            w(0xc10, 0xffff_ffff),
            w(0xc14, 0xffff_0000),
            rd(0xc14, 0xffff_0000),
            w(0xc18, 0),
            rd(0xc18, 0),
        ]);
    }
    assert_eq!(gen_ex.trace().as_slice(), want.as_slice());
}

#[test]
fn s2_ttt_default_config_gives_up_after_the_poll_bound() {
    // The ancestor spins without bound; here a typed error after max_polls reads.
    let regs = Regs::new();
    let gen_ex = GenEx::new();
    let e = Udma::<Mariana, _>::attach(&regs, 2, Some(4)).unwrap();
    gen_ex.preset(0x824, 1);
    assert_eq!(
        e.ttt_default_config(&gen_ex, 3),
        Err(UdmaError::TttNotReady { polls: 3 })
    );
    let reads = gen_ex
        .trace()
        .iter()
        .filter(|a| !a.is_write() && a.offset() == 0x824)
        .count();
    assert_eq!(reads, 3);
    assert!(
        !gen_ex.writes().iter().any(|&(o, _)| o == 0x800),
        "not enabled"
    );
}

/// `m2s.state` / `s2m.state` with every sub-unit in `field` (2 bits at 0, 4, 8, 12).
fn state_word(field: u32) -> u32 {
    field | field << 4 | field << 8 | field << 12
}

#[test]
fn s2_udma_state_set_wait_rules_ancestor_requested_and_either() {
    // al-hal h: "Expected state = IDLE for NORMAL and DISABLE, otherwise the requested state.
    // Poll state_get with 1 us between polls, about 1000 polls, then -ETIMEDOUT".
    let row = al_hal("h", "al_udma_state_set_wait(new_state, flush_stream)");
    assert_eq!(row.value, "poll budget ~1000 x 1 us");
    assert!(
        row.fact
            .contains("Expected state = IDLE for NORMAL and DISABLE")
    );
    assert_eq!((STATE_WAIT_POLLS, STATE_WAIT_POLL_INTERVAL_US), (1000, 1));
    use UdmaState::{Abort, Disable, Idle, Normal};
    for (asked, seen, ancestor, requested) in [
        (Normal, Idle, true, false),
        (Normal, Normal, false, true),
        (Disable, Idle, true, true),
        (Abort, Abort, true, true),
        (Abort, Idle, false, false),
        (Normal, Abort, false, false),
    ] {
        let at = format!("{asked:?} {seen:?}");
        assert_eq!(WaitFor::Ancestor.accepts(asked, seen), ancestor, "{at}");
        assert_eq!(WaitFor::Requested.accepts(asked, seen), requested, "{at}");
        assert_eq!(WaitFor::Either.accepts(asked, seen), ancestor || requested);
    }
    assert_eq!(WaitFor::default(), WaitFor::Either);
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

    // Reporting NORMAL after NORMAL ends the wait only under the project's rules; the
    // ancestor's waits for IDLE and times out, pausing once per round.
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 16, Some(4)).unwrap();
    regs.preset(0x200, state_word(1));
    regs.preset(0x2_0200, state_word(1));
    let mut pauses = 0;
    assert_eq!(
        e.state_set_wait_with(UdmaState::Normal, WaitFor::Ancestor, 5, || pauses += 1),
        Err(UdmaError::StateWaitTimeout {
            state: UdmaState::Normal,
            polls: 5
        })
    );
    assert_eq!(pauses, 5);
    // ... and an engine that aborts never satisfies a NORMAL wait.
    regs.preset(0x200, state_word(2));
    assert!(e.state_set_wait(UdmaState::Normal, 3).is_err());
}

#[test]
fn s2_udma_state_set_wait_normal_on_mariana_runs_ttt_default_config_after_the_state() {
    // Seed: ttt_default_config "is reached only from al_udma_state_set_wait on the NORMAL
    // transition", MARIANA only. al-hal h: "On success ...: NORMAL on rev >= 4 runs
    // ttt_default_config" (after the state change has been observed).
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 1, Some(4)).unwrap();
    regs.preset(0x200, state_word(1));
    regs.preset(0x2_0200, state_word(1));
    e.state_set_wait(UdmaState::Normal, 2).unwrap();
    let writes = regs.writes();
    assert_eq!(writes[..2], [(0x204, 1), (0x2_0204, 1)], "the state first");
    assert_eq!(writes[2], (0x3_c820, 1), "then the TTT init, in gen_ex");
    assert_eq!(writes[3], (0x3_c800, 1), "enabled");
    assert_eq!(
        writes[4..],
        [
            (0x3_cc00, 0),
            (0x3_cc04, 0),
            (0x3_cc08, 3),
            (0x3_cc0c, 0),
            (0x3_cc10, 0xffff_ffff),
            (0x3_cc14, 0xffff_0000),
            (0x3_cc18, 0),
        ]
    );
    // Never reaching the state: no TTT access.
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 1, Some(4)).unwrap();
    regs.preset(0x200, state_word(2));
    assert!(e.state_set_wait(UdmaState::Normal, 2).is_err());
    assert!(!regs.writes().iter().any(|&(o, _)| o >= 0x3_c800));
    // Another transition, or another arch: no TTT.
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 1, Some(4)).unwrap();
    e.state_set_wait(UdmaState::Disable, 1).unwrap();
    let c = Udma::<Cayman, _>::attach(&regs, 1, Some(4)).unwrap();
    regs.preset(0x200, state_word(1));
    regs.preset(0x2_0200, state_word(1));
    c.state_set_wait(UdmaState::Normal, 1).unwrap();
    assert!(!regs.writes().iter().any(|&(o, _)| o >= 0x3_c800));
    assert_eq!(
        (
            Cayman::TTT_DEFAULT_ON_NORMAL,
            Mariana::TTT_DEFAULT_ON_NORMAL
        ),
        (false, true)
    );
    // The same through a separate gen_ex window.
    let regs = Regs::new();
    let gen_ex = GenEx::new();
    let e = Udma::<Mariana, _>::attach(&regs, 1, Some(4)).unwrap();
    regs.preset(0x200, state_word(1));
    regs.preset(0x2_0200, state_word(1));
    e.state_set_wait_ttt(UdmaState::Normal, &gen_ex, 2).unwrap();
    assert_eq!(gen_ex.writes().first(), Some(&(0x820, 1)));
    assert!(!regs.writes().iter().any(|&(o, _)| o >= 0x3_c800));
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
