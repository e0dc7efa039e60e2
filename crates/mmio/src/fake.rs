//! A recording fake register file for tests.

use core::cell::RefCell;

use heapless::{Deque, LinearMap, Vec};

use crate::Mmio;

/// One register access seen by a [`FakeRegs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// A read of `offset` that returned `value`.
    Read {
        /// Byte offset inside the window.
        offset: usize,
        /// Value returned.
        value: u32,
    },
    /// A write of `value` to `offset`.
    Write {
        /// Byte offset inside the window.
        offset: usize,
        /// Value written.
        value: u32,
    },
}

impl Access {
    /// The offset accessed.
    pub const fn offset(&self) -> usize {
        match *self {
            Access::Read { offset, .. } | Access::Write { offset, .. } => offset,
        }
    }
    /// The value read or written.
    pub const fn value(&self) -> u32 {
        match *self {
            Access::Read { value, .. } | Access::Write { value, .. } => value,
        }
    }
    /// True for a write.
    pub const fn is_write(&self) -> bool {
        matches!(self, Access::Write { .. })
    }
}

/// One-shot read values a [`FakeRegs`] holds at once (enough for any poll sequence a test
/// scripts; more are counted in [`FakeRegs::lost`]).
const QUEUED_READS: usize = 16;

struct State<const REGS: usize, const TRACE: usize> {
    values: LinearMap<usize, u32, REGS>,
    queued: Deque<(usize, u32), QUEUED_READS>,
    trace: Vec<Access, TRACE>,
    barriers: Vec<usize, TRACE>,
    lost: usize,
}

/// A register file that remembers every value written and records every access.
///
/// * Registers never written read as 0 (a reset value) unless [`preset`](Self::preset).
/// * A write stores the value, so a later read returns it (plain-register semantics; tests of
///   write-1-to-set or write-0-to-clear registers assert on the trace, which is what the
///   hardware would have been sent).
/// * [`queue_read`](Self::queue_read) programs one-shot values for registers that change
///   between reads (state polls): they are returned, oldest first, before the stored value.
/// * At most `REGS` distinct registers are stored and `TRACE` accesses recorded; anything past
///   that is counted in [`lost`](Self::lost) rather than panicking, and a test should assert
///   `lost() == 0`.
///
/// Not `Sync`: it is a single-threaded test double (the device model is the shared one).
pub struct FakeRegs<const REGS: usize, const TRACE: usize> {
    state: RefCell<State<REGS, TRACE>>,
}

impl<const REGS: usize, const TRACE: usize> Default for FakeRegs<REGS, TRACE> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const REGS: usize, const TRACE: usize> FakeRegs<REGS, TRACE> {
    /// An empty register file (every register reads 0).
    pub const fn new() -> Self {
        Self {
            state: RefCell::new(State {
                values: LinearMap::new(),
                queued: Deque::new(),
                trace: Vec::new(),
                barriers: Vec::new(),
                lost: 0,
            }),
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut State<REGS, TRACE>) -> R) -> Option<R> {
        // No method holds the borrow across a call out, so this never fails in practice;
        // if it ever did, the access is counted as lost instead of panicking.
        self.state.try_borrow_mut().ok().map(|mut s| f(&mut s))
    }

    /// Sets the stored value of `offset` without recording an access.
    pub fn preset(&self, offset: usize, value: u32) {
        self.with(|s| {
            if s.values.insert(offset, value).is_err() {
                s.lost += 1;
            }
        });
    }

    /// Queues a one-shot value that the next read of `offset` returns (FIFO per file). At
    /// most 16 values wait at once; one more is dropped and counted in [`lost`](Self::lost).
    pub fn queue_read(&self, offset: usize, value: u32) {
        self.with(|s| {
            if s.queued.push_back((offset, value)).is_err() {
                s.lost += 1;
            }
        });
    }

    /// The stored value of `offset` (what a read would return), without recording an access.
    pub fn peek(&self, offset: usize) -> u32 {
        self.with(|s| s.values.get(&offset).copied().unwrap_or(0))
            .unwrap_or(0)
    }

    /// A copy of every access recorded so far, in order.
    pub fn trace(&self) -> Vec<Access, TRACE> {
        self.with(|s| s.trace.clone()).unwrap_or_default()
    }

    /// The writes recorded so far as `(offset, value)`, in order.
    pub fn writes(&self) -> Vec<(usize, u32), TRACE> {
        self.with(|s| {
            s.trace
                .iter()
                .filter(|a| a.is_write())
                .map(|a| (a.offset(), a.value()))
                .collect()
        })
        .unwrap_or_default()
    }

    /// Where the [write barriers](Mmio::write_barrier) fell: for each, the number of
    /// accesses recorded before it (so a barrier just before the doorbell write at trace
    /// index `i` is recorded as `i`).
    pub fn barriers(&self) -> Vec<usize, TRACE> {
        self.with(|s| s.barriers.clone()).unwrap_or_default()
    }

    /// Forgets the trace and the barrier positions (stored values stay).
    pub fn clear_trace(&self) {
        self.with(|s| {
            s.trace.clear();
            s.barriers.clear();
        });
    }

    /// Accesses or stores that did not fit in the fixed capacity.
    pub fn lost(&self) -> usize {
        self.with(|s| s.lost).unwrap_or(usize::MAX)
    }

    /// Removes and returns the oldest queued value for `offset`, keeping the others in order.
    fn take_queued(q: &mut Deque<(usize, u32), QUEUED_READS>, offset: usize) -> Option<u32> {
        let mut found = None;
        for _ in 0..q.len() {
            if let Some(e) = q.pop_front() {
                if found.is_none() && e.0 == offset {
                    found = Some(e.1);
                } else {
                    // Cannot fail: one element was just popped.
                    let _ = q.push_back(e);
                }
            }
        }
        found
    }

    fn record(s: &mut State<REGS, TRACE>, a: Access) {
        if s.trace.push(a).is_err() {
            s.lost += 1;
        }
    }
}

impl<const REGS: usize, const TRACE: usize> Mmio for FakeRegs<REGS, TRACE> {
    fn read32(&self, offset: usize) -> u32 {
        self.with(|s| {
            let value = match Self::take_queued(&mut s.queued, offset) {
                Some(v) => v,
                None => s.values.get(&offset).copied().unwrap_or(0),
            };
            Self::record(s, Access::Read { offset, value });
            value
        })
        .unwrap_or(crate::BUS_ERROR_READ)
    }

    fn write32(&self, offset: usize, value: u32) {
        self.with(|s| {
            if s.values.insert(offset, value).is_err() {
                s.lost += 1;
            }
            Self::record(s, Access::Write { offset, value });
        });
    }

    /// Records the barrier's position in the trace (and issues the real one, so code under
    /// test behaves as on hardware).
    fn write_barrier(&self) {
        self.with(|s| {
            let at = s.trace.len();
            if s.barriers.push(at).is_err() {
                s.lost += 1;
            }
        });
        crate::dma_write_barrier();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MmioExt;

    #[test]
    fn records_reads_and_writes_in_order() {
        let f: FakeRegs<8, 8> = FakeRegs::new();
        f.write32(0x10, 5);
        assert_eq!(f.read32(0x10), 5);
        assert_eq!(f.read32(0x14), 0);
        assert_eq!(
            f.trace(),
            [
                Access::Write {
                    offset: 0x10,
                    value: 5
                },
                Access::Read {
                    offset: 0x10,
                    value: 5
                },
                Access::Read {
                    offset: 0x14,
                    value: 0
                },
            ]
        );
        assert_eq!(f.writes(), [(0x10, 5)]);
        assert_eq!(f.lost(), 0);
    }

    #[test]
    fn queued_reads_come_first_and_keep_order_of_others() {
        let f: FakeRegs<8, 16> = FakeRegs::new();
        f.preset(0x200, 9);
        f.queue_read(0x300, 1);
        f.queue_read(0x200, 2);
        f.queue_read(0x300, 3);
        f.queue_read(0x200, 4);
        assert_eq!(f.read32(0x200), 2);
        assert_eq!(f.read32(0x300), 1);
        assert_eq!(f.read32(0x200), 4);
        assert_eq!(f.read32(0x300), 3);
        assert_eq!(f.read32(0x200), 9, "falls back to the stored value");
        assert_eq!(f.read32(0x300), 0);
    }

    #[test]
    fn barriers_are_recorded_where_they_fall_through_windows() {
        let f: FakeRegs<8, 8> = FakeRegs::new();
        f.write32(0x10, 1);
        let w = f.window(0x100);
        w.write_barrier();
        w.write32(0x38, 2);
        assert_eq!(f.barriers(), [1], "before the second access");
        assert_eq!(f.writes(), [(0x10, 1), (0x138, 2)]);
        f.clear_trace();
        assert!(f.barriers().is_empty());
    }

    #[test]
    fn capacity_overflow_is_counted_not_a_panic() {
        let f: FakeRegs<1, 2> = FakeRegs::new();
        f.write32(0, 1);
        f.write32(4, 2);
        f.write32(8, 3);
        assert_eq!(f.lost(), 3, "one store and two trace entries did not fit");
    }

    #[test]
    fn modify_and_windows_compose() {
        let f: FakeRegs<8, 8> = FakeRegs::new();
        f.preset(0x104, 0xf0);
        let w = f.window(0x100);
        assert_eq!(w.modify32(0x4, |v| v | 1), 0xf1);
        assert_eq!(f.peek(0x104), 0xf1);
        let ww = w.window(0x4);
        assert_eq!(ww.read32(0), 0xf1);
        assert_eq!(w.read32(usize::MAX), crate::BUS_ERROR_READ);
    }
}
