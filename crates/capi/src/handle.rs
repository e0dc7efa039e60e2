//! Handles: what a C pointer to an opaque type really is.
//!
//! A handle is not an address. It encodes a slot of a fixed process-wide table, the slot's
//! generation when the handle was made, and (for a queue handle) a queue and direction. The
//! object lives on the heap; the table holds its pointer. A call *acquires* the slot with one
//! compare-and-swap that checks, at once, that the slot is live, of the expected kind, of the
//! handle's generation and not in use by another call; it releases it with one store. So:
//!
//! * a call after destroy finds another generation and fails with `-EBADF` (nothing is
//!   read from freed memory: the object is reached only through an acquired slot);
//! * two threads on one handle at once: the second gets `-EBUSY` instead of aliasing the
//!   first's `&mut`;
//! * a handle of another kind or generation (a V2 engine given to a `_v3` function, a
//!   mapping given as a device) gets `-EINVAL`; NULL gets `-EINVAL`.
//!
//! ```text
//! handle bits: 63..49 0 | 48 1 (ours) | 47..16 generation | 15 queue | 14 rx | 13..10 qid | 9..0 slot
//! slot word:   47..40 kind | 33 busy | 32 live | 31..0 generation
//! ```

use core::fmt;
use core::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

/// Slots in the table: engines, devices and mappings together.
pub(crate) const SLOTS: usize = 1024;

const INDEX_BITS: u32 = 10;
const _: () = assert!(1 << INDEX_BITS == SLOTS);
const QID_SHIFT: u32 = 10;
const RX_BIT: u64 = 1 << 14;
const QUEUE_BIT: u64 = 1 << 15;
const GEN_SHIFT: u32 = 16;
const OURS: u64 = 1 << 48;

const LIVE: u64 = 1 << 32;
const BUSY: u64 = 1 << 33;
const KIND_SHIFT: u32 = 40;
const GEN_MASK: u64 = 0xFFFF_FFFF;

const _: () = assert!(
    usize::BITS == 64,
    "handles are 64-bit values: the C ABI needs a 64-bit target"
);

/// What a slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// An engine of generation V2.
    EngineV2 = 2,
    /// An engine of generation V3.
    EngineV3 = 3,
    /// An engine of generation V4.
    EngineV4 = 4,
    /// An open device.
    Device = 8,
    /// A mapping.
    Mapping = 9,
    /// An open device of the emulated kernel.
    #[cfg(feature = "emulator")]
    EmulatedDevice = 10,
    /// A mapping of the emulated kernel.
    #[cfg(feature = "emulator")]
    EmulatedMapping = 11,
}

impl Kind {
    /// The engine kind of generation `g`. The match names every generation and has no
    /// catch-all: a generation added to `khal::Generation` fails to compile here until it
    /// gets its own kind, instead of sharing another generation's slots.
    pub(crate) const fn engine(g: khal::Generation) -> Kind {
        match g {
            khal::Generation::V2 => Kind::EngineV2,
            khal::Generation::V3 => Kind::EngineV3,
            khal::Generation::V4 => Kind::EngineV4,
        }
    }

    fn name(raw: u64) -> &'static str {
        match raw {
            2 => "a V2 engine",
            3 => "a V3 engine",
            4 => "a V4 engine",
            8 => "a device",
            9 => "a mapping",
            10 => "a device of the emulated kernel",
            11 => "a mapping of the emulated kernel",
            _ => "nothing",
        }
    }
}

/// Why a handle was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HandleError {
    /// NULL.
    Null(&'static str),
    /// Not a value this library hands out.
    Foreign(usize),
    /// Destroyed (or never made).
    Stale(usize),
    /// Of another kind than the function takes.
    WrongKind {
        /// The handle.
        handle: usize,
        /// What it is.
        found: &'static str,
        /// What the function takes.
        expected: &'static str,
    },
    /// A queue handle where an engine handle is wanted, or the reverse.
    WrongShape(usize),
    /// In use by another call right now.
    Busy(usize),
    /// The table is full.
    Full,
}

impl HandleError {
    pub(crate) fn errno(&self) -> i32 {
        match self {
            HandleError::Null(_) | HandleError::WrongKind { .. } | HandleError::WrongShape(_) => {
                -libc::EINVAL
            }
            HandleError::Foreign(_) | HandleError::Stale(_) => -libc::EBADF,
            HandleError::Busy(_) => -libc::EBUSY,
            HandleError::Full => -libc::ENOMEM,
        }
    }
}

impl fmt::Display for HandleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HandleError::Null(what) => write!(f, "{what} is NULL"),
            HandleError::Foreign(h) => write!(f, "handle {h:#x} was not made by this library"),
            HandleError::Stale(h) => write!(f, "handle {h:#x} was destroyed"),
            HandleError::WrongKind {
                handle,
                found,
                expected,
            } => write!(f, "handle {handle:#x} is {found}, not {expected}"),
            HandleError::WrongShape(h) => write!(
                f,
                "handle {h:#x} is the wrong shape (a queue handle where an engine handle is \
                 wanted, or the reverse)"
            ),
            HandleError::Busy(h) => write!(f, "handle {h:#x} is in use by another thread"),
            HandleError::Full => write!(f, "no free handle (at most {SLOTS} at once)"),
        }
    }
}

struct Slot {
    word: AtomicU64,
    object: AtomicPtr<()>,
}

#[allow(
    clippy::declare_interior_mutable_const,
    reason = "the array initialiser"
)]
const EMPTY: Slot = Slot {
    word: AtomicU64::new(0),
    object: AtomicPtr::new(core::ptr::null_mut()),
};

static TABLE: [Slot; SLOTS] = [EMPTY; SLOTS];

/// A decoded handle value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    index: usize,
    generation: u64,
    /// `Some((qid, rx))` for a queue handle.
    pub(crate) queue: Option<(u8, bool)>,
}

impl Token {
    /// Decodes a handle value (the address of a C pointer).
    pub(crate) fn decode(raw: usize, what: &'static str) -> Result<Token, HandleError> {
        if raw == 0 {
            return Err(HandleError::Null(what));
        }
        let v = raw as u64;
        if v >> 48 != 1 {
            return Err(HandleError::Foreign(raw));
        }
        let queue = (v & QUEUE_BIT != 0).then(|| {
            // Four bits: the mask makes the narrowing exact.
            let qid = ((v >> QID_SHIFT) & 0xF) as u8;
            (qid, v & RX_BIT != 0)
        });
        Ok(Token {
            index: (v & ((1 << INDEX_BITS) - 1)) as usize,
            generation: (v >> GEN_SHIFT) & GEN_MASK,
            queue,
        })
    }

    /// The handle value of queue `qid`, direction `rx`, of this (engine) token.
    pub(crate) fn queue_handle(&self, qid: u8, rx: bool) -> usize {
        let base = OURS | (self.generation << GEN_SHIFT) | self.index as u64;
        let v =
            base | QUEUE_BIT | (u64::from(qid & 0xF) << QID_SHIFT) | if rx { RX_BIT } else { 0 };
        v as usize
    }
}

/// An acquired slot: the object, exclusively, until dropped.
pub(crate) struct Acquired<T> {
    slot: &'static Slot,
    idle: u64,
    object: *mut T,
    pub(crate) token: Token,
}

impl<T> Acquired<T> {
    /// The object.
    #[inline]
    pub(crate) fn get(&mut self) -> &mut T {
        // SAFETY: the slot is live and busy for this value alone (the CAS in `acquire`),
        // so the object it points to exists and nobody else holds a reference to it; it was
        // stored as a `Box<T>` of this very `T`, which the kind check ties to the caller.
        unsafe { &mut *self.object }
    }
}

impl<T> Drop for Acquired<T> {
    #[inline]
    fn drop(&mut self) {
        self.slot.word.store(self.idle, Ordering::Release);
    }
}

/// Acquires the slot of `raw` holding a `T` of `kind`. `queue` says whether a queue handle
/// (`true`) or an object handle (`false`) is expected.
#[inline]
pub(crate) fn acquire<T>(
    raw: usize,
    what: &'static str,
    kind: Kind,
    queue: bool,
) -> Result<Acquired<T>, HandleError> {
    let token = Token::decode(raw, what)?;
    if token.queue.is_some() != queue {
        return Err(HandleError::WrongShape(raw));
    }
    let slot = TABLE.get(token.index).ok_or(HandleError::Foreign(raw))?;
    let idle = token.generation | LIVE | ((kind as u64) << KIND_SHIFT);
    match slot
        .word
        .compare_exchange(idle, idle | BUSY, Ordering::Acquire, Ordering::Relaxed)
    {
        Ok(_) => Ok(Acquired {
            slot,
            idle,
            object: slot.object.load(Ordering::Relaxed).cast(),
            token,
        }),
        Err(seen) => Err(refusal(raw, seen, &token, kind)),
    }
}

#[cold]
fn refusal(raw: usize, seen: u64, token: &Token, kind: Kind) -> HandleError {
    if seen & LIVE == 0 || seen & GEN_MASK != token.generation {
        HandleError::Stale(raw)
    } else if (seen >> KIND_SHIFT) & 0xFF != kind as u64 {
        HandleError::WrongKind {
            handle: raw,
            found: Kind::name((seen >> KIND_SHIFT) & 0xFF),
            expected: Kind::name(kind as u64),
        }
    } else {
        HandleError::Busy(raw)
    }
}

/// Stores `object` in a free slot as `kind`; returns its handle value.
pub(crate) fn insert<T>(object: Box<T>, kind: Kind) -> Result<usize, HandleError> {
    for (index, slot) in TABLE.iter().enumerate() {
        let word = slot.word.load(Ordering::Relaxed);
        if word & (LIVE | BUSY) != 0 {
            continue;
        }
        // Generations start at 1 and move on at every destroy.
        let generation = ((word & GEN_MASK) + 1) & GEN_MASK;
        let generation = if generation == 0 { 1 } else { generation };
        let claimed = generation | BUSY;
        if slot
            .word
            .compare_exchange(word, claimed, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            continue;
        }
        slot.object
            .store(Box::into_raw(object).cast(), Ordering::Relaxed);
        let idle = generation | LIVE | ((kind as u64) << KIND_SHIFT);
        slot.word.store(idle, Ordering::Release);
        let raw = OURS | (generation << GEN_SHIFT) | index as u64;
        return Ok(raw as usize);
    }
    Err(HandleError::Full)
}

/// Takes the object out of the slot of `raw` (which must be an object handle of `kind`)
/// and frees the slot: every handle of it, queue handles included, is stale from now on.
pub(crate) fn remove<T>(raw: usize, what: &'static str, kind: Kind) -> Result<Box<T>, HandleError> {
    let acquired = acquire::<T>(raw, what, kind, false)?;
    let slot = acquired.slot;
    let object = slot.object.swap(core::ptr::null_mut(), Ordering::Relaxed);
    // Not live, not busy, same generation: the next insert moves the generation on.
    let free = acquired.idle & GEN_MASK;
    core::mem::forget(acquired);
    slot.word.store(free, Ordering::Release);
    // SAFETY: `object` came from `Box::into_raw` of a `Box<T>` (the kind ties the type) in
    // `insert`, and the slot no longer points to it, so this is the only owner.
    Ok(unsafe { Box::from_raw(object.cast::<T>()) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal::Generation;

    /// Each generation has its own engine kind, whose value is the generation's number (the
    /// driver's arch enum, `khal::Generation`), so a handle of one generation is refused by
    /// another generation's functions.
    #[test]
    fn every_generation_has_its_own_engine_kind() {
        let kinds = Generation::ALL.map(Kind::engine);
        assert_eq!(kinds, [Kind::EngineV2, Kind::EngineV3, Kind::EngineV4]);
        for (g, k) in Generation::ALL.into_iter().zip(kinds) {
            assert_eq!(k as u8, g.number(), "{g:?}");
            assert_eq!(
                Kind::name(k as u64),
                ["a V2 engine", "a V3 engine", "a V4 engine"][usize::from(g.number() - 2)]
            );
        }
    }

    /// A V2 engine handle given where a V4 one is expected is refused as the wrong kind (no
    /// generation falls back to another's slots).
    #[test]
    fn an_engine_of_one_generation_is_refused_as_another() {
        let raw = insert(Box::new(7u32), Kind::engine(Generation::V2)).unwrap();
        for other in [Generation::V3, Generation::V4] {
            let e = acquire::<u32>(raw, "udma", Kind::engine(other), false)
                .err()
                .unwrap();
            assert_eq!(
                e,
                HandleError::WrongKind {
                    handle: raw,
                    found: "a V2 engine",
                    expected: Kind::name(Kind::engine(other) as u64),
                }
            );
            assert_eq!(e.errno(), -libc::EINVAL);
        }
        assert_eq!(
            *remove::<u32>(raw, "udma", Kind::engine(Generation::V2)).unwrap(),
            7
        );
    }
}
