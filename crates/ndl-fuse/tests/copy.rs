//! The driver-style DMA copy (ndl-std's default path, ioctl-only delivery) through the real
//! system calls: `RealKernel` opens `DIR/neuron0` of a served mount, and every byte of the
//! destination is verified (by the copy itself, and read back here once more).

mod common;

use khal::Generation;
use ndl_copy::{CopyOptions, Delivery};
use ndl_std::{MemLocation, Ndl};

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 13) as u8)
        .collect()
}

fn copy_on(generation: Generation, seed: u8) {
    let Some((dir, server)) = common::serve_big(generation, 64 << 20) else {
        return;
    };
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.open_device(0).unwrap();
    // Not a multiple of the 64 KiB descriptor size, several ring batches.
    let data = pattern((5 << 20) + 4099, seed);
    let options = CopyOptions {
        delivery: Delivery::CopyDescriptors,
        ring_entries: 32,
        ..CopyOptions::default()
    };
    let report = ndl_copy::copy::<ndl_emu::Arches, _>(&dev, &data, &options).unwrap();
    assert_eq!(report.generation, generation);
    assert_eq!(report.bytes, data.len() as u64);
    assert!(report.batches > 1, "{report:?}");
    // Everything the copy allocated was freed again.
    assert_eq!(server.backend().kernel().allocations(0), 0);
    // The same bytes through one more round trip of our own: into HBM and back.
    let mem = dev
        .mem_alloc(
            data.len() as u64,
            0,
            MemLocation::Device {
                channel: 0,
                region: 0,
            },
            0,
        )
        .unwrap();
    dev.mem_buf_copy_to(mem, 0, &data).unwrap();
    let mut back = vec![0u8; data.len()];
    dev.mem_buf_copy_from(mem, 0, &mut back).unwrap();
    assert!(back == data, "read-back differs");
}

#[test]
fn driver_copy_v2() {
    copy_on(Generation::V2, 2);
}

#[test]
fn driver_copy_v3() {
    copy_on(Generation::V3, 3);
}

#[test]
fn driver_copy_v4() {
    copy_on(Generation::V4, 4);
}

/// The mmap delivery needs a shared mapping of the ring chunk, which FUSE refuses: the copy
/// fails cleanly at that step instead of writing page-cache pages the engine never reads.
#[test]
fn mmap_delivery_is_refused_cleanly() {
    let Some((dir, server)) = common::serve(Generation::V3, 1) else {
        return;
    };
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.open_device(0).unwrap();
    let options = CopyOptions {
        delivery: Delivery::Mmap,
        ..CopyOptions::default()
    };
    let err = ndl_copy::copy::<ndl_emu::Arches, _>(&dev, &pattern(4096, 1), &options).unwrap_err();
    let text = err.to_string();
    // ENODEV from mmap(2), named in the error.
    assert!(
        text.contains("mmap") && text.contains("No such device"),
        "{text}"
    );
    assert_eq!(server.backend().kernel().allocations(0), 0);
}
