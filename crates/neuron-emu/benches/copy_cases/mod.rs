//! The two sides of the copy benches: the model replaying a ring of single-descriptor copies,
//! and a plain memcpy of the same blocks (see `copy.rs`).
#![allow(dead_code)] // each target uses its own part

use std::hint::black_box;

use khal::udma::{EngineParams, RingConfig, Udma, UdmaState};
use mmio::Window;
use neuron_emu::{Device, DeviceDescStore, MemoryConfig, RegionKind};
use udma_desc::{CopyRequest, DescRing, Direction, QueueId, RingPair};

type A = khal_sunda::Sunda;

/// (block size, blocks per iteration)
pub const CASES: [(usize, usize); 2] = [(4096, 256), (65_536, 64)];
const RING: u32 = 512;

/// Where block `i` of `n` lands: itself, or `7i mod n` (a permutation: `n` is a power of two
/// and 7 is odd).
pub fn dst_block(scattered: bool, i: usize, n: usize) -> usize {
    if scattered { (7 * i) % n } else { i }
}

pub fn model_case(block: usize, n: usize, scattered: bool) -> impl FnMut() {
    let mem = MemoryConfig {
        hbm_bytes_per_channel: 32 << 20,
        host_bytes: 32 << 20,
        host_phys_base: 0,
    };
    let dev = Device::for_arch::<A>(&mem).unwrap();
    let host = dev.with_memory(|m| m.find(RegionKind::Host)).unwrap();
    let hbm = dev
        .with_memory(|m| m.find(RegionKind::Device { channel: 0 }))
        .unwrap();
    let base = dev.unit_base(0).unwrap();
    let udma = Udma::<A, _>::init(
        Window::new(dev.clone(), base),
        EngineParams::for_arch::<A>(),
    )
    .unwrap();
    udma.set_state(UdmaState::Normal).unwrap();
    let q = QueueId::new(0).unwrap();
    let ring_bytes = u64::from(RING) * 16;
    let tx = dev.alloc(host, ring_bytes, 256).unwrap();
    let rx = dev.alloc(host, ring_bytes, 256).unwrap();
    udma.init_queue(
        q,
        RingConfig {
            bus_addr: tx,
            size: RING,
        },
        RingConfig {
            bus_addr: rx,
            size: RING,
        },
    )
    .unwrap();
    let mut pair = RingPair::new(
        q,
        DescRing::new(
            Direction::Tx,
            DeviceDescStore::new(dev.clone(), tx, RING as usize),
        )
        .unwrap(),
        DescRing::new(
            Direction::Rx,
            DeviceDescStore::new(dev.clone(), rx, RING as usize),
        )
        .unwrap(),
    );
    let src = dev.alloc(host, (block * n) as u64, 4096).unwrap();
    let dst = dev.alloc(hbm, (block * n) as u64, 4096).unwrap();
    let data: Vec<u8> = (0..block * n).map(|i| (i * 31 + 7) as u8).collect();
    dev.write_mem(src, &data).unwrap();
    for i in 0..n {
        let from = src + (i * block) as u64;
        let to = dst + (dst_block(scattered, i, n) * block) as u64;
        pair.copy_prepare_one::<A>(&CopyRequest::new(from, to, block as u32))
            .unwrap();
    }
    let count = u32::try_from(n).unwrap();
    move || {
        // Replay the same ring: reset both queues (head/tail to slot 0, ring id 1), re-enable.
        for d in khal::regs::queue::Dir::BOTH {
            udma.reset_queue(d, q).unwrap();
            udma.enable_queue(d, q).unwrap();
        }
        pair.copy_start(&udma, count, count).unwrap();
        let report = dev.run_until_idle();
        assert_eq!(report.packets, n as u64);
        black_box(report);
    }
}

/// `len` zero bytes starting on a 4 KiB boundary, as the model's regions start: the two
/// sides of the comparison copy between equally aligned buffers. (Unaligned, glibc's
/// `memcpy` of 4 KiB blocks is about a quarter slower, which measured the allocator, not
/// the model.)
pub fn page_aligned(len: usize) -> (Vec<u8>, usize) {
    let v = vec![0u8; len + 4095];
    let start = v.as_ptr().align_offset(4096);
    assert!(start < 4096);
    (v, start)
}

/// One `copy_from_slice` per block, to the same destination blocks as the model (`block ==
/// len` copies everything in one call).
pub fn memcpy_case(block: usize, n: usize, scattered: bool) -> impl FnMut() {
    let len = block * n;
    let (mut src, s0) = page_aligned(len);
    for (i, b) in src[s0..s0 + len].iter_mut().enumerate() {
        *b = (i * 31 + 7) as u8;
    }
    let (mut dst, d0) = page_aligned(len);
    let blocks = len / block;
    move || {
        let (src, dst) = (&src[s0..s0 + len], &mut dst[d0..d0 + len]);
        for (i, s) in src.chunks_exact(block).enumerate() {
            let d = dst_block(scattered, i, blocks) * block;
            dst[d..d + block].copy_from_slice(black_box(s));
        }
        black_box(dst);
    }
}
