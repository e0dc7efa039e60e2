//! Bench-only: the C peer of `udma-desc`'s single copy pair, as the yardstick its criterion
//! benches run side by side with `RingPair::copy_prepare_one` (issue 13, goal 1).
//!
//! The C code (`c/peer.c`, built with `-O2` by `build.rs`) does the single-pair work from the
//! published bit layout only: check free room on both rings, build each descriptor in a
//! local, copy it into its ring slot, advance with wrap and flip the 2-bit ring id,
//! acknowledge once per lap. This crate owns the rings' memory and wraps the calls.

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

unsafe extern "C" {
    fn c_peer_copy_prepare_one(tx: *mut Ring, rx: *mut Ring, req: *const Request) -> c_int;
    fn c_peer_lap(tx: *mut Ring, rx: *mut Ring, req: *const Request, n: u32) -> u32;
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
