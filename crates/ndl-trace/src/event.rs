//! What a trace holds: its [`Header`] and one [`Event`] per call, as borrowed views of the
//! record bytes (the reader hands them out without copying; the recorders build them over
//! their own buffers and encode them).

use std::path::PathBuf;

use ndl_abi::Release;

/// Which recorder wrote a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Recorder {
    /// The `LD_PRELOAD` interposer (`libneuron_trace.so`) inside the traced process: `fd` is
    /// the process's file descriptor.
    Interposer,
    /// The FUSE server (`neuron-tool serve --record`): `fd` is the server's file handle of
    /// the open (one per open(2); a dup'ed descriptor shares it).
    Server,
    /// A program that wrote the trace through this crate's API (tests, synthetic traces).
    Library,
}

impl Recorder {
    pub(crate) const fn code(self) -> u8 {
        match self {
            Self::Interposer => 1,
            Self::Server => 2,
            Self::Library => 3,
        }
    }

    pub(crate) const fn from_code(code: u8) -> Option<Self> {
        match code {
            1 => Some(Self::Interposer),
            2 => Some(Self::Server),
            3 => Some(Self::Library),
            _ => None,
        }
    }

    /// The name decode prints.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Interposer => "interposer",
            Self::Server => "server",
            Self::Library => "library",
        }
    }

    /// What the recorder calls the `fd` column.
    pub const fn fd_name(self) -> &'static str {
        match self {
            Self::Server => "fh",
            Self::Interposer | Self::Library => "fd",
        }
    }
}

/// The file header: who recorded, with which ABI and cap, from when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The recorder.
    pub recorder: Recorder,
    /// The chip generation (2, 3, 4) when the recorder knows it (the server does), else `None`.
    pub generation: Option<u8>,
    /// The driver release whose ABI told the recorder which user buffers to capture (and the
    /// default ABI of decode).
    pub release: Release,
    /// At most this many bytes of each user buffer are kept (`len` records the whole length).
    pub cap: u32,
    /// Process id of the recorder (the traced process for the interposer, the server's own
    /// for the server).
    pub pid: u32,
    /// `CLOCK_REALTIME` when the trace was started, nanoseconds since the Unix epoch.
    pub start_wall_ns: u64,
    /// `CLOCK_MONOTONIC` at the same moment (events carry `CLOCK_MONOTONIC` times).
    pub start_mono_ns: u64,
    /// The Neuron device directory the recorder watched (`/dev`, or a FUSE mount).
    pub device_dir: PathBuf,
}

/// Fields every event carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Common {
    /// Process (thread-group) id of the caller.
    pub pid: u32,
    /// Thread id of the caller.
    pub tid: u32,
    /// The device index (`neuronN`), `None` where the call names no device node.
    pub device: Option<u32>,
    /// The file descriptor (interposer) or file handle (server) the call was made on; for an
    /// open, the one it returned (-1 when it failed).
    pub fd: i64,
    /// The open(2) flags of that file (access mode included: it picks the driver's lane).
    pub open_flags: u32,
    /// `CLOCK_MONOTONIC` at the call's start, in nanoseconds.
    pub t_ns: u64,
    /// How long the call took, in nanoseconds.
    pub dur_ns: u64,
    /// The call's return value (an mmap's address as its bits; -1 for a failed call).
    pub ret: i64,
    /// The errno of a failed call, 0 for success.
    pub errno: i32,
}

/// One captured user buffer of an ioctl: memory an argument's pointer (or flexible array
/// member) names, before and after the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer<'a> {
    /// Where it hangs in the argument: a field path such as `tx`, `mem_handle`,
    /// `batches_ptr[1].ops_ptr` or `app_data` (a flexible array member).
    pub label: &'a str,
    /// User address of the first byte.
    pub addr: u64,
    /// Its whole length by the ABI (the count field times the element size); at most
    /// [`Header::cap`] bytes of it are kept.
    pub len: u64,
    /// The kept bytes before the call (when the driver may read them).
    pub before: Option<&'a [u8]>,
    /// The kept bytes after the call (when the driver may write them).
    pub after: Option<&'a [u8]>,
    /// Reading the buffer failed before the call (the address was not readable).
    pub fault_before: bool,
    /// Reading it failed after the call.
    pub fault_after: bool,
}

impl Buffer<'_> {
    /// Bytes kept (`len` capped at the trace's cap).
    pub fn captured(&self) -> usize {
        self.before.or(self.after).map_or(0, <[u8]>::len)
    }
}

/// An ioctl call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ioctl<'a> {
    /// The 32-bit request number.
    pub request: u32,
    /// The argument word (the argument struct's address for every Neuron command with one).
    pub arg: u64,
    /// The argument struct's bytes before the call (`None` when there is no argument struct
    /// or it could not be read).
    pub before: Option<&'a [u8]>,
    /// The same bytes after the call.
    pub after: Option<&'a [u8]>,
    /// The user buffers the argument names.
    pub buffers: Vec<Buffer<'a>>,
}

impl<'a> Ioctl<'a> {
    /// The buffer labelled `label`.
    pub fn buffer(&self, label: &str) -> Option<&Buffer<'a>> {
        self.buffers.iter().find(|b| b.label == label)
    }
}

/// What was called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call<'a> {
    /// open(2)/openat(2) of a node under the device directory; `Common::fd` is the result.
    Open {
        /// The path as the caller passed it (the server: the node it serves).
        path: &'a [u8],
        /// The mode argument when the flags create a file (O_CREAT, O_TMPFILE), else 0.
        mode: u32,
    },
    /// close(2) of a traced descriptor (the server: FLUSH, one per close of the open).
    Close,
    /// ioctl(2).
    Ioctl(Ioctl<'a>),
    /// mmap(2) of a traced descriptor; `Common::ret` is the address.
    Mmap {
        /// The address hint.
        addr: u64,
        /// Length.
        len: u64,
        /// `PROT_*`.
        prot: u32,
        /// `MAP_*`.
        flags: u32,
        /// File offset (the driver's mmap cookie).
        offset: u64,
    },
    /// munmap(2) of (part of) a traced mapping.
    Munmap {
        /// Start.
        addr: u64,
        /// Length.
        len: u64,
    },
    /// The recorder of process `Common::pid` stopped cleanly after writing `events` events
    /// (a trace whose processes all have one is complete).
    End {
        /// Events that process wrote before this one.
        events: u64,
    },
}

impl Call<'_> {
    /// The call's name as decode prints it (`ioctl` for every request).
    pub const fn name(&self) -> &'static str {
        match self {
            Call::Open { .. } => "open",
            Call::Close => "close",
            Call::Ioctl(_) => "ioctl",
            Call::Mmap { .. } => "mmap",
            Call::Munmap { .. } => "munmap",
            Call::End { .. } => "end",
        }
    }
}

/// One event: who, when, what, with which result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<'a> {
    /// The fields every event has.
    pub common: Common,
    /// The call.
    pub call: Call<'a>,
}
