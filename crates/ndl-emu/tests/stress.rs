//! 64 threads touching the per-device table at once: one fd per device survives, every
//! surplus fd is closed, and teardown never pulls an fd from under a live call.

use std::path::Path;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use core::ffi::{c_int, c_void};

use khal::Generation;
use ndl_emu::{DeviceConfig, EmulatedKernel, EmulatedRegion};
use ndl_std::{AccessMode, Errno, Kernel, Ndl, RawFd};

/// The emulated kernel with a slow `open`, so that every thread is inside `open` before any install:
/// the worst case for the first-touch race.
struct SlowOpen(EmulatedKernel);

impl Kernel for SlowOpen {
    type Region = EmulatedRegion;

    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        thread::sleep(Duration::from_millis(5));
        self.0.open(path, mode)
    }
    unsafe fn close(&self, fd: RawFd) {
        // SAFETY: forwarded.
        unsafe { self.0.close(fd) }
    }
    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        // SAFETY: forwarded.
        unsafe { self.0.ioctl::<REQ>(fd, arg) }
    }
    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<EmulatedRegion, Errno> {
        // SAFETY: forwarded.
        unsafe { self.0.mmap(fd, len, offset) }
    }
    fn munmap(&self, region: EmulatedRegion) -> Result<(), Errno> {
        self.0.munmap(region)
    }
}

#[test]
fn sixty_four_threads_first_touch_leave_one_fd_per_device() {
    const THREADS: usize = 64;
    const DEVICES: u32 = 4;
    let ndl = Arc::new(Ndl::with_kernel(SlowOpen(
        EmulatedKernel::new(Generation::V2, DEVICES).unwrap(),
    )));
    let start = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (ndl, start) = (Arc::clone(&ndl), Arc::clone(&start));
            thread::spawn(move || {
                let index = (t % DEVICES as usize) as u32;
                start.wait();
                let dev = ndl.device(index).unwrap();
                // Each answer proves the call ran on this device's fd: the host device id
                // is the one the emulator's config gives device `index`.
                assert_eq!(
                    dev.host_device_id().unwrap(),
                    DeviceConfig::numbered(Generation::V2, index).host_device_id
                );
                (index, ndl.cached_fd(index).unwrap())
            })
        })
        .collect();
    let seen: Vec<(u32, RawFd)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let k = &ndl.kernel().0;
    for index in 0..DEVICES {
        let cached = ndl.cached_fd(index).unwrap();
        assert!(
            seen.iter()
                .filter(|(i, _)| *i == index)
                .all(|(_, fd)| *fd == cached)
        );
        assert_eq!(k.fd_info(cached), Some((index, AccessMode::ReadOnly)));
    }
    assert_eq!(
        k.open_fds(),
        DEVICES as usize,
        "exactly one fd per device survives"
    );
    assert_eq!(
        k.opens() - k.closes(),
        DEVICES as usize,
        "every surplus fd was closed"
    );
    assert!(
        k.opens() > DEVICES as usize,
        "the race really happened ({} opens)",
        k.opens()
    );
    ndl.close_all();
    assert_eq!(k.open_fds(), 0, "close_all closes every cached fd");
    assert_eq!(k.closes(), k.opens(), "every fd opened was closed");
}

#[test]
fn close_all_during_live_calls_never_uses_a_closed_or_reused_fd() {
    const WORKERS: u32 = 8;
    const ROUNDS: usize = 300;
    let ndl = Arc::new(Ndl::with_kernel(
        EmulatedKernel::new(Generation::V2, WORKERS).unwrap(),
    ));
    let handles: Vec<_> = (0..WORKERS)
        .map(|index| {
            let ndl = Arc::clone(&ndl);
            thread::spawn(move || {
                for _ in 0..ROUNDS {
                    // A closed fd would answer EBADF; a number reused by another device's
                    // open would answer that device's id.
                    assert_eq!(
                        ndl.device(index).unwrap().host_device_id(),
                        Ok(DeviceConfig::numbered(Generation::V2, index).host_device_id)
                    );
                }
            })
        })
        .collect();
    let closer = {
        let ndl = Arc::clone(&ndl);
        thread::spawn(move || {
            for _ in 0..ROUNDS {
                ndl.close_all();
                thread::yield_now();
            }
        })
    };
    for h in handles {
        h.join().unwrap();
    }
    closer.join().unwrap();
    ndl.close_all();
    let k = ndl.kernel();
    assert_eq!(
        k.open_fds(),
        0,
        "nothing leaked: {} opens, {} closes",
        k.opens(),
        k.closes()
    );
    assert_eq!(k.opens(), k.closes());
}
