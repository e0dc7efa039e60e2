//! End-to-end copies on the model for V2, V3 and V4: engines brought up by khal, descriptors
//! built by udma-desc into model memory, doorbells through khal, every destination byte
//! checked, and every byte outside the destinations checked untouched.

mod common;

use neuron_emu::for_each_arch;

use std::time::Duration;

use common::{Rig, pattern};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::udma::UdmaState;
use neuron_emu::{Direction, ExecMode, GROUP_B, Level};
use udma_desc::caps::StrongOrder;
use udma_desc::{Barrier, CopyBlock, CopyRequest, PacketOptions, Segment, SgBlock};

fn single_descriptor_copies<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 64);
    let mut expect = Vec::new();
    for (i, &(size, to_hbm)) in [
        (1usize, true),
        (17, false),
        (4096, true),
        (65_536, true),
        (65_535, false),
    ]
    .iter()
    .enumerate()
    {
        let (from, to) = if to_hbm {
            (rig.host, rig.hbm)
        } else {
            (rig.hbm, rig.host)
        };
        let (src, data) = rig.buffer(from, size, i as u32);
        let dst = rig.zeroed(to, size + 64);
        let dst = dst + 32; // guard bytes on both sides stay zero
        pair.copy_prepare_one::<A>(&CopyRequest::new(src, dst, size as u32))
            .unwrap();
        let before = rig.snapshot();
        pair.copy_start(&udma, 1, 1).unwrap();
        rig.run_clean(1);
        rig.assert_unchanged_outside(&before, &[(dst, size)]);
        expect.push((dst, data));
    }
    for (dst, data) in &expect {
        assert_eq!(&rig.dev.read_mem_vec(*dst, data.len()).unwrap(), data);
    }
    let tx = rig.dev.queue_stats(0, Direction::Tx, 0).unwrap();
    assert_eq!((tx.packets, tx.descriptors), (5, 5));
    assert_eq!(udma.state(Dir::Tx), UdmaState::Normal);
    assert_eq!(udma.state(Dir::Rx), UdmaState::Normal);
}
for_each_arch!(single_descriptor_copies);

fn multi_descriptor_packets_up_to_the_arch_limit<A: Arch>() {
    let rig = Rig::<A>::new();
    let udma = rig.engine(1);
    // Engine init programs the arch's own limit (V2 128, V3 and V4 65): a packet of exactly
    // that many descriptors runs without PREFETCH_MAX_DESC.
    let limit = A::MAX_TX_DESCS_PER_PACKET;
    let mut pair = rig.queue(&udma, 3, 256);
    const BLOCK: usize = 4096;
    for (cme, blocks) in [(None, limit), (Some(2u8), limit - 1), (None, 2)] {
        let n = blocks as usize;
        let (src, data) = rig.buffer(rig.host, n * BLOCK, blocks);
        let dst = rig.zeroed(rig.hbm, n * BLOCK);
        // Scatter the blocks in reverse order to prove the per-descriptor pairing.
        let list: Vec<CopyBlock> = (0..n)
            .map(|i| CopyBlock {
                src: src + (i * BLOCK) as u64,
                dst: dst + ((n - 1 - i) * BLOCK) as u64,
                size: BLOCK as u32,
            })
            .collect();
        let mut opts = PacketOptions::<A>::new().with_dst_interrupt(true);
        if let Some(idx) = cme {
            opts = opts.with_cme_index(idx).unwrap();
        }
        let slots = pair.packet_prepare(list, &opts).unwrap();
        assert_eq!(slots.tx_count, blocks + u32::from(cme.is_some()));
        let before = rig.snapshot();
        pair.copy_start(&udma, slots.tx_count, slots.rx_count)
            .unwrap();
        rig.run_clean(1);
        let got = rig.dev.read_mem_vec(dst, n * BLOCK).unwrap();
        for i in 0..n {
            let want = &data[i * BLOCK..(i + 1) * BLOCK];
            let at = (n - 1 - i) * BLOCK;
            assert_eq!(&got[at..at + BLOCK], want, "block {i}");
        }
        rig.assert_unchanged_outside(&before, &[(dst, n * BLOCK)]);
        assert_eq!(
            rig.dev.iofic_cause(1, Level::Primary, GROUP_B),
            Some(1 << 3),
            "RX completion of q3"
        );
        pair.tx().ack(slots.tx_count).unwrap();
        pair.rx().ack(slots.rx_count).unwrap();
    }
    let tx = rig.dev.queue_stats(1, Direction::Tx, 3).unwrap();
    assert_eq!(
        tx.meta_descriptors, 1,
        "the CME descriptor was consumed without data"
    );
}
for_each_arch!(multi_descriptor_packets_up_to_the_arch_limit);

/// Seed 004 §1 `build_packet` fetches the TX blocks and the RX blocks in separate loops: a
/// source read as three 1000-byte pieces lands in destination pieces of 512, 2000 and 488
/// bytes, placed in reverse order, and the engine streams the packet across them.
fn scatter_gather_packet_streams_across_unequal_pieces<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(2, 4, 64);
    let (src, data) = rig.buffer(rig.host, 3000, 11);
    let dst = rig.zeroed(rig.hbm, 3000);
    let seg = |addr, size| Segment { addr, size };
    let blocks = [
        (seg(src, 1000), seg(dst + 2488, 512)),
        (seg(src + 1000, 1000), seg(dst + 488, 2000)),
        (seg(src + 2000, 1000), seg(dst, 488)),
    ]
    .map(|(src, dst)| SgBlock { src, dst });
    let slots = pair
        .packet_prepare_sg(blocks, &PacketOptions::<A>::new())
        .unwrap();
    assert_eq!((slots.tx_count, slots.rx_count, slots.bytes), (3, 3, 3000));
    let before = rig.snapshot();
    pair.copy_start(&udma, slots.tx_count, slots.rx_count)
        .unwrap();
    assert_eq!(rig.run_clean(1).bytes, 3000);
    let got = rig.dev.read_mem_vec(dst, 3000).unwrap();
    assert_eq!(got[2488..], data[..512], "first RX piece");
    assert_eq!(got[488..2488], data[512..2512], "second RX piece");
    assert_eq!(got[..488], data[2512..], "third RX piece");
    rig.assert_unchanged_outside(&before, &[(dst, 3000)]);
}
for_each_arch!(scatter_gather_packet_streams_across_unequal_pieces);

fn sixty_four_kib_descriptors<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(2, 15, 64);
    // 15 x 64 KiB fits the 20-bit packet limit (0xfffff bytes); each length field is 0.
    const N: usize = 15;
    const BLOCK: usize = 65_536;
    let (src, data) = rig.buffer(rig.hbm, N * BLOCK, 64);
    let dst = rig.zeroed(rig.host, N * BLOCK);
    let list = (0..N).map(|i| CopyBlock {
        src: src + (i * BLOCK) as u64,
        dst: dst + (i * BLOCK) as u64,
        size: BLOCK as u32,
    });
    let slots = pair
        .packet_prepare(list, &PacketOptions::<A>::new())
        .unwrap();
    assert_eq!(
        pair.tx().load(slots.tx_start).unwrap().words()[0] & 0xffff,
        0,
        "64 KiB encodes as 0"
    );
    let before = rig.snapshot();
    pair.copy_start(&udma, slots.tx_count, slots.rx_count)
        .unwrap();
    assert_eq!(rig.run_clean(1).bytes, (N * BLOCK) as u64);
    assert_eq!(rig.dev.read_mem_vec(dst, N * BLOCK).unwrap(), data);
    rig.assert_unchanged_outside(&before, &[(dst, N * BLOCK)]);
}
for_each_arch!(sixty_four_kib_descriptors);

fn many_laps_of_the_ring<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 7, 32);
    let (src, data) = rig.buffer(rig.host, 64 * 1024, 7);
    let dst = rig.zeroed(rig.hbm, 64 * 1024);
    // 9 laps of a 32-slot ring, in bursts of 8 (the ring keeps 16 slots in reserve).
    let mut done = 0usize;
    let mut heads = Vec::new();
    while done < 9 * 32 {
        for k in 0..8 {
            let i = done + k;
            let (s, d) = (src + (i * 200) as u64, dst + (i * 200) as u64);
            pair.copy_prepare_one::<A>(&CopyRequest::new(s, d, 200))
                .unwrap();
        }
        pair.copy_start(&udma, 8, 8).unwrap();
        rig.run_clean(8);
        pair.ack(8).unwrap();
        done += 8;
        heads.push(rig.dev.queue_head(0, Direction::Tx, 7).unwrap());
    }
    assert_eq!(
        rig.dev.read_mem_vec(dst, 9 * 32 * 200).unwrap(),
        data[..9 * 32 * 200]
    );
    let head = rig.dev.queue_head(0, Direction::Rx, 7).unwrap();
    assert_eq!(
        (head.index, head.ring_id.get()),
        (0, (1 + 9) % 4),
        "nine wraps: phase 1,2,3,0,1,..."
    );
    let phases: std::collections::BTreeSet<u8> = heads.iter().map(|h| h.ring_id.get()).collect();
    assert_eq!(phases.len(), 4, "every phase value was used");
}
for_each_arch!(many_laps_of_the_ring);

fn several_queues_and_engines_at_once<A: Arch>() {
    let rig = Rig::<A>::new();
    let last = rig.dev.unit_count() - 1; // a host-transfer engine
    let mut work = Vec::new();
    for (n, engine) in [0usize, 5, last].into_iter().enumerate() {
        let udma = rig.engine(engine);
        for q in [0u8, 9, 15] {
            let mut pair = rig.queue(&udma, q, 32);
            let mut copies = Vec::new();
            for k in 0..4u32 {
                let size = 1000 + 97 * k as usize + q as usize;
                let seed = (n as u32) << 16 | u32::from(q) << 8 | k;
                let (_, dst, data) = rig.copy_one(&mut pair, size, seed);
                copies.push((dst, data));
            }
            pair.copy_start(&udma, 4, 4).unwrap();
            work.push((engine, q, copies));
        }
    }
    // Nothing moved yet (manual mode); one run serves 9 queue pairs round-robin.
    assert!(!rig.dev.is_idle());
    rig.run_clean(36);
    for (engine, q, copies) in work {
        for (dst, data) in copies {
            assert_eq!(
                rig.dev.read_mem_vec(dst, data.len()).unwrap(),
                data,
                "engine {engine} q {q}"
            );
        }
    }
}
for_each_arch!(several_queues_and_engines_at_once);

/// DMB and write barrier are ordering points: a copy that reads what the previous copy of
/// the same queue wrote sees the new bytes.
fn barriers_order_dependent_copies<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 1, 32);
    let (a, data) = rig.buffer(rig.host, 8192, 11);
    let b = rig.zeroed(rig.hbm, 8192);
    let c = rig.zeroed(rig.host, 8192);
    let d = rig.zeroed(rig.hbm, 8192);
    pair.copy_prepare_one::<A>(&CopyRequest::new(a, b, 8192))
        .unwrap();
    pair.copy_prepare_one::<A>(&CopyRequest::new(b, c, 8192).with_barrier(Barrier::Dmb))
        .unwrap();
    pair.copy_prepare_one::<A>(&CopyRequest::new(c, d, 8192).with_barrier(Barrier::WriteBarrier))
        .unwrap();
    pair.copy_start(&udma, 3, 3).unwrap();
    rig.run_clean(3);
    assert_eq!(rig.dev.read_mem_vec(d, 8192).unwrap(), data);
    assert_eq!(
        rig.dev
            .queue_stats(0, Direction::Tx, 1)
            .unwrap()
            .ordering_points,
        2
    );
}
for_each_arch!(barriers_order_dependent_copies);

fn strong_ordered_writes<A: Arch + StrongOrder>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 2, 32);
    let (src, data) = rig.buffer(rig.host, 3000, 5);
    let dst = rig.zeroed(rig.hbm, 3000);
    pair.copy_prepare_one::<A>(&CopyRequest::new(src, dst, 3000).strong_ordered::<A>())
        .unwrap();
    pair.copy_start(&udma, 1, 1).unwrap();
    rig.run_clean(1);
    assert_eq!(rig.dev.read_mem_vec(dst, 3000).unwrap(), data);
    assert_eq!(
        rig.dev
            .queue_stats(0, Direction::Rx, 2)
            .unwrap()
            .ordering_points,
        1
    );
}

#[test]
fn strong_ordered_writes_v3() {
    strong_ordered_writes::<khal_cayman::Cayman>();
}

#[test]
fn strong_ordered_writes_v4() {
    strong_ordered_writes::<khal_mariana::Mariana>();
}

/// Seed 004 §1: the mask is V4-only and set through the TX meta word at bits no source
/// gives, so a V4 packet asking for one is refused before anything reaches the model.
#[test]
fn v4_notification_mask_is_not_encodable() {
    type A = khal_mariana::Mariana;
    let (rig, _udma, mut pair) = Rig::<A>::with_queue(0, 4, 32);
    let (src, _) = rig.buffer(rig.host, 100, 1);
    let dst = rig.zeroed(rig.hbm, 100);
    let opts = PacketOptions::<A>::new().with_notification_mask(0x5a);
    let block = CopyBlock {
        src,
        dst,
        size: 100,
    };
    assert_eq!(
        pair.packet_prepare([block], &opts),
        Err(udma_desc::Error::NotificationMaskEncodingUnknown { mask: 0x5a })
    );
    assert_eq!(pair.tx().ring().next_index(), 0);
}

fn background_engine_runs_doorbells_as_they_arrive<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(3, 0, 64);
    let bg = rig.dev.start_background().expect("one background engine");
    assert!(rig.dev.start_background().is_none(), "only one at a time");
    let mut copies = Vec::new();
    for k in 0..40u32 {
        let (_, dst, data) = rig.copy_one(&mut pair, 5000, k);
        pair.copy_start(&udma, 1, 1).unwrap();
        copies.push((dst, data));
        if k % 8 == 7 {
            assert!(rig.dev.wait_idle(Duration::from_secs(10)));
            pair.ack(8).unwrap();
        }
    }
    // No deadline at all (an unrepresentable one used to panic on `Instant + Duration`).
    assert!(rig.dev.wait_idle(Duration::MAX));
    bg.stop();
    for (dst, data) in copies {
        assert_eq!(rig.dev.read_mem_vec(dst, data.len()).unwrap(), data);
    }
    // Stopped: a new doorbell is not run until someone runs the device.
    rig.copy_one(&mut pair, 10, 99);
    pair.copy_start(&udma, 1, 1).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert!(!rig.dev.is_idle());
    rig.run_clean(1);
}
for_each_arch!(background_engine_runs_doorbells_as_they_arrive);

#[test]
fn on_doorbell_mode_runs_inside_the_register_write() {
    type A = khal_sunda::Sunda;
    let rig = Rig::<A>::new();
    rig.dev.set_exec_mode(ExecMode::OnDoorbell);
    let udma = rig.engine(33);
    let mut pair = rig.queue(&udma, 0, 32);
    let (_, dst, data) = rig.copy_one(&mut pair, 777, 3);
    pair.copy_start(&udma, 1, 1).unwrap();
    assert!(rig.dev.is_idle());
    assert_eq!(rig.dev.read_mem_vec(dst, 777).unwrap(), data);
}

#[test]
fn pattern_is_not_constant() {
    assert_ne!(pattern(64, 1), pattern(64, 2));
}
