//! The FUSE kernel ABI this server speaks: the records of `<linux/fuse.h>` (kernel UAPI,
//! protocol 7.x) that the served operations use, with their sizes asserted at compile time.
//!
//! Every request read from `/dev/fuse` is a [`InHeader`] followed by an opcode-specific body;
//! every reply is an [`OutHeader`] followed by the opcode's reply record.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// The protocol major version (`FUSE_KERNEL_VERSION`).
pub const KERNEL_VERSION: u32 = 7;
/// The highest protocol minor version whose records this file mirrors
/// (`FUSE_KERNEL_MINOR_VERSION` of the headers it was written against).
pub const KERNEL_MINOR_VERSION: u32 = 38;
/// The node id of the root directory (`FUSE_ROOT_ID`).
pub const ROOT_ID: u64 = 1;
/// The smallest read buffer the kernel accepts (`FUSE_MIN_READ_BUFFER`).
pub const MIN_READ_BUFFER: usize = 8192;

/// Request opcodes (`enum fuse_opcode`) the server answers.
pub mod opcode {
    /// Look a name up in a directory.
    pub const LOOKUP: u32 = 1;
    /// Drop lookup references (no reply).
    pub const FORGET: u32 = 2;
    /// Attributes of a node.
    pub const GETATTR: u32 = 3;
    /// Change attributes (e.g. `O_TRUNC`).
    pub const SETATTR: u32 = 4;
    /// Open a file.
    pub const OPEN: u32 = 14;
    /// Read from a file.
    pub const READ: u32 = 15;
    /// Write to a file.
    pub const WRITE: u32 = 16;
    /// File-system statistics.
    pub const STATFS: u32 = 17;
    /// Last reference to an open file dropped.
    pub const RELEASE: u32 = 18;
    /// `fsync`.
    pub const FSYNC: u32 = 20;
    /// Every `close(2)` of a file descriptor.
    pub const FLUSH: u32 = 25;
    /// Protocol handshake.
    pub const INIT: u32 = 26;
    /// Open a directory.
    pub const OPENDIR: u32 = 27;
    /// Read directory entries.
    pub const READDIR: u32 = 28;
    /// Close a directory.
    pub const RELEASEDIR: u32 = 29;
    /// Permission check (`access(2)`).
    pub const ACCESS: u32 = 34;
    /// Interrupt an outstanding request.
    pub const INTERRUPT: u32 = 36;
    /// File system going away.
    pub const DESTROY: u32 = 38;
    /// `ioctl(2)` on an open file.
    pub const IOCTL: u32 = 39;
    /// Drop many lookup references (no reply).
    pub const BATCH_FORGET: u32 = 42;
}

/// `FOPEN_DIRECT_IO`: bypass the page cache for this open file. A shared writable mmap of
/// such a file fails (ENODEV) instead of mapping page-cache pages the model never sees.
pub const FOPEN_DIRECT_IO: u32 = 1 << 0;

/// `S_IFDIR`.
pub const S_IFDIR: u32 = 0o040_000;
/// `S_IFREG`.
pub const S_IFREG: u32 = 0o100_000;
/// `DT_DIR` (directory-entry type).
pub const DT_DIR: u32 = 4;
/// `DT_REG`.
pub const DT_REG: u32 = 8;

/// `struct fuse_in_header`: the head of every request.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct InHeader {
    /// Total request length, header included.
    pub len: u32,
    /// [`opcode`].
    pub opcode: u32,
    /// Request id the reply must carry.
    pub unique: u64,
    /// Node the request is about.
    pub nodeid: u64,
    /// Caller's fs uid.
    pub uid: u32,
    /// Caller's fs gid.
    pub gid: u32,
    /// Caller's thread id (0 for requests the kernel sends on its own, e.g. RELEASE).
    pub pid: u32,
    /// Length of extensions in 8-byte units.
    pub total_extlen: u16,
    /// Padding.
    pub padding: u16,
}

/// `struct fuse_out_header`: the head of every reply.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct OutHeader {
    /// Total reply length, header included.
    pub len: u32,
    /// 0 or a negative errno.
    pub error: i32,
    /// The request's id.
    pub unique: u64,
}

/// `struct fuse_init_in`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct InitIn {
    /// Kernel's major version.
    pub major: u32,
    /// Kernel's minor version.
    pub minor: u32,
    /// Readahead limit.
    pub max_readahead: u32,
    /// Capability flags the kernel offers.
    pub flags: u32,
    /// More capability flags.
    pub flags2: u32,
    /// Reserved.
    pub unused: [u32; 11],
}

/// `struct fuse_init_out`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct InitOut {
    /// Our major version.
    pub major: u32,
    /// Our minor version.
    pub minor: u32,
    /// Readahead limit.
    pub max_readahead: u32,
    /// Capability flags we accept.
    pub flags: u32,
    /// Background request limit.
    pub max_background: u16,
    /// Congestion threshold.
    pub congestion_threshold: u16,
    /// Largest WRITE payload.
    pub max_write: u32,
    /// Timestamp granularity (ns).
    pub time_gran: u32,
    /// Largest request in pages (with `FUSE_MAX_PAGES`).
    pub max_pages: u16,
    /// DAX map alignment.
    pub map_alignment: u16,
    /// More flags.
    pub flags2: u32,
    /// Reserved.
    pub unused: [u32; 7],
}

/// `struct fuse_attr`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct Attr {
    /// Inode number.
    pub ino: u64,
    /// Size in bytes.
    pub size: u64,
    /// 512-byte blocks.
    pub blocks: u64,
    /// Access time (s).
    pub atime: u64,
    /// Modification time (s).
    pub mtime: u64,
    /// Change time (s).
    pub ctime: u64,
    /// Access time (ns part).
    pub atimensec: u32,
    /// Modification time (ns part).
    pub mtimensec: u32,
    /// Change time (ns part).
    pub ctimensec: u32,
    /// Type and permission bits.
    pub mode: u32,
    /// Link count.
    pub nlink: u32,
    /// Owner.
    pub uid: u32,
    /// Group.
    pub gid: u32,
    /// Device number (special files).
    pub rdev: u32,
    /// Preferred I/O size.
    pub blksize: u32,
    /// Attribute flags.
    pub flags: u32,
}

/// `struct fuse_entry_out` (LOOKUP reply).
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct EntryOut {
    /// Node id.
    pub nodeid: u64,
    /// Generation (nodeid:generation unique for the mount's life).
    pub generation: u64,
    /// Name cache timeout (s).
    pub entry_valid: u64,
    /// Attribute cache timeout (s).
    pub attr_valid: u64,
    /// Name cache timeout (ns part).
    pub entry_valid_nsec: u32,
    /// Attribute cache timeout (ns part).
    pub attr_valid_nsec: u32,
    /// Attributes.
    pub attr: Attr,
}

/// `struct fuse_attr_out` (GETATTR/SETATTR reply).
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct AttrOut {
    /// Attribute cache timeout (s).
    pub attr_valid: u64,
    /// Attribute cache timeout (ns part).
    pub attr_valid_nsec: u32,
    /// Padding.
    pub dummy: u32,
    /// Attributes.
    pub attr: Attr,
}

/// `struct fuse_open_in`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct OpenIn {
    /// The `open(2)` flags (access mode included; O_CREAT/O_EXCL/O_NOCTTY stripped).
    pub flags: u32,
    /// `FUSE_OPEN_*` flags.
    pub open_flags: u32,
}

/// `struct fuse_open_out`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct OpenOut {
    /// Our file handle, echoed in later requests on the file.
    pub fh: u64,
    /// `FOPEN_*` flags.
    pub open_flags: u32,
    /// Padding.
    pub padding: u32,
}

/// `struct fuse_release_in`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct ReleaseIn {
    /// File handle.
    pub fh: u64,
    /// Open flags.
    pub flags: u32,
    /// `FUSE_RELEASE_*` flags.
    pub release_flags: u32,
    /// Lock owner.
    pub lock_owner: u64,
}

/// `struct fuse_flush_in`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct FlushIn {
    /// File handle.
    pub fh: u64,
    /// Unused.
    pub unused: u32,
    /// Padding.
    pub padding: u32,
    /// Lock owner.
    pub lock_owner: u64,
}

/// `struct fuse_read_in` (also READDIR).
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct ReadIn {
    /// File handle.
    pub fh: u64,
    /// Offset (READDIR: the cookie of the last entry returned).
    pub offset: u64,
    /// Bytes wanted.
    pub size: u32,
    /// Read flags.
    pub read_flags: u32,
    /// Lock owner.
    pub lock_owner: u64,
    /// Open flags.
    pub flags: u32,
    /// Padding.
    pub padding: u32,
}

/// `struct fuse_ioctl_in`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct IoctlIn {
    /// File handle.
    pub fh: u64,
    /// `FUSE_IOCTL_*` flags.
    pub flags: u32,
    /// The request code.
    pub cmd: u32,
    /// The argument word as the caller passed it (a user address for Neuron commands).
    pub arg: u64,
    /// Bytes the kernel copied in after this record (`_IOC_SIZE` for `_IOC_WRITE`).
    pub in_size: u32,
    /// Bytes the kernel will copy back to `arg` at most (`_IOC_SIZE` for `_IOC_READ`).
    pub out_size: u32,
}

/// `struct fuse_ioctl_out`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct IoctlOut {
    /// What `ioctl(2)` returns (a negative value becomes -1 with that errno).
    pub result: i32,
    /// `FUSE_IOCTL_*` flags (retry: unrestricted ioctls only).
    pub flags: u32,
    /// Retry input iovecs.
    pub in_iovs: u32,
    /// Retry output iovecs.
    pub out_iovs: u32,
}

/// `struct fuse_interrupt_in`.
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct InterruptIn {
    /// The interrupted request's id.
    pub unique: u64,
}

/// `struct fuse_kstatfs` (the STATFS reply, `struct fuse_statfs_out`).
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct StatfsOut {
    /// Total blocks.
    pub blocks: u64,
    /// Free blocks.
    pub bfree: u64,
    /// Available blocks.
    pub bavail: u64,
    /// Inodes.
    pub files: u64,
    /// Free inodes.
    pub ffree: u64,
    /// Block size.
    pub bsize: u32,
    /// Longest name.
    pub namelen: u32,
    /// Fragment size.
    pub frsize: u32,
    /// Padding.
    pub padding: u32,
    /// Reserved.
    pub spare: [u32; 6],
}

/// `struct fuse_dirent` without its name (names follow, padded to 8 bytes).
#[derive(Clone, Copy, Debug, Default, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
pub struct Dirent {
    /// Inode number.
    pub ino: u64,
    /// Cookie of the next entry.
    pub off: u64,
    /// Name length (bytes, no terminator).
    pub namelen: u32,
    /// `DT_*` type.
    pub typ: u32,
}

// Layouts of <linux/fuse.h> (protocol 7.38), checked by the compiler.
const _: () = {
    assert!(size_of::<InHeader>() == 40);
    assert!(size_of::<OutHeader>() == 16);
    assert!(size_of::<InitIn>() == 64);
    assert!(size_of::<InitOut>() == 64);
    assert!(size_of::<Attr>() == 88);
    assert!(size_of::<EntryOut>() == 128);
    assert!(size_of::<AttrOut>() == 104);
    assert!(size_of::<OpenIn>() == 8);
    assert!(size_of::<OpenOut>() == 16);
    assert!(size_of::<ReleaseIn>() == 24);
    assert!(size_of::<FlushIn>() == 24);
    assert!(size_of::<ReadIn>() == 40);
    assert!(size_of::<IoctlIn>() == 32);
    assert!(size_of::<IoctlOut>() == 16);
    assert!(size_of::<InterruptIn>() == 8);
    assert!(size_of::<StatfsOut>() == 80);
    assert!(size_of::<Dirent>() == 24);
};
