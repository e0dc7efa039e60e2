//! Per-queue register offset lookup: compile-time `A: Arch` against the vendor shape (a
//! table of function pointers filled at boot, each call asserting the slot is set and then
//! calling through it).
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use khal::regs::QueueReg;
use khal::regs::queue::Dir;
use khal::{Arch, ArchVisitor, Generation, dispatch};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;
use udma_desc::QueueId;

type Lookup = fn(Dir, QueueId, QueueReg) -> Option<usize>;

/// The vendor shape: one slot of a sub-vtable, filled at run time by a registrar.
struct UdmaVtable {
    queue_reg_offset: Option<Lookup>,
}

fn registrar(g: Generation) -> UdmaVtable {
    let f: Lookup = match g {
        Generation::V2 => Sunda::queue_reg_offset,
        Generation::V3 => Cayman::queue_reg_offset,
        Generation::V4 => Mariana::queue_reg_offset,
    };
    UdmaVtable {
        queue_reg_offset: Some(f),
    }
}

#[inline(never)]
fn vendor_lookup(vt: &UdmaVtable, dir: Dir, q: QueueId, reg: QueueReg) -> Option<usize> {
    // BUG_ON(slot == NULL), then the indirect call.
    let f = vt.queue_reg_offset.expect("HAL slot not registered");
    f(dir, q, reg)
}

#[inline(never)]
fn generic_lookup<A: Arch>(dir: Dir, q: QueueId, reg: QueueReg) -> Option<usize> {
    A::queue_reg_offset(dir, q, reg)
}

const REGS: [QueueReg; 4] = [
    QueueReg::DrtpInc,
    QueueReg::Cfg,
    QueueReg::CompCfg,
    QueueReg::QSwCtrl,
];

/// 128 (direction, queue, register) lookups; the inputs are opaque to the optimiser.
fn inputs() -> Vec<(Dir, QueueId, QueueReg)> {
    let mut v = Vec::new();
    for q in QueueId::all() {
        for reg in REGS {
            for dir in Dir::BOTH {
                v.push((dir, q, reg));
            }
        }
    }
    black_box(v)
}

#[inline(always)]
fn sweep_over(
    inputs: &[(Dir, QueueId, QueueReg)],
    f: impl Fn(Dir, QueueId, QueueReg) -> Option<usize>,
) -> usize {
    inputs
        .iter()
        .fold(0, |acc, &(d, q, r)| acc ^ f(d, q, r).unwrap_or(0))
}

fn sweep(f: impl Fn(Dir, QueueId, QueueReg) -> Option<usize>) -> usize {
    sweep_over(&inputs(), f)
}

struct Sweep<'a>(&'a [(Dir, QueueId, QueueReg)]);
impl ArchVisitor for Sweep<'_> {
    type Output = usize;
    fn visit<A: Arch>(self) -> usize {
        sweep_over(self.0, A::queue_reg_offset)
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("queue_reg_offset x128");
    let vt = black_box(registrar(black_box(Generation::V3)));
    assert_eq!(
        sweep(|d, q, r| vendor_lookup(&vt, d, q, r)),
        sweep(generic_lookup::<Cayman>)
    );
    let ins = inputs();
    g.bench_function("vendor fn-pointer table (assert + indirect call)", |b| {
        b.iter(|| sweep_over(&ins, |d, q, r| vendor_lookup(&vt, d, q, r)))
    });
    g.bench_function("A: Arch (monomorphised, non-inlined call)", |b| {
        b.iter(|| sweep_over(&ins, generic_lookup::<Cayman>))
    });
    g.bench_function("A: Arch (inlined)", |b| {
        b.iter(|| sweep_over(&ins, Cayman::queue_reg_offset))
    });
    g.bench_function("dispatch once, then A: Arch", |b| {
        b.iter(|| {
            dispatch::<(Sunda, Cayman, Mariana), _>(black_box(Generation::V3), Sweep(&ins))
                .unwrap_or(0)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
