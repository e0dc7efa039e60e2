//! Teardown order of the copy flow: when a copy fails while the engine may still run (here a
//! timeout), the queue is reset and its rings freed *before* the source and destination
//! buffers are freed, so the engine never writes memory the driver may hand out again.

use core::ffi::{c_int, c_void};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use khal::Generation;
use ndl_abi::{MEM_ALLOC_V2MT64, MEM_FREE};
use ndl_abi::{MemAllocV2MemType64, MemFree};
use ndl_copy::CopyError;
use ndl_copy::register_level::RegisterOptions as CopyOptions;
use ndl_emu::{DeviceConfig, EmulatedKernel, EmulatedRegion, Execution, resource};
use ndl_std::{AccessMode, Errno, Kernel, Ndl, RawFd};

/// `ndl-copy`'s register-level copy over the emulated kernel's arch set and its BAR0.
fn copy<K: Kernel>(
    dev: &ndl_std::DeviceHandle<'_, K>,
    data: &[u8],
    options: &CopyOptions,
) -> Result<ndl_copy::CopyReport, CopyError> {
    ndl_copy::register_level::copy::<ndl_emu::Arches, K>(dev, data, options, resource::BAR0.into())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Alloc { size: u64, handle: u64 },
    Free { handle: u64 },
}

/// The emulated kernel, recording every allocation and free in order.
struct Recording {
    inner: EmulatedKernel,
    log: Mutex<Vec<Event>>,
}

impl Kernel for Recording {
    type Region = EmulatedRegion;
    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        self.inner.open(path, mode)
    }
    unsafe fn close(&self, fd: RawFd) {
        // SAFETY: forwarded.
        unsafe { self.inner.close(fd) }
    }
    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        if REQ == MEM_FREE.code() {
            // SAFETY: for MEM_FREE `arg` is the caller's `MemFree`, valid for reads.
            let handle = unsafe { arg.cast::<MemFree>().read() }.mem_handle;
            self.log.lock().unwrap().push(Event::Free { handle });
        }
        // SAFETY: forwarded.
        let ret = unsafe { self.inner.ioctl::<REQ>(fd, arg) };
        if REQ == MEM_ALLOC_V2MT64.code() && ret == Ok(0) {
            // SAFETY: `arg` is the caller's `MemAllocV2MemType64`, whose `mem_handle` points
            // to the `u64` the driver just wrote.
            let (size, handle) = unsafe {
                let a = arg.cast::<MemAllocV2MemType64>().read();
                (a.size, (a.mem_handle.addr() as usize as *const u64).read())
            };
            self.log.lock().unwrap().push(Event::Alloc { size, handle });
        }
        ret
    }
    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<EmulatedRegion, Errno> {
        // SAFETY: forwarded.
        unsafe { self.inner.mmap(fd, len, offset) }
    }
    fn munmap(&self, region: EmulatedRegion) -> Result<(), Errno> {
        self.inner.munmap(region)
    }
}

#[test]
fn a_timed_out_copy_resets_the_queue_before_freeing_its_buffers() {
    const DATA: u64 = 5000;
    const RING: u32 = 64;
    let ring_bytes = u64::from(RING) * 16;
    let inner = EmulatedKernel::with_devices(vec![
        DeviceConfig::numbered(Generation::V3, 0)
            .with_execution(Execution::Manual)
            .with_privileged(true),
    ])
    .unwrap();
    let ndl = Ndl::with_kernel(Recording {
        inner,
        log: Mutex::new(Vec::new()),
    });
    let dev = ndl.open_device(0).unwrap();
    let options = CopyOptions {
        ring_size: RING,
        timeout: Duration::from_millis(1),
        ..CopyOptions::default()
    };
    // Manual execution: nothing runs the doorbells, so the wait times out mid-copy.
    let err = copy(&dev, &[0x5a; DATA as usize], &options).unwrap_err();
    assert!(matches!(err, CopyError::Timeout { .. }), "{err}");

    let log = ndl.kernel().log.lock().unwrap().clone();
    let handles = |size| -> Vec<u64> {
        log.iter()
            .filter_map(|e| match *e {
                Event::Alloc { size: s, handle } if s == size => Some(handle),
                _ => None,
            })
            .collect()
    };
    let (buffers, rings) = (handles(DATA), handles(ring_bytes));
    assert_eq!((buffers.len(), rings.len()), (2, 2), "{log:?}");
    let freed_at = |h: u64| {
        log.iter()
            .position(|e| *e == Event::Free { handle: h })
            .unwrap_or_else(|| panic!("handle {h:#x} never freed: {log:?}"))
    };
    let last_ring_free = rings.iter().map(|&h| freed_at(h)).max().unwrap();
    let first_buffer_free = buffers.iter().map(|&h| freed_at(h)).min().unwrap();
    assert!(
        last_ring_free < first_buffer_free,
        "buffers freed while the queue was still live: {log:?}"
    );
}
