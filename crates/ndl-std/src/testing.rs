//! Test doubles (feature `test-utils`): a kernel wrapper that records every ioctl and can
//! make chosen calls fail, to prove that every allocation is given back on every error path.

use core::ffi::{c_int, c_void};
use std::path::Path;
use std::sync::Mutex;

use crate::kernel::{AccessMode, Errno, Kernel, RawFd};
use ndl_abi::{H2T_DMA_ALLOC_QUEUES, H2T_DMA_FREE_QUEUES, MEM_ALLOC_V2MT64, MEM_FREE};
use ndl_abi::{H2tDmaAllocQueues, H2tDmaFreeQueues, MemAllocV2MemType64, MemFree};

/// What [`Recording`] saw, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An ioctl with request `code` and what it returned (a failure injected by
    /// [`Recording::fail`] shows its errno).
    Ioctl {
        /// The request code.
        code: u32,
        /// The result.
        result: Result<c_int, Errno>,
    },
    /// MEM_ALLOC_V2MT64 handed out `handle` for `size` bytes.
    Alloc {
        /// Requested size.
        size: u64,
        /// The handle.
        handle: u64,
    },
    /// MEM_FREE of `handle` (recorded before the call).
    Free {
        /// The handle.
        handle: u64,
    },
    /// H2T_DMA_ALLOC_QUEUES gave core `nc` the queues of `bmap` (copy and service).
    H2tAlloc {
        /// The core.
        nc: u32,
        /// Every queue handed out.
        bmap: u32,
    },
    /// H2T_DMA_FREE_QUEUES for core `nc`, queues `bmap`.
    H2tFree {
        /// The core.
        nc: u32,
        /// The queues given back.
        bmap: u32,
    },
}

/// A failure to inject: the `nth` (0-based) call of request `code` answers `errno`
/// without reaching the wrapped kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fault {
    code: u32,
    nth: usize,
    errno: Errno,
}

/// Wraps a kernel, recording calls and allocations ([`Event`]) and injecting failures.
#[derive(Debug)]
pub struct Recording<K> {
    inner: K,
    log: Mutex<Vec<Event>>,
    faults: Mutex<Vec<Fault>>,
}

impl<K: Kernel> Recording<K> {
    /// Records over `inner`.
    pub fn new(inner: K) -> Self {
        Self {
            inner,
            log: Mutex::new(Vec::new()),
            faults: Mutex::new(Vec::new()),
        }
    }

    /// The wrapped kernel.
    pub fn inner(&self) -> &K {
        &self.inner
    }

    /// Everything recorded so far.
    pub fn events(&self) -> Vec<Event> {
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The request codes issued so far, in order.
    pub fn codes(&self) -> Vec<u32> {
        self.events()
            .iter()
            .filter_map(|e| match e {
                Event::Ioctl { code, .. } => Some(*code),
                _ => None,
            })
            .collect()
    }

    /// Makes the `nth` (0-based) call of request `code` fail with `errno`.
    pub fn fail(&self, code: u32, nth: usize, errno: Errno) {
        self.faults
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(Fault { code, nth, errno });
    }

    /// Handles allocated and not freed, in allocation order.
    pub fn live_allocations(&self) -> Vec<u64> {
        let mut live = Vec::new();
        for e in self.events() {
            match e {
                Event::Alloc { handle, .. } => live.push(handle),
                Event::Free { handle } => live.retain(|h| *h != handle),
                _ => {}
            }
        }
        live
    }

    /// H2T queues `(nc, bit)` allocated and not given back.
    pub fn live_h2t_queues(&self) -> Vec<(u32, u32)> {
        let mut live = Vec::new();
        for e in self.events() {
            match e {
                Event::H2tAlloc { nc, bmap } => {
                    live.extend((0..32).filter(|b| bmap & (1 << b) != 0).map(|b| (nc, b)));
                }
                Event::H2tFree { nc, bmap } => {
                    live.retain(|(n, b)| !(*n == nc && bmap & (1 << b) != 0));
                }
                _ => {}
            }
        }
        live
    }

    fn push(&self, e: Event) {
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(e);
    }

    fn injected(&self, code: u32) -> Option<Errno> {
        let seen = self.codes().iter().filter(|c| **c == code).count();
        self.faults
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|f| f.code == code && f.nth == seen)
            .map(|f| f.errno)
    }
}

impl<K: Kernel> Kernel for Recording<K> {
    type Region = K::Region;

    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        self.inner.open(path, mode)
    }

    unsafe fn close(&self, fd: RawFd) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.inner.close(fd) }
    }

    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        if let Some(errno) = self.injected(REQ) {
            self.push(Event::Ioctl {
                code: REQ,
                result: Err(errno),
            });
            return Err(errno);
        }
        if REQ == MEM_FREE.code() {
            // SAFETY: for MEM_FREE `arg` is the caller's `MemFree`, valid for reads.
            let handle = unsafe { arg.cast::<MemFree>().read() }.mem_handle;
            self.push(Event::Free { handle });
        }
        if REQ == H2T_DMA_FREE_QUEUES.code() {
            // SAFETY: the caller's `H2tDmaFreeQueues`, valid for reads.
            let a = unsafe { arg.cast::<H2tDmaFreeQueues>().read() };
            self.push(Event::H2tFree {
                nc: a.nc_id.into(),
                bmap: a.queue_bmap,
            });
        }
        // SAFETY: forwarded with the caller's guarantees.
        let result = unsafe { self.inner.ioctl::<REQ>(fd, arg) };
        self.push(Event::Ioctl { code: REQ, result });
        if result == Ok(0) && REQ == MEM_ALLOC_V2MT64.code() {
            // SAFETY: the caller's `MemAllocV2MemType64`, whose `mem_handle` points to the
            // `u64` the driver just wrote.
            let (size, handle) = unsafe {
                let a = arg.cast::<MemAllocV2MemType64>().read();
                (a.size, (a.mem_handle.addr() as usize as *const u64).read())
            };
            self.push(Event::Alloc { size, handle });
        }
        if result == Ok(0) && REQ == H2T_DMA_ALLOC_QUEUES.code() {
            // SAFETY: the caller's `H2tDmaAllocQueues`, just written back by the driver.
            let a = unsafe { arg.cast::<H2tDmaAllocQueues>().read() };
            self.push(Event::H2tAlloc {
                nc: a.nc_id.into(),
                bmap: a.copy_queue_bmap | a.service_queue_bmap,
            });
        }
        result
    }

    unsafe fn mmap(&self, fd: RawFd, len: usize, offset: u64) -> Result<Self::Region, Errno> {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.inner.mmap(fd, len, offset) }
    }

    fn munmap(&self, region: Self::Region) -> Result<(), Errno> {
        self.inner.munmap(region)
    }
}
