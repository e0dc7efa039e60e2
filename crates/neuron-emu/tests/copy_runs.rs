//! Runs of single-descriptor copies land exactly as the same copies applied one after the
//! other. The model moves such runs in batches — a lane borrows the destination region once,
//! and packets whose ranges follow on from each other are moved by one copy — so this checks
//! every byte of three buffers, the counters and the completion latch against a plain
//! sequential reference, over random chains of copies between host memory (which also holds
//! the rings) and two HBM channels, with overlapping destinations, sources that are earlier
//! destinations, barriers and completion interrupts.

mod common;

use common::Rig;
use neuron_emu::{Direction, GROUP_B, Level, RegionKind};
use proptest::prelude::*;
use udma_desc::{Barrier, CopyRequest};

type A = khal_sunda::Sunda;

/// Bytes in each of the three buffers.
const ARENA: usize = 64 << 10;
/// Ring length: room for every packet of a case.
const RING: u32 = 256;

/// `count` packets of `block` bytes, source and destination advancing by `block` each.
#[derive(Clone, Copy, Debug)]
struct Chain {
    src: (usize, usize),
    dst: (usize, usize),
    block: usize,
    count: usize,
    barrier: Barrier,
    dst_interrupt: bool,
    /// Starts where the previous chain's source (bit 0) or destination (bit 1) ended, when
    /// it fits: runs that join on one side only, or on both.
    follow: u8,
}

fn chain() -> impl Strategy<Value = Chain> {
    (
        (0usize..3, 0usize..3),
        prop_oneof![1usize..64, 1usize..4096, Just(4096usize)],
        1usize..6,
        (0usize..ARENA, 0usize..ARENA),
        prop_oneof![
            Just(Barrier::None),
            Just(Barrier::Dmb),
            Just(Barrier::WriteBarrier)
        ],
        any::<bool>(),
        0u8..4,
    )
        .prop_map(
            |((sa, da), block, count, (so, d_o), barrier, dst_interrupt, follow)| {
                let span = block * count;
                Chain {
                    src: (sa, so % (ARENA - span + 1)),
                    dst: (da, d_o % (ARENA - span + 1)),
                    block,
                    count,
                    barrier,
                    dst_interrupt,
                    follow,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_run_of_copies_lands_as_the_copies_one_by_one(chains in proptest::collection::vec(chain(), 1..24)) {
        let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, RING);
        let hbm1 = rig
            .dev
            .with_memory(|m| m.find(RegionKind::Device { channel: 1 }))
            .unwrap();
        // Host (beside the rings), HBM channel 0, HBM channel 1.
        let arenas = [
            rig.buffer(rig.host, ARENA, 1),
            rig.buffer(rig.hbm, ARENA, 2),
            rig.buffer(hbm1, ARENA, 3),
        ];
        let mut reference: Vec<Vec<u8>> = arenas.iter().map(|(_, d)| d.clone()).collect();
        let (mut packets, mut bytes, mut ordering, mut interrupts) = (0u64, 0u64, 0u64, 0u64);
        let mut prev: Option<Chain> = None;
        for c in &chains {
            let mut c = *c;
            if let Some(p) = prev {
                let span = c.block * c.count;
                let (src_end, dst_end) = (p.src.1 + p.block * p.count, p.dst.1 + p.block * p.count);
                if c.follow & 1 != 0 && src_end + span <= ARENA {
                    c.src = (p.src.0, src_end);
                }
                if c.follow & 2 != 0 && dst_end + span <= ARENA {
                    c.dst = (p.dst.0, dst_end);
                }
            }
            prev = Some(c);
            for k in 0..c.count {
                let (so, d_o) = (c.src.1 + k * c.block, c.dst.1 + k * c.block);
                let req = CopyRequest::new(
                    arenas[c.src.0].0 + so as u64,
                    arenas[c.dst.0].0 + d_o as u64,
                    c.block as u32,
                )
                .with_barrier(c.barrier)
                .with_dst_interrupt(c.dst_interrupt);
                pair.copy_prepare_one::<A>(&req).unwrap();
                let moved = reference[c.src.0][so..so + c.block].to_vec();
                reference[c.dst.0][d_o..d_o + c.block].copy_from_slice(&moved);
                packets += 1;
                bytes += c.block as u64;
                ordering += u64::from(c.barrier != Barrier::None);
                interrupts += u64::from(c.dst_interrupt);
            }
        }
        let n = u32::try_from(packets).unwrap();
        pair.copy_start(&udma, n, n).unwrap();
        rig.run_clean(packets);

        for (i, ((addr, _), want)) in arenas.iter().zip(&reference).enumerate() {
            let mut got = vec![0u8; ARENA];
            rig.dev.read_mem(*addr, &mut got).unwrap();
            prop_assert!(got == *want, "buffer {} differs", i);
        }
        let tx = rig.dev.queue_stats(0, Direction::Tx, 0).unwrap();
        let rx = rig.dev.queue_stats(0, Direction::Rx, 0).unwrap();
        prop_assert_eq!(
            (tx.packets, tx.bytes, tx.descriptors, tx.ordering_points, tx.interrupts),
            (packets, bytes, packets, ordering, 0)
        );
        prop_assert_eq!(
            (rx.packets, rx.bytes, rx.descriptors, rx.ordering_points, rx.interrupts),
            (packets, bytes, packets, 0, interrupts)
        );
        let head = rig.dev.queue_head(0, Direction::Rx, 0).unwrap();
        prop_assert_eq!(head.index, n % RING);
        let cause = rig.dev.iofic_cause(0, Level::Primary, GROUP_B).unwrap();
        prop_assert_eq!(cause & 1 != 0, interrupts > 0);
    }
}
