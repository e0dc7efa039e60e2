//! Seed 004 (KaenaHal UDMA/IOFIC, libnrt 2.31.24.0) §2 `al_udma_init` and the two bring-up
//! profiles: each test is named after the seed section and function it pins, and asserts the
//! exact register trace (reads included) on the recording fake.

mod common;

use common::{Regs, al_hal};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::udma::{
    BringUpProfile, EngineParams, HAL_PKT_CLK, KERNEL_AXI_TIMEOUT, RevisionSource, Udma, UdmaError,
    revision_from_dma_version,
};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;
use mmio::{Access, Mmio};
use udma_desc::QueueId;

fn w(offset: usize, value: u32) -> Access {
    Access::Write { offset, value }
}
fn rd(offset: usize, value: u32) -> Access {
    Access::Read { offset, value }
}

/// `m2s_feature.dma_version`, the register `al_udma_revision_get` reads.
const DMA_VERSION: usize = 0x604;

/// The IOFIC unmask writes of one direction (`iofic.tsv` `unmask_write.<dir>`).
fn iofic_trace(dir: &str) -> Vec<Access> {
    common::iofic_writes(dir)
        .into_iter()
        .map(|(o, v)| w(o, v))
        .collect()
}

/// The seed's `al_udma_init` trace for an arch whose `[m2s+0x310]` word is `data_cfg`.
fn al_udma_init_trace(data_cfg: u32) -> Vec<Access> {
    let mut t = vec![rd(DMA_VERSION, 4)];
    for q in 0..16 {
        t.push(w(0x1020 + q * 0x1000, 0x0003_0000)); // M2S q cfg |= 0x30000
        t.push(w(0x21020 + q * 0x1000, 0x0003_0000)); // S2M q cfg |= 0x30000
    }
    t.push(w(0x310, data_cfg));
    t.push(w(0x3a300, 0x000F_4240)); // [m2s+pkt] = 0xF4240
    t.push(w(0x254, 0x010f_ffff)); // packet_size_cfg_set (m2s.cfg_len)
    t.push(w(0x2038c, 0)); // [s2m+0x38c] = 0
    t.extend(iofic_trace("m2s"));
    t.extend(iofic_trace("s2m"));
    t
}

fn run_al_udma_init<A: Arch>(data_cfg: u32) {
    let regs = Regs::new();
    regs.preset(DMA_VERSION, 4);
    let e = Udma::<A, _>::init_hal(&regs, EngineParams::for_arch::<A>()).unwrap();
    assert_eq!(e.queue_count(), 16);
    assert_eq!(e.revision(), 4);
    assert_eq!(regs.lost(), 0);
    assert_eq!(
        regs.trace().as_slice(),
        al_udma_init_trace(data_cfg).as_slice()
    );
}

#[test]
fn s2_al_udma_init_cayman_writes_2296_to_m2s_0x310() {
    // "CAYMAN: [m2s+0x310]=2296", packet limit 0x100 at bit 16.
    run_al_udma_init::<Cayman>(0x0100_0000 | 2296);
}

#[test]
fn s2_al_udma_init_mariana_writes_4088_to_m2s_0x310() {
    // "MARIANA: [m2s+0x310]=4088": V4 overrides V3's 2296 here.
    run_al_udma_init::<Mariana>(0x0100_0000 | 4088);
}

#[test]
fn s2_al_udma_init_other_arch_writes_0x400_0x100_to_m2s_0x310() {
    // "else: 0x400/0x100".
    run_al_udma_init::<Sunda>(0x0100_0400);
}

#[test]
fn s2_al_udma_init_refuses_a_revision_other_than_4_naming_it() {
    // "if udma->rev_id != 4: log("unsupported DMA rev id: %d"); return -EINVAL". A word with
    // other bits besides 4 (0x104) is refused whole: the ancestor takes the word as is.
    for rev in [0, 3, 5, 0x104, 0xffff_ffff] {
        let regs = Regs::new();
        regs.preset(DMA_VERSION, rev);
        let r = Udma::<Cayman, _>::init_hal(&regs, EngineParams::for_arch::<Cayman>());
        assert_eq!(
            r.err(),
            Some(UdmaError::UnsupportedDmaRevision {
                value: rev,
                source: RevisionSource::Register
            })
        );
        assert_eq!(regs.trace().as_slice(), [rd(DMA_VERSION, rev)]);
    }
}

#[test]
fn s2_al_udma_revision_get_is_the_whole_dma_version_word_at_m2s_0x604() {
    // The seed: "read UDMA rev reg", no offset. The ancestor (al-hal a): M2S feature word
    // dma_version at unit+0x604; "value >= 4 used as-is", 0 = revision 1..3.
    let reg = al_hal("a", "al_udma_revision_get reads the M2S feature word");
    assert_eq!(reg.value, "M2S+0x604 (unit+0x00604)");
    assert_eq!(reg.confidence, "consistent with seed");
    assert_eq!(khal::regs::m2s::DmaVersion::ABS, 0x604);
    let rule = al_hal("a", "dma_version encoding");
    assert_eq!(rule.value, "0 = rev 1..3; 4 = rev 4; value >= 4 used as-is");
    assert_eq!(revision_from_dma_version(4), Some(4));
    assert_eq!(revision_from_dma_version(7), Some(7));
    assert_eq!(revision_from_dma_version(0x0001_0004), Some(0x0001_0004));
    assert_eq!(revision_from_dma_version(0), None);
    assert_eq!(revision_from_dma_version(3), None);
    // Below 4 the ancestor reads the revision-3 layout's dma_misc; recorded, never read here.
    let fallback = al_hal("a", "fallback when dma_version < 4");
    assert!(
        fallback.value.starts_with("unit+0x1E084"),
        "{}",
        fallback.value
    );
    assert_eq!(khal::udma::REV3_DMA_MISC_REVISION, 0x1_E084);
    assert!(fallback.value.ends_with("bits [11:0]"));
    assert_eq!(khal::udma::DMA_MISC_PROGRAMMING_ID, 0xFFF);
}

#[test]
fn s2_al_udma_init_caller_stated_revision_replaces_the_register_read() {
    // INFERENCE under test: that every shipped engine's dma_version word reads exactly 4. If a
    // real engine's word reads otherwise (here 0x104), the default refuses it; a caller that
    // knows its engine is revision 4 states it, and nothing is read.
    let regs = Regs::new();
    regs.preset(DMA_VERSION, 0x104);
    let p = EngineParams::for_arch::<Mariana>();
    assert_eq!(
        Udma::<Mariana, _>::init_hal(&regs, p).err(),
        Some(UdmaError::UnsupportedDmaRevision {
            value: 0x104,
            source: RevisionSource::Register
        })
    );
    regs.clear_trace();
    let e = Udma::<Mariana, _>::init_hal(&regs, p.with_revision(4)).unwrap();
    assert_eq!(e.revision(), 4);
    let mut want = al_udma_init_trace(0x0100_0000 | 4088);
    want.remove(0); // the read of dma_version
    assert_eq!(regs.trace().as_slice(), want.as_slice());
    // The seed's gate applies to a stated revision too, before any access.
    let regs = Regs::new();
    assert_eq!(
        Udma::<Mariana, _>::init_hal(&regs, p.with_revision(3)).err(),
        Some(UdmaError::UnsupportedDmaRevision {
            value: 3,
            source: RevisionSource::Given
        })
    );
    assert!(regs.trace().is_empty());
}

#[test]
fn s2_al_udma_init_num_of_queues_0xff_means_16_and_above_16_is_refused() {
    // "num_q = (params->num_of_queues == 0xFF) ? 16 : ...; if num_q > 16: ... -EINVAL".
    for (given, want) in [(0xff, Ok(16)), (16, Ok(16)), (3, Ok(3))] {
        let regs = Regs::new();
        regs.preset(DMA_VERSION, 4);
        let p = EngineParams {
            queue_count: given,
            ..EngineParams::for_arch::<Mariana>()
        };
        let e = Udma::<Mariana, _>::init_hal(&regs, p).map(|e| e.queue_count());
        assert_eq!(e, want);
    }
    for bad in [17, 0x80, 0xfe] {
        let regs = Regs::new();
        regs.preset(DMA_VERSION, 4);
        let p = EngineParams {
            queue_count: bad,
            ..EngineParams::for_arch::<Mariana>()
        };
        assert_eq!(
            Udma::<Mariana, _>::init_hal(&regs, p).err(),
            Some(UdmaError::BadQueueCount { requested: bad })
        );
        assert!(regs.writes().is_empty(), "refused before any write");
    }
}

#[test]
fn s1_copy_prepare_one_queue_ids_are_checked_against_num_of_queues() {
    // "assert(qid < udma->num_of_queues)" (al_hal_udma_m2m.c:636): against the configured
    // count, not against 16. The check is made where a queue's ring pair is made for an
    // engine; copy_prepare_one then runs on a configured queue only.
    use udma_desc::{CopyRequest, DescRing, Descriptor, Direction};
    let regs = Regs::new();
    regs.preset(DMA_VERSION, 4);
    let p = EngineParams {
        queue_count: 2,
        ..EngineParams::for_arch::<Cayman>()
    };
    let e = Udma::<Cayman, _>::init_hal(&regs, p).unwrap();
    regs.clear_trace();
    type Rings<'a> = (
        DescRing<&'a mut [Descriptor]>,
        DescRing<&'a mut [Descriptor]>,
    );
    fn rings<'a>(t: &'a mut [Descriptor], r: &'a mut [Descriptor]) -> Rings<'a> {
        (
            DescRing::new(Direction::Tx, t).unwrap(),
            DescRing::new(Direction::Rx, r).unwrap(),
        )
    }
    let (mut t, mut r) = ([Descriptor::ZERO; 32], [Descriptor::ZERO; 32]);
    let (tx, rx) = rings(&mut t, &mut r);
    assert_eq!(
        e.ring_pair(QueueId::new(2).unwrap(), tx, rx).err(),
        Some(UdmaError::QueueNotConfigured { queue: 2, count: 2 })
    );
    let (tx, rx) = rings(&mut t, &mut r);
    let mut pair = e.ring_pair(QueueId::new(1).unwrap(), tx, rx).unwrap();
    let slots = pair
        .copy_prepare_one::<Cayman>(&CopyRequest::new(0x1000, 0x2000, 64))
        .unwrap();
    assert_eq!((slots.tx.index, slots.rx.index), (0, 0));
    assert_eq!(pair.queue().get(), 1);
    assert!(regs.trace().is_empty(), "no register access to prepare");
}

#[test]
fn s2_al_udma_init_iofic_mode_runs_config_ex_last_and_returns_its_rc() {
    // "if params->iofic_mode: rc = al_udma_iofic_config_ex(udma, cfg); if rc: ... return rc".
    let regs = Regs::new();
    regs.preset(DMA_VERSION, 4);
    let mut seen_writes = 0;
    let e =
        Udma::<Mariana, _>::init_hal_with_iofic(&regs, EngineParams::for_arch::<Mariana>(), |r| {
            seen_writes = regs.writes().len();
            r.write32(0x3_8000, 0x1234); // whatever config_ex writes comes after the unmasks
            Ok(())
        });
    assert!(e.is_ok());
    let trace = al_udma_init_trace(0x0100_0ff8);
    assert_eq!(
        seen_writes,
        trace.len() - 1,
        "config_ex runs after every seed write"
    );
    assert_eq!(regs.writes().last(), Some(&(0x3_8000, 0x1234)));

    let regs = Regs::new();
    regs.preset(DMA_VERSION, 4);
    let r =
        Udma::<Mariana, _>::init_hal_with_iofic(&regs, EngineParams::for_arch::<Mariana>(), |_| {
            Err(-22)
        });
    assert_eq!(r.err(), Some(UdmaError::IoficConfigFailed { rc: -22 }));
}

#[test]
fn s2_al_udma_init_profiles_keep_both_sources_values() {
    // Seed 004 §2: "[m2s+pkt]=0xF4240 (1e6 clk)"; udma-notes.md §2 step 3 #3: 0x05f5e100.
    assert_eq!(HAL_PKT_CLK, 0xF4240);
    assert_eq!(KERNEL_AXI_TIMEOUT, 0x05f5_e100);
    assert_eq!(BringUpProfile::UserspaceHal.axi_cfg_1(), 0xF4240);
    assert_eq!(BringUpProfile::Kernel.axi_cfg_1(), 100_000_000);
    assert_eq!(BringUpProfile::default(), BringUpProfile::UserspaceHal);
    // Data FIFO depth: seed 2296/4088/0x400; kernel num_beats 2296 (V3, V4), 1024 (V2).
    let hal = BringUpProfile::UserspaceHal;
    let kernel = BringUpProfile::Kernel;
    assert_eq!(hal.data_fifo_depth::<Sunda>(), 0x400);
    assert_eq!(hal.data_fifo_depth::<Cayman>(), 2296);
    assert_eq!(hal.data_fifo_depth::<Mariana>(), 4088);
    assert_eq!(kernel.data_fifo_depth::<Sunda>(), 1024);
    assert_eq!(kernel.data_fifo_depth::<Cayman>(), 2296);
    assert_eq!(kernel.data_fifo_depth::<Mariana>(), 2296);
    assert!(hal.reads_revision() && !kernel.reads_revision());
}

#[test]
fn s2_packet_size_cfg_set_writes_m2s_cfg_len_as_the_ancestor_does() {
    // The seed names packet_size_cfg_set without register or value; al-hal f: m2s.cfg_len
    // (M2S+0x254), max [19:0] and 64K-as-zero bit 24, defaults 0xFFFFF with 64K-as-zero.
    let row = al_hal("f", "packet_size_cfg_set writes m2s.cfg_len");
    assert_eq!(row.value, "0x010FFFFF");
    let trace = al_udma_init_trace(0x0100_0400);
    assert!(trace.contains(&w(0x254, 0x010F_FFFF)));
    assert_eq!(khal::regs::m2s::CfgLenReg::ABS, 0x254);
    // The AXI timeout word the seed writes 0xF4240: the ancestor's defaults write 5,000,000.
    let axi = al_hal("f", "gen axi.cfg_1");
    assert_eq!(axi.value, "5000000");
    assert_eq!(khal::udma::ANCESTOR_AXI_TIMEOUT, 5_000_000);
    assert_eq!(khal::regs::general::AxiCfg1::ABS, 0x3a300);
}

#[test]
fn s2_init_with_kernel_profile_reads_nothing_and_writes_the_kernel_timeout() {
    // udma-notes.md §2 step 1: "Handle setup (no hardware reads). Record revision 4".
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::init_with(
        &regs,
        EngineParams::for_arch::<Mariana>(),
        BringUpProfile::Kernel,
    );
    assert!(e.is_ok());
    assert!(
        !regs
            .trace()
            .iter()
            .any(|a| !a.is_write() && a.offset() == DMA_VERSION),
        "the kernel profile does not read the version register"
    );
    assert!(regs.writes().contains(&(0x3a300, 100_000_000)));
    assert!(regs.writes().contains(&(0x310, 0x0100_0000 | 2296)));
}

#[test]
fn s4_error_ints_unmask_uses_the_revision_4_masks_on_every_generation() {
    // "grp3 final unmask 256(v3)/1280(v4)", "mask 0x7FFFE007(v3)/0xFFFFEF07(v4)", keyed on
    // udma->rev_id; every generation's engines are revision 4.
    // The masks are implemented once, on the revision types; an arch has its revision's.
    use khal::caps::IoficCaps;
    fn masks<R: IoficCaps>() -> (u32, u32) {
        (R::M2S_PRIMARY_D_UNMASK, R::S2M_ERROR_MASK)
    }
    assert_eq!(masks::<<Sunda as Arch>::Revision>(), (1280, 0xFFFF_EF07));
    assert_eq!(masks::<<Cayman as Arch>::Revision>(), (1280, 0xFFFF_EF07));
    assert_eq!(masks::<<Mariana as Arch>::Revision>(), (1280, 0xFFFF_EF07));
    assert_eq!(masks::<khal::Rev4>(), (1280, 0xFFFF_EF07));
    assert_eq!(masks::<khal::Rev3>(), (256, 0x7FFF_E007));
}

#[test]
fn s1_copy_start_rings_rx_then_tx_for_configured_queues_only() {
    // "al_udma_desc_action_add(rxq, s2m_count); al_udma_desc_action_add(txq, m2s_count)":
    // RX tail increment (+0x38 of the S2M queue) first, then TX.
    let regs = Regs::new();
    regs.preset(DMA_VERSION, 4);
    let p = EngineParams {
        queue_count: 4,
        ..EngineParams::for_arch::<Cayman>()
    };
    let e = Udma::<Cayman, _>::init_hal(&regs, p).unwrap();
    regs.clear_trace();
    e.copy_start(QueueId::new(3).unwrap(), 2, 5).unwrap();
    assert_eq!(regs.writes().as_slice(), [(0x24038, 5), (0x4038, 2)]);
    // The mb() of al_udma_desc_action_add: a write barrier before each of the two doorbells.
    assert_eq!(regs.barriers().as_slice(), [0, 1]);
    assert_eq!(
        e.copy_start(QueueId::new(4).unwrap(), 1, 1),
        Err(UdmaError::QueueNotConfigured { queue: 4, count: 4 })
    );
    assert_eq!(regs.writes().len(), 2);
}

#[test]
fn s1_copy_start_refuses_rx_count_0_and_counts_wider_than_24_bits() {
    // udma-notes.md §6: "the doorbell helper refuses a count of 0 ... with -1 and writes
    // nothing"; "Then TX, only if the TX count is above 0 ... A TX count of 0 is how the
    // caller pre-posts RX descriptors". TailInc (+0x38) holds the count in bits 23:0.
    let regs = Regs::new();
    regs.preset(DMA_VERSION, 4);
    let e = Udma::<Cayman, _>::init_hal(&regs, EngineParams::for_arch::<Cayman>()).unwrap();
    regs.clear_trace();
    let q3 = QueueId::new(3).unwrap();
    assert_eq!(e.copy_start(q3, 1, 0), Err(UdmaError::DoorbellRxCountZero));
    assert_eq!(
        e.copy_start(q3, 1, 1 << 24),
        Err(UdmaError::DoorbellCountTooWide {
            dir: Dir::Rx,
            count: 1 << 24
        })
    );
    assert_eq!(
        e.copy_start(q3, 0xFFFF_FFFF, 1),
        Err(UdmaError::DoorbellCountTooWide {
            dir: Dir::Tx,
            count: 0xFFFF_FFFF
        })
    );
    assert!(regs.trace().is_empty(), "nothing written before a refusal");
    // TX count 0 pre-posts RX: only the RX tail increment is written.
    e.copy_start(q3, 0, 7).unwrap();
    assert_eq!(regs.writes().as_slice(), [(0x24038, 7)]);
    // The widest count the field holds is accepted as is.
    regs.clear_trace();
    e.copy_start(q3, 0xFF_FFFF, 0xFF_FFFF).unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [(0x24038, 0xFF_FFFF), (0x4038, 0xFF_FFFF)]
    );
}

#[test]
fn s2_al_udma_rev_id_4_and_16_queues_are_the_sources_numbers() {
    // Seed 004 §2: "AL_UDMA_REV_ID_4 == 4"; "num_q = (params->num_of_queues == 0xFF) ? 16";
    // al-hal a: "DMA_MAX_Q_V3 = 4, DMA_MAX_Q_V4 = 16, AL_UDMA_NUM_QUEUES_MAX = 0xFF".
    let row = al_hal("a", "revision to queue count");
    assert_eq!(
        row.value,
        "DMA_MAX_Q_V3 = 4, DMA_MAX_Q_V4 = 16, AL_UDMA_NUM_QUEUES_MAX = 0xFF"
    );
    assert_eq!(row.confidence, "matches seed exactly");
    assert_eq!(khal::regs::m2s::UDMA_REV_ID_4, 4);
    assert_eq!(<khal::Rev4 as khal::UdmaRevision>::NUMBER, 4);
    assert_eq!(udma_desc::QUEUES_PER_ENGINE, 16);
    assert_eq!(khal::udma::QUEUE_COUNT_ALL, 0xFF);
    for arch_rev in [
        Sunda::UDMA_REVISION,
        Cayman::UDMA_REVISION,
        Mariana::UDMA_REVISION,
    ] {
        // udma-notes.md §2 step 1: the kernel records revision 4 on every generation.
        assert_eq!(arch_rev, 4);
    }
}

#[test]
fn s3_trampolines_18_queue_slots_after_3_bases_and_m2s_only_data_tail() {
    // "The 18 aws_hal_udma_get_*_offset functions"; "the three at +0x578/+0x580/+0x588 ...
    // precede the 18 queue-register slots"; "get_m2s_queue_data_tail_ptr_inc_offset
    // (@0x45f990, slot +0x608), which has no S2M sibling"; slot = slot_vma - 0xCAEB80.
    use khal::regs::khal_udma as t;
    assert_eq!(t::KAENA_KHAL_VMA, 0xCAEB80);
    assert_eq!((t::BASE_TRAMPOLINES, t::QUEUE_TRAMPOLINES), (3, 18));
    assert_eq!((t::FIRST_BASE_SLOT, t::FIRST_QUEUE_SLOT), (0x578, 0x590));
    assert_eq!(t::LAST_QUEUE_SLOT, 0x618);
    assert_eq!(t::M2S_DATA_TAIL_PTR_INC_SLOT, 0x608);
    // "mov %rdx,0x598(%rax) after lea 0x468540": get_m2s_queue_offset, slot 0xCAF118.
    let m2s_queue = t::KNOWN_SLOTS
        .iter()
        .find(|s| s.member == "get_m2s_queue_offset")
        .unwrap();
    assert_eq!(t::KAENA_KHAL_VMA + u64::from(m2s_queue.slot), 0xCAF118);
    assert!(
        !t::KNOWN_SLOTS
            .iter()
            .any(|s| s.member.contains("s2m_queue_data_tail")),
        "no S2M data-tail slot"
    );
    // Its offset value is in neither source: no layout entry, no QueueReg variant.
    assert_eq!(t::M2S_DATA_TAIL_PTR_INC_OFFSET, None);
    assert_eq!(khal::regs::QueueReg::ALL.len(), 16);
}

#[test]
fn s1_build_packet_per_arch_cap_is_each_arch_crates_value() {
    // Seed 004 §1: "num_blocks > MAX_DESCS_PER_PACKET // 0x80 SUNDA / 0x41 CAYMAN+MARIANA";
    // the builder (udma-desc `packet_prepare`) takes the cap from the arch's PacketCaps.
    use khal::caps::PacketCaps;
    assert_eq!(<Sunda as PacketCaps>::MAX_TX_DESCS_PER_PACKET, 0x80);
    assert_eq!(<Cayman as PacketCaps>::MAX_TX_DESCS_PER_PACKET, 0x41);
    assert_eq!(<Mariana as PacketCaps>::MAX_TX_DESCS_PER_PACKET, 0x41);
}
