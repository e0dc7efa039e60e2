//! Bench-only: the C peers of `udma-desc`'s single copy pair, the yardsticks its criterion
//! benches run side by side with `RingPair::copy_prepare_one`.
//!
//! * [`CPeer`] (`c/peer.c`, issue 13): the single-pair work from the published bit layout
//!   only: check free room on both rings, build each descriptor in a local, copy it into its
//!   ring slot, advance with wrap and flip the 2-bit ring id, acknowledge once per lap. Its
//!   rings sit behind pointers, so every store may alias the ring state.
//! * [`BuildPeer`] (`c/c_peer_build.c`, issue 23): the project's shared pair-build peer,
//!   copied byte for byte, with its `main` loop as a library call (`c/build_run.c`): both
//!   rings' state in locals, sizes cycling `1..=65536`, one acknowledgement per lap of 4080.
//!
//! Both are built with `-O2` by `build.rs`. This crate wraps the calls.

use core::ffi::c_int;

#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Desc {
    w: [u32; 4],
}

#[repr(C)]
#[derive(Debug)]
struct Ring {
    slots: *mut Desc,
    size: u32,
    next: u32,
    rid: u32,
    completed: u32,
}

/// One copy request in the C peer's form.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Source bus address.
    pub src: u64,
    /// Destination bus address.
    pub dst: u64,
    /// Bytes, `1..=65536`.
    pub size: u32,
    /// Barrier type: 0 none, 1 DMB, 2 write barrier, 3 SOW.
    pub barrier: u32,
    /// Non-zero: destination interrupt.
    pub dst_int: u32,
}

/// `struct c_peer_build_state` of `c/build_run.h`.
#[repr(C)]
#[derive(Debug)]
struct BuildState {
    tx_base: *mut core::ffi::c_void,
    rx_base: *mut core::ffi::c_void,
    n: u32,
    next: u32,
    ring_id: u32,
    cdesc: u32,
    i: u64,
    since: u32,
}

unsafe extern "C" {
    fn c_peer_copy_prepare_one(tx: *mut Ring, rx: *mut Ring, req: *const Request) -> c_int;
    fn c_peer_lap(tx: *mut Ring, rx: *mut Ring, req: *const Request, n: u32) -> u32;
    fn c_peer_build_init(s: *mut BuildState, n: u32) -> c_int;
    fn c_peer_build_free(s: *mut BuildState);
    fn c_peer_build_run(s: *mut BuildState, pairs: u64) -> u64;
}

/// The shared peer (`c/c_peer_build.c`): two rings of `n` descriptors owned by C, driven by
/// the peer's own loop.
#[derive(Debug)]
pub struct BuildPeer {
    state: BuildState,
}

impl BuildPeer {
    /// Two rings of `n` descriptors (a power of two of at least 32), as the peer's `main`
    /// allocates them.
    pub fn new(n: u32) -> Option<Self> {
        if n < 32 || !n.is_power_of_two() {
            return None;
        }
        let mut state = BuildState {
            tx_base: core::ptr::null_mut(),
            rx_base: core::ptr::null_mut(),
            n: 0,
            next: 0,
            ring_id: 0,
            cdesc: 0,
            i: 0,
            since: 0,
        };
        // SAFETY: `state` is a valid, exclusively borrowed `c_peer_build_state`; init writes
        // it whole and allocates the rings, which `Drop` frees.
        (unsafe { c_peer_build_init(&mut state, n) } == 0).then_some(Self { state })
    }

    /// The next `pairs` pairs of the peer's loop (pair `i` copies `1 + (i & 0xffff)` bytes
    /// from `2^32 + 64 i` to `2^33 + 64 i`). Returns the peer's read-back checksum, or `None`
    /// if the peer refused a pair.
    pub fn run(&mut self, pairs: u64) -> Option<u64> {
        // SAFETY: the state was set up by `c_peer_build_init`; the loop writes only slots
        // `next & mask` of the rings it allocated.
        let acc = unsafe { c_peer_build_run(&mut self.state, pairs) };
        (acc != u64::MAX).then_some(acc)
    }

    /// Pairs built so far.
    pub fn pairs(&self) -> u64 {
        self.state.i
    }

    /// The TX slot `i` as four words, `None` past the ring.
    pub fn tx_words(&self, i: u32) -> Option<[u32; 4]> {
        self.words(self.state.tx_base, i)
    }

    /// The RX slot `i` as four words, `None` past the ring.
    pub fn rx_words(&self, i: u32) -> Option<[u32; 4]> {
        self.words(self.state.rx_base, i)
    }

    fn words(&self, base: *mut core::ffi::c_void, i: u32) -> Option<[u32; 4]> {
        if i >= self.state.n {
            return None;
        }
        let at = usize::try_from(i).ok()?;
        // SAFETY: `base` points at `n` descriptors of 16 bytes (aligned 256) allocated by
        // init, alive until `Drop`; slot `i < n` is in range.
        Some(unsafe { *base.cast::<Desc>().add(at) }.w)
    }
}

impl Drop for BuildPeer {
    fn drop(&mut self) {
        // SAFETY: frees the two rings init allocated, once (it nulls them).
        unsafe { c_peer_build_free(&mut self.state) }
    }
}

/// A TX/RX ring pair in plain memory, driven by the C peer.
#[derive(Debug)]
pub struct CPeer {
    tx_mem: Vec<Desc>,
    rx_mem: Vec<Desc>,
    tx: Ring,
    rx: Ring,
}

/// Why the C peer refused a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Size outside `1..=65536` or barrier above 3 (C returns -1).
    BadRequest,
    /// No free slot on a ring (C returns -12, -ENOMEM).
    NoRoom,
}

impl CPeer {
    /// Two rings of `size` descriptors (a power of two of at least 32), ring id 1.
    pub fn new(size: u32) -> Option<Self> {
        if size < 32 || !size.is_power_of_two() {
            return None;
        }
        let n = usize::try_from(size).ok()?;
        let mut tx_mem = vec![Desc::default(); n];
        let mut rx_mem = vec![Desc::default(); n];
        let ring = |mem: &mut Vec<Desc>| Ring {
            slots: mem.as_mut_ptr(),
            size,
            next: 0,
            rid: 1,
            completed: 0,
        };
        let tx = ring(&mut tx_mem);
        let rx = ring(&mut rx_mem);
        Some(Self {
            tx_mem,
            rx_mem,
            tx,
            rx,
        })
    }

    /// One pair through `c_peer_copy_prepare_one`.
    pub fn copy_prepare_one(&mut self, req: &Request) -> Result<(), Refused> {
        // SAFETY: both rings point at this struct's own vectors of `size` descriptors, which
        // live as long as `self` and are never reallocated; the C code writes only
        // `slots[next]` with `next < size`.
        match unsafe { c_peer_copy_prepare_one(&mut self.tx, &mut self.rx, req) } {
            0 => Ok(()),
            -12 => Err(Refused::NoRoom),
            _ => Err(Refused::BadRequest),
        }
    }

    /// `n` pairs (sizes `1 + (i & 0xfff)`) and one ack of `n`, the loop in C. Returns the
    /// number of refused pairs.
    pub fn lap(&mut self, req: &Request, n: u32) -> u32 {
        // SAFETY: as in `copy_prepare_one`.
        unsafe { c_peer_lap(&mut self.tx, &mut self.rx, req, n) }
    }

    /// The TX slot `i` as four words.
    pub fn tx_words(&self, i: usize) -> Option<[u32; 4]> {
        self.tx_mem.get(i).map(|d| d.w)
    }

    /// The RX slot `i` as four words.
    pub fn rx_words(&self, i: usize) -> Option<[u32; 4]> {
        self.rx_mem.get(i).map(|d| d.w)
    }

    /// Next TX slot and its ring id.
    pub fn tx_cursor(&self) -> (u32, u32) {
        (self.tx.next, self.tx.rid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared peer builds pair 0 (1 byte, ring pass 1) as the published layout has it:
    /// TX FIRST | LAST | ring id 1 | len 1, meta 0x01080003, source 2^32; RX ring id 1 | len 1.
    /// Pair 4095 wraps both rings, so pair 4096 carries ring id 2.
    #[test]
    fn shared_peer_writes_the_layout_and_flips_the_ring_id() {
        let mut p = BuildPeer::new(4096).unwrap();
        assert!(p.run(1).is_some());
        assert_eq!(p.tx_words(0), Some([0x0d00_0001, 0x0108_0003, 0, 1]));
        assert_eq!(p.rx_words(0), Some([0x0100_0001, 0, 0, 2]));
        assert!(p.run(4096).is_some());
        assert_eq!(p.pairs(), 4097);
        // Pair 4096: 4097 bytes at 2^32 + 4096 * 64, in slot 0 on ring pass 2.
        assert_eq!(p.tx_words(0), Some([0x0e00_1001, 0x0108_0003, 0x4_0000, 1]));
        assert_eq!(p.tx_words(4096), None);
    }

    /// The peer writes the bytes of the reference vectors' 64 KiB DMB copy (ring pass 1),
    /// the same bytes udma-desc's doc example pins: TX 00 00 00 4d 03 00 08 01.
    #[test]
    fn peer_writes_the_reference_copy_pair() {
        let mut p = CPeer::new(64).unwrap();
        let req = Request {
            src: 0x1000,
            dst: 0x2000,
            size: 65_536,
            barrier: 1,
            dst_int: 0,
        };
        p.copy_prepare_one(&req).unwrap();
        assert_eq!(p.tx_words(0), Some([0x4d00_0000, 0x0108_0003, 0x1000, 0]));
        assert_eq!(p.rx_words(0), Some([0x0100_0000, 0, 0x2000, 0]));
        assert_eq!(
            p.copy_prepare_one(&Request { size: 0, ..req }),
            Err(Refused::BadRequest)
        );
        assert_eq!(p.tx_cursor(), (1, 1));
        // 64 slots less the 16-slot reserve: 48 pairs fit, the 49th finds no room.
        for _ in 1..48 {
            p.copy_prepare_one(&req).unwrap();
        }
        assert_eq!(p.copy_prepare_one(&req), Err(Refused::NoRoom));
    }
}
