//! The memory the engines reach with 64-bit DMA addresses: device HBM and host DRAM regions.
//!
//! Each region owns a zero-initialised byte buffer (an anonymous mapping, so the host OS commits
//! pages only when they are touched: a large nominal region costs nothing until used). All
//! accesses are bounds-checked: a range must lie inside one region, otherwise the access is a
//! [`BusError`] and no byte is read or written. The engine's data path copies whole slices
//! between region buffers (`copy_from_slice` / `copy_within`), never byte by byte.
//!
//! Each region also keeps a write high-water mark: every byte at or above it has never been
//! written since mapping and is still zero. [`AddressSpace::alloc_zeroed`] zeroes only the part
//! of a new allocation below the mark, so handing out fresh memory costs nothing (no memset, no
//! page faults) while re-used memory still reads as zeros.

use std::collections::BTreeMap;

use crate::allocator::RangeAllocator;
use crate::error::{AllocError, BusError, MapError};
use crate::page_aligned::PageAligned;

/// ENOMEM (asm-generic/errno-base.h).
const ENOMEM: i32 = 12;

/// What kind of memory a region models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionKind {
    /// Device memory (an HBM channel), at the device address of that channel.
    Device {
        /// HBM channel (stack) number.
        channel: u8,
    },
    /// Host DRAM as the device sees it: host physical addresses with the arch's PCIe host base
    /// OR-ed in.
    Host,
}

/// A region to map: name, kind, first DMA address and size in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionSpec {
    /// Name for messages and dumps (`"hbm0"`, `"host"`).
    pub name: String,
    /// What the region models.
    pub kind: RegionKind,
    /// First DMA address of the region.
    pub base: u64,
    /// Size in bytes.
    pub size: u64,
}

impl RegionSpec {
    /// A region spec.
    pub fn new(name: impl Into<String>, kind: RegionKind, base: u64, size: u64) -> Self {
        Self {
            name: name.into(),
            kind,
            base,
            size,
        }
    }
}

/// Handle of a mapped region (its index in mapping order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionId(usize);

impl RegionId {
    /// Position of the region in mapping order.
    pub const fn index(self) -> usize {
        self.0
    }
}

/// The offset of `[addr, addr + len)` in a region of `size` bytes at DMA address `base`, when
/// the range lies wholly inside: the one containment rule of the address space (one wrapping
/// subtraction and two compares, no overflow for any input).
#[inline(always)]
pub(crate) fn offset_within(base: u64, size: u64, addr: u64, len: u64) -> Option<usize> {
    let off = addr.wrapping_sub(base);
    if off <= size && len <= size - off {
        usize::try_from(off).ok()
    } else {
        None
    }
}

/// One mapped region.
pub struct Region {
    name: String,
    kind: RegionKind,
    base: u64,
    /// Backing bytes, page-aligned in host memory like the DMA addresses they back.
    bytes: PageAligned,
    /// Offset of the first byte never written since mapping: `bytes[written_end..]` are zero.
    /// Raised by every mutable access (it over-approximates: a `slice_mut` counts as written).
    written_end: usize,
    alloc: RangeAllocator,
    /// Live allocations: DMA address -> offset of the allocator block that holds it.
    live: BTreeMap<u64, u64>,
}

impl core::fmt::Debug for Region {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Region")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("base", &format_args!("{:#x}", self.base))
            .field("size", &format_args!("{:#x}", self.bytes.len()))
            .finish()
    }
}

impl Region {
    /// Name given at mapping time.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// What the region models.
    pub fn kind(&self) -> RegionKind {
        self.kind
    }
    /// First DMA address.
    pub fn base(&self) -> u64 {
        self.base
    }
    /// Size in bytes.
    pub fn size(&self) -> u64 {
        // usize -> u64 never loses bits on the 32- and 64-bit hosts Rust supports.
        self.bytes.len() as u64
    }
    /// One past the last DMA address.
    pub fn end(&self) -> u64 {
        self.base + self.size()
    }
    /// Bytes currently handed out by [`AddressSpace::alloc`].
    pub fn allocated_bytes(&self) -> u64 {
        self.alloc.used_bytes()
    }
    /// Bytes from the region's start up to its write high-water mark: every byte above it
    /// is still the untouched zero the host OS has not committed, so this bounds what the
    /// region holds in memory.
    pub fn written_bytes(&self) -> u64 {
        self.written_end as u64
    }
    /// All of the region's bytes, for a run of reads.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// All of the region's bytes for a run of writes, with the write high-water mark the
    /// run must raise over what it writes.
    pub(crate) fn bytes_for_writes(&mut self) -> (&mut [u8], &mut usize) {
        (&mut self.bytes, &mut self.written_end)
    }
    /// Offset of `[addr, addr + len)` inside this region, if it lies wholly inside.
    #[inline]
    fn offset_of(&self, addr: u64, len: u64) -> Option<usize> {
        offset_within(self.base, self.size(), addr, len)
    }
    /// The bytes at `off..off + len`, mutably, with the write high-water mark raised over them.
    fn bytes_mut(&mut self, off: usize, len: usize) -> Option<&mut [u8]> {
        let end = off.checked_add(len)?;
        let bytes = self.bytes.get_mut(off..end)?;
        self.written_end = self.written_end.max(end);
        Some(bytes)
    }
}

/// A range of one region, resolved from a DMA address: region index, offset, length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    region: usize,
    off: usize,
    pub(crate) len: usize,
}

impl Span {
    /// The region the span lies in.
    pub(crate) const fn region(self) -> usize {
        self.region
    }

    /// The `len` bytes that start `skip` bytes into this span (callers stay inside it).
    pub(crate) fn sub(self, skip: usize, len: usize) -> Self {
        Self {
            region: self.region,
            off: self.off + skip,
            len,
        }
    }
}

/// The regions of an address space borrowed for a run of copies into one region: that
/// region mutably, every other one shared, for the whole run (so a run checks each range
/// against its region's bounds and copies, without looking regions up per packet).
pub(crate) struct CopyLanes<'a> {
    before: &'a [Region],
    dst: &'a mut Region,
    after: &'a [Region],
    dst_index: usize,
}

impl<'a> CopyLanes<'a> {
    /// The bytes of a span in a region other than the destination region.
    pub(crate) fn shared(&self, s: Span) -> Option<&'a [u8]> {
        self.region(s.region)?
            .bytes
            .get(s.off..s.off.checked_add(s.len)?)
    }

    /// A region other than the destination region.
    pub(crate) fn region(&self, index: usize) -> Option<&'a Region> {
        match index.checked_sub(self.dst_index) {
            None => self.before.get(index),
            Some(0) => None,
            Some(n) => self.after.get(n - 1),
        }
    }

    /// The destination region.
    pub(crate) fn dst(&mut self) -> &mut Region {
        self.dst
    }
}

/// The set of memory regions a device's engines can reach.
///
/// ```
/// use neuron_emu::{AddressSpace, RegionKind, RegionSpec};
///
/// let mut mem = AddressSpace::new();
/// let host = mem.map(RegionSpec::new("host", RegionKind::Host, 0x1000_0000_0000, 1 << 20))?;
/// let buf = mem.alloc(host, 4096, 4096)?;
/// mem.write(buf, b"hello")?;
/// assert_eq!(mem.read_vec(buf, 5)?, b"hello");
/// // One byte past the region is a bus error, and nothing is written.
/// assert!(mem.write(0x1000_0000_0000 + (1 << 20) - 2, b"abc").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct AddressSpace {
    regions: Vec<Region>,
    /// `(base, size)` of each region, in the same order: the lookup the data path scans
    /// four times per packet, kept contiguous (a `Region` spans several cache lines).
    bounds: Vec<(u64, u64)>,
}

impl AddressSpace {
    /// An empty address space (every access is a bus error).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a zero-filled region. Regions may not overlap.
    pub fn map(&mut self, spec: RegionSpec) -> Result<RegionId, MapError> {
        let RegionSpec {
            name,
            kind,
            base,
            size,
        } = spec;
        if size == 0 {
            return Err(MapError::Empty { name });
        }
        let (Some(end), Ok(len)) = (base.checked_add(size), usize::try_from(size)) else {
            return Err(MapError::Overflow { name, base, size });
        };
        if let Some(other) = self.regions.iter().find(|r| base < r.end() && r.base < end) {
            return Err(MapError::Overlap {
                name,
                base,
                size,
                other: other.name.clone(),
            });
        }
        let bytes = match PageAligned::zeroed(len) {
            Ok(bytes) => bytes,
            // An error without an errno is none the mapping can give; say ENOMEM.
            Err(e) => {
                let errno = e.raw_os_error().unwrap_or(ENOMEM);
                return Err(MapError::NoMemory { name, size, errno });
            }
        };
        self.bounds.push((base, size));
        self.regions.push(Region {
            name,
            kind,
            base,
            bytes,
            written_end: 0,
            alloc: RangeAllocator::new(size),
            live: BTreeMap::new(),
        });
        Ok(RegionId(self.regions.len() - 1))
    }

    /// Every mapped region, in mapping order.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The region with this id.
    pub fn region(&self, id: RegionId) -> Option<&Region> {
        self.regions.get(id.0)
    }

    /// The first region of `kind`.
    pub fn find(&self, kind: RegionKind) -> Option<RegionId> {
        self.regions
            .iter()
            .position(|r| r.kind == kind)
            .map(RegionId)
    }

    /// The region and offset holding all of `[addr, addr + len)`.
    #[inline]
    fn locate(&self, addr: u64, len: u64) -> Result<(usize, usize), BusError> {
        // The data path resolves four ranges per packet: a plain compare loop over the few
        // regions (`offset_of` per region cost several times more).
        self.bounds
            .iter()
            .enumerate()
            .find_map(|(i, &(base, size))| Some((i, offset_within(base, size, addr, len)?)))
            .ok_or(BusError { addr, len })
    }

    /// Checks that `[addr, addr + len)` lies inside one region (what a transfer would need).
    pub fn check(&self, addr: u64, len: u64) -> Result<(), BusError> {
        self.locate(addr, len).map(|_| ())
    }

    /// The bytes of `[addr, addr + len)`, borrowed.
    pub fn slice(&self, addr: u64, len: usize) -> Result<&[u8], BusError> {
        let len64 = len as u64;
        let (i, off) = self.locate(addr, len64)?;
        self.regions
            .get(i)
            .and_then(|r| r.bytes.get(off..off.checked_add(len)?))
            .ok_or(BusError { addr, len: len64 })
    }

    /// The bytes of `[addr, addr + len)`, mutably borrowed.
    pub fn slice_mut(&mut self, addr: u64, len: usize) -> Result<&mut [u8], BusError> {
        let len64 = len as u64;
        let (i, off) = self.locate(addr, len64)?;
        self.regions
            .get_mut(i)
            .and_then(|r| r.bytes_mut(off, len))
            .ok_or(BusError { addr, len: len64 })
    }

    /// Reads `buf.len()` bytes at `addr`.
    pub fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), BusError> {
        buf.copy_from_slice(self.slice(addr, buf.len())?);
        Ok(())
    }

    /// Reads `len` bytes at `addr` into a new vector (checked before allocating).
    pub fn read_vec(&self, addr: u64, len: usize) -> Result<Vec<u8>, BusError> {
        self.slice(addr, len).map(<[u8]>::to_vec)
    }

    /// Writes `data` at `addr`.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), BusError> {
        self.slice_mut(addr, data.len())?.copy_from_slice(data);
        Ok(())
    }

    /// Sets `len` bytes at `addr` to `byte`.
    pub fn fill(&mut self, addr: u64, len: usize, byte: u8) -> Result<(), BusError> {
        self.slice_mut(addr, len)?.fill(byte);
        Ok(())
    }

    /// Reads a little-endian `u32`.
    pub fn read_u32(&self, addr: u64) -> Result<u32, BusError> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Writes a little-endian `u32`.
    pub fn write_u32(&mut self, addr: u64, value: u32) -> Result<(), BusError> {
        self.write(addr, &value.to_le_bytes())
    }

    /// Reads a little-endian `u64`.
    pub fn read_u64(&self, addr: u64) -> Result<u64, BusError> {
        let mut b = [0u8; 8];
        self.read(addr, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// Writes a little-endian `u64`.
    pub fn write_u64(&mut self, addr: u64, value: u64) -> Result<(), BusError> {
        self.write(addr, &value.to_le_bytes())
    }

    /// Copies `len` bytes from `src` to `dst` (memmove semantics when they overlap). Both
    /// ranges are checked before anything moves: on error, no byte is written.
    pub fn copy(&mut self, src: u64, dst: u64, len: usize) -> Result<(), BusError> {
        let len64 = len as u64;
        let s = self.span(src, len64)?;
        let d = self.span(dst, len64)?;
        self.copy_span(s, d)
    }

    /// Resolves `[addr, addr + len)` to its region and offset, once, for a transfer that then
    /// moves bytes with [`copy_span`](Self::copy_span) without looking the region up again.
    pub(crate) fn span(&self, addr: u64, len: u64) -> Result<Span, BusError> {
        let (region, off) = self.locate(addr, len)?;
        let len = usize::try_from(len).map_err(|_| BusError { addr, len })?;
        Ok(Span { region, off, len })
    }

    /// Like [`span`](Self::span), trying region `*hint` first and leaving the region found
    /// there: a queue's sources (or destinations) tend to stay in one region, and the data
    /// path resolves one of each per packet.
    #[inline]
    pub(crate) fn span_hinted(
        &self,
        addr: u64,
        len: u64,
        hint: &mut usize,
    ) -> Result<Span, BusError> {
        if let Some(&(base, size)) = self.bounds.get(*hint) {
            if let (Some(off), Ok(n)) = (offset_within(base, size, addr, len), usize::try_from(len))
            {
                return Ok(Span {
                    region: *hint,
                    off,
                    len: n,
                });
            }
        }
        let span = self.span(addr, len)?;
        *hint = span.region;
        Ok(span)
    }

    /// The bytes of a resolved span.
    pub(crate) fn span_bytes(&self, s: Span) -> Option<&[u8]> {
        self.regions
            .get(s.region)?
            .bytes
            .get(s.off..s.off.checked_add(s.len)?)
    }

    /// Borrows region `dst` mutably and every other region shared, for a run of copies
    /// into `dst` ([`CopyLanes`]).
    pub(crate) fn copy_lanes(&mut self, dst: usize) -> Option<CopyLanes<'_>> {
        let (before, rest) = self.regions.split_at_mut_checked(dst)?;
        let (region, after) = rest.split_first_mut()?;
        Some(CopyLanes {
            before,
            dst: region,
            after,
            dst_index: dst,
        })
    }

    /// Copies `src.len` bytes from `src` to `dst` (`dst.len` must be the same).
    pub(crate) fn copy_span(&mut self, src: Span, dst: Span) -> Result<(), BusError> {
        let len = src.len;
        // The refused access's first DMA address (the destination's), as BusError promises.
        let dst_addr = self.regions.get(dst.region).map_or(0, |r| r.base) + dst.off as u64;
        let bus = BusError {
            addr: dst_addr,
            len: len as u64,
        };
        if dst.len != len {
            return Err(bus);
        }
        if src.region == dst.region {
            let r = self.regions.get_mut(src.region).ok_or(bus)?;
            r.bytes_mut(dst.off, len).ok_or(bus)?;
            let end = src.off.checked_add(len).ok_or(bus)?;
            if end > r.bytes.len() {
                return Err(bus);
            }
            r.bytes.copy_within(src.off..end, dst.off);
            return Ok(());
        }
        // Two distinct regions: split the vector so one is borrowed shared, one mutably.
        let (lo, hi) = (src.region.min(dst.region), src.region.max(dst.region));
        let (left, right) = self.regions.split_at_mut_checked(hi).ok_or(bus)?;
        let (a, b) = (left.get_mut(lo).ok_or(bus)?, right.first_mut().ok_or(bus)?);
        let (from, to) = if src.region < dst.region {
            (a, b)
        } else {
            (b, a)
        };
        let s = from.bytes.get(src.off..src.off + len).ok_or(bus)?;
        to.bytes_mut(dst.off, len).ok_or(bus)?.copy_from_slice(s);
        Ok(())
    }

    /// Allocates `size` bytes aligned to `align` (a power of two) in `region`; returns the DMA
    /// address. The bytes keep whatever they held (see [`AddressSpace::alloc_zeroed`]).
    pub fn alloc(&mut self, region: RegionId, size: u64, align: u64) -> Result<u64, AllocError> {
        if size == 0 {
            return Err(AllocError::ZeroSize);
        }
        if !align.is_power_of_two() {
            return Err(AllocError::BadAlign(align));
        }
        let r = self
            .regions
            .get_mut(region.0)
            .ok_or(AllocError::NoSuchRegion(region.0))?;
        // Align the DMA address, not just the offset: bases need not be aligned.
        let misalign = r.base & (align - 1);
        let pad = (align - misalign) & (align - 1);
        let oom = AllocError::OutOfMemory {
            region: region.0,
            size,
            align,
        };
        let want = size.checked_add(pad).ok_or(oom)?;
        let block = r.alloc.alloc(want, align).map_err(|_| oom)?;
        // `block` is align-aligned and `pad` makes up for the base's misalignment.
        let addr = r.base + block + pad;
        r.live.insert(addr, block);
        Ok(addr)
    }

    /// Like [`AddressSpace::alloc`], but the new allocation reads as zeros (no stale bytes of an
    /// earlier owner). Only the part below the region's write high-water mark is cleared: the
    /// rest was never written, so fresh memory is handed out without a memset, committed by
    /// the host in one call when it is large (as the driver's MEM_ALLOC hands out committed
    /// memory), rather than a page fault at a time as it is first touched.
    ///
    /// ```
    /// use neuron_emu::{AddressSpace, RegionKind, RegionSpec};
    ///
    /// let mut mem = AddressSpace::new();
    /// let host = mem.map(RegionSpec::new("host", RegionKind::Host, 0x1000, 1 << 20))?;
    /// let a = mem.alloc_zeroed(host, 4096, 4096)?;
    /// mem.write(a, b"stale")?;
    /// mem.free(a)?;
    /// let b = mem.alloc_zeroed(host, 4096, 4096)?;
    /// assert_eq!(b, a, "first fit hands the same range out again");
    /// assert_eq!(mem.read_vec(b, 5)?, [0; 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alloc_zeroed(
        &mut self,
        region: RegionId,
        size: u64,
        align: u64,
    ) -> Result<u64, AllocError> {
        let addr = self.alloc(region, size, align)?;
        let r = self
            .regions
            .get_mut(region.0)
            .ok_or(AllocError::NoSuchRegion(region.0))?;
        // `alloc` just placed `[addr, addr + size)` inside this region, so both convert.
        let start = r.offset_of(addr, size).unwrap_or(r.bytes.len());
        let end = start
            .saturating_add(usize::try_from(size).unwrap_or(usize::MAX))
            .min(r.written_end);
        if let Some(dirty) = r.bytes.get_mut(start..end) {
            dirty.fill(0);
        }
        // The rest was never written: commit it in one call, not a fault per page.
        let fresh = end.max(start);
        let stop = start
            .saturating_add(usize::try_from(size).unwrap_or(usize::MAX))
            .min(r.bytes.len());
        r.bytes.prefault(fresh, stop.saturating_sub(fresh));
        Ok(addr)
    }

    /// Frees the allocation that starts at DMA address `addr`; returns its size.
    pub fn free(&mut self, addr: u64) -> Result<u64, AllocError> {
        let r = self
            .regions
            .iter_mut()
            .find(|r| r.offset_of(addr, 0).is_some())
            .ok_or(AllocError::NotAllocated(addr))?;
        let block = r.live.remove(&addr).ok_or(AllocError::NotAllocated(addr))?;
        let pad = addr - r.base - block;
        r.alloc
            .free(block)
            .map(|size| size - pad)
            .map_err(|_| AllocError::NotAllocated(addr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space() -> AddressSpace {
        let mut m = AddressSpace::new();
        m.map(RegionSpec::new(
            "a",
            RegionKind::Device { channel: 0 },
            0x1000,
            0x1000,
        ))
        .unwrap();
        m.map(RegionSpec::new("b", RegionKind::Host, 0x2000, 0x1000))
            .unwrap();
        m
    }

    #[test]
    fn straddling_and_out_of_range_accesses_are_bus_errors() {
        let mut m = space();
        // Adjacent regions: a range across the boundary is still refused whole.
        assert_eq!(
            m.write(0x1ffe, &[1, 2, 3, 4]),
            Err(BusError {
                addr: 0x1ffe,
                len: 4
            })
        );
        assert_eq!(
            m.read_vec(0x1ffe, 2).unwrap(),
            [0, 0],
            "nothing was written"
        );
        assert!(m.read_u32(0xffe).is_err());
        assert!(m.read_u64(u64::MAX - 3).is_err(), "end overflows");
        assert!(m.copy(0x1000, 0x2ff0, 0x20).is_err());
        assert_eq!(m.read_vec(0x2ff0, 0x10).unwrap(), vec![0; 0x10]);
        assert!(m.check(0x3000, 1).is_err(), "one past the end is unmapped");
    }

    #[test]
    fn copies_within_and_across_regions() {
        let mut m = space();
        m.write(0x1000, b"abcdef").unwrap();
        m.copy(0x1000, 0x1002, 4).unwrap();
        assert_eq!(
            m.read_vec(0x1000, 6).unwrap(),
            b"ababcd",
            "memmove semantics"
        );
        m.copy(0x1000, 0x2800, 6).unwrap();
        m.copy(0x2800, 0x1800, 6).unwrap();
        assert_eq!(m.read_vec(0x1800, 6).unwrap(), b"ababcd");
        m.write_u64(0x2008, 0x0102_0304_0506_0708).unwrap();
        assert_eq!(m.read_u32(0x2008).unwrap(), 0x0506_0708, "little endian");
    }

    #[test]
    fn map_rejects_empty_overflowing_and_overlapping_regions() {
        let mut m = space();
        let spec = |base, size| RegionSpec::new("x", RegionKind::Host, base, size);
        assert!(matches!(
            m.map(spec(0x9000, 0)),
            Err(MapError::Empty { .. })
        ));
        assert!(matches!(
            m.map(spec(u64::MAX, 2)),
            Err(MapError::Overflow { .. })
        ));
        assert!(matches!(
            m.map(spec(0x1800, 0x1000)),
            Err(MapError::Overlap { .. })
        ));
        assert!(
            m.map(spec(0x3000, 0x10)).is_ok(),
            "touching is not overlapping"
        );
    }

    #[test]
    fn a_region_the_host_cannot_back_is_an_error_not_an_abort() {
        let mut m = space();
        // 2^62 bytes: more than any host maps; mmap(2) answers ENOMEM (12).
        let e = m
            .map(RegionSpec::new("huge", RegionKind::Host, 1 << 62, 1 << 62))
            .unwrap_err();
        assert_eq!(
            e,
            MapError::NoMemory {
                name: "huge".into(),
                size: 1 << 62,
                errno: 12
            }
        );
        assert_eq!(e.host_errno(), Some(12));
        assert_eq!(m.regions().len(), 2, "nothing was added");
    }

    #[test]
    fn alloc_aligns_dma_addresses_even_on_a_misaligned_base() {
        let mut m = AddressSpace::new();
        let r = m
            .map(RegionSpec::new("h", RegionKind::Host, 0x1_0010, 0x4000))
            .unwrap();
        let a = m.alloc(r, 100, 0x1000).unwrap();
        assert_eq!(a % 0x1000, 0);
        let b = m.alloc(r, 100, 0x1000).unwrap();
        assert_ne!(a, b);
        assert_eq!(m.region(r).unwrap().allocated_bytes(), 2 * (100 + 0xff0));
        assert_eq!(m.free(a), Ok(100));
        assert_eq!(m.free(a), Err(AllocError::NotAllocated(a)));
        assert_eq!(m.alloc(r, 100, 3), Err(AllocError::BadAlign(3)));
        assert_eq!(m.alloc(r, 0, 1), Err(AllocError::ZeroSize));
        assert!(matches!(
            m.alloc(r, 0x10000, 1),
            Err(AllocError::OutOfMemory { .. })
        ));
        assert_eq!(m.alloc(RegionId(7), 1, 1), Err(AllocError::NoSuchRegion(7)));
    }

    fn host(size: u64) -> (AddressSpace, RegionId) {
        let mut m = AddressSpace::new();
        let r = m
            .map(RegionSpec::new("h", RegionKind::Host, 0x10_0000, size))
            .unwrap();
        (m, r)
    }

    #[test]
    fn reallocated_memory_reads_as_zeros() {
        let (mut m, r) = host(0x10000);
        let a = m.alloc_zeroed(r, 0x3000, 0x1000).unwrap();
        m.fill(a, 0x3000, 0xa5).unwrap();
        m.free(a).unwrap();
        let b = m.alloc_zeroed(r, 0x3000, 0x1000).unwrap();
        assert_eq!(b, a, "the same range is handed out again");
        assert_eq!(m.read_vec(b, 0x3000).unwrap(), vec![0; 0x3000]);
        // Plain `alloc` keeps the old bytes: the zeroing above is alloc_zeroed's doing.
        m.fill(b, 0x10, 0x5a).unwrap();
        m.free(b).unwrap();
        let c = m.alloc(r, 0x10, 1).unwrap();
        assert_eq!(m.read_vec(c, 0x10).unwrap(), vec![0x5a; 0x10]);
    }

    #[test]
    fn fresh_memory_is_handed_out_without_writing() {
        let (mut m, r) = host(0x10000);
        let written_end = |m: &AddressSpace| {
            let end = m.regions[r.0].written_end;
            assert_eq!(m.region(r).unwrap().written_bytes(), end as u64);
            end
        };
        let a = m.alloc_zeroed(r, 0x1000, 0x1000).unwrap();
        assert_eq!(written_end(&m), 0, "nothing written, nothing to clear");
        m.write(a + 0x10, b"xy").unwrap();
        assert_eq!(written_end(&m), 0x12);
        // A DMA copy raises the mark over its destination only.
        m.copy(a, a + 0x800, 0x20).unwrap();
        assert_eq!(written_end(&m), 0x820);
        let b = m.alloc_zeroed(r, 0x1000, 0x1000).unwrap();
        assert_eq!(b, a + 0x1000);
        assert_eq!(
            written_end(&m),
            0x820,
            "an allocation above the mark is free"
        );
        // A range straddling the mark is cleared up to the mark.
        m.free(a).unwrap();
        m.free(b).unwrap();
        let c = m.alloc_zeroed(r, 0x2000, 1).unwrap();
        assert_eq!(c, a);
        assert_eq!(m.read_vec(c, 0x2000).unwrap(), vec![0; 0x2000]);
    }

    proptest::proptest! {
        /// Against a reference that clears every allocation in full, in a region with a
        /// misaligned base: writes (inside or outside allocations), copies, frees and zeroed
        /// allocations leave identical bytes.
        #[test]
        fn alloc_zeroed_matches_clearing_everything(
            ops in proptest::collection::vec((0u8..4, 0u64..0x4000, 1u64..0x900, 0u32..8), 1..40)
        ) {
            const BASE: u64 = 0x2_0010;
            const SIZE: u64 = 0x4000;
            let mut m = AddressSpace::new();
            let r = m.map(RegionSpec::new("h", RegionKind::Host, BASE, SIZE)).unwrap();
            let mut reference = vec![0u8; SIZE as usize];
            let mut live: Vec<u64> = Vec::new();
            for (i, (op, at, len, pick)) in ops.into_iter().enumerate() {
                let len = len.min(SIZE - at);
                let (off, n) = (at as usize, len as usize);
                match op {
                    0 => {
                        let byte = u8::try_from(i % 255).unwrap() + 1;
                        m.fill(BASE + at, n, byte).unwrap();
                        reference[off..off + n].fill(byte);
                    }
                    1 => {
                        let src = (at + u64::from(pick) * 0x301) % (SIZE - len + 1);
                        m.copy(BASE + src, BASE + at, n).unwrap();
                        reference.copy_within(src as usize..src as usize + n, off);
                    }
                    2 if !live.is_empty() => {
                        let a = live.swap_remove(pick as usize % live.len());
                        m.free(a).unwrap();
                    }
                    _ => {
                        if let Ok(a) = m.alloc_zeroed(r, len, 1 << (pick % 8)) {
                            let o = (a - BASE) as usize;
                            reference[o..o + n].fill(0);
                            live.push(a);
                        }
                    }
                }
                proptest::prop_assert_eq!(m.read_vec(BASE, SIZE as usize).unwrap(), reference.clone());
            }
        }
    }
}
