//! The emulated kernel as a FUSE client meets it: programs of open, ioctl, mmap and close
//! from several processes over byte-backed user memory, then every process exits and the
//! release invariants must hold (`kernel_fuzz::check`; issue 25).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = kernel_fuzz::check(data) {
        panic!("{violation}");
    }
});
