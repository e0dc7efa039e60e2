//! The wrappers added for full catalog coverage, end to end against the emulated driver:
//! each checks the model's answer against the handler note of `ioctl-commands.tsv`.

use std::sync::Arc;

use khal::Generation;
use ndl_abi::MemChunkInfo;
use ndl_emu::{ENOTSUPP, EmulatedKernel};
use ndl_std::{AsyncCopy, Errno, Error, MemLocation, Ndl};
use zerocopy::FromZeros;

const HBM0: MemLocation = MemLocation::Device {
    channel: 0,
    region: 0,
};
const HBM1: MemLocation = MemLocation::Device {
    channel: 1,
    region: 0,
};

fn ndl() -> Ndl<Arc<EmulatedKernel>> {
    Ndl::with_kernel(Arc::new(EmulatedKernel::new(Generation::V3, 1).unwrap()))
}

#[test]
fn deprecated_memory_queries_agree_with_extended_info() {
    let ndl = ndl();
    let h = ndl.open_device(0).unwrap();
    let a = h.mem_alloc(4096, 0, HBM0, 0).unwrap();
    let ext = h.mem_get_extended_info(a, 0).unwrap();
    // MEM_GET_PA: pa through the pointer; MEM_GET_INFO: mmap offset and pa.
    assert_eq!(h.mem_get_pa(a).unwrap(), ext.pa);
    assert_eq!(h.mem_get_info(a).unwrap(), (ext.mmap_offset, ext.pa));
    // MEM_ALLOC, the legacy form, on the attach-checked device lane.
    let b = h.mem_alloc_cm(8192, HBM0, 0).unwrap();
    assert_eq!(h.mem_get_extended_info(b, 0).unwrap().size, 8192);
    // PROGRAM_ENGINE: the buffer lands at the engine (device) address after a region check.
    h.program_engine(ext.pa, 16, b"engine").unwrap();
    let mut back = [0u8; 6];
    h.mem_buf_copy_from(a, 16, &mut back).unwrap();
    assert_eq!(&back, b"engine");
    // An address in no allocation fails the region check.
    assert!(h.program_engine(u64::MAX - 0xFFFF, 0, b"x").is_err());
}

#[test]
fn apps_info_lists_the_attached_process_and_its_memory() {
    let ndl = ndl();
    let h = ndl.open_device(0).unwrap();
    h.mem_alloc(4096, 0, HBM0, 0).unwrap();
    h.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    let info = h.device_get_all_apps_info(4).unwrap();
    assert_eq!(info.apps.len(), 1);
    let app = info.apps[0];
    assert_eq!(app.pid as u32, std::process::id());
    assert_eq!((app.device_mem_size, app.host_mem_size), (4096, 8192));
    assert_eq!(h.device_app_pid().unwrap() as u32, std::process::id());
    assert!(h.device_get_all_apps_info(0).unwrap().apps.is_empty());
}

#[test]
fn datastores_core_state_and_started_counts() {
    let ndl = ndl();
    let h = ndl.open_device(0).unwrap();
    // pid 0: a new datastore for the caller; asking again returns the same one.
    let ds = h.acquire_neuron_ds(0).unwrap();
    // ioctl-commands.tsv ACQUIRE_NEURON_DS "writes mmap offset and size" (mmap-README.md:
    // a datastore is a mappable chunk). The size is the emulator's choice (no source gives
    // the driver's), so the test checks that the pair maps that many bytes, not a number.
    let map = h.map(ds.offset, ds.size).unwrap();
    let last = usize::try_from(ds.size).unwrap() - 4;
    map.write_bytes(last, b"last").unwrap();
    let mut tail = [0u8; 4];
    map.read_bytes(last, &mut tail).unwrap();
    assert_eq!(&tail, b"last");
    assert!(
        h.map(ds.offset, ds.size + 4096).is_err(),
        "no more than the size"
    );
    map.unmap().unwrap();
    let pid = std::process::id() as i32;
    assert_eq!(h.acquire_neuron_ds(pid).unwrap(), ds);
    assert_eq!(h.release_neuron_ds(pid), Ok(()));
    // "releases datastore of pid; returns 0": also when there is none.
    assert_eq!(h.release_neuron_ds(pid), Ok(()));
    assert_eq!(h.cinit_set_state(1, 3).unwrap(), 3);
    assert_eq!(h.nc_model_started_count(1).unwrap(), 0);
    assert_eq!(
        h.nc_model_started_count(99).unwrap_err().errno(),
        Some(Errno::INVAL)
    );
    // NOTIFICATIONS_INIT_V1 returns the queue's mmap cookie (mmap-README.md: notification
    // rings are chunks): it maps exactly the 4096 bytes asked for, not a zero cookie.
    let cookie = h.notifications_init_v1(0, 0, 0, 4096).unwrap();
    let ring = h.map(cookie, 4096).unwrap();
    assert!(
        h.map(cookie, 8192).is_err(),
        "the chunk is the size asked for"
    );
    ring.unmap().unwrap();
    assert_eq!(h.notifications_destroy_v1(0), Ok(()));
    // The QUEUE_INFO stub: -1, seen as EPERM.
    assert_eq!(
        h.notifications_queue_info(0, 0, 0, 0).unwrap_err().errno(),
        Some(Errno::PERM)
    );
}

#[test]
fn async_copies_complete_and_hand_out_both_wait_slots() {
    let ndl = ndl();
    let h = ndl.open_device(0).unwrap();
    let a = h.mem_alloc(4096, 0, HBM0, 0).unwrap();
    let b = h.mem_alloc(4096, 0, HBM1, 0).unwrap();
    h.mem_buf_copy_to(a, 0, b"async!").unwrap();
    let copy = AsyncCopy {
        src: a,
        src_offset: 0,
        dst: b,
        dst_offset: 100,
        size: 6,
        host_prefetch: None,
        pwait_handle: 1,
    };
    let first = h.mem_copy_async(&copy).unwrap();
    let second = h.mem_copy_async(&copy).unwrap();
    // ioctl-commands.tsv MEM_COPY_ASYNC_WAIT: "pwait_handle must be 1 or 2"; the model
    // hands the two slots out in turn.
    assert_eq!([first, second], [1, 2]);
    h.mem_copy_async_wait(a, b, first).unwrap();
    let mut out = [0u8; 6];
    h.mem_buf_copy_from(b, 100, &mut out).unwrap();
    assert_eq!(&out, b"async!");
}

#[test]
fn dump_mem_chunks_reports_the_need_when_the_buffer_is_small() {
    let ndl = ndl();
    let h = ndl.open_device(0).unwrap();
    h.mem_alloc(4096, 0, HBM1, 0).unwrap();
    h.mem_alloc(8192, 0, HBM1, 0).unwrap();
    let mut one = [MemChunkInfo::new_zeroed(); 1];
    assert!(matches!(
        h.dump_mem_chunks(1, &mut one).unwrap_err(),
        Error::BufferTooSmall {
            given: 1,
            needed: 2,
            ..
        }
    ));
    let mut four = [MemChunkInfo::new_zeroed(); 4];
    assert_eq!(h.dump_mem_chunks(1, &mut four).unwrap(), 2);
    let mut sizes: Vec<u64> = four[..2].iter().map(|c| c.size).collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [4096, 8192]);
}

#[test]
fn va_placement_resolves_a_mapped_device_chunk_only() {
    let ndl = ndl();
    let h = ndl.open_device(0).unwrap();
    let a = h.mem_alloc(4096, 0, HBM1, 0).unwrap();
    let info = h.mem_get_extended_info(a, 0).unwrap();
    let map = h.map(info.mmap_offset, 4096).unwrap();
    let p = ndl.misc().get_va_placement(map.addr() + 100).unwrap();
    assert_eq!((p.device_index, p.hbm_index), (0, 1));
    // Only the caller's own mappings resolve: another process asking gets ENXIO.
    let other = EmulatedKernel::as_process(1, || ndl.misc().get_va_placement(map.addr()));
    assert_eq!(other.unwrap_err().errno(), Some(Errno::NXIO));
    // Not a mapping: ENXIO (the driver writes -1, -1 back).
    assert_eq!(
        ndl.misc().get_va_placement(0x1000).unwrap_err(),
        Error::Ioctl {
            cmd: "NEURON_IOCTL_GET_VA_PLACEMENT",
            errno: Errno::NXIO
        }
    );
}

#[test]
fn hardware_only_commands_answer_their_table_errno() {
    let ndl = ndl();
    let dev = ndl.device(0).unwrap();
    let h = ndl.open_device(0).unwrap();
    assert_eq!(
        h.post_metric(&[1, 2]).unwrap_err(),
        Error::Ioctl {
            cmd: "NEURON_IOCTL_POST_METRIC",
            errno: ENOTSUPP
        }
    );
    assert_eq!(
        dev.throttling_notifications(true).unwrap_err().errno(),
        Some(ENOTSUPP)
    );
    let mut data = [0u32; 1];
    assert_eq!(
        dev.read_hw_counters(&[0], &mut data).unwrap_err().errno(),
        Some(Errno::INVAL)
    );
    // Modelled: METRICS_CTRL returns 0; POWER_PROFILE supports only ctrl 0.
    assert_eq!(dev.metrics_ctrl(1), Ok(()));
    assert_eq!(dev.power_profile(0, 1), Ok(()));
    assert_eq!(dev.power_profile(1, 1).unwrap_err().errno(), Some(ENOTSUPP));
    assert_eq!(
        dev.dma_quiesce_queues(0, 0, &[0; 64]).unwrap_err().errno(),
        Some(Errno::NOTTY)
    );
}

#[test]
fn device_lifespan_chunks_are_shared_writable_and_outlive_their_process() {
    // mmap-README.md: a chunk of another process maps read-only unless "the chunk's lifespan
    // is ... device"; "Chunks with device lifespan (notification-queue rings, datastores, ...)
    // are writable by every process that maps them". dma-path.md step 9: at the last close
    // the driver "releases core locks and datastores, frees the process's chunks".
    let ndl = ndl();
    let k = Arc::clone(ndl.kernel());
    let (a, a_pid) = (9001u32, 9001i32);
    let (ha, ring, ds, chunk) = EmulatedKernel::as_process(a, || {
        let h = ndl.open_device(0).unwrap();
        let ring = h.notifications_init_v1(0, 0, 0, 4096).unwrap();
        let ds = h.acquire_neuron_ds(0).unwrap();
        let m = h.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
        let chunk = h.mem_get_extended_info(m, 0).unwrap().mmap_offset;
        (h, ring, ds, chunk)
    });
    EmulatedKernel::as_process(9002, || {
        let h = ndl.open_device(0).unwrap();
        assert_eq!(h.acquire_neuron_ds(a_pid).unwrap(), ds);
        let ring_map = h.map(ring, 4096).unwrap();
        assert!(
            ring_map.write_bytes(0, b"ring").is_ok(),
            "notification ring"
        );
        let ds_map = h.map(ds.offset, ds.size).unwrap();
        assert!(ds_map.write_bytes(0, b"ds").is_ok(), "datastore");
        let chunk_map = h.map(chunk, 4096).unwrap();
        assert!(chunk_map.write_bytes(0, b"no").is_err(), "a process chunk");
        drop((ring_map, ds_map, chunk_map));
        // Process A's last close: its chunk and its datastore go, the ring stays.
        let before = k.allocations(0);
        drop(ha);
        assert_eq!(k.allocations(0), before - 2);
        assert_eq!(
            h.acquire_neuron_ds(a_pid).unwrap_err().errno(),
            Some(Errno::INVAL),
            "A's datastore was released"
        );
        assert_eq!(h.notifications_init_v1(0, 0, 0, 4096).unwrap(), ring);
        let mut back = [0u8; 4];
        h.map(ring, 4096).unwrap().read_bytes(0, &mut back).unwrap();
        assert_eq!(&back, b"ring", "the ring outlived its allocator");
    });
}
