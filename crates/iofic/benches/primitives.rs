//! Cost of the primitives and policies over a plain in-memory register file (no recording),
//! i.e. the library's own overhead on top of the bus accesses.

use std::cell::Cell;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use iofic::caps::IoficCaps;
use iofic::{M2sCause, udma};
use mmio::Mmio;

/// 16 KiB of registers (covers the `gen` block up to the AXI-error controllers).
struct Plain([Cell<u32>; 0x1000]);

impl Plain {
    fn new() -> Self {
        Self(std::array::from_fn(|_| Cell::new(0)))
    }
}

impl Mmio for Plain {
    fn read32(&self, offset: usize) -> u32 {
        self.0
            .get(offset / 4)
            .map_or(mmio::BUS_ERROR_READ, Cell::get)
    }
    fn write32(&self, offset: usize, value: u32) {
        if let Some(c) = self.0.get(offset / 4) {
            c.set(value);
        }
    }
}

struct V4;
impl IoficCaps for V4 {
    const M2S_PRIMARY_D_UNMASK: u32 = 0x500;
    const S2M_ERROR_MASK: u32 = 0xffff_ef07;
}

fn bench(c: &mut Criterion) {
    let gen_block = Plain::new();
    c.bench_function("read cause + clear (irq path)", |b| {
        let tx = udma::m2s_errors(&gen_block);
        b.iter(|| {
            let pending = tx.cause();
            tx.clear(black_box(pending | M2sCause::PKT_LEN));
        })
    });
    c.bench_function("m2s + s2m bring-up (14 writes)", |b| {
        b.iter(|| {
            udma::m2s_bring_up::<V4, _>(black_box(&gen_block));
            udma::s2m_bring_up::<V4, _>(black_box(&gen_block));
        })
    });
    c.bench_function("ring-id masking (2 RMW + 2 writes)", |b| {
        b.iter(|| udma::mask_ring_id_errors(black_box(&gen_block)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
