//! First-fit allocator of aligned ranges inside one memory region.
//!
//! The emulated kernel's `MEM_ALLOC` hands out device (HBM) and host DMA buffers; this is the
//! bookkeeping behind it. It works on offsets relative to the region start and never touches
//! the region's bytes.

use std::collections::BTreeMap;

/// Free and used ranges of one region, as `offset -> size` maps.
#[derive(Clone, Debug)]
pub(crate) struct RangeAllocator {
    free: BTreeMap<u64, u64>,
    used: BTreeMap<u64, u64>,
}

/// Why an allocator call failed (the caller adds the region id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RangeError {
    NoFit,
    NotAllocated,
}

impl RangeAllocator {
    /// An allocator over `[0, size)`, all free.
    pub(crate) fn new(size: u64) -> Self {
        let mut free = BTreeMap::new();
        if size > 0 {
            free.insert(0, size);
        }
        Self {
            free,
            used: BTreeMap::new(),
        }
    }

    /// Takes the lowest free range that holds `size` bytes at an `align`-aligned offset.
    /// `align` must be a power of two and `size` non-zero (checked by the caller).
    pub(crate) fn alloc(&mut self, size: u64, align: u64) -> Result<u64, RangeError> {
        let mask = align.wrapping_sub(1);
        let found = self.free.iter().find_map(|(&start, &len)| {
            let aligned = start.checked_add(mask)? & !mask;
            let pad = aligned - start;
            let end = aligned.checked_add(size)?;
            (end <= start.checked_add(len)?).then_some((start, len, aligned, pad))
        });
        let (start, len, aligned, pad) = found.ok_or(RangeError::NoFit)?;
        self.free.remove(&start);
        if pad > 0 {
            self.free.insert(start, pad);
        }
        let tail = len - pad - size;
        if tail > 0 {
            self.free.insert(aligned + size, tail);
        }
        self.used.insert(aligned, size);
        Ok(aligned)
    }

    /// Returns the allocation that starts at `offset`, merging it with free neighbours.
    pub(crate) fn free(&mut self, offset: u64) -> Result<u64, RangeError> {
        let size = self.used.remove(&offset).ok_or(RangeError::NotAllocated)?;
        let mut start = offset;
        let mut len = size;
        if let Some((&prev, &prev_len)) = self.free.range(..offset).next_back() {
            if prev + prev_len == offset {
                self.free.remove(&prev);
                start = prev;
                len += prev_len;
            }
        }
        let end = offset + size;
        if let Some(next_len) = self.free.remove(&end) {
            len += next_len;
        }
        self.free.insert(start, len);
        Ok(size)
    }

    /// Bytes in live allocations.
    pub(crate) fn used_bytes(&self) -> u64 {
        self.used.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_splits_and_merges() {
        let mut a = RangeAllocator::new(0x10000);
        assert_eq!(a.alloc(0x10, 1), Ok(0));
        assert_eq!(a.alloc(0x100, 0x1000), Ok(0x1000));
        assert_eq!(
            a.alloc(0x20, 0x10),
            Ok(0x10),
            "the gap before 0x1000 is reused"
        );
        assert_eq!(a.used_bytes(), 0x130);
        assert_eq!(a.free(0x1000), Ok(0x100));
        assert_eq!(a.free(0x1000), Err(RangeError::NotAllocated));
        assert_eq!(a.free(0), Ok(0x10));
        assert_eq!(a.free(0x10), Ok(0x20));
        assert_eq!(a.free.len(), 1, "everything merged back into one range");
        assert_eq!(a.alloc(0x10000, 0x10000), Ok(0));
        assert_eq!(a.alloc(1, 1), Err(RangeError::NoFit));
    }

    #[test]
    fn huge_requests_do_not_overflow() {
        let mut a = RangeAllocator::new(0x1000);
        assert_eq!(a.alloc(u64::MAX, 1), Err(RangeError::NoFit));
        assert_eq!(a.alloc(1, 1 << 63), Ok(0));
        assert_eq!(a.alloc(1, 1 << 63), Err(RangeError::NoFit));
    }
}
