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

/// NOTIFICATIONS_INIT_V2 of (`dev`, `nq_type`, `index`): 4 KiB in host memory.
fn notifications_init(
    k: &EmulatedKernel,
    fd: i32,
    (dev, nq_type, index): (u32, u32, u32),
) -> Result<i32, Errno> {
    use ndl_abi::{NOTIFICATIONS_INIT_V2, NotificationsInitV2};
    use zerocopy::FromZeros;
    let mut a = NotificationsInitV2::new_zeroed();
    a.nq_dev_id = dev;
    a.nq_type = nq_type;
    a.engine_index = index;
    a.size = 4096;
    a.on_host_memory = 1;
    // SAFETY: `a` is the command's 48-byte argument struct, live for the call.
    unsafe { k.ioctl::<{ NOTIFICATIONS_INIT_V2.code() }>(fd, (&raw mut a).cast()) }
}

#[test]
fn notification_queue_keys_name_a_queue_of_the_device() {
    let k = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let fd = k
        .open(Path::new("/dev/neuron0"), AccessMode::ReadWrite)
        .unwrap();
    // address-map.tsv: V3_MAX_NQ_TYPE 5, V3_MAX_NQ_QUEUES 16 (nq id = type * 16 + index).
    assert_eq!(notifications_init(&k, fd, (0, 4, 15)), Ok(0));
    assert_eq!(k.allocations(0), 1);
    for made_up in [
        (0, 5, 0),
        (0, 0, 16),
        (1000, 0, 0),
        (u32::MAX, u32::MAX, u32::MAX),
    ] {
        assert_eq!(
            notifications_init(&k, fd, made_up),
            Err(Errno::INVAL),
            "{made_up:?}"
        );
    }
    assert_eq!(k.allocations(0), 1, "a made-up key kept a ring");
    // V2 has six types (V2_MAX_NQ_TYPE 6).
    let v2 = EmulatedKernel::new(Generation::V2, 1).unwrap();
    let fd2 = v2
        .open(Path::new("/dev/neuron0"), AccessMode::ReadWrite)
        .unwrap();
    assert_eq!(notifications_init(&v2, fd2, (0, 5, 0)), Ok(0));
    assert_eq!(notifications_init(&v2, fd2, (0, 6, 0)), Err(Errno::INVAL));
}
