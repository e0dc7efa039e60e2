//! The copy bench's cases timed side by side: each round runs the model and its memcpy peer
//! once, in turn, and the minimum and median of many rounds are printed with the ratio
//! (memcpy time / model time: 1.0 is memcpy speed). On a shared machine whose load swings
//! between criterion's measurements of the two, rounds side by side keep the comparison
//! fair. `cargo bench -p neuron-emu --bench copy_alternate -- [rounds]`.

mod copy_cases;

use std::time::Instant;

use copy_cases::{CASES, memcpy_case, model_case};

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    for (layout, scattered) in [("contiguous", false), ("scattered", true)] {
        for (block, n) in CASES {
            let mut model = model_case(block, n, scattered);
            let mut plain = memcpy_case(block, n, scattered);
            let (mut m, mut p) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                let t = Instant::now();
                model();
                m.push(t.elapsed().as_secs_f64());
                let t = Instant::now();
                plain();
                p.push(t.elapsed().as_secs_f64());
            }
            m.sort_by(f64::total_cmp);
            p.sort_by(f64::total_cmp);
            let mib = (block * n) as f64 / f64::from(1 << 20);
            let us = |v: &[f64], i: usize| v[i] * 1e6 / mib;
            let med = rounds / 2;
            println!(
                "{layout}/{block}: model min {:.1} med {:.1} us/MiB | memcpy min {:.1} med {:.1} | \
                 memcpy/model min {:.2} med {:.2}",
                us(&m, 0),
                us(&m, med),
                us(&p, 0),
                us(&p, med),
                p[0] / m[0],
                p[med] / m[med]
            );
        }
    }
}
