//! Handles across processes (issue 25 item 4). The 2.26.5.0 driver checks no memory handle
//! against the calling process, so by default another process may read, write, memset and
//! free a chunk by handle (the model keeps that hole, its job being fidelity); with
//! [`DeviceConfig::isolate`] every such use answers as an unknown handle does (EINVAL, the
//! driver's answer for a handle it does not know), and the owner is undisturbed.

use khal::Generation;
use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_std::{Errno, MemHandle, MemLocation, Ndl};

/// A device, strict or not.
fn kernel(isolate: bool) -> Ndl<EmulatedKernel> {
    Ndl::with_kernel(
        EmulatedKernel::with_devices(vec![
            DeviceConfig::numbered(Generation::V3, 0).with_isolate(isolate),
        ])
        .unwrap(),
    )
}

/// Another process (attached through its own open) and what each use of `mem` answers:
/// extended info, read, write, memset, mmap of its key `cookie`, free.
fn other_process_uses(
    ndl: &Ndl<EmulatedKernel>,
    mem: MemHandle,
    cookie: u64,
) -> [Option<Errno>; 6] {
    let other = std::process::id() + 11;
    EmulatedKernel::as_process(other, || {
        let h = ndl.open_device(0).unwrap();
        let errno = |r: Result<(), ndl_std::Error>| r.err().and_then(|e| e.errno());
        let info = h.mem_get_extended_info(mem, 1).map(|_| ());
        let mut b = [0u8; 4];
        [
            errno(info),
            errno(h.mem_buf_copy_from(mem, 0, &mut b)),
            errno(h.mem_buf_copy_to(mem, 0, b"evil")),
            errno(h.memset(mem, 0, 0x45, 4)),
            errno(h.map(cookie, 8192).map(|_| ())),
            errno(h.mem_free(mem)),
        ]
    })
}

#[test]
fn by_default_any_process_uses_any_handle_as_on_the_driver() {
    let ndl = kernel(false);
    let h = ndl.open_device(0).unwrap();
    let mem = h.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    let cookie = h.mem_get_extended_info(mem, 1).unwrap().mmap_offset;
    assert_eq!(other_process_uses(&ndl, mem, cookie), [None; 6]);
    // The other process read, wrote, memset, mapped (read-only), then freed our chunk.
    assert!(h.mem_get_extended_info(mem, 1).is_err());
    assert_eq!(ndl.kernel().allocations(0), 0);
}

#[test]
fn isolated_another_process_s_handle_is_unknown_and_the_owner_is_undisturbed() {
    let ndl = kernel(true);
    let h = ndl.open_device(0).unwrap();
    let mem = h.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    h.mem_buf_copy_to(mem, 0, b"mine").unwrap();
    let cookie = h.mem_get_extended_info(mem, 1).unwrap().mmap_offset;
    let answers = other_process_uses(&ndl, mem, cookie);
    // MEM_GET_EXTENDED_INFO's unknown handle is a positive EINVAL (a result, not an
    // errno): the wrapper reports it as EINVAL too.
    assert_eq!(&answers[..4], &[Some(Errno::INVAL); 4], "{answers:?}");
    // Our chunk's mmap key: no chunk of the caller's there, so the driver's next paths
    // answer (EPERM without CAP_SYS_RAWIO), not a read-only window on ours.
    assert_eq!(answers[4], Some(Errno::PERM), "{answers:?}");
    assert_eq!(answers[5], Some(Errno::INVAL), "{answers:?}");
    // Ours: still allocated, still holding what we wrote, still ours.
    assert_eq!(ndl.kernel().allocations(0), 1);
    let mut b = [0u8; 4];
    h.mem_buf_copy_from(mem, 0, &mut b).unwrap();
    assert_eq!(&b, b"mine");
    let info = h.mem_get_extended_info(mem, 1).unwrap();
    assert_eq!(info.pid, u64::from(std::process::id()));
    h.mem_free(mem).unwrap();
}

#[test]
fn isolated_another_process_s_datastore_is_one_it_does_not_have() {
    let ndl = kernel(true);
    let h = ndl.open_device(0).unwrap();
    h.acquire_neuron_ds(0).unwrap();
    let me = i32::try_from(std::process::id()).unwrap();
    let other = std::process::id() + 11;
    let answer = EmulatedKernel::as_process(other, || {
        let h = ndl.open_device(0).unwrap();
        h.acquire_neuron_ds(me).err().and_then(|e| e.errno())
    });
    assert_eq!(answer, Some(Errno::INVAL));
    // Ours is still there.
    assert!(h.acquire_neuron_ds(me).is_ok());
}

#[test]
fn isolated_another_process_s_queue_is_unknown_and_not_reprogrammable() {
    use ndl_abi::DmaQueueInit;
    let ndl = kernel(true);
    let h = ndl.open_device(0).unwrap();
    let ring = || h.mem_alloc(32 * 16, 0, MemLocation::Host, 0).unwrap();
    let (tx, rx) = (ring(), ring());
    let init = |tx: MemHandle, rx: MemHandle| DmaQueueInit {
        eng_id: 3,
        qid: 1,
        tx_desc_count: 32,
        rx_desc_count: 32,
        tx_handle: tx.0,
        rx_handle: rx.0,
        rxc_handle: 0,
        axi_port: 0,
        _pad44: [0; 4],
    };
    h.dma_queue_init(&init(tx, rx)).unwrap();
    assert!(h.dma_queue_get_state(3, 1).is_ok());
    let other = std::process::id() + 11;
    let answers = EmulatedKernel::as_process(other, || {
        let h = ndl.open_device(0).unwrap();
        let errno = |r: Result<(), ndl_std::Error>| r.err().and_then(|e| e.errno());
        let (tx2, rx2) = (
            h.mem_alloc(32 * 16, 0, MemLocation::Host, 0).unwrap(),
            h.mem_alloc(32 * 16, 0, MemLocation::Host, 0).unwrap(),
        );
        [
            errno(h.dma_queue_get_state(3, 1).map(|_| ())),
            errno(h.dma_queue_copy_start(3, 1, 1, 1)),
            errno(h.dma_ack_completed(3, 1, 1)),
            // Re-programming our queue, with our rings or its own: EBUSY (checked first).
            errno(h.dma_queue_init(&init(tx, rx))),
            errno(h.dma_queue_init(&init(tx2, rx2))),
        ]
    });
    assert_eq!(
        answers,
        [
            Some(Errno::INVAL),
            Some(Errno::INVAL),
            Some(Errno::INVAL),
            Some(Errno::BUSY),
            Some(Errno::BUSY)
        ]
    );
    // Still ours, on our rings.
    assert!(h.dma_queue_get_state(3, 1).is_ok());
}
