//! The pair loops both bench targets run: the shared peer's loop (`c_peer_build.c`'s `main`)
//! written over `udma-desc`'s public API, as a downstream crate calls it.
#![allow(dead_code)] // each target uses its own part

use udma_desc::caps::{PacketCaps, Supported, Unsupported};
use udma_desc::{CopyRequest, DescRing, Descriptor, Direction, QueueId, RingPair};

/// Like V3 (CAYMAN): what `khal-cayman` provides.
pub struct V3;
impl PacketCaps for V3 {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    type NotificationMasks = Unsupported;
    type StrongOrdering = Supported;
}

/// Descriptors per ring, as the shared peer's default.
pub const RING: usize = 4096;
/// Pairs per lap: the ring less its 16-slot reserve (one ack per lap).
pub const LAP: u32 = 4096 - 16;
/// Pairs in one cycle of the shared peer's sizes (`1..=65536`, each once).
pub const CYCLE: u64 = 1 << 16;

/// A ring pair over plain memory.
pub type Pair<'a> = RingPair<&'a mut [Descriptor], &'a mut [Descriptor]>;

/// Queue 0's pair over `tx` and `rx`.
pub fn ring_pair<'a>(tx: &'a mut [Descriptor], rx: &'a mut [Descriptor]) -> Pair<'a> {
    RingPair::new(
        QueueId::new(0).unwrap(),
        DescRing::new(Direction::Tx, tx).unwrap(),
        DescRing::new(Direction::Rx, rx).unwrap(),
    )
}

/// Pair `i` of the shared peer's loop: `1 + (i & 0xffff)` bytes from `2^32 + 64 i` to
/// `2^33 + 64 i`, no barrier, no interrupt.
#[inline]
pub fn cycle_request(i: u64) -> CopyRequest {
    let size = 1 + (i & 0xffff) as u32;
    CopyRequest::new(0x1_0000_0000 + (i << 6), 0x2_0000_0000 + (i << 6), size)
}

/// Where the loop stands between calls: the pair counter and the pairs since the last ack.
#[derive(Default)]
pub struct Cycle {
    pub i: u64,
    pub since: u32,
}

/// The shared peer's loop over `copy_prepare_one`: the same pairs, the same ack per lap, the
/// same read-back of each TX control word into a checksum. `None` if a pair was refused.
#[inline(never)]
pub fn rust_single_run(pair: &mut Pair<'_>, s: &mut Cycle, pairs: u64) -> Option<u64> {
    let (mut since, mut acc, end) = (s.since, 0u64, s.i + pairs);
    for i in s.i..end {
        if since == LAP {
            pair.ack_exclusive(since).ok()?;
            since = 0;
        }
        pair.copy_prepare_one::<V3>(&cycle_request(i)).ok()?;
        since += 1;
        let slot = (i & (RING as u64 - 1)) as u32;
        acc += u64::from(pair.tx().load(slot).ok()?.word0());
    }
    (s.i, s.since) = (end, since);
    Some(acc)
}

/// The same requests, prebuilt, through `copy_prepare_batch` one lap at a time, each lap
/// acknowledged at once.
#[inline(never)]
pub fn rust_batch_run(pair: &mut Pair<'_>, reqs: &[CopyRequest]) -> Option<()> {
    for lap in reqs.chunks(LAP as usize) {
        let b = pair.copy_prepare_batch::<V3>(lap).ok()?;
        pair.ack_exclusive(b.tx.count()).ok()?;
    }
    Some(())
}

/// The memory floor of a cycle: the same requests' size and addresses written as two
/// descriptors a pair into two plain 4096-entry rings, a lap at a time, with no descriptor
/// work, no room check and no ring state, each descriptor as two 8-byte stores (what the
/// compiler makes of a `Descriptor` value). See [`store_floor16_run`] for the lower one.
#[inline(never)]
pub fn store_floor_run(tx: &mut [Descriptor], rx: &mut [Descriptor], reqs: &[CopyRequest]) {
    for lap in reqs.chunks(LAP as usize) {
        for ((t, r), q) in tx.iter_mut().zip(rx.iter_mut()).zip(lap) {
            *t = Descriptor::from_words_addr(q.size, 0, q.src);
            *r = Descriptor::from_words_addr(q.size, 0, q.dst);
        }
    }
}

/// The floor with one 16-byte store a descriptor (SSE2, in the x86_64 baseline): the
/// cheapest way to write the same 32 bytes a pair, so no path can beat it. Elsewhere it is
/// [`store_floor_run`].
#[inline(never)]
pub fn store_floor16_run(tx: &mut [Descriptor], rx: &mut [Descriptor], reqs: &[CopyRequest]) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{__m128i, _mm_set_epi64x, _mm_store_si128};
        let v = |lo: u32, addr: u64| {
            let addr = i64::from_ne_bytes(addr.to_ne_bytes());
            // SAFETY: SSE2 is in the x86_64 baseline.
            unsafe { _mm_set_epi64x(addr, i64::from(lo)) }
        };
        for lap in reqs.chunks(LAP as usize) {
            for ((t, r), q) in tx.iter_mut().zip(rx.iter_mut()).zip(lap) {
                let (t, r) = (
                    (t as *mut Descriptor).cast::<__m128i>(),
                    (r as *mut Descriptor).cast::<__m128i>(),
                );
                // SAFETY: `t` and `r` come from `&mut Descriptor`: valid for 16 bytes,
                // 16-byte aligned (`Descriptor` is `align(16)`), every bit pattern valid.
                unsafe {
                    _mm_store_si128(t, v(q.size, q.src));
                    _mm_store_si128(r, v(q.size, q.dst));
                }
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    store_floor_run(tx, rx, reqs)
}
