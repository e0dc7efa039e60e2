//! ndl-copy's driver-style copy (the default path, `reference/dma-path.md`) over the
//! emulated kernel: every generation, both deliveries, sizes from 1 B to 64 MiB, every
//! barrier, ring wrap, the driver's refusals, and teardown on every error path.

use std::sync::Arc;

use khal::Arch;
use khal::Generation;
use ndl_abi::{
    DMA_QUEUE_COPY_START, DMA_QUEUE_GET_STATE, DMA_QUEUE_INIT, DMA_QUEUE_RELEASE,
    H2T_DMA_FREE_QUEUES, MEM_FREE,
};
use ndl_copy::{CopyError, CopyOptions, DataMove, Delivery, QueueChoice};
use ndl_emu::{DeviceConfig, EmulatedKernel, Execution, HOST_PHYS_BASE, resource};
use ndl_std::testing::Recording;
use ndl_std::{AccessMode, Errno, Error, Kernel, MemLocation, Ndl};
use neuron_emu::MemoryConfig;
use udma_desc::{Barrier, QueueId};

/// `ndl-copy`'s driver-style copy over the emulated kernel's arch set.
fn driver_copy<K: Kernel>(
    dev: &ndl_std::DeviceHandle<'_, K>,
    data: &[u8],
    options: &CopyOptions,
) -> Result<ndl_copy::CopyReport, CopyError> {
    ndl_copy::copy::<ndl_emu::Arches, K>(dev, data, options)
}

const GENERATIONS: [Generation; 3] = [Generation::V2, Generation::V3, Generation::V4];
const DELIVERIES: [Delivery; 2] = [Delivery::Mmap, Delivery::CopyDescriptors];

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 16) as u8)
        .collect()
}

fn kernel(g: Generation) -> EmulatedKernel {
    EmulatedKernel::new(g, 1).unwrap()
}

/// One device of `g` with room for `bytes` in one HBM channel and in host memory.
fn big_kernel(g: Generation, bytes: u64) -> EmulatedKernel {
    let slack = 8 << 20;
    EmulatedKernel::with_devices(vec![DeviceConfig {
        memory: MemoryConfig {
            hbm_bytes_per_channel: bytes + slack,
            host_bytes: bytes + slack,
            host_phys_base: HOST_PHYS_BASE,
        },
        ..DeviceConfig::numbered(g, 0)
    }])
    .unwrap()
}

fn options(delivery: Delivery) -> CopyOptions {
    CopyOptions {
        delivery,
        ..CopyOptions::default()
    }
}

#[test]
fn copies_on_every_generation_with_both_deliveries() {
    // 1 B, one page and a byte, exactly one descriptor, one byte more, several.
    let sizes = [1usize, 4097, 65_536, 65_537, 300_000];
    for g in GENERATIONS {
        let ndl = Ndl::with_kernel(kernel(g));
        let dev = ndl.open_device(0).unwrap();
        for delivery in DELIVERIES {
            for (i, &n) in sizes.iter().enumerate() {
                let data = pattern(n, i as u8);
                let r = driver_copy(&dev, &data, &options(delivery))
                    .unwrap_or_else(|e| panic!("{g:?} {delivery:?} {n} B: {e}"));
                assert_eq!(r.generation, g);
                assert_eq!(r.bytes, n as u64);
                assert_eq!(r.descriptors, (n as u64).div_ceil(65_536));
                assert_eq!(r.batches, 1);
            }
        }
        // Nothing left behind: every mapping undone.
        assert_eq!(ndl.kernel().mappings(), 0, "{g:?}");
    }
}

#[test]
fn copies_between_every_pair_of_locations() {
    let hbm = MemLocation::Device {
        channel: 0,
        region: 0,
    };
    for (src, dst) in [
        (MemLocation::Host, hbm),
        (hbm, MemLocation::Host),
        (MemLocation::Host, MemLocation::Host),
        (hbm, hbm),
    ] {
        let ndl = Ndl::with_kernel(kernel(Generation::V3));
        let dev = ndl.open_device(0).unwrap();
        for data_move in [DataMove::BufCopy, DataMove::Mapping] {
            let o = CopyOptions {
                src,
                dst,
                data: data_move,
                ..CopyOptions::default()
            };
            let data = pattern(100_000, 9);
            driver_copy(&dev, &data, &o)
                .unwrap_or_else(|e| panic!("{src:?} -> {dst:?} {data_move:?}: {e}"));
        }
        assert_eq!(ndl.kernel().mappings(), 0);
    }
}

#[test]
fn sixty_four_mib_verified_byte_for_byte() {
    let n = 64usize << 20;
    let ndl = Ndl::with_kernel(big_kernel(Generation::V3, n as u64));
    let dev = ndl.open_device(0).unwrap();
    let data = pattern(n, 0x5a);
    let r = driver_copy(&dev, &data, &CopyOptions::default()).unwrap();
    // 1024 pairs; a 256-entry ring takes 240 entries a batch, one of them the marker pair.
    assert_eq!((r.bytes, r.descriptors, r.batches), (n as u64, 1024, 5));
}

#[test]
fn a_completed_copy_reads_no_queue_state() {
    // dma-path.md step 8: "when the marker has landed every earlier pair has completed";
    // DMA_QUEUE_GET_STATE is under "Diagnostics". A copy that completes never asks for it.
    let ndl = Ndl::with_kernel(Recording::new(kernel(Generation::V3)));
    let dev = ndl.open_device(0).unwrap();
    let o = CopyOptions {
        ring_entries: 32,
        ..CopyOptions::default()
    };
    let r = driver_copy(&dev, &pattern(20 * 65_536, 6), &o).unwrap();
    assert!(r.batches > 1, "several waits");
    let codes = ndl.kernel().codes();
    assert!(codes.contains(&DMA_QUEUE_COPY_START.code()));
    assert!(!codes.contains(&DMA_QUEUE_GET_STATE.code()));
}

#[test]
fn every_barrier_where_the_arch_has_it() {
    for g in GENERATIONS {
        let ndl = Ndl::with_kernel(Recording::new(kernel(g)));
        let dev = ndl.open_device(0).unwrap();
        for barrier in [
            Barrier::None,
            Barrier::Dmb,
            Barrier::WriteBarrier,
            Barrier::Sow,
        ] {
            let o = CopyOptions {
                barrier,
                ..CopyOptions::default()
            };
            let data = pattern(70_000, barrier.raw() as u8);
            let allocs = ndl.kernel().live_allocations().len();
            let r = driver_copy(&dev, &data, &o);
            if barrier == Barrier::Sow && g == Generation::V2 {
                // V2 has no strong-ordered write: refused before anything is allocated.
                assert_eq!(
                    r,
                    Err(CopyError::Desc(udma_desc::Error::StrongOrderUnsupported))
                );
                assert_eq!(ndl.kernel().live_allocations().len(), allocs);
            } else {
                assert_eq!(r.unwrap().descriptors, 2, "{g:?} {barrier:?}");
            }
        }
    }
}

#[test]
fn rings_wrap_and_keep_their_ring_ids() {
    for g in GENERATIONS {
        for delivery in DELIVERIES {
            let ndl = Ndl::with_kernel(kernel(g));
            let dev = ndl.open_device(0).unwrap();
            // 32-entry rings take 16 entries a batch (15 data pairs + the marker pair):
            // 50 pairs are 4 batches, 64 entries, so both rings wrap twice (ring ids
            // 1 -> 2 -> 3); a wrong ring id would stop the model's engine.
            let o = CopyOptions {
                ring_entries: 32,
                delivery,
                ..CopyOptions::default()
            };
            let data = pattern(50 * 65_536 - 7, 3);
            let r = driver_copy(&dev, &data, &o).unwrap_or_else(|e| panic!("{g:?}: {e}"));
            assert_eq!((r.descriptors, r.batches), (50, 4), "{g:?} {delivery:?}");
        }
    }
}

#[test]
fn a_core_engine_queue_works_and_driver_owned_h2t_queues_are_refused() {
    for g in GENERATIONS {
        let ndl = Ndl::with_kernel(kernel(g));
        let dev = ndl.open_device(0).unwrap();
        let scalars = match g {
            Generation::V2 => khal_sunda::Sunda::SCALARS,
            Generation::V3 => khal_cayman::Cayman::SCALARS,
            _ => khal_mariana::Mariana::SCALARS,
        };
        let o = CopyOptions {
            queue: QueueChoice::CoreEngine {
                engine: 5,
                queue: QueueId::new(2).unwrap(),
            },
            ..CopyOptions::default()
        };
        driver_copy(&dev, &pattern(90_000, 1), &o).unwrap();
        // The H2T engine's default queue carries the driver's own copies: EALREADY.
        let h2t = u32::from(scalars.h2t_engine_id(0).unwrap());
        let default_q = scalars.h2t_default_queue(0).unwrap();
        let o = CopyOptions {
            queue: QueueChoice::CoreEngine {
                engine: h2t,
                queue: QueueId::new(default_q).unwrap(),
            },
            ..CopyOptions::default()
        };
        assert_eq!(
            driver_copy(&dev, b"x", &o),
            Err(CopyError::Ndl(Error::Ioctl {
                cmd: DMA_QUEUE_INIT.name(),
                errno: Errno::ALREADY
            })),
            "{g:?}"
        );
    }
}

#[test]
fn h2t_service_queues_are_given_back() {
    let ndl = Ndl::with_kernel(Recording::new(kernel(Generation::V3)));
    let dev = ndl.open_device(0).unwrap();
    for nc in [0u32, 1, 7] {
        let o = CopyOptions {
            queue: QueueChoice::H2tService { nc },
            ..CopyOptions::default()
        };
        driver_copy(&dev, &pattern(5000, 2), &o).unwrap();
    }
    assert!(ndl.kernel().live_h2t_queues().is_empty());
    assert!(ndl.kernel().live_allocations().is_empty());
    // A core V3 does not have (8 cores): refused by khal's range check before the driver
    // is asked, nothing left allocated.
    let o = CopyOptions {
        queue: QueueChoice::H2tService { nc: 8 },
        ..CopyOptions::default()
    };
    assert!(matches!(
        driver_copy(&dev, b"x", &o),
        Err(CopyError::Ndl(Error::OutOfRange { what: "nc_id", .. }))
    ));
    assert!(ndl.kernel().live_allocations().is_empty());
}

/// Teardown calls are never failed here: a failed free is what a leak looks like.
fn teardown(code: u32) -> bool {
    [
        MEM_FREE.code(),
        H2T_DMA_FREE_QUEUES.code(),
        DMA_QUEUE_RELEASE.code(),
    ]
    .contains(&code)
}

#[test]
fn every_allocation_is_freed_on_every_error_path() {
    for delivery in DELIVERIES {
        // The full call sequence of a two-batch copy.
        let o = CopyOptions {
            ring_entries: 32,
            delivery,
            ..CopyOptions::default()
        };
        let data = pattern(20 * 65_536, 4);
        let ndl = Ndl::with_kernel(Recording::new(kernel(Generation::V4)));
        let dev = ndl.open_device(0).unwrap();
        driver_copy(&dev, &data, &o).unwrap();
        let codes = ndl.kernel().codes();
        drop(dev);
        drop(ndl);
        let mut tried = 0;
        for (i, &code) in codes.iter().enumerate() {
            if teardown(code) {
                continue;
            }
            let nth = codes[..i].iter().filter(|c| **c == code).count();
            let ndl = Ndl::with_kernel(Recording::new(kernel(Generation::V4)));
            ndl.kernel().fail(code, nth, Errno::IO);
            let dev = ndl.open_device(0).unwrap();
            let err = driver_copy(&dev, &data, &o).unwrap_err();
            assert!(
                matches!(
                    err,
                    CopyError::Ndl(Error::Ioctl {
                        errno: Errno::IO,
                        ..
                    })
                ),
                "call {i} ({code:#x}): {err}"
            );
            let k = ndl.kernel();
            assert!(
                k.live_allocations().is_empty(),
                "call {i}: {:?}",
                k.events()
            );
            assert!(k.live_h2t_queues().is_empty(), "call {i}");
            assert_eq!(k.inner().mappings(), 0, "call {i}");
            tried += 1;
        }
        assert!(tried > 20, "{tried} failure points");
    }
}

#[test]
fn a_process_that_did_not_attach_is_refused() {
    let k = Arc::new(kernel(Generation::V3));
    let ndl = Ndl::with_kernel(Arc::clone(&k));
    let dev = ndl.open_device(0).unwrap();
    // A forked child using its parent's fd: the attach-checked DMA_QUEUE_INIT says EACCES.
    let child = std::process::id() + 1;
    let r =
        EmulatedKernel::as_process(child, || driver_copy(&dev, b"abc", &CopyOptions::default()));
    assert_eq!(
        r,
        Err(CopyError::Ndl(Error::Ioctl {
            cmd: DMA_QUEUE_INIT.name(),
            errno: Errno::ACCESS
        }))
    );
}

#[test]
fn dma_commands_on_a_free_access_fd_are_einval() {
    let k = kernel(Generation::V3);
    let fd = k
        .open(std::path::Path::new("/dev/neuron0"), AccessMode::WriteOnly)
        .unwrap();
    let mut init = ndl_abi::DmaQueueInit {
        eng_id: 0,
        qid: 0,
        tx_desc_count: 32,
        rx_desc_count: 32,
        tx_handle: 0,
        rx_handle: 0,
        rxc_handle: 0,
        axi_port: 0,
        _pad44: [0; 4],
    };
    // SAFETY: `init` is the 48-byte struct DMA_QUEUE_INIT copies.
    let r = unsafe { k.ioctl::<{ DMA_QUEUE_INIT.code() }>(fd, (&raw mut init).cast()) };
    assert_eq!(r, Err(Errno::INVAL));
    // SAFETY: `fd` came from `open`.
    unsafe { k.close(fd) };
}

#[test]
fn the_register_level_path_is_refused_by_default() {
    let ndl = Ndl::with_kernel(kernel(Generation::V3));
    let dev = ndl.open_device(0).unwrap();
    let r = ndl_copy::register_level::copy::<ndl_emu::Arches, _>(
        &dev,
        b"registers",
        &ndl_copy::register_level::RegisterOptions::default(),
        resource::BAR0.into(),
    );
    assert_eq!(
        r,
        Err(CopyError::Ndl(Error::Ioctl {
            cmd: ndl_abi::RESOURCE_MMAP_INFO.name(),
            errno: Errno::INVAL
        }))
    );
    assert!(ndl.kernel().mappings() == 0);
}

#[test]
fn completion_is_polled_while_a_background_engine_runs() {
    let k = EmulatedKernel::with_devices(vec![
        DeviceConfig::numbered(Generation::V3, 0).with_execution(Execution::Background),
    ])
    .unwrap();
    let ndl = Ndl::with_kernel(k);
    let dev = ndl.open_device(0).unwrap();
    for delivery in DELIVERIES {
        let o = CopyOptions {
            ring_entries: 32,
            delivery,
            ..CopyOptions::default()
        };
        let r = driver_copy(&dev, &pattern(40 * 65_536, 8), &o).unwrap();
        assert_eq!((r.descriptors, r.batches), (40, 3));
    }
}

#[test]
fn a_copy_that_never_completes_times_out_and_gives_everything_back() {
    // Manual execution: nothing runs the doorbells, so the marker never lands.
    let k = EmulatedKernel::with_devices(vec![
        DeviceConfig::numbered(Generation::V4, 0).with_execution(Execution::Manual),
    ])
    .unwrap();
    let ndl = Ndl::with_kernel(Recording::new(k));
    let dev = ndl.open_device(0).unwrap();
    let o = CopyOptions {
        timeout: std::time::Duration::from_millis(1),
        ..CopyOptions::default()
    };
    let err = driver_copy(&dev, &pattern(100_000, 1), &o).unwrap_err();
    // Two data pairs and the marker pair posted, none consumed.
    assert!(
        matches!(
            err,
            CopyError::Timeout {
                tx_head: 0,
                rx_head: 0,
                tx_expected: 3,
                rx_expected: 3,
                ..
            }
        ),
        "{err}"
    );
    let k = ndl.kernel();
    assert!(k.live_allocations().is_empty());
    assert!(k.live_h2t_queues().is_empty());
    assert_eq!(k.inner().mappings(), 0);
}

/// A generated source: byte `i` is `pattern(.., seed)`'s; `flip_at` makes every fill after
/// the first return that byte inverted, as a destination that differs there would.
struct Generated {
    len: u64,
    seed: u8,
    flip_at: Option<u64>,
    fills: std::cell::Cell<u64>,
}

impl ndl_copy::Source for Generated {
    fn len(&self) -> u64 {
        self.len
    }

    fn fill(&self, offset: u64, out: &mut [u8]) {
        let passes = self.fills.get();
        for (k, b) in out.iter_mut().enumerate() {
            let i = offset + k as u64;
            *b = (i as u8).wrapping_mul(31).wrapping_add(self.seed) ^ (i >> 16) as u8;
            // The verify pass fills the pieces after the fill pass filled them all.
            if self.flip_at == Some(i) && passes >= self.len.div_ceil(1 << 20) {
                *b = !*b;
            }
        }
        self.fills.set(passes + 1);
    }
}

#[test]
fn a_generated_source_streams_in_pieces_both_ways() {
    // Two whole 1 MiB pieces and a tail, through MEM_BUF_COPY and through mappings.
    let len = (2 << 20) + 4099;
    let ndl = Ndl::with_kernel(kernel(Generation::V3));
    let dev = ndl.open_device(0).unwrap();
    for data in [DataMove::BufCopy, DataMove::Mapping] {
        let source = Generated {
            len,
            seed: 7,
            flip_at: None,
            fills: 0.into(),
        };
        let o = CopyOptions {
            data,
            ..CopyOptions::default()
        };
        let r = ndl_copy::copy_source::<ndl_emu::Arches, _, _>(&dev, &source, &o)
            .unwrap_or_else(|e| panic!("{data:?}: {e}"));
        assert_eq!(r.bytes, len);
        // Three pieces filled, three pieces checked: never the whole copy at once.
        assert_eq!(source.fills.get(), 6, "{data:?}");
    }
}

#[test]
fn a_mismatch_in_a_later_piece_names_its_offset_in_the_whole_copy() {
    let at = (1 << 20) + 12_345;
    let source = Generated {
        len: (2 << 20) + 1,
        seed: 3,
        flip_at: Some(at),
        fills: 0.into(),
    };
    let ndl = Ndl::with_kernel(kernel(Generation::V2));
    let dev = ndl.open_device(0).unwrap();
    let e = ndl_copy::copy_source::<ndl_emu::Arches, _, _>(&dev, &source, &CopyOptions::default())
        .unwrap_err();
    assert!(
        matches!(e, CopyError::Mismatch { offset, .. } if offset == at),
        "{e}"
    );
}
