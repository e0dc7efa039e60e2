//! `ring decode` over arbitrary input: flags, head and posted count, then the dump bytes
//! (`neuron_tool::fuzzing::ring_case`). The dump parser, the walk's bounds and the report
//! must hold for every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| neuron_tool::fuzzing::ring_case(data));
