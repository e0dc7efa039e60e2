//! One cached fd, shared by every thread, that can be closed while calls are in flight.
//!
//! The vendor shim keeps a plain fd per device and closes it at teardown even if another
//! thread is inside an ioctl on it; the number can then be reused by an unrelated open and the
//! ioctl lands on the wrong file. Here a call *pins* the slot for its duration, and close-all
//! only marks a pinned slot: the last pinned call closes the fd. The whole state is one atomic
//! word, so there is no lock on the call path:
//!
//! ```text
//! bit 63      CLOSING   close-all asked; the last pin closes the fd
//! bits 33..62 pins      calls currently using the fd
//! bit 32      OCCUPIED  an fd is cached
//! bits 0..31  fd
//! ```
//!
//! A word equal to 0 is an empty slot. Reusing an fd *number* is harmless: a pin CAS only
//! succeeds on the exact word it read, and an identical word means that very number is the
//! cached, open fd at that moment.

use crate::kernel::{Errno, Kernel, RawFd};
use crate::sync::{AtomicU64, Ordering};

const FD_MASK: u64 = 0xFFFF_FFFF;
const OCCUPIED: u64 = 1 << 32;
const PIN_SHIFT: u32 = 33;
const PIN: u64 = 1 << PIN_SHIFT;
const MAX_PINS: u64 = (1 << 30) - 1;
const PIN_MASK: u64 = MAX_PINS << PIN_SHIFT;
const CLOSING: u64 = 1 << 63;

const fn pins(word: u64) -> u64 {
    (word & PIN_MASK) >> PIN_SHIFT
}

const fn fd_of(word: u64) -> RawFd {
    // The low 32 bits hold the fd exactly as the kernel returned it.
    (word & FD_MASK) as u32 as RawFd
}

const fn cached(fd: RawFd) -> u64 {
    // Kernels return non-negative fds; the bit pattern is stored unchanged.
    OCCUPIED | (fd as u32 as u64)
}

/// A lazily opened, shared, pin-counted fd (see the module docs for the protocol).
#[derive(Debug)]
pub struct FdSlot {
    word: AtomicU64,
}

impl Default for FdSlot {
    fn default() -> Self {
        Self::new()
    }
}

impl FdSlot {
    /// An empty slot.
    pub fn new() -> Self {
        Self {
            word: AtomicU64::new(0),
        }
    }

    /// The cached fd, if one is installed (a snapshot, for inspection and tests).
    pub fn cached(&self) -> Option<RawFd> {
        let w = self.word.load(Ordering::Acquire);
        (w & OCCUPIED != 0).then(|| fd_of(w))
    }

    /// Pins the cached fd for one call, opening it with `open` on first use.
    ///
    /// First-touch races are settled by compare-and-swap: the thread whose install fails
    /// closes its own fd and pins the winner's. While close-all is draining the slot, the
    /// call gets a private fd of its own (closed when the guard drops) instead of waiting.
    pub fn pin<'a, K: Kernel + ?Sized>(
        &'a self,
        kernel: &'a K,
        open: impl Fn() -> Result<RawFd, Errno>,
    ) -> Result<PinnedFd<'a, K>, Errno> {
        let mut w = self.word.load(Ordering::Acquire);
        loop {
            if w & OCCUPIED == 0 {
                let fd = open()?;
                match self.word.compare_exchange(
                    0,
                    cached(fd) | PIN,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => return Ok(PinnedFd::new(fd, Owner::Slot(self), kernel)),
                    Err(current) => {
                        // SAFETY: `fd` was just opened by this thread and was never published.
                        unsafe { kernel.close(fd) };
                        w = current;
                    }
                }
            } else if w & CLOSING != 0 || pins(w) == MAX_PINS {
                let fd = open()?;
                return Ok(PinnedFd::new(fd, Owner::Transient, kernel));
            } else {
                match self.word.compare_exchange_weak(
                    w,
                    w + PIN,
                    Ordering::Acquire,
                    Ordering::Acquire,
                ) {
                    Ok(_) => return Ok(PinnedFd::new(fd_of(w), Owner::Slot(self), kernel)),
                    Err(current) => w = current,
                }
            }
        }
    }

    /// Drops one pin; the last pin of a slot marked by close-all closes the fd.
    fn unpin<K: Kernel + ?Sized>(&self, kernel: &K) {
        let prev = self.word.fetch_sub(PIN, Ordering::AcqRel);
        if prev & CLOSING != 0 && pins(prev) == 1 {
            // Nobody else may touch a closing slot with no pins: this thread owns the fd.
            self.word.store(0, Ordering::Release);
            // SAFETY: the fd came from `open`, was unpublished from the slot just now, and
            // no call holds it (pin count reached zero).
            unsafe { kernel.close(fd_of(prev)) };
        }
    }

    /// Closes the cached fd: at once when no call holds it, otherwise by the last call that
    /// does. Later calls open a fresh fd. Returns `true` when this call closed it.
    pub fn close<K: Kernel + ?Sized>(&self, kernel: &K) -> bool {
        let mut w = self.word.load(Ordering::Acquire);
        loop {
            if w & OCCUPIED == 0 || w & CLOSING != 0 {
                return false;
            }
            let idle = pins(w) == 0;
            let next = if idle { 0 } else { w | CLOSING };
            match self
                .word
                .compare_exchange(w, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) if idle => {
                    // SAFETY: the slot held this fd unpinned and is now empty: nobody else
                    // can reach it.
                    unsafe { kernel.close(fd_of(w)) };
                    return true;
                }
                Ok(_) => return false,
                Err(current) => w = current,
            }
        }
    }
}

#[derive(Debug)]
enum Owner<'a> {
    /// A pin on a shared slot.
    Slot(&'a FdSlot),
    /// A private fd opened for this call only.
    Transient,
    /// An fd owned by someone else for longer than the guard (a device handle).
    Borrowed,
}

/// An fd that stays open (and unreused) until this guard drops.
#[derive(Debug)]
pub struct PinnedFd<'a, K: Kernel + ?Sized> {
    fd: RawFd,
    owner: Owner<'a>,
    kernel: &'a K,
}

impl<'a, K: Kernel + ?Sized> PinnedFd<'a, K> {
    fn new(fd: RawFd, owner: Owner<'a>, kernel: &'a K) -> Self {
        Self { fd, owner, kernel }
    }

    /// Guards an fd whose owner outlives `'a` (nothing to do on drop).
    pub(crate) fn borrowed(fd: RawFd, kernel: &'a K) -> Self {
        Self::new(fd, Owner::Borrowed, kernel)
    }

    /// The fd, valid while the guard lives.
    pub fn fd(&self) -> RawFd {
        self.fd
    }

    /// True when the fd is a private one (the slot was being closed).
    pub fn is_transient(&self) -> bool {
        matches!(self.owner, Owner::Transient)
    }
}

impl<K: Kernel + ?Sized> Drop for PinnedFd<'_, K> {
    fn drop(&mut self) {
        match self.owner {
            Owner::Slot(slot) => slot.unpin(self.kernel),
            // SAFETY: the transient fd was opened for this guard alone.
            Owner::Transient => unsafe { self.kernel.close(self.fd) },
            Owner::Borrowed => {}
        }
    }
}
