//! One-time HAL initialisation without `std`.
//!
//! [`HalCell`] holds the host-wide HAL state. Its rules are the vendor init protocol with
//! its hazards designed out:
//!
//! * **Fast path:** once ready, `init` is one atomic load.
//! * **Exactly one initialiser:** the first caller wins a compare-and-swap and runs the
//!   initialiser; concurrent callers wait (spin) for its outcome. The value is published only
//!   after it is complete (the vendor publishes the container before filling it).
//! * **Failure is not sticky-as-success:** a failing initialiser leaves the cell empty and
//!   every caller sees an error; the next `init` tries again.
//! * **Cleanup and free are separate:** [`cleanup`](HalCell::cleanup) runs a hook on the
//!   live state (idempotent, may run per device and at exit); [`free`](HalCell::free) drops
//!   the state, refuses while a reader holds it, and leaves the cell empty, so a later
//!   `init` works (the vendor leaves a dangling global).

use core::cell::UnsafeCell;
use core::fmt;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU32, Ordering};

use crate::{
    Arch, ArchLatch, ArchSet, ArchVisitor, DispatchError, LatchError, RegistrarError,
    RegistrarInput, Registration,
};

const STATE_MASK: u32 = 0b11;
const EMPTY: u32 = 0;
const INITIALISING: u32 = 1;
const READY: u32 = 2;
const FREEING: u32 = 3;
/// Bits of the state field; the reader count sits above them.
const STATE_BITS: u32 = STATE_MASK.count_ones();
/// One reader in the count kept above the two state bits.
const READER: u32 = 1 << STATE_BITS;

/// A cell initialised at most once at a time, readable without locks, freeable and
/// re-initialisable. `const`-constructible for use as a `static`.
pub struct HalCell<T> {
    word: AtomicU32,
    slot: UnsafeCell<MaybeUninit<T>>,
}

// SAFETY: the slot is written only by the single thread that moved the state EMPTY ->
// INITIALISING (or READY -> FREEING with no readers), and read only by threads that
// registered as readers while the state was READY; the Release/Acquire pairs on `word` order
// those accesses. `T: Send` because the value may be dropped on another thread, `T: Sync`
// because readers on several threads share `&T`.
unsafe impl<T: Send + Sync> Sync for HalCell<T> {}

/// How a successful [`HalCell::init`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InitOutcome {
    /// This call ran the initialiser.
    Initialised,
    /// The cell was already ready (fast path, or another caller won).
    AlreadyInitialised,
}

/// Why [`HalCell::free`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FreeError {
    /// Nothing to free.
    NotInitialised,
    /// A reader holds the value, or an init/free is in progress.
    Busy,
}

impl fmt::Display for FreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FreeError::NotInitialised => "HAL state is not initialised",
            FreeError::Busy => "HAL state is in use",
        })
    }
}

impl core::error::Error for FreeError {}

impl<T> Default for HalCell<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> fmt::Debug for HalCell<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.word.load(Ordering::Relaxed);
        f.debug_struct("HalCell")
            .field("state", &(w & STATE_MASK))
            .field("readers", &(w >> STATE_BITS))
            .finish()
    }
}

/// Drops a reader registration when [`HalCell::with`] returns, also if its closure unwinds
/// (std builds): otherwise a panicking reader would leave the cell "in use" for ever and
/// [`HalCell::free`] would refuse with [`FreeError::Busy`] from then on.
struct ReaderGuard<'a>(&'a AtomicU32);

impl Drop for ReaderGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(READER, Ordering::Release);
    }
}

/// Resets the cell to EMPTY if the initialiser unwinds (std builds), so waiters do not spin
/// forever.
struct InitGuard<'a>(&'a AtomicU32);

impl Drop for InitGuard<'_> {
    fn drop(&mut self) {
        self.0.store(EMPTY, Ordering::Release);
    }
}

impl<T> HalCell<T> {
    /// An empty cell.
    pub const fn new() -> Self {
        Self {
            word: AtomicU32::new(EMPTY),
            slot: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// Initialises the cell with `f` unless it is ready. Exactly one caller runs `f` at a
    /// time; if it fails, the error is returned and the cell stays empty.
    ///
    /// ```
    /// use khal::{HalCell, InitOutcome};
    /// let cell: HalCell<u32> = HalCell::new();
    /// assert_eq!(cell.init(|| Err::<u32, _>("base layer failed")), Err("base layer failed"));
    /// assert_eq!(cell.get(), None, "a failure is not success");
    /// assert_eq!(cell.init(|| Ok::<_, ()>(7)), Ok(InitOutcome::Initialised));
    /// assert_eq!(cell.init(|| Ok::<_, ()>(8)), Ok(InitOutcome::AlreadyInitialised));
    /// assert_eq!(cell.get(), Some(7));
    /// assert_eq!(cell.free(), Ok(()));
    /// assert_eq!(cell.init(|| Ok::<_, ()>(9)), Ok(InitOutcome::Initialised), "init after free");
    /// ```
    pub fn init<E>(&self, f: impl FnOnce() -> Result<T, E>) -> Result<InitOutcome, E> {
        let mut f = Some(f);
        loop {
            let w = self.word.load(Ordering::Acquire);
            match w & STATE_MASK {
                READY => return Ok(InitOutcome::AlreadyInitialised),
                EMPTY => {
                    if self
                        .word
                        .compare_exchange(EMPTY, INITIALISING, Ordering::Acquire, Ordering::Relaxed)
                        .is_err()
                    {
                        continue;
                    }
                    let guard = InitGuard(&self.word);
                    let Some(f) = f.take() else {
                        // Unreachable: `f` is taken only by the single successful CAS.
                        return Ok(InitOutcome::AlreadyInitialised);
                    };
                    let value = f();
                    core::mem::forget(guard);
                    return match value {
                        Ok(v) => {
                            // SAFETY: we hold INITIALISING: no reader, no other writer.
                            unsafe { (*self.slot.get()).write(v) };
                            self.word.store(READY, Ordering::Release);
                            Ok(InitOutcome::Initialised)
                        }
                        Err(e) => {
                            self.word.store(EMPTY, Ordering::Release);
                            Err(e)
                        }
                    };
                }
                _ => core::hint::spin_loop(),
            }
        }
    }

    /// Runs `f` on the value if the cell is ready (`None` otherwise). While `f` runs the
    /// value cannot be freed.
    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> Option<R> {
        let mut w = self.word.load(Ordering::Acquire);
        loop {
            if w & STATE_MASK != READY {
                return None;
            }
            let next = w.checked_add(READER)?;
            match self
                .word
                .compare_exchange_weak(w, next, Ordering::Acquire, Ordering::Acquire)
            {
                Ok(_) => break,
                Err(cur) => w = cur,
            }
        }
        let _reader = ReaderGuard(&self.word);
        // SAFETY: we are a registered reader of a READY cell: the value was written before
        // READY was published (Release/Acquire) and `free` cannot drop it until `_reader`
        // is dropped.
        Some(f(unsafe { (*self.slot.get()).assume_init_ref() }))
    }

    /// A copy of the value, if ready.
    pub fn get(&self) -> Option<T>
    where
        T: Copy,
    {
        self.with(|v| *v)
    }

    /// True when the cell holds a value.
    pub fn is_ready(&self) -> bool {
        self.word.load(Ordering::Acquire) & STATE_MASK == READY
    }

    /// Runs the cleanup `hook` on the live value (the vendor's `ext_cleanup`); returns whether
    /// there was a value. Does not free: the state stays usable (device removal still needs
    /// it), and the hook may run any number of times.
    pub fn cleanup(&self, hook: impl FnOnce(&T)) -> bool {
        self.with(hook).is_some()
    }

    /// Drops the value and empties the cell, so a later [`init`](Self::init) starts over.
    pub fn free(&self) -> Result<(), FreeError> {
        if let Err(cur) =
            self.word
                .compare_exchange(READY, FREEING, Ordering::Acquire, Ordering::Relaxed)
        {
            return Err(if cur & STATE_MASK == EMPTY {
                FreeError::NotInitialised
            } else {
                FreeError::Busy
            });
        }
        // SAFETY: READY with zero readers moved to FREEING: we are the only accessor, and the
        // value was initialised before READY was published.
        unsafe { (*self.slot.get()).assume_init_drop() };
        self.word.store(EMPTY, Ordering::Release);
        Ok(())
    }
}

impl<T> Drop for HalCell<T> {
    fn drop(&mut self) {
        if *self.word.get_mut() & STATE_MASK == READY {
            // SAFETY: `&mut self`: no readers; READY means initialised.
            unsafe { self.slot.get_mut().assume_init_drop() };
        }
    }
}

/// The host-wide HAL state: the registration of the first probed device.
pub type Hal = HalCell<Registration>;

/// The process-wide HAL state (most users want exactly one; tests build their own).
pub static HAL: Hal = Hal::new();

/// The process-wide generation latch.
pub static HOST_ARCH: ArchLatch = ArchLatch::new();

/// Why [`init_hal`] failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalInitError {
    /// The device id is unknown or its generation differs from the latched one.
    Latch(LatchError),
    /// The build does not support the device's generation.
    Dispatch(DispatchError),
    /// A registrar layer failed (for V4: the V3 layer's error is reported, not swallowed).
    Registrar(RegistrarError),
}

impl fmt::Display for HalInitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HalInitError::Latch(e) => e.fmt(f),
            HalInitError::Dispatch(e) => e.fmt(f),
            HalInitError::Registrar(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for HalInitError {}

struct Register<'a, 'b>(&'a RegistrarInput<'b>);

impl ArchVisitor for Register<'_, '_> {
    type Output = Result<Registration, RegistrarError>;
    fn visit<A: Arch>(self) -> Self::Output {
        A::register(self.0)
    }
}

/// Probe-time HAL init: binds the device's generation in `latch` (a device of another
/// generation than the first is refused), then initialises `hal` once with the registrar of
/// that generation, chosen from the supported set `S` by the one dispatch point.
///
/// Returns the host-wide registration (the first device's, as in the vendor driver).
pub fn init_hal<S: ArchSet>(
    hal: &Hal,
    latch: &ArchLatch,
    input: &RegistrarInput<'_>,
) -> Result<Registration, HalInitError> {
    let g = latch
        .bind_pci_device(input.pci_device_id)
        .map_err(HalInitError::Latch)?
        .generation();
    let mut registered = None;
    hal.init(|| {
        let r = S::dispatch(g, Register(input))
            .map_err(HalInitError::Dispatch)?
            .map_err(HalInitError::Registrar)?;
        registered = Some(r);
        Ok(r)
    })?;
    // Either we just registered, or someone did before (then read the live state).
    match registered.or_else(|| hal.get()) {
        Some(r) => Ok(r),
        // Freed between our init and this read: report it as a refused dispatch.
        None => Err(HalInitError::Dispatch(DispatchError::Unbound)),
    }
}
