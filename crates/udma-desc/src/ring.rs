//! Ring state: indices, phase and completions, apart from descriptor storage.

use core::sync::atomic::{AtomicU32, Ordering};

use crate::{Direction, Error, RingId};

/// Smallest ring, in descriptors (queue init refuses fewer).
pub const RING_MIN_SIZE: u32 = 32;
/// Largest ring size queue init accepts, 2^24 - 16 descriptors (the 24-bit `drl` field
/// less one cache line); as sizes are powers of two, the largest usable one is 2^23.
pub const RING_MAX_SIZE: u32 = (1 << 24) - 16;
/// Ring sizes are whole 256-byte cache lines of 16 descriptors.
pub const RING_SIZE_MULTIPLE: u32 = 16;
/// Slots kept free between writer and reader: one completion cache line of 16 descriptors.
pub const RING_RESERVE: u32 = 16;

/// One slot handed out by a ring: its index and the ring id to stamp into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Index in the ring, `0..size`.
    pub index: u32,
    /// Ring id (phase) of the pass this slot belongs to.
    pub ring_id: RingId,
}

/// Producer position: the next slot and the ring id it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cursor {
    pub(crate) next: u32,
    pub(crate) ring_id: RingId,
}

/// The software state of one descriptor ring (the vendor `udma_q`'s indices).
///
/// * `next` — the slot the next descriptor goes to; advances by one per slot, mod size.
/// * ring id — the phase stamped into the slots of the current pass: 1 after init,
///   `+1 mod 4` each time `next` wraps to 0.
/// * completion index — how far the engine is known to be done; advanced only by
///   [`ack`](Self::ack), which is lock-free (a compare-and-swap loop, as in the driver) so
///   several threads may acknowledge at once.
///
/// Taking slots needs `&mut self`, so no acknowledgement runs while the producer works: it
/// reads the completion index as plain memory (no atomic load, which would stop the
/// compiler from keeping ring state in registers across a loop), and
/// [`ack_exclusive`](Self::ack_exclusive) lets an owner that acknowledges itself skip the
/// compare-and-swap. [`RingPair`](crate::RingPair) keeps the producer-side copy of the room
/// on top of this.
///
/// Storage is separate (see [`DescStore`](crate::DescStore) and
/// [`DescRing`](crate::DescRing)); this type only does index arithmetic.
///
/// ```
/// use udma_desc::{Direction, Ring};
/// let mut r = Ring::new(Direction::Tx, 32)?;
/// assert_eq!(r.available(), 16); // 32 minus the 16-slot reserve
/// let res = r.reserve(16)?;
/// assert_eq!((res.start(), r.available()), (0, 0));
/// r.ack(16)?;
/// assert_eq!(r.available(), 16);
/// # Ok::<(), udma_desc::Error>(())
/// ```
#[derive(Debug)]
pub struct Ring {
    dir: Direction,
    size: u32,
    cursor: Cursor,
    completed: AtomicU32,
}

impl Ring {
    /// A `dir` ring of `size` descriptors in its post-init state (next 0, ring id 1, completion
    /// index 0). `size` must be a power of two, a multiple of 16, and in
    /// `32..=2^24-16`.
    #[inline]
    pub const fn new(dir: Direction, size: u32) -> Result<Self, Error> {
        if size < RING_MIN_SIZE || size > RING_MAX_SIZE || size % RING_SIZE_MULTIPLE != 0 {
            return Err(Error::RingSizeOutOfRange { size });
        }
        if !size.is_power_of_two() {
            return Err(Error::RingSizeNotPowerOfTwo { size });
        }
        Ok(Self {
            dir,
            size,
            cursor: Cursor {
                next: 0,
                ring_id: RingId::INITIAL,
            },
            completed: AtomicU32::new(0),
        })
    }

    /// Whether this is a TX or an RX ring (named in errors).
    #[inline]
    pub const fn direction(&self) -> Direction {
        self.dir
    }

    /// Ring size in descriptors.
    #[inline]
    pub const fn size(&self) -> u32 {
        self.size
    }

    /// `size - 1`: ring indices are taken mod size with it.
    #[inline]
    pub(crate) const fn mask(&self) -> u32 {
        self.size - 1
    }

    /// The slot the next descriptor goes to.
    #[inline]
    pub const fn next_index(&self) -> u32 {
        self.cursor.next
    }

    /// The ring id the next slot gets.
    #[inline]
    pub const fn ring_id(&self) -> RingId {
        self.cursor.ring_id
    }

    /// The next slot, without taking it.
    #[inline]
    pub const fn peek(&self) -> Slot {
        Slot {
            index: self.cursor.next,
            ring_id: self.cursor.ring_id,
        }
    }

    /// The completion index: slots before it (back to `next_index`) are free again.
    #[inline]
    pub fn completion_index(&self) -> u32 {
        self.completed.load(Ordering::Acquire)
    }

    /// Free slots: `(completion - (next + 16)) mod size`, as the driver computes it. An
    /// empty ring reports `size - 16`.
    #[inline]
    pub fn available(&self) -> u32 {
        limit_of(self.completion_index(), self.mask()).wrapping_sub(self.cursor.next) & self.mask()
    }

    /// [`available`](Self::available) for the producer: with `&mut self` no acknowledgement
    /// runs concurrently, so the completion index is read as plain memory.
    #[inline]
    pub(crate) fn room(&mut self) -> u32 {
        limit_of(*self.completed.get_mut(), self.mask()).wrapping_sub(self.cursor.next)
            & self.mask()
    }

    /// Checks that `needed` slots are free for the producer ([`Error::RingFull`] otherwise).
    #[inline]
    pub(crate) fn take_room(&mut self, needed: u32) -> Result<(), Error> {
        let available = self.room();
        if needed <= available {
            Ok(())
        } else {
            Err(ring_full(self.dir, needed, available))
        }
    }

    /// Descriptors taken and not yet acknowledged.
    #[inline]
    pub fn outstanding(&self) -> u32 {
        self.cursor.next.wrapping_sub(self.completion_index()) & self.mask()
    }

    /// Returns `count` completed descriptors to the ring, safely from several threads at
    /// once (compare-and-swap retry loop, like the driver's). Acknowledging more than is
    /// outstanding is refused ([`Error::AckTooMany`]) instead of corrupting the index.
    /// Returns the new completion index.
    #[inline]
    pub fn ack(&self, count: u32) -> Result<u32, Error> {
        let mut cur = self.completed.load(Ordering::Acquire);
        loop {
            let outstanding = self.cursor.next.wrapping_sub(cur) & self.mask();
            if count > outstanding {
                return Err(Error::AckTooMany { count, outstanding });
            }
            let new = cur.wrapping_add(count) & self.mask();
            match self.completed.compare_exchange_weak(
                cur,
                new,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(new),
                Err(seen) => cur = seen,
            }
        }
    }

    /// [`ack`](Self::ack) by the ring's one owner: with `&mut self` no other thread can
    /// acknowledge at the same time, so the completion index moves with a plain read and
    /// write, no compare-and-swap. The same check: more than is outstanding is refused.
    #[inline]
    pub fn ack_exclusive(&mut self, count: u32) -> Result<u32, Error> {
        self.check_ack_exclusive(count)?;
        let completed = self.completed.get_mut();
        *completed = completed.wrapping_add(count) & (self.size - 1);
        Ok(*completed)
    }

    /// Refuses to acknowledge more than is outstanding, reading the completion index as its
    /// one owner (plain memory).
    #[inline]
    pub(crate) fn check_ack_exclusive(&mut self, count: u32) -> Result<(), Error> {
        let outstanding = self.cursor.next.wrapping_sub(*self.completed.get_mut()) & self.mask();
        if count > outstanding {
            return Err(ack_too_many(count, outstanding));
        }
        Ok(())
    }

    /// Checks that `needed` slots are free ([`Error::RingFull`] otherwise).
    #[inline]
    pub fn ensure_room(&self, needed: u32) -> Result<(), Error> {
        let available = self.available();
        if needed > available {
            Err(ring_full(self.dir, needed, available))
        } else {
            Ok(())
        }
    }

    /// The cursor after taking `n` slots from `c`: the index wraps mod size and the ring
    /// id advances once if the index passed (or reached) the end. `n < size` always.
    #[inline]
    pub(crate) const fn advance(&self, c: Cursor, n: u32) -> Cursor {
        let end = c.next as u64 + n as u64;
        let wrapped = end >= self.size as u64;
        Cursor {
            next: c.next.wrapping_add(n) & self.mask(),
            ring_id: if wrapped { c.ring_id.next() } else { c.ring_id },
        }
    }

    /// Takes the next slot: index `+1` mod size, ring id `+1` mod 4 when it wraps to 0.
    #[inline]
    pub(crate) const fn advance_one(&mut self) {
        let next = self.cursor.next.wrapping_add(1) & self.mask();
        self.cursor.next = next;
        if next == 0 {
            self.cursor.ring_id = self.cursor.ring_id.next();
        }
    }

    /// Moves `next` to `next` (already mod size), keeping the ring id (crate-internal: the
    /// in-step copy path, which computes the step once for both rings).
    #[inline]
    pub(crate) const fn set_next(&mut self, next: u32) {
        self.cursor.next = next;
    }

    /// Sets the ring id of the current pass (crate-internal: the in-step copy path, on a
    /// wrap).
    #[inline]
    pub(crate) const fn set_ring_id(&mut self, id: RingId) {
        self.cursor.ring_id = id;
    }

    #[inline]
    pub(crate) const fn cursor(&self) -> Cursor {
        self.cursor
    }

    #[inline]
    pub(crate) const fn commit(&mut self, c: Cursor) {
        self.cursor = c;
    }

    /// The reservation [`reserve`](Self::reserve) would make, without taking the slots:
    /// fill them, then [`commit_reservation`](Self::commit_reservation).
    #[inline]
    pub(crate) fn plan(&mut self, count: u32) -> Result<Reservation, Error> {
        self.take_room(count)?;
        Ok(Reservation {
            start: self.cursor.next,
            ring_id: self.cursor.ring_id,
            count,
            size: self.size,
        })
    }

    /// Takes the slots of a [`plan`](Self::plan) made on this ring's current state.
    #[inline]
    pub(crate) fn commit_reservation(&mut self, res: &Reservation) {
        self.cursor = self.advance(self.cursor, res.count);
    }

    /// Takes `count` consecutive slots (checked against [`available`](Self::available))
    /// and returns where they start. The ring id flips if the run wraps; each slot's id is
    /// given by [`Reservation::slot`].
    #[inline]
    pub fn reserve(&mut self, count: u32) -> Result<Reservation, Error> {
        let r = self.plan(count)?;
        self.commit_reservation(&r);
        Ok(r)
    }

    /// Back to the post-init state (next 0, ring id 1, completion 0), as a queue reset
    /// (`q_sw_ctrl` RST_Q) does to the hardware pointers.
    #[inline]
    pub fn reset(&mut self) {
        self.cursor = Cursor {
            next: 0,
            ring_id: RingId::INITIAL,
        };
        *self.completed.get_mut() = 0;
    }
}

/// The slot `next` may advance up to when the completion index is `completed`: 16 slots
/// (one completion cache line) short of it, mod size.
#[inline]
const fn limit_of(completed: u32, mask: u32) -> u32 {
    completed.wrapping_sub(RING_RESERVE) & mask
}

/// The [`Error::AckTooMany`] of an acknowledgement of `count` (cold: the branch to it is
/// laid out of the way).
#[cold]
const fn ack_too_many(count: u32, outstanding: u32) -> Error {
    Error::AckTooMany { count, outstanding }
}

/// The [`Error::RingFull`] of a request for `needed` slots, from values: no reference to
/// the ring leaves the hot path, and the caller sees which error it is (an opaque call
/// here would keep a loop of copies from holding the rings' state in registers).
#[cold]
pub(crate) const fn ring_full(ring: Direction, needed: u32, available: u32) -> Error {
    Error::RingFull {
        ring,
        needed,
        available,
    }
}

/// A run of consecutive slots taken by [`Ring::reserve`]: the pre-reservation index and
/// ring id, and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reservation {
    start: u32,
    ring_id: RingId,
    count: u32,
    size: u32,
}

impl Reservation {
    /// Index of the first reserved slot (the ring's `next` before reserving).
    #[inline]
    pub const fn start(&self) -> u32 {
        self.start
    }

    /// Ring id of the first reserved slot.
    #[inline]
    pub const fn ring_id(&self) -> RingId {
        self.ring_id
    }

    /// Slots reserved.
    #[inline]
    pub const fn count(&self) -> u32 {
        self.count
    }

    /// Slots before the wrap (stamped with [`ring_id`](Self::ring_id)); the rest start at
    /// index 0 with the next ring id.
    #[inline]
    pub const fn first_run(&self) -> u32 {
        let room = self.size - self.start;
        if self.count < room { self.count } else { room }
    }

    /// The `i`-th reserved slot, or `None` past the end.
    #[inline]
    pub const fn slot(&self, i: u32) -> Option<Slot> {
        if i >= self.count {
            return None;
        }
        let first = self.first_run();
        Some(if i < first {
            Slot {
                index: self.start + i,
                ring_id: self.ring_id,
            }
        } else {
            Slot {
                index: i - first,
                ring_id: self.ring_id.next(),
            }
        })
    }

    /// The first reserved slot.
    #[inline]
    pub(crate) const fn start_slot(&self) -> Slot {
        Slot {
            index: self.start,
            ring_id: self.ring_id,
        }
    }

    /// Slots from `index` to the end of the ring (where the ring id changes).
    #[inline]
    pub(crate) fn room_before_wrap(&self, index: u32) -> usize {
        usize::try_from(self.size.saturating_sub(index)).unwrap_or(usize::MAX)
    }

    /// The slot `n` after `s` in this ring (`n` at most up to the wrap): index mod size,
    /// ring id advanced when it wraps to 0.
    #[inline]
    pub(crate) fn after(&self, s: Slot, n: usize) -> Slot {
        let n = u32::try_from(n).unwrap_or(self.size);
        let index = s.index.wrapping_add(n);
        if index >= self.size {
            Slot {
                index: index - self.size,
                ring_id: s.ring_id.next(),
            }
        } else {
            Slot {
                index,
                ring_id: s.ring_id,
            }
        }
    }

    /// Every reserved slot in order.
    #[inline]
    pub fn slots(&self) -> impl Iterator<Item = Slot> + '_ {
        (0..self.count).filter_map(|i| self.slot(i))
    }
}
