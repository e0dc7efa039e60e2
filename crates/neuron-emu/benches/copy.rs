//! Copy throughput of the model's data path against a plain memcpy of the same bytes.
//!
//! Each iteration replays a prebuilt ring of `N` single-descriptor copies (host -> HBM):
//! queue reset, doorbells, run until idle. The baseline copies the same `N` blocks between
//! two plain buffers with `copy_from_slice`. Goal (issue 13 item 5): at least 0.9x memcpy
//! for 4 KiB blocks (64 KiB is about 1.0x).
//!
//! Wall-clock on the shared 2-core VM swings by +-20 %, so the figures that guide changes
//! come from callgrind on this bench (`valgrind --tool=callgrind --cache-sim=yes
//! --toggle-collect='neuron_emu::device::Device::run_until_idle' <bench> --bench
//! --profile-time 1 copy/model/4096`): instructions per packet beside the memcpy, and the
//! memcpy's share of the estimated cycles (Ir + 10 x L1 misses + 100 x LL misses) of the run.
//! At 4 KiB: 1,022 -> 550 instructions per packet, memcpy share 0.65 -> 0.75 (the one walk,
//! rings resolved once per queue, a lone pair's packets batched, region hints); at 64 KiB
//! 0.99 both. Interleaved wall-clock runs of the two builds: 4 KiB 0.58-0.84x -> 0.81-0.90x.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use khal::udma::{EngineParams, RingConfig, Udma, UdmaState};
use mmio::Window;
use neuron_emu::{Device, DeviceDescStore, MemoryConfig, RegionKind};
use udma_desc::{CopyRequest, DescRing, Direction, QueueId, RingPair};

type A = khal_sunda::Sunda;

/// (block size, blocks per iteration)
const CASES: [(usize, usize); 2] = [(4096, 256), (65_536, 64)];
const RING: u32 = 512;

fn model_case(block: usize, n: usize) -> impl FnMut() {
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
        let off = (i * block) as u64;
        pair.copy_prepare_one::<A>(&CopyRequest::new(src + off, dst + off, block as u32))
            .unwrap();
    }
    let count = u32::try_from(n).unwrap();
    move || {
        // Replay the same ring: reset both queues (head/tail to slot 0, ring id 1), re-enable.
        for d in khal::regs::queue::DIRECTIONS {
            udma.reset_queue(d, q).unwrap();
            udma.enable_queue(d, q).unwrap();
        }
        pair.copy_start(&udma, count, count).unwrap();
        let report = dev.run_until_idle();
        assert_eq!(report.packets, n as u64);
        black_box(report);
    }
}

fn memcpy_case(block: usize, n: usize) -> impl FnMut() {
    let src: Vec<u8> = (0..block * n).map(|i| (i * 31 + 7) as u8).collect();
    let mut dst = vec![0u8; block * n];
    move || {
        for (d, s) in dst.chunks_exact_mut(block).zip(src.chunks_exact(block)) {
            d.copy_from_slice(black_box(s));
        }
        black_box(&mut dst);
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("copy");
    for (block, n) in CASES {
        g.throughput(Throughput::Bytes((block * n) as u64));
        let mut model = model_case(block, n);
        g.bench_function(BenchmarkId::new("model", block), |b| b.iter(&mut model));
        let mut plain = memcpy_case(block, n);
        g.bench_function(BenchmarkId::new("memcpy", block), |b| b.iter(&mut plain));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
