//! Throughput of `desc build --batch` (parse, build, hex-encode, buffer) and of building
//! copy pairs into a ring, without process start-up or a pipe.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use khal_cayman::Cayman;
use neuron_tool::cmd::bench::{Mode, build_pairs};

/// `n` varied, valid batch lines.
fn input(n: u64) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "{} {} {:#018x} {:#018x} {} {} {}\n",
            i % 4,
            (i / 4) % 4,
            0x1_0000_0000u64 + i * 4096,
            0x2_0000_0000u64 + i * 4096,
            1 + (i * 7919) % 65_536,
            i % 4,
            i % 2
        ));
    }
    s.into_bytes()
}

fn batch(c: &mut Criterion) {
    const LINES: u64 = 100_000;
    let data = input(LINES);
    let mut g = c.benchmark_group("desc_build_batch");
    g.throughput(Throughput::Elements(LINES));
    g.bench_function("100k_lines", |b| {
        b.iter(|| {
            neuron_tool::batch::run::<Cayman, _, _>(black_box(&data[..]), std::io::sink())
                .map(|s| s.ok)
        })
    });
    g.finish();
}

fn ring_pairs(c: &mut Criterion) {
    const PAIRS: u64 = 100_000;
    let mut g = c.benchmark_group("bench_build");
    g.throughput(Throughput::Elements(PAIRS));
    for (name, mode) in [
        ("100k_pairs_4096_ring_single", Mode::Single),
        ("100k_pairs_4096_ring_batch", Mode::Batch),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| build_pairs::<Cayman>(black_box(PAIRS), mode).map(|r| r.acks))
        });
    }
    g.finish();
}

fn short() -> Criterion {
    // The CPU is shared: short runs.
    Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = short();
    targets = batch, ring_pairs
}
criterion_main!(benches);
