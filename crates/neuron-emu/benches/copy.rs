//! Copy throughput of the model's data path against a plain memcpy of the same bytes.
//!
//! Each iteration replays a prebuilt ring of `N` single-descriptor copies (host -> HBM):
//! queue reset, doorbells, run until idle. The baseline copies the same `N` blocks between
//! two plain buffers with `copy_from_slice`, one call per block, both buffers page-aligned as
//! the model's regions are. Goal (issue 13 item 5): at least 0.9x memcpy for 4 KiB blocks
//! (64 KiB is about 1.0x).
//!
//! Two layouts:
//! * `contiguous`: block `i` goes to destination block `i`, as a long copy cut into
//!   descriptors is posted. The model moves a run of packets whose ranges follow on from each
//!   other with one copy, so this measures the walk plus one long memcpy; `memcpy-one-call`
//!   shows what a single call over all the bytes costs, for comparison.
//! * `scattered`: block `i` goes to destination block `7i mod N`, so no two packets join and
//!   every packet costs its own copy: the per-packet cost of the walk.
//!
//! Wall-clock on the shared 2-core VM swings by +-20 % between runs (less within one run,
//! where the model and its memcpy are measured side by side).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

mod copy_cases;
use copy_cases::{CASES, memcpy_case, model_case};

fn bench(c: &mut Criterion) {
    for (layout, scattered) in [("contiguous", false), ("scattered", true)] {
        let mut g = c.benchmark_group(format!("copy/{layout}"));
        for (block, n) in CASES {
            g.throughput(Throughput::Bytes((block * n) as u64));
            let mut model = model_case(block, n, scattered);
            g.bench_function(BenchmarkId::new("model", block), |b| b.iter(&mut model));
            let mut plain = memcpy_case(block, n, scattered);
            g.bench_function(BenchmarkId::new("memcpy", block), |b| b.iter(&mut plain));
            if !scattered {
                let mut whole = memcpy_case(block * n, 1, false);
                g.bench_function(BenchmarkId::new("memcpy-one-call", block), |b| {
                    b.iter(&mut whole)
                });
            }
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
