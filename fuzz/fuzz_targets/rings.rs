//! Arbitrary ring bytes on a brought-up engine: the input is the TX ring, the RX ring, the
//! doorbell counts and source data, so the descriptor decoder and data path see every shape.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = neuron_emu::scenario::run_rings(data);
    neuron_emu::scenario::check_invariants(&s);
});
