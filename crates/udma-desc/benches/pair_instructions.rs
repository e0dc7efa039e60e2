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

mod pair_loops;

use pair_loops::{CYCLE, Cycle, RING, cycle_request, ring_pair, rust_batch_run, rust_single_run};
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
        Some(other) => panic!("unknown loop {other:?}: shared, single or batch"),
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
