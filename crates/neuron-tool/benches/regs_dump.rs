//! Issue 20's measurement: the time to read and decode every UDMA register of one engine
//! (`regs read --engine E`, all blocks: 761 registers, 745 read in 9 BAR_READ calls) on the
//! built-in model and through a FUSE-served node of the same model, side by side in one run.
//! The FUSE case is left out (with one line) where FUSE cannot be mounted.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use khal::Generation;
use ndl_emu::EmulatedKernel;
use ndl_fuse::{EmulatedBackend, Server};
use neuron_tool::cli::{ArchName, RegsReadArgs};
use neuron_tool::cmd::regs_read::read_on;
use neuron_tool::device_target::Target;

/// Registers of one unit `regs read` lists (read or not): every declared register.
const REGISTERS: u64 = 761;

fn args() -> RegsReadArgs {
    RegsReadArgs {
        device: None,
        arch: ArchName::Cayman,
        engine: 4,
        block: None,
        queue: None,
        register: None,
        json: false,
    }
}

fn one_engine(c: &mut Criterion) {
    let a = args();
    let mut g = c.benchmark_group("regs_read_one_engine");
    g.throughput(Throughput::Elements(REGISTERS));
    g.measurement_time(Duration::from_secs(3));
    let model = Target::Emulated(EmulatedKernel::new(Generation::V3, 1).unwrap());
    g.bench_function("model", |b| {
        b.iter(|| read_on(&model, &a, &mut std::io::sink()).unwrap())
    });
    let dir = tempfile::tempdir().unwrap();
    let kernel = EmulatedKernel::new(Generation::V3, 1).unwrap();
    match Server::start(dir.path(), EmulatedBackend::new(kernel)) {
        Ok(server) => {
            let node = server.node(0);
            let served = Target::Node(&node);
            g.bench_function("fuse", |b| {
                b.iter(|| read_on(&served, &a, &mut std::io::sink()).unwrap())
            });
            g.finish();
            server.stop().unwrap();
        }
        Err(e) => {
            println!("fuse: skipped, FUSE unavailable here ({e})");
            g.finish();
        }
    }
}

criterion_group!(benches, one_engine);
criterion_main!(benches);
