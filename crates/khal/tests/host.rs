//! Latch, dispatch and one-time HAL init, including under thread contention.

use std::sync::Barrier;
use std::sync::atomic::{AtomicUsize, Ordering};

use khal::{
    Arch, ArchLatch, ArchVisitor, Bound, DispatchError, FreeError, Generation, Hal, HalCell,
    HalInitError, InitOutcome, LatchError, Platform, RegistrarError, RegistrarInput,
    UnknownDeviceId, dispatch, dispatch_latched, init_hal,
};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;

type All = (Sunda, Cayman, Mariana);

struct Name;
impl ArchVisitor for Name {
    type Output = (&'static str, u32);
    fn visit<A: Arch>(self) -> Self::Output {
        (
            A::CODE_NAME,
            <A as khal::caps::PacketCaps>::MAX_TX_DESCS_PER_PACKET,
        )
    }
}

#[test]
fn dispatch_reaches_the_arch_of_each_generation() {
    assert_eq!(
        dispatch::<All, _>(Generation::V2, Name),
        Ok(("SUNDA", 0x80))
    );
    assert_eq!(
        dispatch::<All, _>(Generation::V3, Name),
        Ok(("CAYMAN", 0x41))
    );
    assert_eq!(
        dispatch::<All, _>(Generation::V4, Name),
        Ok(("MARIANA", 0x41))
    );
    assert_eq!(
        dispatch::<(Mariana,), _>(Generation::V3, Name),
        Err(DispatchError::Unsupported(Generation::V3))
    );
    let latch = ArchLatch::new();
    assert_eq!(
        dispatch_latched::<All, _>(&latch, Name),
        Err(DispatchError::Unbound)
    );
    latch.bind_pci_device(0x7264).unwrap();
    assert_eq!(
        dispatch_latched::<All, _>(&latch, Name),
        Ok(("SUNDA", 0x80))
    );
}

#[test]
fn latch_is_first_wins_and_refuses_another_generation() {
    let latch = ArchLatch::new();
    assert_eq!(latch.get(), None);
    assert_eq!(
        latch.bind_pci_device(0x7464),
        Err(LatchError::UnknownDevice(UnknownDeviceId(0x7464)))
    );
    assert_eq!(latch.get(), None, "an unknown id binds nothing");
    assert_eq!(
        latch.bind_pci_device(0x7564),
        Ok(Bound::First(Generation::V4))
    );
    assert_eq!(
        latch.bind_pci_device(0x7565),
        Ok(Bound::Same(Generation::V4))
    );
    assert_eq!(
        latch.bind_pci_device(0x7164),
        Err(LatchError::Mismatch {
            latched: Generation::V4,
            device: Generation::V2
        })
    );
    assert_eq!(latch.get(), Some(Generation::V4));
}

#[test]
fn racing_binds_have_exactly_one_winner() {
    for _ in 0..50 {
        let latch = ArchLatch::new();
        let barrier = Barrier::new(6);
        let firsts = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for t in 0..6u16 {
                let (latch, barrier, firsts) = (&latch, &barrier, &firsts);
                s.spawn(move || {
                    barrier.wait();
                    let id = [0x7164, 0x7364, 0x7564][usize::from(t % 3)];
                    match latch.bind_pci_device(id) {
                        Ok(Bound::First(_)) => {
                            firsts.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(Bound::Same(g)) => assert_eq!(Some(g), latch.get()),
                        Err(LatchError::Mismatch { latched, .. }) => {
                            assert_eq!(Some(latched), latch.get())
                        }
                        Err(e) => panic!("{e}"),
                    }
                });
            }
        });
        assert_eq!(firsts.load(Ordering::Relaxed), 1);
    }
}

#[test]
fn hal_init_runs_one_initialiser_under_contention_and_survives_free() {
    let cell: HalCell<u64> = HalCell::new();
    let runs = AtomicUsize::new(0);
    let barrier = Barrier::new(8);
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                barrier.wait();
                let out = cell.init(|| {
                    runs.fetch_add(1, Ordering::SeqCst);
                    std::thread::yield_now();
                    Ok::<_, ()>(42)
                });
                assert!(out.is_ok());
                assert_eq!(cell.get(), Some(42), "nobody sees a half-initialised value");
            });
        }
    });
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // Cleanup is separate from free, and repeatable.
    let hooks = AtomicUsize::new(0);
    assert!(cell.cleanup(|_| {
        hooks.fetch_add(1, Ordering::SeqCst);
    }));
    assert!(cell.cleanup(|_| {
        hooks.fetch_add(1, Ordering::SeqCst);
    }));
    assert_eq!(hooks.load(Ordering::SeqCst), 2);
    assert_eq!(cell.get(), Some(42), "cleanup does not free");
    // A reader blocks free.
    cell.with(|_| assert_eq!(cell.free(), Err(FreeError::Busy)));
    assert_eq!(cell.free(), Ok(()));
    assert_eq!(
        cell.free(),
        Err(FreeError::NotInitialised),
        "no double free"
    );
    assert!(!cell.cleanup(|_| unreachable!()));
    assert_eq!(
        cell.init(|| Ok::<_, ()>(7)),
        Ok(InitOutcome::Initialised),
        "init after free"
    );
    assert_eq!(cell.get(), Some(7));
}

#[test]
fn hal_values_with_drop_are_dropped_once() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    struct D;
    impl Drop for D {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::SeqCst);
        }
    }
    let cell: HalCell<D> = HalCell::new();
    cell.init(|| Ok::<_, ()>(D)).unwrap();
    cell.free().unwrap();
    assert_eq!(DROPS.load(Ordering::SeqCst), 1);
    cell.init(|| Ok::<_, ()>(D)).unwrap();
    drop(cell);
    assert_eq!(DROPS.load(Ordering::SeqCst), 2);
}

#[test]
fn init_hal_latches_dispatches_and_reports_base_layer_failures() {
    let (hal, latch) = (Hal::new(), ArchLatch::new());
    // V4 device whose V3 registrar layer fails: the whole init fails, nothing is left behind.
    let bad = RegistrarInput {
        dev_nc_map: Some(0x1ff),
        ..RegistrarInput::new(0x7564)
    };
    assert_eq!(
        init_hal::<All>(&hal, &latch, &bad),
        Err(HalInitError::Registrar(RegistrarError::BadNcMap {
            nc_map: 0x1ff,
            nc_per_device: 8
        }))
    );
    assert!(!hal.is_ready(), "failure is not sticky-as-success");
    let good = RegistrarInput {
        instance_name: Some("trn3s.48xlarge"),
        ..RegistrarInput::new(0x7564)
    };
    let r = init_hal::<All>(&hal, &latch, &good).unwrap();
    assert_eq!(
        (r.generation, r.platform, r.nc_map),
        (Generation::V4, Some(Platform::Pds), 0xff)
    );
    // A second V4 device gets the host state of the first; a V3 device is refused.
    let second = init_hal::<All>(&hal, &latch, &RegistrarInput::new(0x7565)).unwrap();
    assert_eq!(second.product.pci_device_id, 0x7564);
    assert_eq!(
        init_hal::<All>(&hal, &latch, &RegistrarInput::new(0x7364)),
        Err(HalInitError::Latch(LatchError::Mismatch {
            latched: Generation::V4,
            device: Generation::V3
        }))
    );
    // A build without V4 refuses it through the dispatch point.
    let (hal2, latch2) = (Hal::new(), ArchLatch::new());
    assert_eq!(
        init_hal::<(Sunda, Cayman)>(&hal2, &latch2, &RegistrarInput::new(0x7565)),
        Err(HalInitError::Dispatch(DispatchError::Unsupported(
            Generation::V4
        )))
    );
    // Free, then init again.
    hal.free().unwrap();
    assert!(init_hal::<All>(&hal, &latch, &RegistrarInput::new(0x7565)).is_ok());
}

#[test]
fn a_panicking_reader_does_not_pin_the_hal_state() {
    let cell: HalCell<u32> = HalCell::new();
    cell.init(|| Ok::<_, ()>(5)).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        cell.with(|_| panic!("reader fails"));
    }));
    assert!(r.is_err());
    assert_eq!(
        cell.free(),
        Ok(()),
        "the reader registration was released on unwind"
    );
}
