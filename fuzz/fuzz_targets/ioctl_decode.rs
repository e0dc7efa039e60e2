//! `ioctl decode` of an arbitrary request number and of arbitrary text typed as one: the
//! printed fields follow the `_IOC` layout (`neuron_tool::fuzzing::ioctl_case`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| neuron_tool::fuzzing::ioctl_case(data));
