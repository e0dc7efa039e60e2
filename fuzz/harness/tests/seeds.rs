//! The `kernel` fuzz target's seed corpus: real call sequences — ndl-copy's driver-style
//! and register-level copies, and tours of the `ndl-std` wrappers from one and from several
//! processes — recorded on the harness's kernel ([`Recorder`]), checked to keep the
//! invariants when replayed, and compared with the files under `fuzz/seeds/kernel/`.
//!
//! Regenerate the files after a format change with
//! `KERNEL_FUZZ_WRITE_SEEDS=1 cargo test -p kernel-fuzz --test seeds`.

use std::path::PathBuf;

use kernel_fuzz::record::Recorder;
use kernel_fuzz::{Program, Run, Setup, check};
use khal::Generation;
use ndl_copy::{CopyOptions, DataMove, Delivery, QueueChoice};
use ndl_emu::resource;
use ndl_std::{MemLocation, Ndl};
use udma_desc::QueueId;

fn setup(generation: Generation) -> Setup {
    Setup {
        generation,
        two_devices: false,
        privileged: false,
        unmap_first: false,
    }
}

fn pattern(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ 0x5a)
        .collect()
}

/// Runs `flow` on a recorder built as `s` says and returns the program it made, after
/// checking that the program replays the flow: every ioctl answers as it did.
fn record(s: Setup, flow: impl FnOnce(&Recorder)) -> Program {
    let rec = Recorder::new(s);
    flow(&rec);
    let program = rec.program().unwrap_or_else(|e| panic!("recording: {e}"));
    let replay = Run::program(&Program::decode(&program.encode()));
    assert_eq!(replay.results(), rec.results(), "the replay's answers");
    assert_eq!(replay.kernel.opens(), rec.kernel().opens());
    program
}

fn driver_copy(s: Setup, options: CopyOptions, len: usize) -> Program {
    record(s, |rec| {
        let ndl = Ndl::with_kernel(rec);
        let dev = ndl.open_device(0).unwrap();
        let r = ndl_copy::copy::<ndl_emu::Arches, _>(&dev, &pattern(len), &options).unwrap();
        assert_eq!(r.bytes, len as u64);
    })
}

fn register_copy(s: Setup) -> Program {
    record(s, |rec| {
        let ndl = Ndl::with_kernel(rec);
        let dev = ndl.open_device(0).unwrap();
        let options = ndl_copy::register_level::RegisterOptions::default();
        let bar0 = resource::BAR0.into();
        let r = ndl_copy::register_level::copy::<ndl_emu::Arches, _>(
            &dev,
            &pattern(700),
            &options,
            bar0,
        )
        .unwrap();
        assert_eq!(r.bytes, 700);
    })
}

/// Allocation, the buffer copies, memset, device-side copy, batches, a mapping, free.
fn memory_tour(s: Setup) -> Program {
    record(s, |rec| {
        let ndl = Ndl::with_kernel(rec);
        let dev = ndl.open_device(0).unwrap();
        let device = MemLocation::Device {
            channel: 0,
            region: 0,
        };
        let a = dev.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
        let b = dev.mem_alloc(8192, 0, device, 0).unwrap();
        dev.mem_buf_copy_to(a, 16, &pattern(300)).unwrap();
        dev.memset(b, 0, 0xa5, 4096).unwrap();
        dev.mem_copy(a, 0, b, 4096, 1024).unwrap();
        let mut back = vec![0u8; 300];
        dev.mem_buf_copy_from(b, 4096 + 16, &mut back).unwrap();
        assert_eq!(back, pattern(300));
        let info = dev.mem_get_extended_info(a, 1).unwrap();
        let map = dev.map(info.mmap_offset, 8192).unwrap();
        drop(map);
        dev.mem_free(b).unwrap();
        dev.mem_free(a).unwrap();
    })
}

/// Semaphores, events, the core lock, datastores and a notification ring.
fn sync_tour(s: Setup) -> Program {
    record(s, |rec| {
        let ndl = Ndl::with_kernel(rec);
        let dev = ndl.open_device(0).unwrap();
        dev.semaphore_write(0, 3, 7).unwrap();
        dev.semaphore_increment(0, 3, 2).unwrap();
        assert_eq!(dev.semaphore_read(0, 3).unwrap(), 9);
        dev.event_set(1, 2, 1).unwrap();
        assert_eq!(dev.event_get(1, 2).unwrap(), 1);
        let uuid = [7u8; 32];
        dev.crwl_writer_enter(0, &uuid).unwrap();
        dev.crwl_writer_downgrade(0, &uuid).unwrap();
        dev.crwl_reader_exit(0, &uuid).unwrap();
        let ds = dev.acquire_neuron_ds(0).unwrap();
        assert!(ds.size > 0);
        dev.release_neuron_ds(i32::try_from(kernel_fuzz::run::PID_BASE).unwrap())
            .unwrap();
        dev.notifications_init_v1(0, 0, 0, 4096).unwrap();
    })
}

/// The free-access lane's questions.
fn misc_tour(s: Setup) -> Program {
    record(s, |rec| {
        let ndl = Ndl::with_kernel(rec);
        let misc = ndl.misc();
        misc.compatible_version().unwrap();
        misc.device_basic_info().unwrap();
        misc.driver_info_get().unwrap();
        misc.host_device_id_to_rid_map().unwrap();
        misc.get_logical_to_physical_nc_map(8).unwrap();
        misc.printk("kernel-fuzz seed", 0).unwrap();
        let mark = misc.crwl_nc_range_mark(1, 0, 0).unwrap();
        misc.crwl_nc_range_unmark_ext(&mark.bitmap).unwrap();
    })
}

/// Two processes on one device, each with its own chunk; the first reads the second's
/// handle (the driver's shared handle space), then both go.
fn two_processes(s: Setup) -> Program {
    record(s, |rec| {
        let first = Ndl::with_kernel(rec);
        let second = Ndl::with_kernel(rec);
        rec.as_process(0);
        let d0 = first.open_device(0).unwrap();
        let a = d0.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
        rec.as_process(1);
        let d1 = second.open_device(0).unwrap();
        let b = d1.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
        d1.mem_buf_copy_to(b, 0, b"second").unwrap();
        rec.as_process(0);
        let mut out = [0u8; 6];
        d0.mem_buf_copy_from(b, 0, &mut out).unwrap();
        assert_eq!(&out, b"second");
        d0.mem_free(a).unwrap();
        drop(d0);
        rec.as_process(1);
        drop(d1);
    })
}

/// A forked child allocates through its parent's descriptor (MEM_ALLOC_V2MT64 is not
/// attach-checked, `reference/dma-path.md` step 0) and never opens the device itself; both
/// go without freeing. The child's chunk goes with the child's close of that descriptor.
fn forked_child(s: Setup) -> Program {
    record(s, |rec| {
        let parent = Ndl::with_kernel(rec);
        rec.as_process(0);
        let d = parent.open_device(0).unwrap();
        rec.as_process(1);
        let chunk = d.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
        d.mem_buf_copy_to(chunk, 0, b"child").unwrap();
        rec.as_process(0);
        drop(d);
    })
}

/// Every seed: (name, program).
fn seeds() -> Vec<(&'static str, Program)> {
    let privileged = |g| Setup {
        privileged: true,
        ..setup(g)
    };
    vec![
        (
            "driver_copy_v3_mmap",
            driver_copy(setup(Generation::V3), CopyOptions::default(), 1000),
        ),
        (
            "driver_copy_v2_descriptors_mapping",
            driver_copy(
                setup(Generation::V2),
                CopyOptions {
                    delivery: Delivery::CopyDescriptors,
                    data: DataMove::Mapping,
                    ..CopyOptions::default()
                },
                3000,
            ),
        ),
        (
            "driver_copy_v4_core_engine",
            driver_copy(
                setup(Generation::V4),
                CopyOptions {
                    queue: QueueChoice::CoreEngine {
                        engine: 5,
                        queue: QueueId::new(2).unwrap(),
                    },
                    delivery: Delivery::CopyDescriptors,
                    ..CopyOptions::default()
                },
                2000,
            ),
        ),
        (
            "register_copy_v3_privileged",
            register_copy(privileged(Generation::V3)),
        ),
        ("memory_tour_v3", memory_tour(setup(Generation::V3))),
        ("sync_tour_v2", sync_tour(setup(Generation::V2))),
        ("misc_tour_v4", misc_tour(setup(Generation::V4))),
        ("two_processes_v3", two_processes(setup(Generation::V3))),
        ("forked_child_v3", forked_child(setup(Generation::V3))),
    ]
}

fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../seeds/kernel")
}

#[test]
fn seeds_keep_the_invariants() {
    for (name, program) in seeds() {
        eprintln!("{name}: {} operations", program.ops.len());
        assert_eq!(check(&program.encode()), Ok(()), "{name}");
    }
}

#[test]
fn checked_in_seeds_match_the_generator() {
    let write = std::env::var_os("KERNEL_FUZZ_WRITE_SEEDS").is_some();
    for (name, program) in seeds() {
        let path = seed_dir().join(name);
        let bytes = program.encode();
        if write {
            std::fs::create_dir_all(seed_dir()).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (regenerate with KERNEL_FUZZ_WRITE_SEEDS=1)",
                path.display()
            )
        });
        assert_eq!(on_disk, bytes, "{} is stale", path.display());
    }
}
