//! The calling processes' memory: a small byte array per process, at the same user address
//! in each (as two real processes may use the same addresses), reached by the emulated
//! kernel only through [`UserMemory`].
//!
//! Anything outside the array is EFAULT, as `copy_from_user` answers for an unmapped
//! address; a copy of zero bytes succeeds wherever it points, as it does in the kernel.

use std::cell::RefCell;
use std::ops::Range;

use ndl_emu::UserMemory;
use ndl_std::Errno;

/// Where every process's memory starts (a plausible low user address, so small numbers in
/// the fuzzer's input point into it).
pub const USER_BASE: u64 = 0x1_0000;
/// Bytes of memory per process: enough for any argument struct and the small buffers of the
/// recorded flows, small enough that a count the kernel trusts runs off its end at once.
pub const USER_BYTES: usize = 64 << 10;

/// One process's memory.
#[derive(Debug)]
pub struct ByteMemory {
    bytes: RefCell<Vec<u8>>,
}

impl Default for ByteMemory {
    fn default() -> Self {
        Self {
            bytes: RefCell::new(vec![0; USER_BYTES]),
        }
    }
}

impl ByteMemory {
    /// The array indices of `[addr, addr + len)`, or EFAULT outside the array.
    fn range(addr: u64, len: usize) -> Result<Range<usize>, Errno> {
        let start = addr
            .checked_sub(USER_BASE)
            .and_then(|o| usize::try_from(o).ok())
            .ok_or(Errno::FAULT)?;
        let end = start.checked_add(len).ok_or(Errno::FAULT)?;
        if end > USER_BYTES {
            return Err(Errno::FAULT);
        }
        Ok(start..end)
    }

    /// Writes `src` at array offset `offset`, clipped at the end of the array (the
    /// program's own stores, which never fault).
    pub fn poke(&self, offset: usize, src: &[u8]) {
        let mut bytes = self.bytes.borrow_mut();
        let tail = bytes.get_mut(offset..).unwrap_or_default();
        let n = src.len().min(tail.len());
        tail[..n].copy_from_slice(&src[..n]);
    }

    /// `len` bytes at array offset `offset`, clipped at the end of the array.
    pub fn peek(&self, offset: usize, len: usize) -> Vec<u8> {
        let bytes = self.bytes.borrow();
        let tail = bytes.get(offset..).unwrap_or_default();
        tail[..len.min(tail.len())].to_vec()
    }

    /// The little-endian `u64` at array offset `offset` (zero bytes past the end).
    pub fn load_u64(&self, offset: usize) -> u64 {
        let mut word = [0u8; 8];
        let got = self.peek(offset, 8);
        word[..got.len()].copy_from_slice(&got);
        u64::from_le_bytes(word)
    }
}

impl UserMemory for ByteMemory {
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
        if dst.is_empty() {
            return Ok(());
        }
        let r = Self::range(addr, dst.len())?;
        dst.copy_from_slice(&self.bytes.borrow()[r]);
        Ok(())
    }

    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno> {
        if src.is_empty() {
            return Ok(());
        }
        let r = Self::range(addr, src.len())?;
        self.bytes.borrow_mut()[r].copy_from_slice(src);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_is_copied_and_outside_is_efault() {
        let m = ByteMemory::default();
        m.write(USER_BASE + 8, b"abcd").unwrap();
        let mut out = [0u8; 4];
        m.read(USER_BASE + 8, &mut out).unwrap();
        assert_eq!(&out, b"abcd");
        // Below, straddling the end, and wrapping the address space.
        assert_eq!(m.read(USER_BASE - 1, &mut out), Err(Errno::FAULT));
        let last = USER_BASE + USER_BYTES as u64 - 2;
        assert_eq!(m.read(last, &mut out), Err(Errno::FAULT));
        assert_eq!(m.write(u64::MAX - 1, b"ab"), Err(Errno::FAULT));
        // Zero bytes anywhere, as copy_from_user of length 0.
        assert_eq!(m.read(0, &mut []), Ok(()));
    }

    #[test]
    fn the_programs_own_stores_clip_at_the_end() {
        let m = ByteMemory::default();
        m.poke(USER_BYTES - 2, b"xyz");
        assert_eq!(m.peek(USER_BYTES - 2, 8), b"xy");
        assert_eq!(m.load_u64(USER_BYTES), 0);
        m.poke(16, &7u64.to_le_bytes());
        assert_eq!(m.load_u64(16), 7);
    }
}
