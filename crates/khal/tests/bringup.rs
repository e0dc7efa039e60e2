//! Engine and queue bring-up recorded on a fake register file, checked write by write
//! against `udma-notes.md` sections 2, 3, 6, 7 and `iofic.tsv`.

mod common;

use common::{Regs, Rev3Engine, iofic_writes};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::udma::{EngineParams, RingConfig, Udma, UdmaError, UdmaState, UnitDoorbell};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;
use mmio::Access;
use udma_desc::{Doorbell, QueueId};

fn q(n: u32) -> QueueId {
    QueueId::new(n).unwrap()
}

/// Step 7 (prefetch and burst setup) for max descriptors per packet `n`, with the notes'
/// formulas: `desc_pref_cfg_2` = n | force-RR bit 16; `desc_pref_cfg_3` = n<<8 | 8<<4 | 1
/// (TX, then RX); AXI descriptor-read bursts 0x0001_0008 (TX, RX).
fn prefetch_writes(n: u32) -> [(usize, u32); 5] {
    let cfg3 = (n << 8) | (8 << 4) | 1;
    [
        (0x304, n | (1 << 16)),
        (0x308, cfg3),
        (0x20308, cfg3),
        (0x11c, 0x0001_0008),
        (0x2011c, 0x0001_0008),
    ]
}

/// The notes' table for N = 65, as printed there.
const PREFETCH_65: [(usize, u32); 5] = [
    (0x304, 0x0001_0041),
    (0x308, 0x0000_4181),
    (0x20308, 0x0000_4181),
    (0x11c, 0x0001_0008),
    (0x2011c, 0x0001_0008),
];

/// N = 128 (V2's packet limit), worked by hand: 0x80 | 0x1_0000; 0x8000 | 0x80 | 0x1.
const PREFETCH_128: [(usize, u32); 5] = [
    (0x304, 0x0001_0080),
    (0x308, 0x0000_8081),
    (0x20308, 0x0000_8081),
    (0x11c, 0x0001_0008),
    (0x2011c, 0x0001_0008),
];

#[test]
fn prefetch_formula_reproduces_the_notes_table_and_the_hand_worked_128_vector() {
    assert_eq!(prefetch_writes(65), PREFETCH_65);
    assert_eq!(prefetch_writes(128), PREFETCH_128);
}

/// The expected engine-init writes, from the notes' table (literal values per arch), with
/// the step-7 writes `prefetch` (the notes' N = 65 table for V3/V4 by default).
fn expected_init(arch: &str) -> Vec<(usize, u32)> {
    expected_init_with(
        arch,
        if arch == "v2" {
            PREFETCH_128
        } else {
            PREFETCH_65
        },
    )
}

fn expected_init_with(arch: &str, prefetch: [(usize, u32); 5]) -> Vec<(usize, u32)> {
    let mut w = Vec::new();
    for n in 0..16 {
        w.push((0x1020 + n * 0x1000, 0x0003_0000));
        w.push((0x21020 + n * 0x1000, 0x0003_0000));
    }
    let v2 = arch == "v2";
    w.push((0x310, if v2 { 0x0100_0400 } else { 0x0100_08f8 }));
    w.push((0x124, if v2 { 0x0000_086f } else { 0x2080_8080 }));
    w.push((0x3a300, 0x05f5_e100));
    w.push((0x408, 0));
    w.push((0x254, 0x010f_ffff));
    w.push((0x258, 0x0000_0102));
    for n in 0..16 {
        w.push((0x3c400 + n * 0x40, 0xffff_ffff));
    }
    w.push((0x118, 0x0001_0008));
    w.push((0x2038c, 0));
    for n in 0..16 {
        for i in 0..3 {
            w.push((0x3c404 + n * 0x40 + 4 * i, 0xffff_ffff));
        }
    }
    w.push((0x20124, if v2 { 0x0040_0008 } else { 0x0040_0080 }));
    w.push((0x20128, 0x4080_4080));
    if arch == "v4" {
        // Preset 0xffff_fc55: bits 9:0 replaced by 256.
        w.push((0x2012c, 0xffff_fd00));
    }
    w.push((0x3b460, 0xffff_fffe)); // preset all-ones, bit 0 cleared
    // Every generation is UDMA revision 4: the kernel's IOFIC writes on all three (the
    // seed's masks are keyed on the revision, seed 004 §4).
    w.extend(iofic_writes("m2s"));
    w.extend(iofic_writes("s2m"));
    w.push((0x20380, 0x0000_1004));
    w.extend(prefetch);
    w
}

fn init_on<A: Arch>(arch: &str) {
    init_with::<A>(arch, EngineParams::for_arch::<A>(), &expected_init(arch));
}

fn init_with<A: Arch>(arch: &str, params: EngineParams, expected: &[(usize, u32)]) {
    let regs = Regs::new();
    regs.preset(0x2012c, 0xffff_fc55);
    regs.preset(0x3b460, 0xffff_ffff);
    let e = Udma::<A, _>::init(&regs, params).unwrap();
    assert_eq!(e.queue_count(), 16);
    assert_eq!(regs.lost(), 0);
    assert_eq!(regs.writes().as_slice(), expected, "{arch}");
    let reads: Vec<_> = regs
        .trace()
        .iter()
        .filter(|a| !a.is_write())
        .map(|a| a.offset())
        .collect();
    let expected_reads: &[usize] = if arch == "v4" {
        &[0x2012c, 0x3b460]
    } else {
        &[0x3b460]
    };
    assert_eq!(
        reads, expected_reads,
        "{arch}: only the read-modify-writes read"
    );
}

#[test]
fn engine_init_matches_the_reference_sequence_on_every_arch() {
    init_on::<Sunda>("v2");
    init_on::<Cayman>("v3");
    init_on::<Mariana>("v4");
}

#[test]
fn engine_params_default_to_the_arch_packet_limit() {
    assert_eq!(EngineParams::for_arch::<Sunda>().max_descs_per_packet, 128);
    assert_eq!(EngineParams::for_arch::<Cayman>().max_descs_per_packet, 65);
    assert_eq!(EngineParams::for_arch::<Mariana>().max_descs_per_packet, 65);
    let p = EngineParams::for_arch::<Sunda>().with_max_descs_per_packet(40);
    assert_eq!(
        p,
        EngineParams {
            queue_count: 0xff,
            max_descs_per_packet: 40,
            hw_revision: None
        }
    );
}

#[test]
fn v2_engine_init_with_the_kernel_product_value_writes_the_notes_n65_table() {
    // The kernel passes 65 on V2 too; the explicit override reproduces its sequence exactly.
    let kernel = EngineParams::for_arch::<Sunda>()
        .with_max_descs_per_packet(Sunda::SCALARS.descs_per_packet_at_init);
    init_with::<Sunda>("v2", kernel, &expected_init_with("v2", PREFETCH_65));
    // And an override on V3 is honoured as well.
    let p = EngineParams::for_arch::<Cayman>().with_max_descs_per_packet(128);
    init_with::<Cayman>("v3", p, &expected_init_with("v3", PREFETCH_128));
}

#[test]
fn kernel_iofic_rows_are_what_v2_and_v4_program() {
    // Guard against the test's own source: the tsv rows for TX end with primary D ~0x500.
    assert_eq!(iofic_writes("m2s")[6], (0x380d8, 0xffff_faff));
    assert_eq!(iofic_writes("s2m")[2], (0x3a070, 0x0000_10f8));
}

#[test]
fn engine_init_rejects_bad_parameters_before_writing_anything() {
    let regs = Regs::new();
    let p = EngineParams::for_arch::<Cayman>();
    let bad = [
        (
            EngineParams {
                queue_count: 17,
                ..p
            },
            UdmaError::BadQueueCount { requested: 17 },
        ),
        (
            EngineParams {
                queue_count: 0,
                ..p
            },
            UdmaError::BadQueueCount { requested: 0 },
        ),
        (
            EngineParams {
                max_descs_per_packet: 7,
                ..p
            },
            UdmaError::BadMaxDescsPerPacket { value: 7 },
        ),
        (
            EngineParams {
                max_descs_per_packet: 129,
                ..p
            },
            UdmaError::BadMaxDescsPerPacket { value: 129 },
        ),
        (
            EngineParams {
                hw_revision: Some(3),
                ..p
            },
            UdmaError::RevisionMismatch {
                hardware: 3,
                arch: 4,
            },
        ),
    ];
    for (params, err) in bad {
        assert_eq!(Udma::<Cayman, _>::init(&regs, params).err(), Some(err));
    }
    assert!(regs.trace().is_empty());
    let e = Udma::<Cayman, _>::init(
        &regs,
        EngineParams {
            queue_count: 0xff,
            ..p
        },
    )
    .unwrap();
    assert_eq!(e.queue_count(), 16);
    let e = Udma::<Cayman, _>::attach(&regs, 4, Some(4)).unwrap();
    assert_eq!(e.queue_count(), 4);
}

#[test]
fn engine_init_of_a_pre_rev4_engine_is_a_typed_error() {
    let regs = Regs::new();
    assert_eq!(
        Udma::<Rev3Engine, _>::init(&regs, EngineParams::for_arch::<Rev3Engine>()).err(),
        Some(UdmaError::UnsupportedRevision {
            feature: khal::udma::RevisionFeature::EngineInit,
            found: 3,
            required: 4
        })
    );
    assert!(regs.trace().is_empty());
}

/// Cayman TX queue 3 programmed with a `len`-entry ring at 0x1_2345_6700 (`udma-notes.md`
/// section 3): rate-limit mask, pause, pointer reset, base low/high, length, no completion
/// ring, enable.
fn tx_queue_3_writes(len: u32) -> [(usize, u32); 8] {
    [
        (0x4074, 0x3),
        (0x4020, 0x0300_0000),
        (0x40b0, 0x100),
        (0x4028, 0x2345_6700),
        (0x402c, 0x1),
        (0x4030, len),
        (0x40a0, 0),
        (0x4020, 0x0303_0000),
    ]
}

#[test]
fn queue_init_programs_tx_then_rx_as_the_reference_trace() {
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 0xff, None).unwrap();
    let tx = RingConfig {
        bus_addr: 0x1_2345_6700,
        size: 256,
    };
    let rx = RingConfig {
        bus_addr: 0x2_0000_0000,
        size: 1024,
    };
    e.init_queue(q(3), tx, rx).unwrap();
    let writes = regs.writes();
    assert_eq!(writes[..8], tx_queue_3_writes(256));
    assert_eq!(
        writes[8..],
        [
            (0x24020, 0x0300_0000),
            (0x24064, 0x100),
            (0x24028, 0),
            (0x2402c, 0x2),
            (0x24030, 1024),
            (0x24054, 0),
            (0x24020, 0x0303_0000),
        ]
    );
}

#[test]
fn hardware_rules_take_any_multiple_of_16_that_khal_refuses() {
    // dma-path.md step 2 (the driver's DMA_QUEUE_INIT): start and end 256-byte aligned, entry
    // count a multiple of 16 in 32..=2^24-16; "Power of two: not checked by DMA_QUEUE_INIT".
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 0xff, None).unwrap();
    let ring = RingConfig {
        bus_addr: 0x1_2345_6700,
        size: 48,
    };
    // khal's own entry point keeps its power-of-two rule ...
    assert_eq!(
        e.init_queue_dir(Dir::Tx, q(3), ring),
        Err(UdmaError::BadRingSize {
            dir: Dir::Tx,
            size: 48
        })
    );
    assert!(regs.trace().is_empty());
    // ... the hardware-rules one programs the same sequence with length 48.
    e.init_queue_dir_driver_rules(Dir::Tx, q(3), ring).unwrap();
    assert_eq!(regs.writes().as_slice(), tx_queue_3_writes(48));
    let max = RingConfig {
        size: udma_desc::RING_MAX_SIZE,
        ..ring
    };
    assert_eq!(max.validate_driver_rules(Dir::Rx), Ok(()));
    for (bad, err) in [
        (
            RingConfig { size: 40, ..ring },
            UdmaError::BadDriverRingSize {
                dir: Dir::Rx,
                size: 40,
            },
        ),
        (
            RingConfig { size: 16, ..ring },
            UdmaError::BadDriverRingSize {
                dir: Dir::Rx,
                size: 16,
            },
        ),
        (
            RingConfig {
                size: 1 << 24,
                ..ring
            },
            UdmaError::BadDriverRingSize {
                dir: Dir::Rx,
                size: 1 << 24,
            },
        ),
        (
            RingConfig {
                bus_addr: 0x1080,
                size: 32,
            },
            UdmaError::RingMisaligned {
                dir: Dir::Rx,
                addr: 0x1080,
            },
        ),
    ] {
        assert_eq!(bad.validate_driver_rules(Dir::Rx), Err(err));
    }
}

#[test]
fn queue_init_validates_both_rings_before_writing() {
    let regs = Regs::new();
    let e = Udma::<Sunda, _>::attach(&regs, 2, None).unwrap();
    let ok = RingConfig {
        bus_addr: 0x1000,
        size: 64,
    };
    let cases = [
        (
            q(0),
            ok,
            RingConfig {
                bus_addr: 0x1080,
                size: 64,
            },
            UdmaError::RingMisaligned {
                dir: Dir::Rx,
                addr: 0x1080,
            },
        ),
        (
            q(0),
            RingConfig { size: 48, ..ok },
            ok,
            UdmaError::BadRingSize {
                dir: Dir::Tx,
                size: 48,
            },
        ),
        (
            q(0),
            ok,
            RingConfig { size: 16, ..ok },
            UdmaError::BadRingSize {
                dir: Dir::Rx,
                size: 16,
            },
        ),
        (
            q(0),
            RingConfig {
                size: 1 << 24,
                ..ok
            },
            ok,
            UdmaError::BadRingSize {
                dir: Dir::Tx,
                size: 1 << 24,
            },
        ),
        (
            q(0),
            RingConfig {
                bus_addr: u64::MAX - 255,
                size: 32,
            },
            ok,
            UdmaError::RingOverflow {
                dir: Dir::Tx,
                addr: u64::MAX - 255,
            },
        ),
        (
            q(2),
            ok,
            ok,
            UdmaError::QueueNotConfigured { queue: 2, count: 2 },
        ),
    ];
    for (queue, tx, rx, err) in cases {
        assert_eq!(e.init_queue(queue, tx, rx), Err(err));
    }
    assert!(
        regs.trace().is_empty(),
        "an RX error leaves TX untouched too"
    );
    assert_eq!(
        e.init_queue(
            q(1),
            ok,
            RingConfig {
                size: 1 << 23,
                ..ok
            }
        ),
        Ok(())
    );
}

#[test]
fn enable_pause_reset_and_readback() {
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 0xff, None).unwrap();
    e.enable_queue(Dir::Rx, q(15)).unwrap();
    assert!(e.queue_cfg(Dir::Rx, q(15)).unwrap().en_stream());
    e.pause_queue(Dir::Tx, q(0)).unwrap();
    e.reset_queue(Dir::Rx, q(1)).unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [
            (0x30020, 0x0303_0000),
            (0x1020, 0x0300_0000),
            (0x22020, 0x0300_0000),
            (0x22064, 0x100)
        ]
    );
}

#[test]
fn state_change_writes_tx_then_rx_and_refuses_idle_and_reset() {
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 0xff, None).unwrap();
    for (s, v) in [
        (UdmaState::Normal, 1),
        (UdmaState::Disable, 2),
        (UdmaState::Abort, 4),
    ] {
        regs.clear_trace();
        e.set_state(s).unwrap();
        assert_eq!(regs.writes().as_slice(), [(0x204, v), (0x20204, v)]);
    }
    regs.clear_trace();
    for s in [UdmaState::Idle, UdmaState::Reset] {
        assert_eq!(
            e.set_state(s),
            Err(UdmaError::StateNotSettable { state: s })
        );
    }
    assert!(regs.trace().is_empty());
}

#[test]
fn state_readback_folds_fields_and_honours_the_rx_stream_rule() {
    let regs = Regs::new();
    let e = Udma::<Cayman, _>::attach(&regs, 2, None).unwrap();
    assert_eq!(e.state(Dir::Tx), UdmaState::Idle);
    regs.preset(0x200, 0x0000_1010); // prefetch normal, stream normal
    assert_eq!(e.state(Dir::Tx), UdmaState::Normal);
    regs.preset(0x200, 0x0000_0201); // data abort wins
    assert_eq!(e.state(Dir::Tx), UdmaState::Abort);

    // RX: only the stream field is non-idle.
    regs.preset(0x20200, 0x0000_0020); // stream abort
    assert_eq!(
        e.state(Dir::Rx),
        UdmaState::Abort,
        "stream enabled by default"
    );
    regs.preset(0x20250, 0x111); // DISABLE | FLUSH | STOP_PREFETCH: stream off
    assert_eq!(e.state(Dir::Rx), UdmaState::Idle, "stream field ignored");
    regs.preset(0x20250, 0x011); // not all three: still enabled
    assert_eq!(e.state(Dir::Rx), UdmaState::Abort);
    regs.preset(0x20250, 0x111);
    regs.preset(0x22020, 0x0303_0000); // RX queue 1 active with its stream bit
    assert_eq!(
        e.state(Dir::Rx),
        UdmaState::Abort,
        "an active queue overrides the engine"
    );
    regs.preset(0x22020, 0x0301_0000); // prefetch only, stream bit clear
    assert_eq!(e.state(Dir::Rx), UdmaState::Idle);
    regs.clear_trace();
    e.state(Dir::Rx);
    let reads: Vec<_> = regs.trace().iter().map(Access::offset).collect();
    assert_eq!(
        reads,
        [0x20250, 0x21020, 0x22020, 0x20200],
        "only the 2 configured queues"
    );
}

#[test]
fn prefetch_config_matches_the_notes_formula_table() {
    let regs = Regs::new();
    let e = Udma::<Sunda, _>::attach(&regs, 0xff, None).unwrap();
    e.set_max_descs_per_packet(128).unwrap();
    assert_eq!(regs.writes().as_slice(), PREFETCH_128);
    regs.clear_trace();
    e.set_max_descs_per_packet(65).unwrap();
    assert_eq!(regs.writes().as_slice(), PREFETCH_65);
    regs.clear_trace();
    assert_eq!(
        e.set_max_descs_per_packet(0),
        Err(UdmaError::BadMaxDescsPerPacket { value: 0 })
    );
    assert_eq!(
        e.set_max_descs_per_packet(129),
        Err(UdmaError::BadMaxDescsPerPacket { value: 129 })
    );
    assert!(regs.trace().is_empty(), "a refused value writes nothing");
}

#[test]
fn target_steering_writes_the_rev4_selectors() {
    let regs = Regs::new();
    let e = Udma::<Mariana, _>::attach(&regs, 0xff, None).unwrap();
    let t = khal::udma::QueueTarget {
        tx: 1,
        rx: [2, 3, 4],
    };
    e.set_queue_target(q(2), t).unwrap();
    assert_eq!(
        regs.writes().as_slice(),
        [(0x3c480, 1), (0x3c484, 2), (0x3c488, 3), (0x3c48c, 4)]
    );
    assert_eq!(e.queue_target(q(2)), Ok(t));
    let e1 = Udma::<Mariana, _>::attach(&regs, 1, None).unwrap();
    assert_eq!(
        e1.set_queue_target(q(1), t),
        Err(UdmaError::QueueNotConfigured { queue: 1, count: 1 })
    );
}

#[test]
fn doorbells_barrier_then_write_the_tail_increment() {
    let regs = Regs::new();
    let bell = UnitDoorbell(&regs);
    bell.ring_rx(q(3), 5);
    bell.ring_tx(q(3), 2);
    let e = Udma::<Sunda, _>::attach(&regs, 0xff, None).unwrap();
    e.ring_rx(q(15), 1);
    e.ring_tx(q(0), 7);
    assert_eq!(
        regs.writes().as_slice(),
        [(0x24038, 5), (0x4038, 2), (0x30038, 1), (0x1038, 7)]
    );
    // The DMA write barrier comes just before every doorbell write (trace index 0..4).
    assert_eq!(regs.barriers().as_slice(), [0, 1, 2, 3]);
    // The doorbell works through any window type, e.g. a sub-window at a unit's BAR offset.
    let bar: Regs = Regs::new();
    let unit = mmio::Window::new(&bar, 0x8200_0000);
    UnitDoorbell(unit).ring_rx(q(0), 1);
    assert_eq!(bar.writes().as_slice(), [(0x8202_1038, 1)]);
    assert_eq!(bar.barriers().as_slice(), [0], "through the sub-window too");
    assert!(
        bar.trace().iter().all(|a| a.is_write()),
        "a doorbell only writes"
    );
}
