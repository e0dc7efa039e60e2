//! BAR_WRITE against the driver's write-block list, and mmap against the driver's three
//! paths, per arch, driven by the tables the crate ships (copies of
//! `reference/bar0-write-block.tsv` and `reference/mmap-special.tsv` in `tests/data/`). The
//! block rule itself lives once, in khal (`Arch::is_bar0_write_blocked`); these tests pin it
//! to the driver's list.

use std::path::Path;

use khal::{Arch, Generation};
use ndl_abi::{BAR_READ, BAR_WRITE};
use ndl_abi::{BarRw, UserPtr};
use ndl_emu::{DeviceConfig, EmulatedKernel, mmap_special};
use ndl_std::{AccessMode, Errno, Error, Kernel, MemLocation, Ndl, RawFd};

const GENERATIONS: [Generation; 3] = [Generation::V2, Generation::V3, Generation::V4];

struct Bar {
    k: EmulatedKernel,
    fd: RawFd,
    base: u64,
}

impl Bar {
    fn new(g: Generation) -> Self {
        let k = EmulatedKernel::new(g, 1).unwrap();
        let base = {
            let ndl = Ndl::with_kernel(&k);
            ndl.device(0).unwrap().device_info().unwrap().bar_address[0]
        };
        let fd = k
            .open(Path::new("/dev/neuron0"), AccessMode::ReadWrite)
            .unwrap();
        Self { k, fd, base }
    }

    fn rw<const REQ: u32>(&self, offsets: &[u64], data: &mut [u32]) -> Result<i32, Errno> {
        let mut addrs: Vec<u64> = offsets.iter().map(|o| self.base + o).collect();
        let mut arg = BarRw {
            bar: 0,
            _pad4: [0; 4],
            address: UserPtr::input_slice(&addrs[..]),
            data: UserPtr::output_slice(data),
            count: offsets.len() as u32,
            _pad28: [0; 4],
        };
        // SAFETY: `arg` is the 32-byte struct; its arrays hold `count` entries and outlive
        // the call.
        let r = unsafe { self.k.ioctl::<REQ>(self.fd, (&raw mut arg).cast()) };
        addrs.clear();
        r
    }

    fn write(&self, offsets: &[u64], values: &[u32]) -> Result<i32, Errno> {
        let mut v = values.to_vec();
        self.rw::<{ BAR_WRITE.code() }>(offsets, &mut v)
    }

    fn read(&self, offset: u64) -> u32 {
        let mut v = [0u32];
        self.rw::<{ BAR_READ.code() }>(&[offset], &mut v).unwrap();
        v[0]
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        // SAFETY: `fd` came from `open` and is not used again.
        unsafe { self.k.close(self.fd) };
    }
}

/// The driver's list (`ndma_is_bar0_write_blocked`), parsed: `dma-queue-regs` rows (16
/// queue blocks of `stride` bytes from `range_start`, the words at `blocked_offsets`) and
/// `fw-mailbox-word` rows; `check-window` rows block nothing by themselves.
mod bar0_block {
    use std::collections::HashSet;
    use std::sync::OnceLock;

    use khal::Generation;

    const TABLE: &str = include_str!("data/bar0-write-block.tsv");

    pub struct BlockedRange {
        pub kind: &'static str,
        pub start: u64,
        pub end: u64,
        pub stride: u64,
        pub offsets: Vec<u64>,
    }

    impl BlockedRange {
        pub fn blocks(&self, offset: u64) -> bool {
            offset >= self.start
                && offset < self.end
                && self
                    .offsets
                    .contains(&((offset - self.start) % self.stride))
        }

        pub fn blocked(&self) -> impl Iterator<Item = u64> + '_ {
            (self.start..self.end)
                .step_by(self.stride as usize)
                .flat_map(|block| self.offsets.iter().map(move |o| block + o))
        }
    }

    fn number(s: &str) -> u64 {
        match s.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).unwrap(),
            None => s.parse().unwrap(),
        }
    }

    pub fn ranges(g: Generation) -> impl Iterator<Item = BlockedRange> {
        let arch = format!("v{}", g.number());
        TABLE.lines().skip(1).filter_map(move |line| {
            let f: Vec<&'static str> = line.split('\t').collect();
            if f[0] != arch {
                return None;
            }
            let (start, end) = (number(f[6]), number(f[7]));
            match f[1] {
                "dma-queue-regs" => Some(BlockedRange {
                    kind: f[1],
                    start,
                    end,
                    stride: number(f[8]),
                    offsets: f[10].split(',').map(number).collect(),
                }),
                "fw-mailbox-word" => Some(BlockedRange {
                    kind: f[1],
                    start,
                    end,
                    stride: end - start,
                    offsets: vec![0],
                }),
                _ => None,
            }
        })
    }

    /// Every blocked offset of generation `g`, parsed once.
    fn blocked_set(g: Generation) -> &'static HashSet<u64> {
        static SETS: [OnceLock<HashSet<u64>>; 3] = [const { OnceLock::new() }; 3];
        let slot = usize::from(g.number()).saturating_sub(2).min(2);
        SETS[slot].get_or_init(|| {
            ranges(g)
                .flat_map(|r| r.blocked().collect::<Vec<_>>())
                .collect()
        })
    }

    pub fn is_blocked(g: Generation, offset: u64) -> bool {
        blocked_set(g).contains(&offset)
    }
}

/// khal's rule for generation `g`.
fn khal_blocks(g: Generation, off: u64) -> bool {
    match g {
        Generation::V2 => khal_sunda::Sunda::is_bar0_write_blocked(off),
        Generation::V3 => khal_cayman::Cayman::is_bar0_write_blocked(off),
        Generation::V4 => khal_mariana::Mariana::is_bar0_write_blocked(off),
    }
}

#[test]
fn khal_blocks_exactly_the_drivers_list() {
    for g in GENERATIONS {
        for r in bar0_block::ranges(g) {
            for off in r.blocked() {
                assert!(khal_blocks(g, off), "{g:?} {} {off:#x}", r.kind);
            }
            // Every other word of the row's first queue block (or of the mailbox word's
            // neighbourhood) is writable in both.
            let first_block = r.start..(r.start + r.stride.max(0x40)).min(r.end + 0x40);
            for off in first_block.step_by(4).filter(|o| !r.blocks(*o)) {
                let table = bar0_block::is_blocked(g, off);
                assert_eq!(khal_blocks(g, off), table, "{g:?} {} {off:#x}", r.kind);
            }
        }
    }
}

/// A 4-byte aligned offset near `start` that the table does not block.
fn allowed_near(g: Generation, start: u64) -> u64 {
    (1..)
        .map(|i| start + 4 * i)
        .find(|o| !bar0_block::is_blocked(g, *o))
        .unwrap()
}

#[test]
fn bar_write_refuses_every_blocked_range_and_accepts_its_neighbours() {
    for g in GENERATIONS {
        let bar = Bar::new(g);
        let rows: Vec<_> = bar0_block::ranges(g).collect();
        // The table's row counts (bar-README.md: 34 engines on V2, 132 on V3/V4, two
        // directions each, plus 5 mailbox words).
        let expected = if g == Generation::V2 {
            34 * 2 + 5
        } else {
            132 * 2 + 5
        };
        assert_eq!(rows.len(), expected, "{g:?}");
        let words: usize = rows.iter().map(|r| r.blocked().count()).sum();
        let total = if g == Generation::V2 { 5_445 } else { 21_125 };
        assert_eq!(words, total, "{g:?}: blocked words (bar-README.md totals)");
        for r in rows {
            let first = r.start + r.offsets[0];
            let last = r.blocked().last().unwrap();
            for off in [first, last] {
                let before = bar.read(off);
                assert_eq!(
                    bar.write(&[off], &[before ^ 0xA5A5_0000]),
                    Err(Errno::INVAL),
                    "{g:?} {} {off:#x}",
                    r.kind
                );
                assert_eq!(bar.read(off), before, "nothing written at {off:#x}");
            }
            // An unaligned offset is never blocked (exact equality), nor is its neighbour.
            assert!(!bar0_block::is_blocked(g, first + 1));
            let ok = allowed_near(g, r.start);
            assert_eq!(bar.write(&[ok], &[0x5a5a_0000]), Ok(0), "{g:?} {ok:#x}");
        }
    }
}

#[test]
fn bar_write_stops_at_the_first_refused_entry() {
    let g = Generation::V3;
    let bar = Bar::new(g);
    let r = bar0_block::ranges(g).next().unwrap();
    let blocked = r.start + r.offsets[0];
    let (a, b) = (allowed_near(g, r.start), allowed_near(g, blocked + 0x100));
    let (a0, b0) = (bar.read(a), bar.read(b));
    assert_eq!(
        bar.write(&[a, blocked, b], &[a0 ^ 1, 7, b0 ^ 1]),
        Err(Errno::INVAL)
    );
    assert_eq!(bar.read(a), a0 ^ 1, "the entry before is written");
    assert_eq!(bar.read(b), b0, "the entry after is not");
    // Outside the BAR0 mapping: EINVAL too.
    let size = {
        let ndl = Ndl::with_kernel(&bar.k);
        ndl.device(0).unwrap().device_info().unwrap().bar_size[0]
    };
    assert_eq!(bar.write(&[size], &[0]), Err(Errno::INVAL));
}

#[test]
fn mmap_serves_every_special_resource_exactly_and_read_only_where_the_driver_says() {
    for g in GENERATIONS {
        let ndl = Ndl::with_kernel(EmulatedKernel::new(g, 1).unwrap());
        let h = ndl.open_device(0).unwrap();
        let entries: Vec<_> = mmap_special::entries(g).collect();
        let n = match g {
            Generation::V2 => 16,
            _ => 52,
        };
        assert_eq!(entries.len(), n, "{g:?}: mmap-special.tsv rows");
        for sp in entries {
            let info = h
                .resource_mmap_info(sp.block, sp.block_id, sp.resource)
                .unwrap();
            // The first entry with this key answers (mmap-README.md).
            let first = mmap_special::lookup(g, sp.block, sp.block_id, sp.resource).unwrap();
            assert_eq!((info.offset, info.size), (first.offset, first.size));
            let m = h.map(sp.offset, sp.size).unwrap();
            assert_eq!(m.region().is_read_only(), sp.read_only, "{g:?} {sp:?}");
            // Any other length is no entry: EPERM without CAP_SYS_RAWIO.
            assert!(matches!(
                h.map(sp.offset, sp.size / 2),
                Err(Error::Mmap {
                    errno: Errno::PERM,
                    ..
                })
            ));
        }
    }
}

/// khal's table (the one the kernel serves) is the driver's, row for row, on every arch:
/// `tests/data/mmap-special.tsv` is a copy of `reference/mmap-special.tsv` (2.26.5.0).
#[test]
fn khal_special_table_is_the_drivers_row_for_row() {
    const TSV: &str = include_str!("data/mmap-special.tsv");
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
    for g in GENERATIONS {
        let arch = format!("v{}", g.number());
        let want: Vec<_> = TSV
            .lines()
            .skip(1)
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .filter(|f| f[0] == arch)
            .map(|f| mmap_special::Special {
                block: f[3].parse().unwrap(),
                block_id: f[4].parse().unwrap(),
                resource: f[6].parse().unwrap(),
                offset: hex(f[7]),
                size: hex(f[8]),
                bar: f[9].parse().unwrap(),
                bar_offset: hex(f[10]),
                read_only: f[11] == "yes",
            })
            .collect();
        let got: Vec<_> = mmap_special::entries(g).collect();
        assert_eq!(got, want, "{g:?}");
    }
}

#[test]
fn raw_device_memory_needs_the_privileged_option() {
    let raw = 0x10_0000u64;
    let plain = Ndl::with_kernel(EmulatedKernel::new(Generation::V3, 1).unwrap());
    assert!(matches!(
        plain.open_device(0).unwrap().map(raw, 4096),
        Err(Error::Mmap {
            errno: Errno::PERM,
            ..
        })
    ));
    let root = Ndl::with_kernel(
        EmulatedKernel::with_devices(vec![
            DeviceConfig::numbered(Generation::V3, 0).with_privileged(true),
        ])
        .unwrap(),
    );
    assert!(root.open_device(0).unwrap().map(raw, 4096).is_ok());
}

#[test]
fn chunks_map_whole_and_another_process_s_chunk_read_only() {
    let ndl = Ndl::with_kernel(EmulatedKernel::new(Generation::V2, 1).unwrap());
    let h = ndl.open_device(0).unwrap();
    let mem = h.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    let info = h.mem_get_extended_info(mem, 0).unwrap();
    assert_eq!(info.size, 8192);
    // The mmap offset is the chunk's address, host window included (mmap-README.md,
    // "Getting offsets").
    assert_eq!(info.mmap_offset, info.pa);
    // Any offset inside the chunk finds it; the mapping is the whole chunk from its start.
    let inside = h.map(info.mmap_offset + 4096, 8192).unwrap();
    inside.write_bytes(0, b"head").unwrap();
    let mut head = [0u8; 4];
    h.mem_buf_copy_from(mem, 0, &mut head).unwrap();
    assert_eq!(&head, b"head");
    drop(inside);
    // ... but mmap(2) refuses an offset that is not page-aligned (mmap-README.md, refusals:
    // "offset not page-aligned | EINVAL (mmap(2))").
    assert!(matches!(
        h.map(info.mmap_offset + 1, 8192),
        Err(Error::Mmap {
            errno: Errno::INVAL,
            ..
        })
    ));
    // The mapping length must be the chunk's.
    assert!(matches!(
        h.map(info.mmap_offset, 4096),
        Err(Error::Mmap {
            errno: Errno::PERM,
            ..
        })
    ));
    let mine = h.map(info.mmap_offset, 8192).unwrap();
    mine.write_bytes(0, b"mine").unwrap();
    // The same chunk mapped by another (attached) process is read-only.
    let other = std::process::id() + 7;
    EmulatedKernel::as_process(other, || {
        let h2 = ndl.open_device(0).unwrap();
        let theirs = h2.map(info.mmap_offset, 8192).unwrap();
        let mut b = [0u8; 4];
        theirs.read_bytes(0, &mut b).unwrap();
        assert_eq!(&b, b"mine");
        assert!(theirs.write_bytes(0, b"evil").is_err());
    });
    let mut b = [0u8; 4];
    mine.read_bytes(0, &mut b).unwrap();
    assert_eq!(&b, b"mine");
}
