//! Instructions per pair of the shared peer's loop, for callgrind (deterministic where
//! `perf stat` is not available): one loop, a fixed number of pairs, then exit.
//!
//! ```sh
//! cargo bench -p udma-desc --bench pair_instructions --no-run   # prints the binary's path
//! valgrind --tool=callgrind --toggle-collect=c_peer_build_run <binary> shared 16
//! valgrind --tool=callgrind --toggle-collect='*rust_single_run*' <binary> single 16
//! valgrind --tool=callgrind --toggle-collect='*rust_batch_run*' <binary> batch 16
//! ```
//!
//! Collected Ir divided by the pairs printed (16 cycles of 65,536 = 1,048,576) is the count
//! per pair, the loop's own work included (ack per lap, read-back where the peer does it).
//! Run by `cargo bench` (no loop named), it builds one cycle through each loop and checks
//! that the Rust rings hold the bytes the shared peer's rings hold.
//!
//! `<binary> alternate 300` times 300 rounds of one cycle through each loop in turn (peer,
//! single, batch, the two store floors) and prints the minimum and median per pair of each with its
//! ratio to the peer, then the batch against the peer's half (issue 23's 2x goal) and
//! against the lower floor: on a shared machine whose load swings between criterion's
//! measurements, rounds side by side keep the comparison fair.

mod pair_loops;

use std::time::Instant;

use pair_loops::{
    CYCLE, Cycle, RING, cycle_request, ring_pair, rust_batch_run, rust_single_run, store_floor_run,
    store_floor16_run,
};
use udma_c_peer::BuildPeer;
use udma_desc::Descriptor;

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let which = args.next();
    let cycles: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let pairs = cycles * CYCLE;
    let mut shared = BuildPeer::new(RING as u32).expect("peer rings");
    let (mut tx, mut rx) = (vec![Descriptor::ZERO; RING], vec![Descriptor::ZERO; RING]);
    let mut pair = ring_pair(&mut tx, &mut rx);
    match which.as_deref() {
        Some("shared") => {
            shared.run(pairs).expect("shared peer refused a pair");
        }
        Some("single") => {
            rust_single_run(&mut pair, &mut Cycle::default(), pairs).expect("refused");
        }
        Some("batch") => {
            let reqs: Vec<_> = (0..pairs).map(cycle_request).collect();
            rust_batch_run(&mut pair, &reqs).expect("refused");
        }
        Some("alternate") => {
            alternate(&mut shared, &mut pair, cycles);
            return;
        }
        Some(other) => panic!("unknown loop {other:?}: shared, single, batch or alternate"),
        None => {
            let a = shared.run(CYCLE).expect("shared");
            let b = rust_single_run(&mut pair, &mut Cycle::default(), CYCLE).expect("single");
            assert_eq!(a, b, "read-back checksums differ");

            for i in 0..RING as u32 {
                let at = i as usize;
                assert_eq!(shared.tx_words(i), Some(tx[at].words()), "TX slot {i}");
                assert_eq!(shared.rx_words(i), Some(rx[at].words()), "RX slot {i}");
            }
            println!("pair_instructions: one cycle, Rust rings = shared peer rings");
            return;
        }
    }
    println!("{pairs} pairs");
}

/// `rounds` rounds of one cycle through each loop in turn; min and median ns per pair.
fn alternate(shared: &mut BuildPeer, pair: &mut pair_loops::Pair<'_>, rounds: u64) {
    let reqs: Vec<_> = (0..CYCLE).map(cycle_request).collect();
    let (mut ftx, mut frx) = (vec![Descriptor::ZERO; RING], vec![Descriptor::ZERO; RING]);
    let mut cycle = Cycle::default();
    let mut t: [Vec<f64>; 5] = Default::default();
    let per_pair = |start: Instant| start.elapsed().as_nanos() as f64 / CYCLE as f64;
    for _ in 0..rounds.max(1) {
        let s = Instant::now();
        std::hint::black_box(shared.run(CYCLE).expect("shared"));
        t[0].push(per_pair(s));
        let s = Instant::now();
        std::hint::black_box(rust_single_run(pair, &mut cycle, CYCLE).expect("single"));
        t[1].push(per_pair(s));
        pair.ack_exclusive(cycle.since).expect("ack");
        cycle.since = 0;
        let s = Instant::now();
        rust_batch_run(pair, std::hint::black_box(&reqs)).expect("batch");
        t[2].push(per_pair(s));
        let s = Instant::now();
        store_floor_run(&mut ftx, &mut frx, std::hint::black_box(&reqs));
        t[3].push(per_pair(s));
        let s = Instant::now();
        store_floor16_run(&mut ftx, &mut frx, std::hint::black_box(&reqs));
        t[4].push(per_pair(s));
    }
    for v in &mut t {
        v.sort_by(f64::total_cmp);
    }
    let (min, med) = (|v: &Vec<f64>| v[0], |v: &Vec<f64>| v[v.len() / 2]);
    for (name, v) in [
        "shared peer",
        "copy_prepare_one",
        "copy_prepare_batch",
        "store floor 8-byte",
        "store floor 16-byte",
    ]
    .iter()
    .zip(&t)
    {
        println!(
            "{name:19} min {:.3} ns/pair med {:.3} | peer/this min {:.2} med {:.2}",
            min(v),
            med(v),
            min(&t[0]) / min(v),
            med(&t[0]) / med(v)
        );
    }
    // Issue 23's batch goal is twice the peer's speed: half its time a pair. Beside it the
    // lower floor, the stores alone: a goal under the floor is out of reach of any path.
    let (goal, floor) = (med(&t[0]) / 2.0, med(&t[4]));
    println!(
        "batch goal (peer/2) med {goal:.3} ns/pair | batch {:.3} | lower floor {floor:.3}: \
         the goal is {} the floor; the batch is {:.2}x the floor",
        med(&t[2]),
        if goal < floor { "below" } else { "above" },
        med(&t[2]) / floor
    );
}
