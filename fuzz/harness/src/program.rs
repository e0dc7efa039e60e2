//! A program: what the fuzzer's bytes mean. One header byte builds the kernel, then up to
//! [`MAX_OPS`] operations, each a tag byte and fixed-size little-endian fields, so a
//! mutation of one field leaves the rest of the program intact. [`Program::encode`] writes
//! the bytes [`Program::decode`](crate::Program::decode) reads back (the seeds are written
//! this way).
//!
//! Operations name open files and mappings by slot: the n-th successful open or mmap of
//! the run, taken modulo the slots there are, so every index names something once anything
//! is open; processes are indices below [`PROCESSES`].

use khal::Generation;

/// Most operations a program runs (one input stays in the milliseconds).
pub const MAX_OPS: usize = 256;
/// Processes a program acts as.
pub const PROCESSES: u8 = 4;
/// Most bytes one store writes (into user memory or through a mapping) or one read takes.
pub const MAX_BYTES: usize = 4096;

/// How the kernel is built: the header byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Generation of every device (bits 0-1: V2, V3, V4; 3 reads as V3).
    pub generation: Generation,
    /// Two devices rather than one (bit 2).
    pub two_devices: bool,
    /// The kernel stands for a caller with CAP_SYS_RAWIO (bit 3): raw device memory and the
    /// emulator-only register windows map.
    pub privileged: bool,
    /// At the end, mappings go before the files (bit 4); otherwise files first, so freed
    /// chunks still mapped take the deferred path.
    pub unmap_first: bool,
}

impl Setup {
    /// The header byte.
    pub fn byte(&self) -> u8 {
        let g = match self.generation {
            Generation::V2 => 0,
            Generation::V3 => 1,
            Generation::V4 => 2,
        };
        g | u8::from(self.two_devices) << 2
            | u8::from(self.privileged) << 3
            | u8::from(self.unmap_first) << 4
    }

    /// The setup a header byte names.
    pub fn from_byte(b: u8) -> Self {
        Self {
            generation: match b & 3 {
                0 => Generation::V2,
                2 => Generation::V4,
                _ => Generation::V3,
            },
            two_devices: b & 4 != 0,
            privileged: b & 8 != 0,
            unmap_first: b & 16 != 0,
        }
    }
}

/// Who makes a call on an open file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The process that opened it.
    Opener,
    /// Process `n` (mod [`PROCESSES`]): a forked child or a process handed the fd.
    Process(u8),
}

/// A request number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Req {
    /// Entry n of [`requests::catalog`](crate::requests::catalog).
    Catalog(u16),
    /// Any number.
    Raw(u32),
    /// A catalog entry with another `_IOC_SIZE`.
    Resized(u16, u16),
}

/// The argument word of an ioctl.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ptr {
    /// The caller's memory at this offset.
    User(u16),
    /// Zero.
    Null,
    /// Any address (or value, for commands that take one).
    Raw(u64),
    /// This many bytes before the end of the caller's memory (structs that straddle it).
    FromEnd(u16),
}

/// What an mmap asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Any length and offset.
    Raw {
        /// Length in bytes.
        len: u64,
        /// The offset (mmap cookie).
        offset: u64,
    },
    /// `pages` pages at the offset stored in the caller's memory at `at` (where an ioctl
    /// wrote an mmap offset).
    Loaded {
        /// Length in pages.
        pages: u16,
        /// Offset in the caller's memory of the little-endian cookie.
        at: u16,
    },
    /// Entry n (mod the table) of the arch's special resources, at its exact key and size.
    Special(u8),
}

/// One operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `open("/dev/neuron<device % 4>")` as `process`, with access mode `mode % 3`:
    /// 0 read-only, 1 write-only (the free-access lane), 2 read-write.
    Open {
        /// Process index.
        process: u8,
        /// Device number (2 and 3 do not exist).
        device: u8,
        /// Access mode (mod 3).
        mode: u8,
    },
    /// The last close of the file in slot `fd`.
    Close {
        /// File slot.
        fd: u8,
    },
    /// Stores bytes into a process's memory.
    Poke {
        /// Process index.
        process: u8,
        /// Offset in its memory.
        offset: u16,
        /// The bytes (at most [`MAX_BYTES`]).
        bytes: Vec<u8>,
    },
    /// Copies bytes inside a process's memory (an output of one call into the input of the
    /// next, as a runtime passes a handle on).
    Move {
        /// Process index.
        process: u8,
        /// Source offset.
        from: u16,
        /// Destination offset.
        to: u16,
        /// Length (at most [`MAX_BYTES`]).
        len: u16,
    },
    /// `ioctl(fd, request, arg)`.
    Ioctl {
        /// File slot.
        fd: u8,
        /// The calling process.
        caller: Caller,
        /// The request.
        request: Req,
        /// The argument word.
        arg: Ptr,
    },
    /// `mmap` of the file in slot `fd`.
    Mmap {
        /// File slot.
        fd: u8,
        /// The calling process.
        caller: Caller,
        /// Length and offset.
        place: Place,
    },
    /// `munmap` of the mapping in slot `map`.
    Unmap {
        /// Mapping slot.
        map: u8,
    },
    /// Stores bytes through a mapping.
    MapWrite {
        /// Mapping slot.
        map: u8,
        /// Offset in the mapping.
        offset: u32,
        /// The bytes (at most [`MAX_BYTES`]).
        bytes: Vec<u8>,
    },
    /// Loads bytes through a mapping.
    MapRead {
        /// Mapping slot.
        map: u8,
        /// Offset in the mapping.
        offset: u32,
        /// Length (at most [`MAX_BYTES`]).
        len: u16,
    },
    /// A 32-bit register access through a mapping (a write may ring a doorbell).
    Register {
        /// Mapping slot.
        map: u8,
        /// Offset in the mapping.
        offset: u32,
        /// The value written; `None` reads.
        write: Option<u32>,
    },
}

/// A whole input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// How the kernel is built.
    pub setup: Setup,
    /// What runs on it.
    pub ops: Vec<Op>,
}

/// Tags of the operations, in [`Op`] order.
pub(crate) const TAGS: u8 = 10;

fn caller_byte(c: Caller) -> u8 {
    match c {
        Caller::Opener => 0xff,
        Caller::Process(p) => p % PROCESSES,
    }
}

fn len16(n: usize) -> [u8; 2] {
    u16::try_from(n.min(MAX_BYTES)).unwrap_or(0).to_le_bytes()
}

impl Req {
    fn encode(self, out: &mut Vec<u8>) {
        match self {
            Self::Catalog(i) => {
                out.push(0);
                out.extend(i.to_le_bytes());
            }
            Self::Raw(code) => {
                out.push(1);
                out.extend(code.to_le_bytes());
            }
            Self::Resized(i, size) => {
                out.push(2);
                out.extend(i.to_le_bytes());
                out.extend(size.to_le_bytes());
            }
        }
    }
}

impl Ptr {
    fn encode(self, out: &mut Vec<u8>) {
        match self {
            Self::User(o) => {
                out.push(0);
                out.extend(o.to_le_bytes());
            }
            Self::Null => out.push(1),
            Self::Raw(a) => {
                out.push(2);
                out.extend(a.to_le_bytes());
            }
            Self::FromEnd(o) => {
                out.push(3);
                out.extend(o.to_le_bytes());
            }
        }
    }
}

impl Place {
    fn encode(self, out: &mut Vec<u8>) {
        match self {
            Self::Raw { len, offset } => {
                out.push(0);
                out.extend(len.to_le_bytes());
                out.extend(offset.to_le_bytes());
            }
            Self::Loaded { pages, at } => {
                out.push(1);
                out.extend(pages.to_le_bytes());
                out.extend(at.to_le_bytes());
            }
            Self::Special(i) => out.extend([2, i]),
        }
    }
}

impl Op {
    /// The operation's bytes.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Self::Open {
                process,
                device,
                mode,
            } => out.extend([0, *process, *device, *mode]),
            Self::Close { fd } => out.extend([1, *fd]),
            Self::Poke {
                process,
                offset,
                bytes,
            } => {
                out.extend([2, *process]);
                out.extend(offset.to_le_bytes());
                out.extend(len16(bytes.len()));
                out.extend(bytes.iter().take(MAX_BYTES));
            }
            Self::Move {
                process,
                from,
                to,
                len,
            } => {
                out.extend([3, *process]);
                for v in [from, to, len] {
                    out.extend(v.to_le_bytes());
                }
            }
            Self::Ioctl {
                fd,
                caller,
                request,
                arg,
            } => {
                out.extend([4, *fd, caller_byte(*caller)]);
                request.encode(out);
                arg.encode(out);
            }
            Self::Mmap { fd, caller, place } => {
                out.extend([5, *fd, caller_byte(*caller)]);
                place.encode(out);
            }
            Self::Unmap { map } => out.extend([6, *map]),
            Self::MapWrite { map, offset, bytes } => {
                out.extend([7, *map]);
                out.extend(offset.to_le_bytes());
                out.extend(len16(bytes.len()));
                out.extend(bytes.iter().take(MAX_BYTES));
            }
            Self::MapRead { map, offset, len } => {
                out.extend([8, *map]);
                out.extend(offset.to_le_bytes());
                out.extend(len.to_le_bytes());
            }
            Self::Register { map, offset, write } => {
                out.extend([9, *map]);
                out.extend(offset.to_le_bytes());
                match write {
                    None => out.push(0),
                    Some(v) => {
                        out.push(1);
                        out.extend(v.to_le_bytes());
                    }
                }
            }
        }
    }
}

impl Program {
    /// The program's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.setup.byte()];
        for op in self.ops.iter().take(MAX_OPS) {
            op.encode(&mut out);
        }
        out
    }
}
