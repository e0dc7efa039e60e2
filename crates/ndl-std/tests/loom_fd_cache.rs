//! Model-checks the fd slot protocol with loom: first-touch races, losers closing their own
//! fd, and close-all against live calls. Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p ndl-std --release --test loom_fd_cache`.
#![cfg(loom)]

use core::ffi::{c_int, c_void};
use core::ptr::NonNull;
use std::path::Path;

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::{Arc, Mutex};
use loom::thread;

use ndl_std::{AccessMode, Errno, FdSlot, Kernel, RawFd};

/// A kernel whose fd table loom can see: numbers are reused lowest-first like Linux, and an
/// ioctl on a closed fd is a test failure.
#[derive(Default)]
struct LoomKernel {
    open: Mutex<Vec<bool>>,
    opens: AtomicUsize,
    closes: AtomicUsize,
}

impl LoomKernel {
    fn live(&self) -> usize {
        self.open.lock().unwrap().iter().filter(|o| **o).count()
    }
}

impl Kernel for LoomKernel {
    fn open(&self, _: &Path, _: AccessMode) -> Result<RawFd, Errno> {
        let mut t = self.open.lock().unwrap();
        let fd = match t.iter().position(|o| !*o) {
            Some(i) => i,
            None => {
                t.push(false);
                t.len() - 1
            }
        };
        t[fd] = true;
        self.opens.fetch_add(1, Ordering::SeqCst);
        Ok(fd as RawFd)
    }
    unsafe fn close(&self, fd: RawFd) {
        let mut t = self.open.lock().unwrap();
        assert!(t[fd as usize], "double close of fd {fd}");
        t[fd as usize] = false;
        self.closes.fetch_add(1, Ordering::SeqCst);
    }
    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, _: *mut c_void) -> Result<c_int, Errno> {
        assert!(
            self.open.lock().unwrap()[fd as usize],
            "ioctl on closed fd {fd}"
        );
        Ok(0)
    }
    unsafe fn mmap(&self, _: RawFd, _: usize, _: u64) -> Result<NonNull<u8>, Errno> {
        Err(Errno::NODEV)
    }
    unsafe fn munmap(&self, _: NonNull<u8>, _: usize) -> Result<(), Errno> {
        Err(Errno::INVAL)
    }
}

fn call(slot: &FdSlot, k: &LoomKernel) -> RawFd {
    let pinned = slot
        .pin(k, || {
            k.open(Path::new("/dev/neuron0"), AccessMode::ReadOnly)
        })
        .unwrap();
    // SAFETY: the loom kernel dereferences nothing.
    unsafe { k.ioctl::<0>(pinned.fd(), core::ptr::null_mut()) }.unwrap();
    pinned.fd()
}

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(3);
    b.check(f);
}

#[test]
fn first_touch_race_keeps_one_fd_and_the_loser_closes_its_own() {
    model(|| {
        let k = Arc::new(LoomKernel::default());
        let slot = Arc::new(FdSlot::new());
        let t = {
            let (k, slot) = (Arc::clone(&k), Arc::clone(&slot));
            thread::spawn(move || call(&slot, &k))
        };
        let mine = call(&slot, &k);
        let theirs = t.join().unwrap();
        assert_eq!(mine, theirs, "both calls used the one cached fd");
        assert_eq!(slot.cached(), Some(mine));
        assert_eq!(k.live(), 1, "the loser's fd was closed");
        assert_eq!(
            k.opens.load(Ordering::SeqCst) - k.closes.load(Ordering::SeqCst),
            1
        );
        assert!(slot.close(&*k));
        assert_eq!(k.live(), 0);
    });
}

#[test]
fn close_all_against_a_live_call_defers_to_the_last_user() {
    model(|| {
        let k = Arc::new(LoomKernel::default());
        let slot = Arc::new(FdSlot::new());
        call(&slot, &k); // the fd is cached before the race
        let t = {
            let (k, slot) = (Arc::clone(&k), Arc::clone(&slot));
            thread::spawn(move || call(&slot, &k))
        };
        slot.close(&*k);
        t.join().unwrap();
        // Whatever the interleaving, at most the caller's re-opened fd is cached now, and
        // a second teardown leaves nothing open.
        assert!(k.live() <= 1);
        assert_eq!(k.live(), usize::from(slot.cached().is_some()));
        slot.close(&*k);
        assert_eq!(k.live(), 0);
        assert_eq!(
            k.opens.load(Ordering::SeqCst),
            k.closes.load(Ordering::SeqCst)
        );
    });
}

#[test]
fn close_all_racing_first_touch_and_fd_reuse() {
    model(|| {
        let k = Arc::new(LoomKernel::default());
        let slot = Arc::new(FdSlot::new());
        let t = {
            let (k, slot) = (Arc::clone(&k), Arc::clone(&slot));
            thread::spawn(move || {
                call(&slot, &k);
                call(&slot, &k);
            })
        };
        slot.close(&*k);
        // A private open that may take a just-freed number: the slot must never use it.
        let other = k.open(Path::new("/other"), AccessMode::ReadOnly).unwrap();
        t.join().unwrap();
        assert_ne!(slot.cached(), Some(other));
        // SAFETY: `other` came from `open` above.
        unsafe { k.close(other) };
        slot.close(&*k);
        assert_eq!(k.live(), 0);
    });
}
