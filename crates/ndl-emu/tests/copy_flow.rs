//! The copy flow end to end on the emulated kernel, for V2, V3 and V4: engine and queue
//! brought up by khal through the mapped BAR0, rings in mapped host memory written by
//! udma-desc, khal doorbells through the mapping, every destination byte verified; in each
//! execution mode; and a wrong-ring-id fault that aborts the engine, seen through the DMA
//! state ioctl.

use std::time::Duration;

use khal::Arch;
use khal::Generation;
use khal::regs::QueueReg;
use khal::regs::queue::{Dir, RingPtr};
use khal::udma::UdmaState;
use mmio::Mmio;
use ndl_copy::register_level::RegisterResource;
use ndl_copy::register_level::{DmaQueue, RegisterOptions as CopyOptions, alloc_dma, copy_on};
use ndl_copy::{CopyError, verify};
use ndl_emu::{DeviceConfig, EmulatedKernel, Execution, resource};
use ndl_std::{MemLocation, Ndl};
use neuron_emu::{Direction, EngineState, Fault, for_each_arch};
use udma_desc::{DescStore, QueueId, RingId};

fn kernel(g: Generation, execution: Execution) -> EmulatedKernel {
    EmulatedKernel::with_devices(vec![
        DeviceConfig::numbered(g, 0)
            .with_execution(execution)
            .with_privileged(true),
    ])
    .unwrap()
}

/// The emulated kernel's privileged whole-BAR0 resource.
fn bar0() -> RegisterResource {
    resource::BAR0.into()
}

/// `ndl-copy`'s register-level copy over the emulated kernel's arch set and its BAR0.
fn copy<K: ndl_std::Kernel>(
    dev: &ndl_std::DeviceHandle<'_, K>,
    data: &[u8],
    options: &CopyOptions,
) -> Result<ndl_copy::CopyReport, CopyError> {
    ndl_copy::register_level::copy::<ndl_emu::Arches, K>(dev, data, options, bar0())
}

fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = u64::from(seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A copy larger than one ring's worth of descriptors: several doorbell rounds, a partial
/// last descriptor, on the doorbell-driven model.
fn copies_through_mapped_rings<A: Arch>() {
    let ndl = Ndl::with_kernel(kernel(A::GENERATION, Execution::OnDoorbell));
    let dev = ndl.open_device(0).unwrap();
    // 32-slot rings hold 16 pairs in flight: 1 MiB + 5 bytes takes 17 pairs, two rounds.
    let data = pattern((1 << 20) + 5, A::GENERATION.number().into());
    let options = CopyOptions {
        engine: 2,
        queue: 3,
        ring_size: 32,
        ..CopyOptions::default()
    };
    let report = copy(&dev, &data, &options).unwrap();
    assert_eq!(report.generation, A::GENERATION);
    assert_eq!(
        (report.bytes, report.descriptors, report.batches),
        (data.len() as u64, 17, 2)
    );
    let model = ndl.kernel().device(0).unwrap();
    let tx = model.queue_stats(2, Direction::Tx, 3).unwrap();
    assert_eq!((tx.packets, tx.descriptors), (17, 17));
    assert_eq!(model.take_faults(), []);
    // Device to host and device to device too, and every allocation was given back.
    for (src, dst) in [
        (
            MemLocation::Device {
                channel: 0,
                region: 0,
            },
            MemLocation::Host,
        ),
        (
            MemLocation::Device {
                channel: 1,
                region: 0,
            },
            MemLocation::Device {
                channel: 0,
                region: 0,
            },
        ),
    ] {
        let o = CopyOptions {
            src,
            dst,
            ..options
        };
        copy_on::<_, A>(&dev, &data[..70_000], &o, bar0()).unwrap();
    }
    let used: u64 = model.with_memory(|m| m.regions().iter().map(|r| r.allocated_bytes()).sum());
    assert_eq!(used, 0, "rings and buffers freed");
    assert_eq!(ndl.kernel().mappings(), 0, "every mapping unmapped");
}

/// A background engine thread runs the doorbells; completion is polled through the mapped
/// head registers.
fn copies_with_a_background_engine<A: Arch>() {
    let ndl = Ndl::with_kernel(kernel(A::GENERATION, Execution::Background));
    let dev = ndl.open_device(0).unwrap();
    let data = pattern(300_000, 9);
    let report = copy(&dev, &data, &CopyOptions::default()).unwrap();
    assert_eq!((report.bytes, report.descriptors), (300_000, 5));
}

/// Manual mode: the test runs the model between the doorbell and the wait, and nothing moves
/// before it does.
fn copies_step_by_step_in_manual_mode<A: Arch>() {
    let ndl = Ndl::with_kernel(kernel(A::GENERATION, Execution::Manual));
    let dev = ndl.open_device(0).unwrap();
    let model = ndl.kernel().device(0).unwrap();
    let mut q = DmaQueue::<_, A>::open(&dev, 1, QueueId::new(7).unwrap(), 64, bar0()).unwrap();
    let data = pattern(200_000, 4);
    let src = alloc_dma::<_, A>(&dev, 200_000, 64, MemLocation::Host).unwrap();
    let hbm = MemLocation::Device {
        channel: 0,
        region: 0,
    };
    let dst = alloc_dma::<_, A>(&dev, 200_000, 64, hbm).unwrap();
    dev.mem_buf_copy_to(src.mem(), 0, &data).unwrap();
    let pairs = q.prepare(src.dma_addr(), dst.dma_addr(), 200_000).unwrap();
    assert_eq!(pairs, 4);
    q.start(pairs).unwrap();
    // The doorbells written through the mapping moved the tails in the model at once.
    let tail = |dir| {
        let off = A::queue_reg_offset(dir, q.queue(), QueueReg::Drtp).unwrap();
        RingPtr::from_bits(q.udma().regs().read32(off)).offset()
    };
    assert_eq!((tail(Dir::Tx), tail(Dir::Rx)), (4, 4));
    assert_eq!(q.heads().1.offset(), 0, "posted, not run");
    assert!(matches!(
        q.wait(Duration::from_millis(1)),
        Err(CopyError::Timeout {
            rx_head: 0,
            rx_expected: 4,
            ..
        })
    ));
    let run = model.run_until_idle();
    assert_eq!((run.packets, run.bytes, run.faults), (4, 200_000, 0));
    // No deadline (an unrepresentable one used to panic on `Instant + Duration`).
    q.wait(Duration::MAX).unwrap();
    q.ack(pairs).unwrap();
    let mut back = vec![0u8; 200_000];
    dev.mem_buf_copy_from(dst.mem(), 0, &mut back).unwrap();
    verify(&data, &back).unwrap();
}

/// A TX descriptor with the wrong ring id: the engine latches PREFETCH_RING_ID and aborts,
/// which the DMA state ioctl reports (ABORT = 3), and no byte moves.
fn wrong_ring_id_aborts_the_engine<A: Arch>() {
    let ndl = Ndl::with_kernel(kernel(A::GENERATION, Execution::OnDoorbell));
    let dev = ndl.open_device(0).unwrap();
    let model = ndl.kernel().device(0).unwrap();
    let mut q = DmaQueue::<_, A>::open(&dev, 4, QueueId::new(2).unwrap(), 32, bar0()).unwrap();
    let src = alloc_dma::<_, A>(&dev, 4096, 64, MemLocation::Host).unwrap();
    let dst = alloc_dma::<_, A>(&dev, 4096, 64, MemLocation::Host).unwrap();
    dev.mem_buf_copy_to(src.mem(), 0, &[0xAB; 4096]).unwrap();
    assert_eq!(dev.dma_eng_get_state(4).unwrap().tx_state, 2, "NORMAL");
    q.prepare(src.dma_addr(), dst.dma_addr(), 4096).unwrap();
    let tx = q.rings_mut().tx_mut().store_mut();
    let mut d = tx.load(0).unwrap();
    d.set_ring_id(RingId::new(3).unwrap());
    tx.store(0, d).unwrap();
    q.start(1).unwrap();
    assert_eq!(
        q.wait(Duration::from_secs(1)),
        Err(CopyError::Aborted {
            tx: UdmaState::Abort,
            rx: UdmaState::Normal
        })
    );
    let eng = dev.dma_eng_get_state(4).unwrap();
    assert_eq!((eng.tx_state, eng.rx_state), (3, 2), "TX ABORT, RX NORMAL");
    assert_eq!(
        model
            .take_faults()
            .iter()
            .map(|f| f.fault)
            .collect::<Vec<_>>(),
        [Fault::TxRingId {
            slot: 0,
            expected: RingId::INITIAL,
            found: RingId::new(3).unwrap()
        }]
    );
    assert_eq!(
        model.engine_state(4, Direction::Tx),
        Some(EngineState::Aborted)
    );
    let mut back = [0u8; 4096];
    dev.mem_buf_copy_from(dst.mem(), 0, &mut back).unwrap();
    assert_eq!(back, [0; 4096], "nothing moved");
    // Recovery: fix the descriptor, then NORMAL through the ioctl. The head stayed on the
    // faulting packet, so it runs now.
    let tx = q.rings_mut().tx_mut().store_mut();
    d.set_ring_id(RingId::INITIAL);
    tx.store(0, d).unwrap();
    dev.dma_eng_set_state(4, 2).unwrap();
    assert_eq!(q.udma().state(Dir::Tx), UdmaState::Normal);
    model.run_until_idle();
    q.wait(Duration::from_secs(1)).unwrap();
    dev.mem_buf_copy_from(dst.mem(), 0, &mut back).unwrap();
    assert_eq!(back, [0xAB; 4096]);
}

for_each_arch!(
    copies_through_mapped_rings,
    copies_with_a_background_engine,
    copies_step_by_step_in_manual_mode,
    wrong_ring_id_aborts_the_engine
);

#[test]
fn refusals_are_typed() {
    let ndl = Ndl::with_kernel(kernel(Generation::V3, Execution::OnDoorbell));
    let dev = ndl.open_device(0).unwrap();
    let o = CopyOptions::default();
    assert_eq!(copy(&dev, &[], &o), Err(CopyError::Empty));
    let bad_ring = CopyOptions { ring_size: 48, ..o };
    assert!(matches!(
        copy(&dev, b"x", &bad_ring),
        Err(CopyError::Udma(_))
    ));
    let bad_queue = CopyOptions { queue: 16, ..o };
    assert!(matches!(
        copy(&dev, b"x", &bad_queue),
        Err(CopyError::Ndl(ndl_std::Error::OutOfRange { .. }))
    ));
    let bad_engine = CopyOptions { engine: 500, ..o };
    assert!(matches!(
        copy(&dev, b"x", &bad_engine),
        Err(CopyError::Ndl(ndl_std::Error::OutOfRange { .. }))
    ));
    // A range running past the top of the address space is refused, nothing written.
    {
        let mut q =
            DmaQueue::<_, khal_cayman::Cayman>::open(&dev, 0, QueueId::new(2).unwrap(), 64, bar0())
                .unwrap();
        let top = u64::MAX - 0xfff;
        assert_eq!(
            q.prepare(top, 0x1000, 0x1001),
            Err(CopyError::Ndl(ndl_std::Error::OutOfRange {
                cmd: "DmaQueue::prepare",
                what: "src + len",
                value: top,
            }))
        );
        assert_eq!(
            q.prepare(0x1000, top, 0x2000),
            Err(CopyError::Ndl(ndl_std::Error::OutOfRange {
                cmd: "DmaQueue::prepare",
                what: "dst + len",
                value: top,
            }))
        );
        // Ending exactly at the top is a valid range.
        assert_eq!(q.prepare(top, 0x1000, 0x1000), Ok(1));
    }
    assert_eq!(
        verify(b"abc", b"abd"),
        Err(CopyError::Mismatch {
            offset: 2,
            expected: b'c',
            found: b'd'
        })
    );
    assert_eq!(
        verify(b"abc", b"ab"),
        Err(CopyError::LengthMismatch {
            expected: 3,
            found: 2
        })
    );
    // The real kernel has no BAR0 register resource: the flow fails at the mapping step
    // (here on an ordinary file, whose ioctls answer ENOTTY at DEVICE_INFO).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("neuron0"), b"").unwrap();
    let real = Ndl::new().with_root(dir.path());
    let h = real.open_device(0).unwrap();
    assert!(matches!(
        copy(&h, b"x", &o),
        Err(CopyError::Ndl(ndl_std::Error::Ioctl { .. }))
    ));
}
