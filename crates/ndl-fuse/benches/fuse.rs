//! What the FUSE hop costs: one ioctl round trip, and 64 MiB moved, through the served mount
//! (RealKernel on DIR/neuron0) against the same calls on the in-process emulated kernel.
//!
//! Needs root and /dev/fuse for the FUSE side; elsewhere only the in-process side runs and
//! one SKIP line says so.
#![allow(missing_docs)]

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use khal::Generation;
use ndl_copy::{CopyOptions, Delivery};
use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_fuse::{EmulatedBackend, Server};
use ndl_std::{Kernel, MemLocation, Ndl};

const BIG: usize = 64 << 20;

fn kernel() -> EmulatedKernel {
    let mut config = DeviceConfig::numbered(Generation::V3, 0);
    config.memory.hbm_bytes_per_channel = 256 << 20;
    config.memory.host_bytes = 256 << 20;
    EmulatedKernel::with_devices(vec![config]).unwrap()
}

fn options() -> CopyOptions {
    CopyOptions {
        delivery: Delivery::CopyDescriptors,
        ring_entries: 4096,
        ..CopyOptions::default()
    }
}

/// The benchmarks for one way of reaching the kernel.
fn run<K: Kernel>(c: &mut Criterion, name: &str, ndl: &Ndl<K>) {
    let misc = ndl.misc();
    c.benchmark_group("ioctl_round_trip")
        .bench_function(name, |b| b.iter(|| misc.compatible_version().unwrap()));

    let dev = ndl.open_device(0).unwrap();
    let data: Vec<u8> = (0..BIG).map(|i| (i * 13) as u8).collect();
    let mem = dev.mem_alloc(BIG as u64, 0, MemLocation::Host, 0).unwrap();
    let mut g = c.benchmark_group("buf_copy_64MiB_in");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Bytes(BIG as u64));
    g.bench_function(name, |b| {
        b.iter(|| dev.mem_buf_copy_to(mem, 0, &data).unwrap())
    });
    g.finish();
    dev.mem_free(mem).unwrap();

    let mut g = c.benchmark_group("driver_copy_64MiB");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Bytes(BIG as u64));
    g.bench_function(name, |b| {
        b.iter(|| ndl_copy::copy::<ndl_emu::Arches, _>(&dev, &data, &options()).unwrap())
    });
    g.finish();
}

fn fuse_vs_in_process(c: &mut Criterion) {
    run(c, "in_process", &Ndl::with_kernel(kernel()));
    let dir = tempfile::tempdir().unwrap();
    match Server::start(dir.path(), EmulatedBackend::new(kernel())) {
        Ok(server) => {
            run(c, "fuse", &Ndl::new().with_root(dir.path()));
            server.stop().unwrap();
        }
        Err(e) if e.is_unavailable() => println!("SKIP fuse: FUSE unavailable here ({e})"),
        Err(e) => panic!("{e}"),
    }
}

criterion_group!(benches, fuse_vs_in_process);
criterion_main!(benches);
