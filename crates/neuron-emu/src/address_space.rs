//! The memory the engines reach with 64-bit DMA addresses: device HBM and host DRAM regions.
//!
//! Each region owns a zero-initialised byte buffer (allocated zeroed, so the host OS commits
//! pages only when they are touched: a large nominal region costs nothing until used). All
//! accesses are bounds-checked: a range must lie inside one region, otherwise the access is a
//! [`BusError`] and no byte is read or written. The engine's data path copies whole slices
//! between region buffers (`copy_from_slice` / `copy_within`), never byte by byte.

use std::collections::BTreeMap;

use crate::allocator::RangeAllocator;
use crate::error::{AllocError, BusError, MapError};

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

/// One mapped region.
pub struct Region {
    name: String,
    kind: RegionKind,
    base: u64,
    bytes: Box<[u8]>,
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
    /// Offset of `[addr, addr + len)` inside this region, if it lies wholly inside.
    fn offset_of(&self, addr: u64, len: u64) -> Option<usize> {
        let off = addr.checked_sub(self.base)?;
        let end = off.checked_add(len)?;
        (end <= self.size()).then(|| usize::try_from(off).ok())?
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
        self.regions.push(Region {
            name,
            kind,
            base,
            bytes: vec![0u8; len].into_boxed_slice(),
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
    fn locate(&self, addr: u64, len: u64) -> Result<(usize, usize), BusError> {
        self.regions
            .iter()
            .enumerate()
            .find_map(|(i, r)| r.offset_of(addr, len).map(|off| (i, off)))
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
            .and_then(|r| r.bytes.get_mut(off..off.checked_add(len)?))
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
        let (si, so) = self.locate(src, len64)?;
        let (di, doff) = self.locate(dst, len64)?;
        let bus = BusError {
            addr: dst,
            len: len64,
        };
        if si == di {
            let bytes = &mut self.regions.get_mut(si).ok_or(bus)?.bytes;
            bytes.copy_within(so..so + len, doff);
            return Ok(());
        }
        // Two distinct regions: split the vector so one is borrowed shared, one mutably.
        let (lo, hi) = (si.min(di), si.max(di));
        let (left, right) = self.regions.split_at_mut_checked(hi).ok_or(bus)?;
        let (a, b) = (left.get_mut(lo).ok_or(bus)?, right.first_mut().ok_or(bus)?);
        let (from, to) = if si < di { (a, b) } else { (b, a) };
        let s = from.bytes.get(so..so + len).ok_or(bus)?;
        to.bytes
            .get_mut(doff..doff + len)
            .ok_or(bus)?
            .copy_from_slice(s);
        Ok(())
    }

    /// Allocates `size` bytes aligned to `align` (a power of two) in `region`; returns the DMA
    /// address. The bytes keep whatever they held (the emulated kernel zeroes if it must).
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
}
