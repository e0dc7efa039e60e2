//! `copy_prepare_one` against the project's shared C peer (`bench/c-peer/c/c_peer_build.c`,
//! written from the published descriptor layout alone): the same 65,536 + 4096 copies
//! (every size `1..=65536`, both rings wrapping 17 times, one acknowledgement per lap of
//! 4080) leave the same bytes in every slot of both rings.

mod common;

use common::V3;
use udma_c_peer::BuildPeer;
use udma_desc::{CopyRequest, DescRing, Descriptor, Direction, QueueId, RingPair};

#[test]
fn every_slot_holds_the_shared_peers_bytes() {
    const RING: u32 = 4096;
    const PAIRS: u64 = (1 << 16) + 4096;
    let mut peer = BuildPeer::new(RING).unwrap();
    let peer_sum = peer.run(PAIRS).unwrap();

    let mut txs = vec![Descriptor::ZERO; RING as usize];
    let mut rxs = vec![Descriptor::ZERO; RING as usize];
    let mut p = RingPair::new(
        QueueId::new(0).unwrap(),
        DescRing::new(Direction::Tx, &mut txs[..]).unwrap(),
        DescRing::new(Direction::Rx, &mut rxs[..]).unwrap(),
    );
    let (mut since, mut sum) = (0u32, 0u64);
    for i in 0..PAIRS {
        if since == RING - 16 {
            p.ack_exclusive(since).unwrap();
            since = 0;
        }
        let size = 1 + (i & 0xffff) as u32;
        let req = CopyRequest::new(0x1_0000_0000 + (i << 6), 0x2_0000_0000 + (i << 6), size);
        p.copy_prepare_one::<V3>(&req).unwrap();
        since += 1;
        sum += u64::from(p.tx().load((i % u64::from(RING)) as u32).unwrap().word0());
    }
    // The peer's checksum reads back each TX control word as it goes, as the loop above.
    assert_eq!(sum, peer_sum);
    for i in 0..RING {
        assert_eq!(
            peer.tx_words(i),
            Some(txs[i as usize].words()),
            "TX slot {i}"
        );
        assert_eq!(
            peer.rx_words(i),
            Some(rxs[i as usize].words()),
            "RX slot {i}"
        );
    }
}
