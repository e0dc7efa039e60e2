//! Every wrapper end to end against the in-process driver model, plus the model's dispatch
//! rules (lanes, attach check, nr/size demux, positive returns, legacy fallback).

use std::path::Path;
use std::sync::Arc;

use mmio::Mmio;
use ndl_std::ioctl_codes::{self, Dir};
use ndl_std::ioctl_structs::{DmaQueueInit, NotificationsInitV2, NotificationsInitWithReallocV2};
use ndl_std::model::{DeviceConfig, ENOTSUPP, ModelKernel};
use ndl_std::{
    AccessMode, BatchFrom, BatchTo, DESC_SIZE, Errno, Error, Family, Kernel, MemLocation, Ndl,
    OpFrom, OpTo, QueueType,
};

fn ndl(devices: u32) -> Ndl<Arc<ModelKernel>> {
    Ndl::with_kernel(Arc::new(ModelKernel::new(devices)))
}

fn ioctl_err(cmd: &'static str, errno: Errno) -> Error {
    Error::Ioctl { cmd, errno }
}

#[test]
fn identity_queries() {
    let ndl = ndl(3);
    let dev = ndl.device(2).unwrap();
    let info = dev.info().unwrap();
    assert_eq!(
        (info.architecture, info.revision, info.bar_size),
        (3, 1, [1 << 20, 1 << 30])
    );
    assert_eq!(dev.bdf().unwrap().bus_number, 0x12);
    assert_eq!(dev.host_device_id().unwrap(), 2);
    let misc = ndl.misc();
    assert_eq!(misc.compatible_version().unwrap(), (5, 9));
    let basic = misc.basic_info().unwrap();
    assert_eq!((basic.architecture, basic.revision), (3, 1));
    // nd_index is relative to the misc node (neuron0 here; neuron1 below).
    assert_eq!(misc.bdf_ext(1).unwrap().bus_number, 0x11);
    assert_eq!(
        misc.bdf_ext(3).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DEVICE_BDF_EXT", Errno::INVAL)
    );
    let ndl1 = Ndl::with_kernel(ModelKernel::new(3)).with_misc_device(1);
    assert_eq!(ndl1.misc().bdf_ext(1).unwrap().bus_number, 0x12);
    let drv = misc.driver_info().unwrap();
    assert_eq!((drv.size, drv.architecture), (24, 3));
    assert_eq!(
        misc.driver_info_set(&drv).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DRIVER_INFO_SET", ENOTSUPP)
    );
    assert_eq!(
        misc.host_device_id_to_rid_map().unwrap(),
        [0x100, 0x101, 0x102]
    );
    let (version, map) = misc.logical_to_physical_nc_map(4).unwrap();
    assert_eq!(version, 1);
    let phys: Vec<u32> = map.iter().map(|e| e.device_nc_idx).collect();
    assert_eq!(phys, [7, 6, 5, 4], "logical order, physical indices");
    assert!(matches!(
        misc.logical_to_physical_nc_map(129),
        Err(Error::OutOfRange { .. })
    ));
    let no_map = Ndl::with_kernel(ModelKernel::with_devices(vec![DeviceConfig {
        nc_map: None,
        ..DeviceConfig::numbered(0)
    }]));
    assert_eq!(
        no_map.misc().logical_to_physical_nc_map(8).unwrap_err(),
        ioctl_err("NEURON_IOCTL_GET_LOGICAL_TO_PHYSICAL_NC_MAP", ENOTSUPP)
    );
}

#[test]
fn memory_alloc_copy_memset_and_info() {
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    let a = h
        .mem_alloc(
            4096,
            256,
            MemLocation::Device {
                channel: 0,
                region: 0,
            },
            0,
        )
        .unwrap();
    let b = h.mem_alloc_v2(4096, 0, MemLocation::Host, 1).unwrap();
    assert_ne!(a, b);
    h.mem_buf_copy_to(a, 10, b"trainium").unwrap();
    h.mem_copy(a, 10, b, 100, 8).unwrap();
    let mut out = [0u8; 8];
    h.mem_buf_copy_from(b, 100, &mut out).unwrap();
    assert_eq!(&out, b"trainium");
    h.memset(b, 102, 0x5A, 3).unwrap();
    h.mem_buf_copy_from(b, 100, &mut out).unwrap();
    assert_eq!(&out, b"trZZZium");
    // Out of bounds is the driver's EINVAL, attributed to the 64-bit command tried first.
    assert_eq!(
        h.mem_buf_copy_to(a, 4090, b"too long").unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_BUF_COPY64", Errno::INVAL)
    );
    assert!(
        !ndl.compat().is_legacy(Family::MemBufCopy),
        "bad arguments do not latch"
    );
    let info = h.mem_get_extended_info(b, 0).unwrap();
    assert_eq!(
        (info.size, info.host_memory, info.pid),
        (4096, 1, u64::from(std::process::id()))
    );
    let mc = h.mc_get_info(info.pa + 17).unwrap();
    assert_eq!(
        (mc.mmap_offset, mc.size, mc.mem_handle),
        (info.mmap_offset, 4096, Some(b))
    );
    h.mem_free(b).unwrap();
    // A bad handle makes MEM_GET_EXTENDED_INFO return +EINVAL: a failure all the same.
    assert_eq!(
        h.mem_get_extended_info(b, 0).unwrap_err(),
        Error::Positive {
            cmd: "NEURON_IOCTL_MEM_GET_EXTENDED_INFO",
            ret: 22
        }
    );
    assert_eq!(
        h.mem_free(b).unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_FREE", Errno::INVAL)
    );
    assert_eq!(
        h.mem_alloc(0, 0, MemLocation::Host, 0).unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_ALLOC_V2MT64", Errno::INVAL)
    );
    // The per-device (read-only) gateway serves the same commands.
    let dev = ndl.device(0).unwrap();
    dev.mem_buf_copy_from(a, 10, &mut out).unwrap();
    assert_eq!(&out, b"trainium");
}

#[test]
fn batched_zero_copy_rewrites_handles_and_moves_every_piece() {
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    let a = h.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    let b = h.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    let ops_a = [
        OpTo {
            offset: 0,
            data: b"abc",
        },
        OpTo {
            offset: 8,
            data: b"defg",
        },
    ];
    let ops_b = [OpTo {
        offset: 4,
        data: b"xyz",
    }];
    let batches = [
        BatchTo {
            mem: a,
            mem_offset: 100,
            ops: &ops_a,
            bar4_wr_threshold: 0,
            flags: 0,
        },
        BatchTo {
            mem: b,
            mem_offset: 0,
            ops: &ops_b,
            bar4_wr_threshold: 0,
            flags: 0,
        },
    ];
    h.mem_buf_copy_batches_to(1, -1, &batches).unwrap();
    let mut got = [0u8; 12];
    h.mem_buf_copy_from(a, 100, &mut got).unwrap();
    assert_eq!(&got, b"abc\0\0\0\0\0defg");
    let (mut x, mut y) = ([0u8; 4], [0u8; 3]);
    let mut ops = [
        OpFrom {
            offset: 8,
            data: &mut x,
        },
        OpFrom {
            offset: 0,
            data: &mut y,
        },
    ];
    let mut back = [BatchFrom {
        mem: a,
        mem_offset: 100,
        ops: &mut ops,
        bar4_wr_threshold: 0,
        flags: 0,
    }];
    h.mem_buf_copy_batches_from(2, -1, &mut back).unwrap();
    assert_eq!((&x, &y), (b"defg", b"abc"));
    let bad = [BatchTo {
        mem: ndl_std::MemHandle(0xdead),
        mem_offset: 0,
        ops: &ops_b,
        bar4_wr_threshold: 0,
        flags: 0,
    }];
    assert_eq!(
        h.mem_buf_copy_batches_to(3, -1, &bad).unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_BUF_ZEROCOPY64_BATCHES", Errno::INVAL)
    );
}

#[test]
fn dma_engines_queues_and_descriptors() {
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    h.dma_eng_init(3).unwrap();
    h.dma_eng_set_state(3, 1).unwrap();
    let ring_bytes = 16 * DESC_SIZE as u64;
    let tx = h
        .mem_alloc(
            ring_bytes,
            0,
            MemLocation::Device {
                channel: 0,
                region: 0,
            },
            0,
        )
        .unwrap();
    let rx = h
        .mem_alloc(
            ring_bytes,
            0,
            MemLocation::Device {
                channel: 0,
                region: 0,
            },
            0,
        )
        .unwrap();
    let descs: Vec<[u8; DESC_SIZE]> = (0..4u8).map(|i| [i; DESC_SIZE]).collect();
    h.dma_copy_descriptors(tx, 2 * DESC_SIZE as u64, QueueType::Tx, &descs)
        .unwrap();
    let init = DmaQueueInit {
        eng_id: 3,
        qid: 1,
        tx_desc_count: 16,
        rx_desc_count: 16,
        tx_handle: tx.0,
        rx_handle: rx.0,
        rxc_handle: 0,
        axi_port: 0,
        _pad44: [0; 4],
    };
    h.dma_queue_init(&init).unwrap();
    let mut batch = [init; 2];
    batch[0].qid = 2;
    batch[1].qid = 3;
    h.dma_queue_init_batch(&batch).unwrap();
    let eng = h.dma_eng_get_state(3).unwrap();
    assert_eq!((eng.num_queues, eng.tx_state, eng.max_queues), (3, 1, 16));
    let mut out = [[0u8; DESC_SIZE]; 5];
    h.dma_descriptor_copyout(3, 1, QueueType::Tx, 1, &mut out)
        .unwrap();
    assert_eq!(out[0], [0; DESC_SIZE]);
    assert_eq!(&out[1..], &descs[..]);
    h.dma_queue_copy_start(3, 1, 4, 4).unwrap();
    h.dma_ack_completed(3, 1, 3).unwrap();
    let (txs, rxs) = h.dma_queue_get_state(3, 1).unwrap();
    assert_eq!((txs.tail_pointer, txs.head_pointer, txs.length), (4, 3, 16));
    assert_eq!((rxs.tail_pointer, rxs.completion_head), (4, 3));
    assert_eq!(txs.base_addr, h.mem_get_extended_info(tx, 0).unwrap().pa);
    assert_eq!(
        h.dma_ack_completed(3, 1, 2).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_ACK_COMPLETED", Errno::INVAL)
    );
    assert_eq!(
        h.dma_descriptor_copyout(3, 1, QueueType::Rx, 15, &mut out)
            .unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_DESCRIPTOR_COPYOUT", Errno::INVAL)
    );
    h.dma_queue_release(3, 1).unwrap();
    assert_eq!(
        h.dma_queue_get_state(3, 1).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_QUEUE_GET_STATE", Errno::INVAL)
    );
    assert!(matches!(
        h.dma_queue_init_batch(&vec![init; 256]),
        Err(Error::OutOfRange { .. })
    ));
}

#[test]
fn semaphores_events_resets_scrub_and_engine_programming() {
    let ndl = ndl(1);
    let dev = ndl.device(0).unwrap();
    dev.semaphore_write(1, 5, 10).unwrap();
    dev.semaphore_increment(1, 5, 3).unwrap();
    dev.semaphore_decrement(1, 5, 1).unwrap();
    assert_eq!(dev.semaphore_read(1, 5).unwrap(), 12);
    assert_eq!(dev.semaphore_read(0, 5).unwrap(), 0, "per core");
    assert_eq!(
        dev.semaphore_read(8, 0).unwrap_err(),
        ioctl_err("NEURON_IOCTL_SEMAPHORE_READ", Errno::INVAL)
    );
    dev.event_set(2, 200, 0xABC).unwrap();
    assert_eq!(dev.event_get(2, 200).unwrap(), 0xABC);
    let id = dev.nc_reset(0b10).unwrap();
    assert_eq!(id, std::process::id());
    assert_eq!(
        dev.semaphore_read(1, 5).unwrap(),
        0,
        "reset clears the core's semaphores"
    );
    assert_eq!(
        dev.event_get(2, 200).unwrap(),
        0xABC,
        "other cores keep theirs"
    );
    assert_eq!(dev.nc_reset_ready(id).unwrap(), 0);
    assert_eq!(
        dev.nc_reset_ready(id).unwrap_err(),
        ioctl_err("NEURON_IOCTL_NC_RESET_READY", Errno::INVAL)
    );
    let h = ndl.open_device(0).unwrap();
    let mem = h
        .mem_alloc(
            4096,
            0,
            MemLocation::Device {
                channel: 1,
                region: 0,
            },
            0,
        )
        .unwrap();
    h.mem_buf_copy_to(mem, 0, &[1; 16]).unwrap();
    dev.hbm_scrub_start(0, 1, 0, 0).unwrap();
    assert_eq!(
        dev.hbm_scrub_start(0, 1, 0, 0).unwrap_err(),
        ioctl_err("NEURON_IOCTL_HBM_SCRUB_START", Errno::BUSY)
    );
    dev.hbm_scrub_wait(0, 1).unwrap();
    let mut b = [9u8; 16];
    h.mem_buf_copy_from(mem, 0, &mut b).unwrap();
    assert_eq!(b, [0; 16], "scrubbed");
    let pa = h.mem_get_extended_info(mem, 0).unwrap().pa;
    h.program_engine_nc(3, pa, 64, b"engine").unwrap();
    let mut e = [0u8; 6];
    h.mem_buf_copy_from(mem, 64, &mut e).unwrap();
    assert_eq!(&e, b"engine");
}

#[test]
fn notifications_and_mmap_pairing() {
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    let init = NotificationsInitV2 {
        nq_dev_id: 0,
        nq_dev_type: 0,
        nq_type: 1,
        engine_index: 2,
        size: 4096,
        on_host_memory: 1,
        dram_channel: 0,
        dram_region: 0,
        mmap_offset: 0,
        mem_handle: 0,
    };
    let (cookie, mem) = h.notifications_init(&init).unwrap();
    assert_eq!(
        h.notifications_init(&init).unwrap(),
        (cookie, mem),
        "same queue again"
    );
    let realloc = NotificationsInitWithReallocV2 {
        nq_dev_id: 0,
        nq_dev_type: 0,
        nq_type: 1,
        engine_index: 2,
        size: 4096,
        on_host_memory: 1,
        dram_channel: 0,
        dram_region: 0,
        force_alloc_mem: 1,
        _pad36: [0; 4],
        mmap_offset: 0,
        mem_handle: 0,
    };
    let (cookie2, mem2) = h.notifications_init_with_realloc(&realloc).unwrap();
    assert_ne!(mem2, mem, "forced re-allocation");
    // The queue's memory is what the mapping shows.
    let q = h.map(cookie2, 4096).unwrap();
    h.mem_buf_copy_to(mem2, 0, &0x600D_F00Du32.to_le_bytes())
        .unwrap();
    assert_eq!(q.read32(0), 0x600D_F00D);
    q.write32(4, 0x1111_2222);
    let mut back = [0u8; 4];
    h.mem_buf_copy_from(mem2, 4, &mut back).unwrap();
    assert_eq!(u32::from_le_bytes(back), 0x1111_2222);
    assert_eq!(ndl.kernel().mappings(), 1);
    drop(q);
    assert_eq!(ndl.kernel().mappings(), 0, "unmapped on drop");
    // Resource mapping: the info ioctl's cookie, then mmap; contents persist per resource.
    let r = h.map_resource(1, 2, 3).unwrap();
    assert_eq!(r.len(), 4096);
    r.write32(0x10, 7);
    drop(r);
    let r = h.map_resource(1, 2, 3).unwrap();
    assert_eq!(r.read32(0x10), 7);
    assert!(h.map_resource(4, 0, 0).is_err());
    let mem = h.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    let pa = h.mem_get_extended_info(mem, 0).unwrap().pa;
    h.mem_buf_copy_to(mem, 4096, b"page two").unwrap();
    let m = h.map_pa(pa).unwrap();
    let mut s = [0u8; 8];
    m.read_bytes(4096, &mut s).unwrap();
    assert_eq!(&s, b"page two");
    // dma-buf export of a mapped range hands out a new fd.
    let fd = ndl.misc().dmabuf_fd(m.as_ptr() as u64, 4096).unwrap();
    assert!(fd >= 1000);
    assert_eq!(
        ndl.misc()
            .dmabuf_fd(m.as_ptr() as u64, 3 * 4096)
            .unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMABUF_FD", Errno::INVAL)
    );
    // mmap needs the read-write handle fd: the O_RDONLY cached fd is refused.
    let ro = ndl.device(0).unwrap().pin().unwrap();
    // SAFETY: `ro` is open; the mapping is never accessed.
    let e = unsafe { ndl.kernel().mmap(ro.fd(), 4096, cookie) }.unwrap_err();
    assert_eq!(e, Errno::ACCESS);
}

#[test]
fn core_locks_and_range_marks() {
    let ndl = ndl(2);
    let dev = ndl.device(0).unwrap();
    let uuid = [7u8; 32];
    dev.crwl_reader_enter(1, &uuid).unwrap();
    assert_eq!(
        dev.crwl_writer_enter(1, &uuid).unwrap_err(),
        ioctl_err("NEURON_IOCTL_CRWL_WRITER_ENTER", Errno::BUSY)
    );
    dev.crwl_reader_exit(1, &uuid).unwrap();
    dev.crwl_writer_enter(1, &uuid).unwrap();
    dev.crwl_writer_downgrade(1, &uuid).unwrap();
    dev.crwl_reader_exit(1, &uuid).unwrap();
    assert!(dev.crwl_reader_exit(1, &uuid).is_err());
    let misc = ndl.misc();
    let m = misc.crwl_nc_range_mark(3, 2, 9).unwrap();
    assert_eq!((m.max_nc_available, m.bitmap[0]), (8, 0b1_1100));
    let ext = misc.crwl_nc_range_mark_ext(2, 2, 15).unwrap();
    assert_eq!((ext.max_nc_available, ext.bitmap[0]), (11, 0b110_0000));
    assert_eq!(
        misc.crwl_nc_range_mark(9, 2, 9).unwrap_err(),
        ioctl_err("NEURON_IOCTL_CRWL_NC_RANGE_MARK", Errno::BUSY)
    );
    misc.crwl_nc_range_unmark(m.bitmap[0]).unwrap();
    misc.crwl_nc_range_unmark_ext(&ext.bitmap).unwrap();
    assert_eq!(
        misc.crwl_nc_range_mark(8, 2, 9).unwrap().bitmap[0],
        0b11_1111_1100
    );
    // Closing the free-access fd releases the marks of the caller.
    ndl.close_all();
    assert_eq!(
        misc.crwl_nc_range_mark(8, 2, 9).unwrap().max_nc_available,
        8
    );
}

#[test]
fn pod_queries_and_printk() {
    let ndl = ndl(2);
    let misc = ndl.misc();
    let info = misc.pod_info().unwrap();
    assert_eq!((info.sz, info.pod_sz), (260, 2));
    assert_eq!(misc.pod_ctrl(2, 100).unwrap(), 2);
    assert_eq!(misc.pod_ctrl_v2(3, 100, 1).unwrap(), 3);
    let st = misc.pod_status().unwrap();
    assert_eq!((st.status.state, st.status.node_id), (3, -1));
    assert_eq!(st.modes.map(|m| m.mode), Some(1));
    misc.printk("hello from ndl", 0).unwrap();
    assert_eq!(ndl.kernel().printk_log(), ["hello from ndl"]);
    assert!(matches!(
        misc.printk(&"x".repeat(512), 0),
        Err(Error::OutOfRange { .. })
    ));
    misc.printk(&"y".repeat(511), 0).unwrap();
}

#[test]
fn legacy_fallback_latches_once_per_family() {
    let kernel = Arc::new(ModelKernel::new(1));
    kernel.retire(&ioctl_codes::MEM_COPY64.command());
    kernel.retire(&ioctl_codes::MEM_BUF_COPY64.command());
    kernel.retire(&ioctl_codes::MEM_ALLOC_V2MT64.command());
    kernel.retire(&ioctl_codes::MEMSET64.command());
    kernel.retire(&ioctl_codes::MEM_MC_GET_INFO_V2.command());
    kernel.retire(&ioctl_codes::POD_STATUS_V2.command());
    kernel.retire(&ioctl_codes::DMA_COPY_DESCRIPTORS64.command());
    kernel.retire(&ioctl_codes::PROGRAM_ENGINE_NC64.command());
    let ndl = Ndl::with_kernel(Arc::clone(&kernel));
    let h = ndl.open_device(0).unwrap();
    let a = h.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    assert!(ndl.compat().is_legacy(Family::MemAlloc));
    h.mem_buf_copy_to(a, 0, b"old kernel").unwrap();
    h.mem_copy(a, 0, a, 100, 10).unwrap();
    h.memset(a, 0, 0, 3).unwrap();
    let mut out = [0u8; 10];
    h.mem_buf_copy_from(a, 100, &mut out).unwrap();
    assert_eq!(&out, b"old kernel");
    h.dma_copy_descriptors(a, 0, QueueType::Rx, &[[1; DESC_SIZE]])
        .unwrap();
    let pa = h.mem_get_extended_info(a, 0).unwrap().pa;
    h.program_engine_nc(0, pa, 0, b"x").unwrap();
    let mc = h.mc_get_info(pa).unwrap();
    assert_eq!(mc.mem_handle, None, "V1 does not report the handle");
    assert_eq!(ndl.misc().pod_status().unwrap().modes, None);
    for f in [
        Family::MemAlloc,
        Family::MemBufCopy,
        Family::MemCopy,
        Family::Memset,
        Family::DmaCopyDescriptors,
        Family::ProgramEngineNc,
        Family::McGetInfo,
        Family::PodStatus,
    ] {
        assert!(ndl.compat().is_legacy(f), "{f:?} latched");
    }
    assert!(
        !ndl.compat().is_legacy(Family::MemCopyAsync),
        "only what was tried"
    );
    // Once latched, values the legacy form cannot carry are refused before the kernel.
    assert_eq!(
        h.mem_copy(a, 1 << 32, a, 0, 1).unwrap_err(),
        Error::OutOfRange {
            cmd: "NEURON_IOCTL_MEM_COPY",
            what: "src_offset",
            value: 1 << 32
        }
    );
    // A modern driver never latches on argument errors.
    let modern = ndl_std::Ndl::with_kernel(ModelKernel::new(1));
    let h = modern.open_device(0).unwrap();
    let a = h.mem_alloc(64, 0, MemLocation::Host, 0).unwrap();
    assert!(h.mem_copy(a, 1 << 32, a, 0, 1).is_err());
    assert!(Family::ALL.iter().all(|f| !modern.compat().is_legacy(*f)));
}

#[test]
fn lanes_attach_and_size_demux_follow_the_driver() {
    let k = ModelKernel::new(1);
    let node = Path::new("/dev/neuron0");
    let ro = k.open(node, AccessMode::ReadOnly).unwrap();
    let wo = k.open(node, AccessMode::WriteOnly).unwrap();
    let mut buf = vec![0u64; 2048];
    let p = buf.as_mut_ptr().cast();
    // SAFETY: `buf` is a zeroed 16 KiB buffer, larger than any struct the requests copy, and
    // holds no user addresses the handlers would follow (null fields fail with EFAULT); the
    // fds come from `open` and are closed once.
    unsafe {
        // A device command on the free-access lane: only misc is reachable.
        assert_eq!(
            k.ioctl::<{ ioctl_codes::HOST_DEVICE_ID.code() }>(wo, p),
            Err(Errno::INVAL)
        );
        assert_eq!(
            k.ioctl::<{ ioctl_codes::HOST_DEVICE_ID.code() }>(ro, p),
            Ok(0)
        );
        // Misc commands work on both lanes (the device chain falls through).
        assert_eq!(
            k.ioctl::<{ ioctl_codes::COMPATIBLE_VERSION.code() }>(ro, p),
            Ok(0)
        );
        assert_eq!(
            k.ioctl::<{ ioctl_codes::COMPATIBLE_VERSION.code() }>(wo, p),
            Ok(0)
        );
        // An unknown size inside an nr family: the family handler says EINVAL.
        const ODD: u32 = ioctl_codes::ioc(Dir::Read, b'N', 23, 16);
        assert_eq!(k.ioctl::<ODD>(ro, p), Err(Errno::INVAL));
        // MC_GET_INFO goes by `_IOC_SIZE` alone: another dir with size 24 still reaches V1
        // (and fails only because pa 0 is not allocated).
        const MC_W: u32 = ioctl_codes::ioc(Dir::Write, b'N', 111, 24);
        assert_eq!(k.ioctl::<MC_W>(ro, p), Err(Errno::INVAL));
        // DRIVER_INFO accepts any R size >= 24 and writes 24 bytes.
        const DRV_BIG: u32 = ioctl_codes::ioc(Dir::Read, b'N', 110, 64);
        assert_eq!(k.ioctl::<DRV_BIG>(wo, p), Ok(0));
        assert_eq!(buf[1] >> 32, 24, "size field (offset 12)");
        const DRV_SMALL: u32 = ioctl_codes::ioc(Dir::Read, b'N', 110, 16);
        assert_eq!(k.ioctl::<DRV_SMALL>(wo, p), Err(Errno::INVAL));
        // An unknown command number.
        const UNKNOWN: u32 = ioctl_codes::ioc(Dir::Read, b'N', 200, 8);
        assert_eq!(k.ioctl::<UNKNOWN>(ro, p), Err(Errno::INVAL));
        // Stubs answer as the driver does.
        assert_eq!(
            k.ioctl::<{ ioctl_codes::NOTIFICATIONS_QUEUE_INFO.code() }>(ro, p),
            Err(Errno::PERM)
        );
        assert_eq!(
            k.ioctl::<{ ioctl_codes::DMA_QUIESCE_QUEUES.code() }>(ro, p),
            Err(Errno::NOTTY)
        );
        assert_eq!(
            k.ioctl::<{ ioctl_codes::DEVICE_RESET_STATUS.code() }>(ro, p),
            Ok(0)
        );
        assert_eq!(buf[0] & 0xFF, 1, "RESET_STATUS writes the byte 1");
        // The attach check: a process that did not open the device (a forked child using
        // its parent's fd) gets EACCES on the attach-checked commands only.
        let child = ModelKernel::as_process(4242, || {
            (
                k.ioctl::<{ ioctl_codes::MEM_FREE.code() }>(ro, p),
                k.ioctl::<{ ioctl_codes::DMA_ENG_INIT.code() }>(ro, p),
                k.ioctl::<{ ioctl_codes::DRIVER_INFO_SET.code() }>(ro, p),
                k.ioctl::<{ ioctl_codes::DRIVER_INFO_SET.code() }>(wo, p),
                k.ioctl::<{ ioctl_codes::HOST_DEVICE_ID.code() }>(ro, p),
                k.ioctl::<{ ioctl_codes::MEM_COPY64.code() }>(ro, p),
            )
        });
        assert_eq!(child.0, Err(Errno::ACCESS));
        assert_eq!(child.1, Err(Errno::ACCESS));
        assert_eq!(
            child.2,
            Err(Errno::ACCESS),
            "DRIVER_INFO_SET is attach-checked on privileged fds"
        );
        assert_eq!(
            child.3,
            Err(ENOTSUPP),
            "... but not on the free-access lane"
        );
        assert_eq!(child.4, Ok(0), "not attach-checked");
        assert_eq!(
            child.5,
            Err(Errno::INVAL),
            "64-bit sibling unchecked; fails on handle 0"
        );
        k.close(ro);
        k.close(wo);
        assert_eq!(
            k.ioctl::<{ ioctl_codes::HOST_DEVICE_ID.code() }>(ro, p),
            Err(Errno::BADF)
        );
    }
    assert_eq!((k.opens(), k.closes(), k.open_fds()), (2, 2, 0));
    assert_eq!(
        k.open(Path::new("/dev/neuron1"), AccessMode::ReadOnly),
        Err(Errno::NOENT)
    );
    assert_eq!(
        k.open(Path::new("/tmp/neuron0"), AccessMode::ReadOnly),
        Err(Errno::NOENT)
    );
}
