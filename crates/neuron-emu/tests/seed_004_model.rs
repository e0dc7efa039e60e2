//! Seed 004 (KaenaHal UDMA) §2 as the device model honours it, driven through khal calls:
//! the revision `al_udma_init` reads, the bring-up values it writes (read back), the queue
//! count, the S2M no-descriptor policy (`al_udma_s2m_no_desc_cfg_set`) and the TTT
//! (`al_udma_ttt_*`, the ancestor HAL's Transaction Type Table). Each test is named after the seed section and the
//! function whose effect it pins.

mod common;

use neuron_emu::for_each_arch;

use common::{Engine, MEM, Rig};
use khal::Arch;
use khal::regs::queue::{Cfg, Dir, QueueCfg};
use khal::regs::ttt::{TTT_CTRL, TTT_ENTRY, TTT_INIT_TRIG};
use khal::regs::unit::GEN_EX_BASE;
use khal::regs::{general, m2s, s2m, unit};
use khal::udma::{EngineParams, RingConfig, Udma, UdmaError, UdmaState};
use mmio::{Mmio, MmioExt, Window};
use neuron_emu::{Device, DeviceConfig, Direction, Step};
use udma_desc::QueueId;

/// Engine 0 of `dev` brought up by the userspace HAL's `al_udma_init` (khal `init_hal`).
fn hal_engine<A: Arch>(dev: &Device, params: EngineParams) -> Result<Engine<A>, UdmaError> {
    let base = dev.unit_base(0).expect("engine 0");
    Udma::<A, _>::init_hal(Window::new(dev.clone(), base), params)
}

fn unit0(dev: &Device) -> Window<Device> {
    Window::new(dev.clone(), dev.unit_base(0).expect("engine 0"))
}

/// §2 `al_udma_init`: `rev_id = al_udma_revision_get(regs_base)`, refused unless 4. Every
/// shipped arch's engine reads revision 4 (khal's `UDMA_REVISION`), so init succeeds.
fn s2_al_udma_init_reads_revision_4<A: Arch>() {
    let dev = Device::for_arch::<A>(&MEM).unwrap();
    assert_eq!(A::UDMA_REVISION, 4);
    assert_eq!(
        unit0(&dev).window(unit::M2S_BASE).read::<m2s::DmaVersion>(),
        m2s::UDMA_REV_ID_4
    );
    hal_engine::<A>(&dev, EngineParams::for_arch::<A>()).expect("revision 4 is accepted");
    // Read only: a write does not change it.
    unit0(&dev)
        .window(unit::M2S_BASE)
        .write::<m2s::DmaVersion>(7);
    assert_eq!(
        unit0(&dev).window(unit::M2S_BASE).read::<m2s::DmaVersion>(),
        4
    );
}
for_each_arch!(s2_al_udma_init_reads_revision_4);

/// §2 `al_udma_init`: "unsupported DMA rev id: %d" / -EINVAL before any write.
#[test]
fn s2_al_udma_init_refuses_another_revision_before_writing() {
    let dev = Device::new(DeviceConfig {
        unit_bases: vec![0],
        dma_version: 3,
        ..Default::default()
    })
    .unwrap();
    let r =
        hal_engine::<khal_cayman::Cayman>(&dev, EngineParams::for_arch::<khal_cayman::Cayman>());
    assert!(
        matches!(r, Err(UdmaError::UnsupportedDmaRevision { value: 3, .. })),
        "{r:?}"
    );
    let regs = unit0(&dev);
    let q0 = regs.window(khal::regs::queue::queue_base(
        Dir::Tx,
        QueueId::new(0).unwrap(),
    ));
    assert_eq!(q0.read::<Cfg>(), QueueCfg::RESET, "no queue was enabled");
    assert!(dev.tgtid_block(0).is_none(), "the TTT is revision 4 only");
}

/// §2 `al_udma_init`: the values it writes read back from the model's registers —
/// `al_udma_q_enable` (cfg |= 0x30000, every queue, both directions), `[m2s+0x310]`
/// (2296 CAYMAN, 4088 MARIANA, else 0x400; packet limit 0x100), `[m2s+pkt]` = 0xF4240,
/// `[s2m+0x38c]` = 0.
fn s2_al_udma_init_values_read_back<A: Arch>() {
    let dev = Device::for_arch::<A>(&MEM).unwrap();
    hal_engine::<A>(&dev, EngineParams::for_arch::<A>()).unwrap();
    let regs = unit0(&dev);
    for q in QueueId::all() {
        for d in Dir::BOTH {
            let cfg = regs
                .window(khal::regs::queue::queue_base(d, q))
                .read32(0x20);
            assert_eq!(
                cfg & 0x3_0000,
                0x3_0000,
                "{d:?} queue {q:?} EN_PREF|EN_SCHEDULING"
            );
        }
    }
    let depth = match A::CODE_NAME {
        "CAYMAN" => 2296,
        "MARIANA" => 4088,
        _ => 0x400,
    };
    let data_cfg = regs.window(unit::M2S_BASE).read::<m2s::DataCfgReg>();
    assert_eq!(
        (data_cfg.data_fifo_depth(), data_cfg.max_pkt_limit()),
        (depth, 0x100)
    );
    assert_eq!(
        regs.window(unit::GEN_BASE).read::<general::AxiCfg1>(),
        0xF4240
    );
    assert_eq!(
        regs.window(unit::S2M_BASE)
            .read::<s2m::CompCfgApplicationAck>(),
        0
    );
    // The model applies what bring-up programmed: the walk's limits read off the registers.
    let rules = dev.walk_rules(0).unwrap();
    assert!(rules.encode_64k);
    assert_eq!(
        rules.max_packet_bytes,
        u64::from(udma_desc::MAX_PACKET_BYTES)
    );
}
for_each_arch!(s2_al_udma_init_values_read_back);

/// §1 `copy_prepare_one` asserts `qid < udma->num_of_queues`; §2 `al_udma_init` stores
/// `num_of_queues` (0xFF = 16, > 16 refused) but enables all 16 queues. No register holds
/// the count (neither source names one), so the hardware cannot refuse a queue: khal does,
/// before any access, and the model's queue is untouched.
#[test]
fn s2_al_udma_init_num_of_queues_bounds_the_queues_software_touches() {
    type A = khal_cayman::Cayman;
    let dev = Device::for_arch::<A>(&MEM).unwrap();
    let params = EngineParams {
        queue_count: 2,
        ..EngineParams::for_arch::<A>()
    };
    let udma = hal_engine::<A>(&dev, params).unwrap();
    assert_eq!(udma.queue_count(), 2);
    let ring = RingConfig {
        bus_addr: 0x1000,
        size: 32,
    };
    let q2 = QueueId::new(2).unwrap();
    assert!(udma.init_queue(q2, ring, ring).is_err());
    let regs = unit0(&dev);
    let q2_regs = regs.window(khal::regs::queue::queue_base(Dir::Tx, q2));
    assert_eq!(
        (q2_regs.read32(0x28), q2_regs.read32(0x30)),
        (0, 0),
        "ring base, length"
    );
    udma.init_queue(QueueId::new(1).unwrap(), ring, ring)
        .unwrap();
    assert!(
        hal_engine::<A>(
            &dev,
            EngineParams {
                queue_count: 17,
                ..params
            }
        )
        .is_err()
    );
}

/// A copy on queue `q` of engine 0 whose TX doorbell is rung and RX doorbell not: a packet
/// arriving at S2M with no RX descriptor.
fn tx_without_rx<A: Arch>(rig: &Rig<A>, udma: &Engine<A>, pair: &mut common::Pair) -> u64 {
    let (_, dst, _) = rig.copy_one(pair, 256, 9);
    // Only the TX doorbell, through the engine's Doorbell: `copy_start` refuses an RX count
    // of 0 as the kernel does, so this is what a start the driver would refuse looks like.
    udma_desc::Doorbell::ring_tx(udma, pair.queue(), 1);
    dst
}

/// §2 `al_udma_s2m_no_desc_cfg_set(drop_en = 1, timeout)`: a packet with no RX descriptor
/// is dropped once it has waited `timeout` units. The unit is in no source: the model counts
/// scheduler passes over the waiting pair, so with a busy neighbour queue the drop comes
/// after `timeout` of its packets.
#[test]
fn s2_al_udma_s2m_no_desc_cfg_set_drops_after_the_timeout() {
    type A = khal_cayman::Cayman;
    let (rig, udma, mut waiting) = Rig::<A>::with_queue(0, 0, 32);
    udma.set_s2m_no_desc(true, false, 3).unwrap();
    assert_eq!(udma.s2m_no_desc().timeout(), 3);
    let mut busy = rig.queue(&udma, 1, 32);
    let dst = tx_without_rx(&rig, &udma, &mut waiting);
    for k in 0..5 {
        rig.copy_one(&mut busy, 64, k);
    }
    busy.copy_start(&udma, 5, 5).unwrap();
    let steps: Vec<Step> = std::iter::from_fn(|| rig.dev.step()).collect();
    let queues: Vec<(usize, bool)> = steps
        .iter()
        .map(|s| match *s {
            Step::Packet { queue, .. } => (queue, false),
            Step::Dropped { queue, .. } => (queue, true),
            Step::Fault(f) => panic!("{f:?}"),
        })
        .collect();
    assert_eq!(
        queues,
        [
            (1, false),
            (1, false),
            (1, false),
            (0, true),
            (1, false),
            (1, false)
        ]
    );
    let rx = rig.dev.queue_stats(0, Direction::Rx, 0).unwrap();
    assert_eq!(
        (rx.dropped_packets, rx.descriptors),
        (1, 0),
        "no RX descriptor taken"
    );
    let tx = rig.dev.queue_stats(0, Direction::Tx, 0).unwrap();
    assert_eq!(tx.descriptors, 1, "the TX packet was consumed");
    assert_eq!(rig.dev.read_mem_vec(dst, 256).unwrap(), vec![0; 256]);
}

/// §2 `al_udma_s2m_no_desc_cfg_set`: "setting timeout to 0 will cause the udma to wait
/// forever instead of dropping the packet" (drop off). The packet waits and moves once an RX
/// descriptor is posted. The reset value behaves the same.
#[test]
fn s2_al_udma_s2m_no_desc_cfg_set_timeout_0_waits_forever() {
    type A = khal_sunda::Sunda;
    for explicit in [false, true] {
        let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 32);
        if explicit {
            udma.set_s2m_no_desc_wait_forever(false);
        }
        let dst = tx_without_rx(&rig, &udma, &mut pair);
        let r = rig.dev.run_until_idle();
        assert_eq!((r.packets, r.dropped), (0, 0));
        assert!(rig.dev.is_idle(), "waiting, not spinning");
        pair.copy_start(&udma, 0, 1).unwrap();
        rig.run_clean(1);
        assert_ne!(rig.dev.read_mem_vec(dst, 256).unwrap(), vec![0; 256]);
    }
}

/// §2 `al_udma_s2m_no_desc_cfg_set(drop_en = 1, timeout = 0)`: dropped at once.
#[test]
fn s2_al_udma_s2m_no_desc_cfg_set_drop_with_timeout_0_drops_at_once() {
    type A = khal_mariana::Mariana;
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 32);
    udma.set_s2m_no_desc(true, false, 0).unwrap();
    tx_without_rx(&rig, &udma, &mut pair);
    assert!(matches!(
        rig.dev.step(),
        Some(Step::Dropped { bytes: 256, .. })
    ));
}

/// §2 `al_udma_ttt_default_config` (MARIANA, revision 4), with the ancestor HAL's registers
/// (`reference/al-hal/facts.tsv` rows `d`): set `init_trig` (`gen_ex+0x820`) bit 0, wait while
/// `init_in_progress` (`+0x824`) bit 0 reads 1, `ttt_en(1)` (`+0x800` bit 0), then the default
/// entry of each configured queue, "words: q<<5, 0, 3, 0, 0xFFFFFFFF, 0xFFFF0000, 0",
/// committed by the write of the seventh word. The model serves the registers in the unit
/// window (unit `0x3c800..0x3cc1c`) and in the separate `gen_ex` window, on the same state.
#[test]
fn s2_al_udma_ttt_default_config_enables_the_table_and_stores_an_entry_per_queue() {
    type A = khal_mariana::Mariana;
    let dev = Device::for_arch::<A>(&MEM).unwrap();
    let params = EngineParams {
        queue_count: 4,
        ..EngineParams::for_arch::<A>()
    };
    let udma = hal_engine::<A>(&dev, params).unwrap();
    let gen_ex = dev.tgtid_block(0).expect("revision 4 has the TTT");
    assert_eq!(dev.ttt_enabled(0), Some(false));
    udma.ttt_default_config(&gen_ex, 8).unwrap();
    assert_eq!(dev.ttt_enabled(0), Some(true));
    assert_eq!(
        unit0(&dev).read32(GEN_EX_BASE + TTT_CTRL) & 1,
        1,
        "seen in the unit window"
    );
    let entries = dev.ttt_entries(0).unwrap();
    assert_eq!(entries.len(), 4);
    assert_eq!(
        entries[2],
        (2 << 5, [2 << 5, 0, 3, 0, 0xFFFF_FFFF, 0xFFFF_0000, 0])
    );
    assert_eq!(
        gen_ex.read32(TTT_ENTRY),
        3 << 5,
        "the last entry's address word"
    );
    // init_trig zero-fills the table (al-hal d: "a self-clearing zero-fill").
    gen_ex.write32(TTT_INIT_TRIG, 1);
    assert_eq!(dev.ttt_entries(0).unwrap(), Vec::new());
    assert_eq!(gen_ex.read32(TTT_INIT_TRIG), 0, "self-clearing");
}

/// §2 `al_udma_state_set_wait` on MARIANA: the NORMAL transition is followed by the TTT
/// default configuration (al-hal `d`/`h`: "TTT default config *after* success on NORMAL"), in
/// the unit's own `gen_ex`, with nothing supplied by the caller.
#[test]
fn s2_al_udma_state_set_wait_normal_on_mariana_configures_the_ttt_after_the_state() {
    type A = khal_mariana::Mariana;
    let dev = Device::for_arch::<A>(&MEM).unwrap();
    let params = EngineParams {
        queue_count: 2,
        ..EngineParams::for_arch::<A>()
    };
    let udma = hal_engine::<A>(&dev, params).unwrap();
    udma.state_set_wait(UdmaState::Normal, 8).unwrap();
    assert_eq!(udma.state(Dir::Tx), UdmaState::Normal);
    assert_eq!(dev.ttt_enabled(0), Some(true));
    let keys: Vec<u32> = dev.ttt_entries(0).unwrap().iter().map(|e| e.0).collect();
    assert_eq!(keys, [0, 1 << 5]);
}
