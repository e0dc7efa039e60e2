//! Arbitrary scripts of register writes, descriptor and memory writes, doorbells and runs
//! against the scenario device. Must never panic; invariants are checked after each input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = neuron_emu::scenario::run_script(data);
    neuron_emu::scenario::check_invariants(&s);
});
