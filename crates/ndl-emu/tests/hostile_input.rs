//! Caller-sized values the emulated kernel must bound or check before it allocates, loops or
//! sums (issue 25 items 1 and 3), in process; `ndl-fuse/tests/hostile.rs` drives the same
//! rules through real syscalls on a served node.

use std::path::Path;

use khal::Generation;
use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_std::{AccessMode, Errno, Kernel};

/// A privileged kernel (raw device memory mappable, as with CAP_SYS_RAWIO) and an fd of it.
fn privileged() -> (EmulatedKernel, i32) {
    let k = EmulatedKernel::with_devices(vec![
        DeviceConfig::numbered(Generation::V3, 0).with_privileged(true),
    ])
    .unwrap();
    let fd = k
        .open(Path::new("/dev/neuron0"), AccessMode::ReadWrite)
        .unwrap();
    (k, fd)
}

#[test]
fn an_mmap_length_near_the_top_of_the_address_space_is_enomem_not_a_wrap() {
    let (k, fd) = privileged();
    for len in [usize::MAX, usize::MAX - 4095, usize::MAX - 2 * 4096 + 1] {
        // The raw-memory path accepts any length on a privileged kernel; placing the
        // mapping must not overflow the address sum (a panic in debug, a wrap in release).
        // SAFETY: the emulated kernel's mmap maps nothing of this process.
        let r = unsafe { k.mmap(fd, len, 0x10_0000) };
        assert_eq!(r.err(), Some(Errno::NOMEM), "len {len:#x}");
    }
    assert_eq!(k.mappings(), 0);
    // The kernel maps an ordinary length afterwards.
    // SAFETY: as above.
    let m = unsafe { k.mmap(fd, 4096, 0x10_0000) }.unwrap();
    assert_eq!(k.mappings(), 1);
    drop(m);
    // SAFETY: `fd` came from `open`.
    unsafe { k.close(fd) };
}
