//! `desc build --batch` over an arbitrary stdin (the first byte picks the arch): one answer
//! per line, each agreeing with the line parser, and a too-long line refused where it is
//! (`neuron_tool::fuzzing::batch_case`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| neuron_tool::fuzzing::batch_case(data));
