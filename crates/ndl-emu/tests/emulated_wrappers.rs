//! Every wrapper end to end against the emulated kernel (devices are `neuron-emu` models),
//! plus its dispatch rules (lanes, attach check, nr/size demux, positive returns, legacy
//! fallback).

use std::path::Path;
use std::sync::Arc;

use khal::Arch;
use khal::Generation;
use khal_cayman::Cayman;
use mmio::Mmio;
use ndl_abi::Dir;
use ndl_abi::{
    DmaQueueInit, DmaQueueInitBatch, NotificationsInitV2, NotificationsInitWithReallocV2,
};
use ndl_emu::{DeviceConfig, ENOTSUPP, EmulatedKernel, resource};
use ndl_std::{
    AccessMode, BatchFrom, BatchTo, Errno, Error, Family, Kernel, MemHandle, MemLocation, Ndl,
    OpFrom, OpTo, QueueType,
};
use udma_desc::{CopyRequest, RingId, build_copy_pair};

/// `devices` trn2 (V3) devices.
fn ndl(devices: u32) -> Ndl<Arc<EmulatedKernel>> {
    Ndl::with_kernel(Arc::new(
        EmulatedKernel::new(Generation::V3, devices).unwrap(),
    ))
}

const HBM0: MemLocation = MemLocation::Device {
    channel: 0,
    region: 0,
};

/// The DMA address an engine uses for an allocation (the reported pa, with the PCIe host
/// base for host memory).
fn dma_addr<K: Kernel>(h: &ndl_std::DeviceHandle<'_, K>, mem: MemHandle) -> u64 {
    let info = h.mem_get_extended_info(mem, 0).unwrap();
    if info.host_memory != 0 {
        info.pa | Cayman::SCALARS.pci_host_base
    } else {
        info.pa
    }
}

/// A deterministic byte pattern.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

fn ioctl_err(cmd: &'static str, errno: Errno) -> Error {
    Error::Ioctl { cmd, errno }
}

#[test]
fn identity_queries() {
    let ndl = ndl(3);
    // PCI identity, ids, core map and memory sizes are the emulator's documented choices
    // (`DeviceConfig::numbered`), not driver facts: compare with the config, not a literal.
    let cfg = |i| DeviceConfig::numbered(Generation::V3, i);
    let dev = ndl.device(2).unwrap();
    let info = dev.device_info().unwrap();
    // arch-ids.tsv: 0x7364 is NEURON_ARCH_V3 = 3.
    assert_eq!(
        (info.architecture, info.revision),
        (3, cfg(2).revision),
        "V3 reports arch 3"
    );
    let model = ndl.kernel().device(2).unwrap();
    let last_unit_end = (0..model.unit_count())
        .filter_map(|u| model.unit_base(u))
        .max()
        .unwrap() as u64
        + khal::regs::unit::UNIT_SIZE as u64;
    assert!(info.bar_size[0].is_power_of_two() && info.bar_size[0] >= last_unit_end);
    // bar-README.md: "`bar_address[1]`/`bar_size[1]` describe the unused AXI BAR and are 0 on
    // V2 and later".
    assert_eq!(
        (info.bar_address[1], info.bar_size[1]),
        (0, 0),
        "the unused AXI BAR"
    );
    assert_eq!(dev.device_bdf().unwrap().bus_number, cfg(2).bus);
    assert_eq!(dev.host_device_id().unwrap(), cfg(2).host_device_id);
    let misc = ndl.misc();
    // arch-scalars.tsv "runtime compatible version": V3 min 10, max 11.
    assert_eq!(misc.compatible_version().unwrap(), (10, 11));
    let basic = misc.device_basic_info().unwrap();
    assert_eq!((basic.architecture, basic.revision), (3, 1));
    // nd_index is relative to the misc node (neuron0 here; neuron1 below).
    assert_eq!(misc.device_bdf_ext(1).unwrap().bus_number, cfg(1).bus);
    assert_eq!(
        misc.device_bdf_ext(3).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DEVICE_BDF_EXT", Errno::INVAL)
    );
    let ndl1 =
        Ndl::with_kernel(EmulatedKernel::new(Generation::V3, 3).unwrap()).with_misc_device(1);
    assert_eq!(
        ndl1.misc().device_bdf_ext(1).unwrap().bus_number,
        cfg(2).bus
    );
    let drv = misc.driver_info_get().unwrap();
    // ioctl-commands.tsv DRIVER_INFO_GET: "dir R with size >= 24 succeeds (24 bytes
    // written)"; the struct's size field reports those 24 bytes.
    assert_eq!((drv.size, drv.architecture), (24, 3));
    assert_eq!(
        misc.driver_info_set(&drv).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DRIVER_INFO_SET", ENOTSUPP)
    );
    assert_eq!(
        misc.host_device_id_to_rid_map().unwrap(),
        [cfg(0).routing_id, cfg(1).routing_id, cfg(2).routing_id]
    );
    // arch-README.md "V3 logical-to-physical core map": device 0 follows pattern A
    // (4, 5, 6, 7, 2, 3, 0, 1), device 1 pattern B; the mapping type (0) is an input and
    // comes back as sent.
    let (mapping_type, map) = misc.get_logical_to_physical_nc_map(10).unwrap();
    assert_eq!(mapping_type, 0);
    let entries: Vec<(u32, u32)> = map.iter().map(|e| (e.device_id, e.device_nc_idx)).collect();
    assert_eq!(
        entries,
        [
            (0, 4),
            (0, 5),
            (0, 6),
            (0, 7),
            (0, 2),
            (0, 3),
            (0, 0),
            (0, 1),
            (1, 2),
            (1, 3)
        ]
    );
    assert!(matches!(
        misc.get_logical_to_physical_nc_map(129),
        Err(Error::OutOfRange { .. })
    ));
    // arch-callbacks.tsv: V2 registers no map, so the ioctl reports ENOTSUPP.
    let no_map = Ndl::with_kernel(EmulatedKernel::new(Generation::V2, 1).unwrap());
    assert_eq!(
        no_map.misc().get_logical_to_physical_nc_map(8).unwrap_err(),
        ioctl_err("NEURON_IOCTL_GET_LOGICAL_TO_PHYSICAL_NC_MAP", ENOTSUPP)
    );
    // Each generation reports its own arch number, core count and compatible-version
    // window (arch-scalars.tsv: V2 min 5 max 7; V4 inherits V3's min 10 max 11).
    for (g, cores, window) in [(Generation::V2, 2, (5, 7)), (Generation::V4, 8, (10, 11))] {
        let n = Ndl::with_kernel(EmulatedKernel::new(g, 1).unwrap());
        assert_eq!(n.misc().compatible_version().unwrap(), window);
        let d = n.device(0).unwrap();
        assert_eq!(d.device_info().unwrap().architecture, u32::from(g.number()));
        assert_eq!(
            n.misc().driver_info_get().unwrap().architecture,
            u32::from(g.number())
        );
        assert!(d.semaphore_read(cores - 1, 0).is_ok());
        assert_eq!(
            d.semaphore_read(cores, 0).unwrap_err(),
            ioctl_err("NEURON_IOCTL_SEMAPHORE_READ", Errno::INVAL)
        );
    }
}

#[test]
fn memory_alloc_copy_memset_and_info() {
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    let a = h.mem_alloc(4096, 256, HBM0, 0).unwrap();
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
    // The bytes live in the device model's memory: HBM channel 0 and the host region.
    let model = ndl.kernel().device(0).unwrap();
    let (da, db) = (dma_addr(&h, a), dma_addr(&h, b));
    assert_eq!(model.read_mem_vec(da + 10, 8).unwrap(), b"trainium");
    assert_eq!(model.read_mem_vec(db + 100, 8).unwrap(), b"trZZZium");
    let in_region = |addr: u64, kind| {
        model.with_memory(|m| {
            let r = m.region(m.find(kind).unwrap()).unwrap();
            addr >= r.base() && addr < r.end()
        })
    };
    assert!(in_region(da, neuron_emu::RegionKind::Device { channel: 0 }));
    assert!(in_region(db, neuron_emu::RegionKind::Host));
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
    assert_eq!(
        info.pa & Cayman::SCALARS.pci_host_base,
        Cayman::SCALARS.pci_host_base,
        "host memory reports its address with the host window (dma-path.md step 3)"
    );
    let mc = h.mem_mc_get_info(info.pa + 17).unwrap();
    assert_eq!(
        (mc.mmap_offset, mc.size, mc.mem_handle),
        (info.mmap_offset, 4096, Some(b))
    );
    h.mem_free(b).unwrap();
    // A bad handle makes MEM_GET_EXTENDED_INFO return +EINVAL: the return-convention table
    // reads that positive value as the errno it is.
    assert_eq!(
        h.mem_get_extended_info(b, 0).unwrap_err(),
        Error::Ioctl {
            cmd: "NEURON_IOCTL_MEM_GET_EXTENDED_INFO",
            errno: Errno::INVAL
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
    // The model's allocator: a channel the arch does not have, and memory that runs out.
    let ch9 = MemLocation::Device {
        channel: 9,
        region: 0,
    };
    assert_eq!(
        h.mem_alloc(64, 0, ch9, 0).unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_ALLOC_V2MT64", Errno::INVAL)
    );
    // Channel sizes are the emulator's choice (`DeviceConfig::numbered`), so the sizes
    // below are taken from it: twice a channel cannot fit, most of one can, twice over.
    let channel = DeviceConfig::numbered(Generation::V3, 0)
        .memory
        .hbm_bytes_per_channel;
    assert_eq!(
        h.mem_alloc(2 * channel, 0, HBM0, 0).unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_ALLOC_V2MT64", Errno::NOMEM)
    );
    let most = channel - (1 << 20);
    let big = h.mem_alloc(most, 0, HBM0, 0).unwrap();
    assert_eq!(
        h.mem_alloc(most, 0, HBM0, 0).unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_ALLOC_V2MT64", Errno::NOMEM),
        "the channel is taken"
    );
    h.mem_free(big).unwrap();
    assert!(
        h.mem_alloc(most, 0, HBM0, 0).is_ok(),
        "freed memory is reusable"
    );
    // The per-device (read-only) gateway sees the same allocations.
    let dev = ndl.device(0).unwrap();
    assert_eq!(dev.mem_get_extended_info(a, 0).unwrap().size, 4096);
}

#[test]
fn a_freed_allocation_stays_in_place_while_mapped() {
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    let a = h.mem_alloc(8192, 0, HBM0, 0).unwrap();
    let info = h.mem_get_extended_info(a, 0).unwrap();
    let map = h.map(info.mmap_offset, 8192).unwrap();
    map.write_bytes(5000, b"still here").unwrap();
    h.mem_free(a).unwrap();
    // The same size again cannot land on the mapped block.
    let b = h.mem_alloc(8192, 0, HBM0, 0).unwrap();
    assert_ne!(h.mem_get_extended_info(b, 0).unwrap().pa, info.pa);
    let mut s = [0u8; 10];
    map.read_bytes(5000, &mut s).unwrap();
    assert_eq!(&s, b"still here");
    map.unmap().unwrap();
    // Released at the last unmap: the next allocation may take it.
    let c = h.mem_alloc(8192, 0, HBM0, 0).unwrap();
    assert_eq!(h.mem_get_extended_info(c, 0).unwrap().pa, info.pa);
    let mut z = [1u8; 10];
    h.mem_buf_copy_from(c, 5000, &mut z).unwrap();
    assert_eq!(z, [0; 10], "new allocations are zeroed");
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
    h.mem_buf_zerocopy64_batches_to(1, -1, &batches).unwrap();
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
    h.mem_buf_zerocopy64_batches_from(2, -1, &mut back).unwrap();
    assert_eq!((&x, &y), (b"defg", b"abc"));
    let bad = [BatchTo {
        mem: ndl_std::MemHandle(0xdead),
        mem_offset: 0,
        ops: &ops_b,
        bar4_wr_threshold: 0,
        flags: 0,
    }];
    assert_eq!(
        h.mem_buf_zerocopy64_batches_to(3, -1, &bad).unwrap_err(),
        ioctl_err("NEURON_IOCTL_MEM_BUF_ZEROCOPY64_BATCHES", Errno::INVAL)
    );
}

/// A DMA_QUEUE_INIT of queue `qid` of engine `eng_id` with `count`-entry TX and RX rings and
/// no completion ring.
fn queue_init(eng_id: u32, qid: u32, count: u32, tx: MemHandle, rx: MemHandle) -> DmaQueueInit {
    DmaQueueInit {
        eng_id,
        qid,
        tx_desc_count: count,
        rx_desc_count: count,
        tx_handle: tx.0,
        rx_handle: rx.0,
        rxc_handle: 0,
        axi_port: 0,
        _pad44: [0; 4],
    }
}

#[test]
fn dma_engines_queues_and_descriptors_run_on_the_model() {
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    h.dma_eng_init(3).unwrap();
    h.dma_eng_init(10_000).unwrap(); // a no-op for the driver, whatever the id
    let eng = h.dma_eng_get_state(3).unwrap();
    // Brought up at probe: NORMAL (2) both ways, V3's UDMA revision 4, 16 queues, none set up.
    assert_eq!(
        (eng.tx_state, eng.rx_state, eng.revision_id, eng.max_queues),
        (2, 2, 4, 16)
    );
    assert_eq!(eng.num_queues, 0);
    let ring_bytes = 32 * udma_desc::DESC_BYTES as u64;
    // Host memory takes no alignment (the driver refuses one: dma-path.md step 2).
    assert!(h.mem_alloc(ring_bytes, 256, MemLocation::Host, 0).is_err());
    let tx = h.mem_alloc(ring_bytes, 0, MemLocation::Host, 0).unwrap();
    let rx = h.mem_alloc(ring_bytes, 0, MemLocation::Host, 0).unwrap();
    let src = h.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    let dst = h.mem_alloc(8192, 64, HBM0, 0).unwrap();
    let data = pattern(8192, 3);
    h.mem_buf_copy_to(src, 0, &data).unwrap();
    // Two 4 KiB copies built by udma-desc, written through DMA_COPY_DESCRIPTORS.
    let (s, d) = (dma_addr(&h, src), dma_addr(&h, dst));
    let pairs: Vec<_> = [0u64, 4096]
        .iter()
        .map(|&off| {
            let req = CopyRequest::new(s + off, d + off, 4096);
            build_copy_pair::<Cayman>(RingId::INITIAL, RingId::INITIAL, &req).unwrap()
        })
        .collect();
    // The wrappers take each descriptor's 16 bytes in memory order.
    let txd: Vec<[u8; 16]> = pairs.iter().map(|p| p.tx.to_le_bytes()).collect();
    let rxd: Vec<[u8; 16]> = pairs.iter().map(|p| p.rx.to_le_bytes()).collect();
    h.dma_copy_descriptors(tx, 0, QueueType::Tx, &txd).unwrap();
    h.dma_copy_descriptors(rx, 0, QueueType::Rx, &rxd).unwrap();
    let init = queue_init(3, 1, 32, tx, rx);
    h.dma_queue_init(&init).unwrap();
    let mut batch = [init; 2];
    batch[0].qid = 2;
    batch[1].qid = 3;
    h.dma_queue_init_batch(&batch).unwrap();
    assert_eq!(h.dma_eng_get_state(3).unwrap().num_queues, 3);
    let mut out = [[0u8; 16]; 3];
    h.dma_descriptor_copyout(3, 1, QueueType::Tx, 0, &mut out)
        .unwrap();
    assert_eq!(&out[..2], &txd[..]);
    assert_eq!(out[2], udma_desc::Descriptor::ZERO.to_le_bytes());
    // The queue registers say what khal programmed: ring base, length, pointers at 0.
    let (txs, rxs) = h.dma_queue_get_state(3, 1).unwrap();
    assert_eq!((txs.base_addr, txs.length), (dma_addr(&h, tx), 32));
    assert_eq!((txs.head_pointer, txs.tail_pointer), (0, 0));
    assert_eq!(rxs.base_addr, dma_addr(&h, rx));
    // COPY_START rings khal's doorbells; the model's engine (run on the doorbell) copies.
    let mut back = vec![0u8; 8192];
    h.mem_buf_copy_from(dst, 0, &mut back).unwrap();
    assert_eq!(back, vec![0; 8192], "nothing moved before the doorbell");
    h.dma_queue_copy_start(3, 1, 2, 2).unwrap();
    h.mem_buf_copy_from(dst, 0, &mut back).unwrap();
    assert_eq!(back, data);
    let (txs, rxs) = h.dma_queue_get_state(3, 1).unwrap();
    assert_eq!((txs.head_pointer, txs.tail_pointer), (2, 2));
    assert_eq!(
        (rxs.head_pointer, rxs.tail_pointer, rxs.completion_head),
        (2, 2, 0)
    );
    let model = ndl.kernel().device(0).unwrap();
    let stats = model.queue_stats(3, neuron_emu::Direction::Tx, 1).unwrap();
    assert_eq!((stats.packets, stats.descriptors), (2, 2));
    // Acks are software bookkeeping only (dma-path.md step 9): the index advances.
    h.dma_ack_completed(3, 1, 1).unwrap();
    h.dma_ack_completed(3, 1, 1).unwrap();
    assert_eq!(h.dma_queue_get_state(3, 1).unwrap().1.completion_head, 2);
    // COPY_START: a count above the ring size, and an RX count of 0, are -1 (EPERM).
    assert_eq!(
        h.dma_queue_copy_start(3, 1, 0, 33).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_QUEUE_COPY_START", Errno::PERM),
        "more than the ring"
    );
    assert_eq!(
        h.dma_queue_copy_start(3, 1, 1, 0).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_QUEUE_COPY_START", Errno::PERM),
        "no RX descriptors"
    );
    // dma-path.md step 8: "`start_index` + `count` must fit the ring length read from
    // hardware, else -EFBIG; count 0 -> -EINVAL".
    assert_eq!(
        h.dma_descriptor_copyout(3, 1, QueueType::Rx, 31, &mut out)
            .unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_DESCRIPTOR_COPYOUT", Errno::FBIG)
    );
    h.dma_descriptor_copyout(3, 1, QueueType::Rx, 29, &mut out)
        .unwrap();
    assert_eq!(
        h.dma_descriptor_copyout(3, 1, QueueType::Rx, 0, &mut [])
            .unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_DESCRIPTOR_COPYOUT", Errno::INVAL),
        "count 0"
    );
    // Engine state through khal: IDLE (1) and RESET (4) are ignored by the setter and
    // still return 0 (ioctl-commands.tsv row DMA_ENG_SET_STATE: "1 and 4 are ignored by the
    // setter; returns 0 whenever the copy-in succeeded and eng_id < 132").
    h.dma_eng_set_state(3, 1).unwrap();
    h.dma_eng_set_state(3, 4).unwrap();
    let eng = h.dma_eng_get_state(3).unwrap();
    assert_eq!(
        (eng.tx_state, eng.rx_state),
        (2, 2),
        "IDLE and RESET changed nothing"
    );
    assert_eq!(
        h.dma_eng_set_state(132, 2).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_ENG_SET_STATE", Errno::INVAL),
        "eng_id >= 132"
    );
    h.dma_eng_set_state(3, 3).unwrap();
    let eng = h.dma_eng_get_state(3).unwrap();
    assert_eq!((eng.tx_state, eng.rx_state), (3, 3));
    assert_eq!(
        model.engine_state(3, neuron_emu::Direction::Tx),
        Some(neuron_emu::EngineState::Aborted)
    );
    // DMA_ENG_INIT is a "deprecated no-op; returns 0 (after the attach check)"
    // (ioctl-commands.tsv row DMA_ENG_INIT): it does not bring the aborted engine back.
    h.dma_eng_init(3).unwrap();
    assert_eq!(
        h.dma_eng_get_state(3).unwrap().tx_state,
        3,
        "ENG_INIT did nothing"
    );
    h.dma_eng_set_state(3, 2).unwrap();
    assert_eq!(h.dma_eng_get_state(3).unwrap().tx_state, 2);
    assert_eq!(
        h.dma_eng_get_state(1000).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_ENG_GET_STATE", Errno::INVAL)
    );
    // DMA_QUEUE_RELEASE does nothing (2.26.5.0): the queue stays programmed.
    h.dma_queue_release(3, 1).unwrap();
    assert_eq!(h.dma_queue_get_state(3, 1).unwrap().0.length, 32);
    // The driver's ring rules (dma-path.md step 2): a multiple of 16 (else -1), at least
    // 32; no completion ring; engine ids below 132; queues 0..16.
    let refused = [
        (
            DmaQueueInit {
                tx_desc_count: 40,
                ..init
            },
            Errno::PERM,
            "not a multiple of 16",
        ),
        (
            DmaQueueInit {
                rxc_handle: src.0,
                ..init
            },
            Errno::PERM,
            "a completion ring",
        ),
        (
            DmaQueueInit {
                eng_id: 132,
                ..init
            },
            Errno::INVAL,
            "engine 132",
        ),
        (
            DmaQueueInit {
                tx_desc_count: 16,
                ..init
            },
            Errno::INVAL,
            "fewer than 32",
        ),
        (DmaQueueInit { qid: 16, ..init }, Errno::INVAL, "queue 16"),
    ];
    for (bad, errno, why) in refused {
        assert_eq!(
            h.dma_queue_init(&bad).unwrap_err(),
            ioctl_err("NEURON_IOCTL_DMA_QUEUE_INIT", errno),
            "{why}"
        );
    }
    assert!(matches!(
        h.dma_queue_init_batch(&vec![init; 256]),
        Err(Error::OutOfRange { .. })
    ));
}

#[test]
fn queue_init_takes_any_multiple_of_16_and_ack_refuses_non_powers_of_two() {
    // dma-path.md step 2: "Entry count a multiple of 16 (-1), at least 32 and at most 2^24-16
    // (-EINVAL). Power of two: not checked by DMA_QUEUE_INIT or DMA_QUEUE_COPY_START, but
    // DMA_ACK_COMPLETED returns -1 for a ring that is not a power of two". Step 4: "TX first
    // and RX second ... A TX success followed by an RX failure leaves TX programmed."
    let ndl = ndl(1);
    let h = ndl.open_device(0).unwrap();
    let model = ndl.kernel().device(0).unwrap();
    let hw_len = |dir, qid| {
        let q = udma_desc::QueueId::new(qid).unwrap();
        let off = Cayman::queue_reg_offset(dir, q, khal::regs::QueueReg::Drl).unwrap();
        let base = model.unit_base(3).unwrap();
        khal::regs::queue::RingLen::from_bits(model.read32(base + off)).descs()
    };
    let ring = |n: u64| h.mem_alloc(n * 16, 0, MemLocation::Host, 0).unwrap();
    let (tx, rx) = (ring(48), ring(48));
    let init = queue_init(3, 4, 48, tx, rx);
    h.dma_queue_init(&init).unwrap();
    assert_eq!(
        (
            hw_len(khal::regs::queue::Dir::Tx, 4),
            hw_len(khal::regs::queue::Dir::Rx, 4)
        ),
        (48, 48)
    );
    assert_eq!(h.dma_queue_get_state(3, 4).unwrap().0.length, 48);
    // COPY_START takes it too (one RX descriptor posted).
    h.dma_queue_copy_start(3, 4, 0, 1).unwrap();
    // ... and ACK_COMPLETED is where the driver refuses it: -1 (EPERM).
    assert_eq!(
        h.dma_ack_completed(3, 4, 1).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_ACK_COMPLETED", Errno::PERM)
    );
    // TX programmed (48), then the RX count fails: TX stays programmed, RX is untouched.
    let bad_rx = DmaQueueInit {
        qid: 5,
        rx_desc_count: 40,
        ..init
    };
    assert_eq!(
        h.dma_queue_init(&bad_rx).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_QUEUE_INIT", Errno::PERM)
    );
    assert_eq!(
        (
            hw_len(khal::regs::queue::Dir::Tx, 5),
            hw_len(khal::regs::queue::Dir::Rx, 5)
        ),
        (48, 0)
    );
    // Above 2^24-16 (a multiple of 16): EINVAL.
    assert_eq!(
        h.dma_queue_init(&DmaQueueInit {
            qid: 6,
            tx_desc_count: 1 << 24,
            ..init
        })
        .unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMA_QUEUE_INIT", Errno::INVAL)
    );
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
    // ioctl-commands.tsv NC_RESET: "request_id set to caller tgid and written back".
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
    let ch1 = MemLocation::Device {
        channel: 1,
        region: 0,
    };
    let mem = h.mem_alloc(4096, 0, ch1, 0).unwrap();
    let other = h.mem_alloc(4096, 0, HBM0, 0).unwrap();
    h.mem_buf_copy_to(other, 0, &[1; 16]).unwrap();
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
    h.mem_buf_copy_from(other, 0, &mut b).unwrap();
    assert_eq!(b, [1; 16], "another channel is not");
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
    assert_eq!(q.read32(2), mmio::BUS_ERROR_READ, "misaligned");
    assert_eq!(q.read32(4096), mmio::BUS_ERROR_READ, "past the window");
    q.write32(4096, 1); // dropped
    assert_eq!(ndl.kernel().mappings(), 1);
    drop(q);
    assert_eq!(ndl.kernel().mappings(), 0, "unmapped on drop");
    // munmap reports: a region of another kernel is refused (and still unmapped from its
    // own kernel when dropped).
    let other = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let q = h.map(cookie2, 4096).unwrap();
    let region = h.map(cookie2, 4096).unwrap();
    assert_eq!(ndl.kernel().mappings(), 2);
    q.unmap().unwrap();
    let fd = h.fd();
    // SAFETY: `fd` is the open handle's read-write fd; the region is only unmapped.
    let r = unsafe { ndl.kernel().mmap(fd, 4096, cookie2) }.unwrap();
    assert_eq!(other.munmap(r), Err(Errno::INVAL));
    drop(region);
    assert_eq!(ndl.kernel().mappings(), 0);
    // Resource mapping: the info ioctl's cookie, then mmap. BAR0 is the model's register
    // file: a write through the mapping is a register write of the device.
    // The emulator-only register windows exist only in a privileged kernel.
    let (block, id, res) = resource::BAR0;
    assert!(h.map_resource(block, id, res).is_err());
    let priv_ndl = Ndl::with_kernel(
        EmulatedKernel::with_devices(vec![
            DeviceConfig::numbered(Generation::V3, 0).with_privileged(true),
        ])
        .unwrap(),
    );
    let ph = priv_ndl.open_device(0).unwrap();
    let model = priv_ndl.kernel().device(0).unwrap();
    let bar0 = ph.map_resource(block, id, res).unwrap();
    let unit5 = Cayman::udma_engine_offset(5).unwrap() as usize;
    let tx_q0 = unit5 + 0x1000; // TX queue 0's block
    bar0.write32(tx_q0 + 0x28, 0x1234_5600); // drbp_low, plain storage
    assert_eq!(model.read32(tx_q0 + 0x28), 0x1234_5600);
    assert_eq!(
        bar0.read32(unit5 + 0x200),
        0x1111,
        "M2S state: NORMAL since probe"
    );
    let (block, id, res) = resource::udma_unit(5);
    let unit = ph.map_resource(block, id, res).unwrap();
    assert_eq!(unit.len(), khal::regs::unit::UNIT_SIZE);
    assert_eq!(
        unit.read32(0x1000 + 0x28),
        0x1234_5600,
        "the same registers"
    );
    assert_eq!(
        unit.read32(khal::regs::unit::UNIT_SIZE),
        mmio::BUS_ERROR_READ
    );
    let mut word = [0u8; 4];
    unit.read_bytes(0x1028, &mut word).unwrap();
    assert_eq!(u32::from_le_bytes(word), 0x1234_5600);
    assert!(
        matches!(
            unit.read_bytes(0x1029, &mut word),
            Err(Error::Mmap {
                errno: Errno::INVAL,
                ..
            })
        ),
        "registers take aligned words"
    );
    drop((bar0, unit));
    assert!(ph.map_resource(4, 0, 0).is_err());
    assert!(
        ph.map_resource(resource::BLOCK_UDMA, 132, 0).is_err(),
        "V3 has 132 engines"
    );
    let mem = h.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    let pa = h.mem_get_extended_info(mem, 0).unwrap().pa;
    h.mem_buf_copy_to(mem, 4096, b"page two").unwrap();
    let m = h.map_pa(pa).unwrap();
    let mut s = [0u8; 8];
    m.read_bytes(4096, &mut s).unwrap();
    assert_eq!(&s, b"page two");
    // dma-buf export of a mapped range hands out a new fd (ioctl-commands.tsv DMABUF_FD:
    // "fd written through the user pointer field"): one more open file, not a device node.
    // Its number is the emulator's business, so it is not asserted.
    let misc = ndl.misc();
    misc.compatible_version().unwrap(); // the misc fd opens on first use
    let before = ndl.kernel().open_fds();
    let fd = misc.dmabuf_fd(m.addr(), 4096).unwrap();
    assert_eq!(ndl.kernel().open_fds(), before + 1);
    assert_ne!(fd, h.fd());
    assert_eq!(ndl.kernel().fd_info(fd), None, "a dma-buf, not a node");
    assert_eq!(
        ndl.misc().dmabuf_fd(m.addr(), 3 * 4096).unwrap_err(),
        ioctl_err("NEURON_IOCTL_DMABUF_FD", Errno::INVAL)
    );
    // mmap needs the read-write handle fd: the O_RDONLY cached fd is refused.
    let cached = ndl.device(0).unwrap();
    let ro = cached.pin().unwrap();
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
    // The reference gives only the layouts (ioctl-README.md: _IOC_SIZE 8 the legacy struct,
    // 80 the ext one). Which cores a mark takes is the emulator's model, asserted as such:
    // the first free cores of the range, with max_nc_available the free cores in it.
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
    // ioctl-commands.tsv POD_INFO: "sz field must be 260"; the emulator's pod is its two
    // devices.
    assert_eq!((info.sz, info.pod_sz), (260, 2));
    // The emulator models no pod election: POD_CTRL's state and mode are kept and read
    // back. The node id it reports has no source (the driver's comes from the election),
    // so it is not asserted.
    assert_eq!(misc.pod_ctrl(2, 100).unwrap(), 2);
    assert_eq!(misc.pod_ctrl_v2(3, 100, 1).unwrap(), 3);
    let st = misc.pod_status().unwrap();
    assert_eq!(st.status.state, 3, "the state the last POD_CTRL_V2 set");
    assert_eq!(st.modes.map(|m| m.mode), Some(1), "and its mode");
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
    let kernel = Arc::new(EmulatedKernel::new(Generation::V3, 1).unwrap());
    kernel.retire(&ndl_abi::MEM_COPY64.command());
    kernel.retire(&ndl_abi::MEM_BUF_COPY64.command());
    kernel.retire(&ndl_abi::MEM_ALLOC_V2MT64.command());
    kernel.retire(&ndl_abi::MEMSET64.command());
    kernel.retire(&ndl_abi::MEM_MC_GET_INFO_V2.command());
    kernel.retire(&ndl_abi::POD_STATUS_V2.command());
    kernel.retire(&ndl_abi::DMA_COPY_DESCRIPTORS64.command());
    kernel.retire(&ndl_abi::PROGRAM_ENGINE_NC64.command());
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
    h.dma_copy_descriptors(a, 0, QueueType::Rx, &[[1; 16]])
        .unwrap();
    let pa = h.mem_get_extended_info(a, 0).unwrap().pa;
    h.program_engine_nc(0, pa, 0, b"x").unwrap();
    let mc = h.mem_mc_get_info(pa).unwrap();
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
    let modern = ndl_std::Ndl::with_kernel(EmulatedKernel::new(Generation::V3, 1).unwrap());
    let h = modern.open_device(0).unwrap();
    let a = h.mem_alloc(64, 0, MemLocation::Host, 0).unwrap();
    assert!(h.mem_copy(a, 1 << 32, a, 0, 1).is_err());
    assert!(Family::ALL.iter().all(|f| !modern.compat().is_legacy(*f)));
}

#[test]
fn sixteen_processes_attach_and_the_seventeenth_is_ebusy() {
    // dma-path.md step 0: an O_RDWR open attaches the process "to one of 16 per-device slots
    // (-EBUSY when none is free)"; a free-access open takes no slot.
    let k = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let node = Path::new("/dev/neuron0");
    let fds: Vec<_> = (0..16)
        .map(|pid| k.open_as(node, AccessMode::ReadWrite, 5000 + pid).unwrap())
        .collect();
    assert_eq!(
        k.open_as(node, AccessMode::ReadWrite, 6000),
        Err(Errno::BUSY)
    );
    // A process already attached opens again without a new slot.
    let again = k.open_as(node, AccessMode::ReadWrite, 5000).unwrap();
    assert!(k.open_as(node, AccessMode::WriteOnly, 6000).is_ok());
    // Its last close frees the slot.
    k.release(again);
    k.release(fds[15]);
    assert!(k.open_as(node, AccessMode::ReadWrite, 6000).is_ok());
}

#[test]
fn queue_init_batch_of_256_or_more_is_e2big() {
    // dma-path.md step 4: DMA_QUEUE_INIT_BATCH "(`count` >= 256 -> -E2BIG; not
    // attach-checked)". The wrapper refuses such a batch itself, so the raw request is sent.
    let k = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let fd = k
        .open(Path::new("/dev/neuron0"), AccessMode::ReadOnly)
        .unwrap();
    let mut batch = Box::new(<DmaQueueInitBatch as zerocopy::FromZeros>::new_zeroed());
    const BATCH: u32 = ndl_abi::DMA_QUEUE_INIT_BATCH.code();
    for (count, want) in [
        (256, Err(Errno::TOOBIG)),
        (u32::MAX, Err(Errno::TOOBIG)),
        (0, Ok(0)),
    ] {
        batch.count = count;
        // SAFETY: `batch` is a whole, zeroed `neuron_ioctl_dma_queue_init_batch` (no user
        // addresses in it), live across the call.
        let got = unsafe { k.ioctl::<BATCH>(fd, (&raw mut *batch).cast()) };
        assert_eq!(got, want, "count {count}");
    }
    // SAFETY: `fd` came from `open` and is closed once.
    unsafe { k.close(fd) };
}

#[test]
fn lanes_attach_and_size_demux_follow_the_driver() {
    let k = EmulatedKernel::new(Generation::V3, 1).unwrap();
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
            k.ioctl::<{ ndl_abi::HOST_DEVICE_ID.code() }>(wo, p),
            Err(Errno::INVAL)
        );
        assert_eq!(k.ioctl::<{ ndl_abi::HOST_DEVICE_ID.code() }>(ro, p), Ok(0));
        // Misc commands work on both lanes (the device chain falls through).
        assert_eq!(
            k.ioctl::<{ ndl_abi::COMPATIBLE_VERSION.code() }>(ro, p),
            Ok(0)
        );
        assert_eq!(
            k.ioctl::<{ ndl_abi::COMPATIBLE_VERSION.code() }>(wo, p),
            Ok(0)
        );
        // An unknown size inside an nr family: the family handler says EINVAL.
        const ODD: u32 = ndl_abi::ioc(Dir::Read, b'N', 23, 16);
        assert_eq!(k.ioctl::<ODD>(ro, p), Err(Errno::INVAL));
        // MC_GET_INFO goes by `_IOC_SIZE` alone: another dir with size 24 still reaches V1
        // (and fails only because pa 0 is not allocated).
        const MC_W: u32 = ndl_abi::ioc(Dir::Write, b'N', 111, 24);
        assert_eq!(k.ioctl::<MC_W>(ro, p), Err(Errno::INVAL));
        // DRIVER_INFO accepts any R size >= 24 and writes 24 bytes.
        const DRV_BIG: u32 = ndl_abi::ioc(Dir::Read, b'N', 110, 64);
        assert_eq!(k.ioctl::<DRV_BIG>(wo, p), Ok(0));
        assert_eq!(buf[1] >> 32, 24, "size field (offset 12)");
        const DRV_SMALL: u32 = ndl_abi::ioc(Dir::Read, b'N', 110, 16);
        assert_eq!(k.ioctl::<DRV_SMALL>(wo, p), Err(Errno::INVAL));
        // An unknown command number.
        const UNKNOWN: u32 = ndl_abi::ioc(Dir::Read, b'N', 200, 8);
        assert_eq!(k.ioctl::<UNKNOWN>(ro, p), Err(Errno::INVAL));
        // Stubs answer as the driver does.
        assert_eq!(
            k.ioctl::<{ ndl_abi::NOTIFICATIONS_QUEUE_INFO.code() }>(ro, p),
            Err(Errno::PERM)
        );
        assert_eq!(
            k.ioctl::<{ ndl_abi::DMA_QUIESCE_QUEUES.code() }>(ro, p),
            Err(Errno::NOTTY)
        );
        assert_eq!(
            k.ioctl::<{ ndl_abi::DEVICE_RESET_STATUS.code() }>(ro, p),
            Ok(0)
        );
        assert_eq!(buf[0] & 0xFF, 1, "RESET_STATUS writes the byte 1");
        // The attach check: a process that did not open the device (a forked child using
        // its parent's fd) gets EACCES on the attach-checked commands only.
        let child = EmulatedKernel::as_process(4242, || {
            (
                k.ioctl::<{ ndl_abi::MEM_FREE.code() }>(ro, p),
                k.ioctl::<{ ndl_abi::DMA_ENG_INIT.code() }>(ro, p),
                k.ioctl::<{ ndl_abi::DRIVER_INFO_SET.code() }>(ro, p),
                k.ioctl::<{ ndl_abi::DRIVER_INFO_SET.code() }>(wo, p),
                k.ioctl::<{ ndl_abi::HOST_DEVICE_ID.code() }>(ro, p),
                k.ioctl::<{ ndl_abi::MEM_COPY64.code() }>(ro, p),
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
            k.ioctl::<{ ndl_abi::HOST_DEVICE_ID.code() }>(ro, p),
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

/// dma-path.md section 9: when a process's last file on a device goes, the driver frees the
/// process's memory chunks; chunks of other processes stay.
#[test]
fn last_close_of_a_process_frees_its_chunks() {
    use ndl_abi::MEM_ALLOC_V2MT64;
    use ndl_abi::MemAllocV2MemType64;
    use zerocopy::FromZeros;

    let k = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let node = std::path::Path::new("/dev/neuron0");
    let alloc = |fd| {
        let mut handle = 0u64;
        let mut a = MemAllocV2MemType64::new_zeroed();
        a.size = 4096;
        a.host_memory = 1;
        a.mem_handle = ndl_abi::UserPtr::from_addr((&raw mut handle) as u64);
        // SAFETY: `a` is the command's argument struct and its handle pointer names `handle`.
        unsafe { k.ioctl::<{ MEM_ALLOC_V2MT64.code() }>(fd, (&raw mut a).cast()) }.unwrap();
    };
    let (a1, a2) = EmulatedKernel::as_process(7001, || {
        (
            k.open(node, AccessMode::ReadWrite).unwrap(),
            k.open(node, AccessMode::ReadOnly).unwrap(),
        )
    });
    EmulatedKernel::as_process(7001, || alloc(a1));
    let b = EmulatedKernel::as_process(7002, || k.open(node, AccessMode::ReadWrite).unwrap());
    EmulatedKernel::as_process(7002, || alloc(b));
    assert_eq!(k.allocations(0), 2);
    // SAFETY: fds from `open` above, closed once each.
    unsafe { k.close(a1) };
    assert_eq!(k.allocations(0), 2, "process 7001 still has a file open");
    // SAFETY: as above.
    unsafe { k.close(a2) };
    assert_eq!(k.allocations(0), 1, "7001's chunk is freed, 7002's stays");
    // SAFETY: as above.
    unsafe { k.close(b) };
    assert_eq!(k.allocations(0), 0);
}
