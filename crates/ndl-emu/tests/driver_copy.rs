//! The driver-style copy (ndl-std's default path) over the emulated kernel.

use ndl_emu::{EmulatedKernel, driver_copy};
use ndl_std::copy::{CopyOptions, Delivery, QueueChoice};
use ndl_std::{Generation, Ndl};
use udma_desc::QueueId;

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

#[test]
fn smoke_core_engine() {
    let ndl = Ndl::with_kernel(EmulatedKernel::new(Generation::V3, 1).unwrap());
    let dev = ndl.open_device(0).unwrap();
    for delivery in [Delivery::Mmap, Delivery::CopyDescriptors] {
        let o = CopyOptions {
            queue: QueueChoice::CoreEngine {
                engine: 4,
                queue: QueueId::new(3).unwrap(),
            },
            delivery,
            ..CopyOptions::default()
        };
        let r = driver_copy(&dev, &pattern(200_000, 3), &o).unwrap();
        assert_eq!(r.descriptors, 4);
    }
}
