//! `ndl-trace`: strace for `/dev/neuron`. Record what a runtime asks the Neuron driver,
//! decode it by the ioctl ABI, sum it, look at it on a timeline, and replay it against the
//! emulated kernel.
//!
//! * **Recorders**, both writing [the trace format](#the-trace-format) below:
//!   [`RecordingBackend`] (feature `fuse`), the FUSE backend of `neuron-tool serve --record
//!   FILE`, which records everything the served model answers; and the `LD_PRELOAD` library
//!   `libneuron_trace.so` (crate `neuron-trace-preload`, its logic in [`interpose`]), which
//!   records a process's open/ioctl/mmap/munmap/close on the Neuron nodes of a real host.
//!   Both keep the same bytes of a call: the argument struct before and after it, and the user
//!   buffers its pointers name ([`capture`], by the rules of `tables/user-buffers.tsv` over the
//!   struct layouts of [`ndl_abi`]), each capped (the cap recorded, the whole length too).
//! * **Reader**: [`TraceReader`] refuses a truncated or corrupt file with a [`TraceError`]
//!   that says where and why; no input makes it panic, and every count and length in the
//!   file is checked against the format's bounds before anything is allocated for it.
//! * **Decode** ([`decode`], [`text`], [`json`]): every field by name from the trace's ABI
//!   release, nested structs, arrays, pointees and UDMA descriptors included, errno named;
//!   [`filter`] by process, command and device; [`stats`] per command; [`chrome`] as a
//!   Chrome/Perfetto timeline.
//! * **Replay** ([`replay`], feature `replay`): the calls against `ndl-emu`'s emulated
//!   kernel, handles, cookies and descriptors remapped (`tables/identifiers.tsv`), every
//!   difference in return value, errno or output bytes reported with its event number.
//!
//! ```
//! use ndl_trace::capture::{Capture, Memory};
//! use ndl_trace::text::Style;
//! use ndl_trace::{Common, Header, Recorder, TraceReader, TraceWriter};
//! use zerocopy::{FromZeros, IntoBytes};
//!
//! // A process's memory: one DMA_ENG_GET_STATE argument whose `state` points at 0x2000.
//! struct Fake(Vec<(u64, Vec<u8>)>);
//! impl Memory for Fake {
//!     fn read(&self, addr: u64, dst: &mut [u8]) -> bool {
//!         self.0.iter().any(|(a, b)| {
//!             let off = addr.wrapping_sub(*a) as usize;
//!             b.get(off..off + dst.len()).map(|s| dst.copy_from_slice(s)).is_some()
//!         })
//!     }
//! }
//! let mut arg = ndl_abi::DmaEngGetState::new_zeroed();
//! arg.eng_id = 3;
//! arg.state = ndl_abi::UserPtr::from_addr(0x2000);
//! let mut state = ndl_abi::DmaEngState::new_zeroed();
//! let before = Fake(vec![(0x1000, arg.as_bytes().to_vec()), (0x2000, state.as_bytes().to_vec())]);
//!
//! let abi = ndl_abi::Release::DEFAULT.abi();
//! let request = ndl_abi::DMA_ENG_GET_STATE.code();
//! let mut capture = Capture::before(abi, request, 0x1000, &before, 4096);
//! state.max_queues = 16; // what the driver wrote through `state`
//! let after = Fake(vec![(0x1000, arg.as_bytes().to_vec()), (0x2000, state.as_bytes().to_vec())]);
//! capture.after(&after);
//!
//! let header = Header {
//!     recorder: Recorder::Library,
//!     generation: Some(3),
//!     release: ndl_abi::Release::DEFAULT,
//!     cap: 4096,
//!     pid: 1,
//!     start_wall_ns: 0,
//!     start_mono_ns: 0,
//!     device_dir: "/dev".into(),
//! };
//! let mut w = TraceWriter::new(Vec::new(), &header)?;
//! w.write(&capture.event(Common { pid: 7, tid: 7, device: Some(0), fd: 3, ..Common::default() }))?;
//! let bytes = w.finish(1)?;
//!
//! let mut r = TraceReader::new(&bytes[..])?;
//! let header = r.header().clone();
//! let (n, e) = r.next_event()?.expect("the ioctl");
//! let mut line = String::new();
//! Style { header: &header, abi }.call(&mut line, &e);
//! // `state` is an output (tables/user-buffers.tsv): kept after the call only.
//! assert_eq!(
//!     line,
//!     "ioctl DMA_ENG_GET_STATE {eng_id=3 state=0x2000->{revision_id=0 max_queues=16 \
//!      num_queues=0 tx_state=0 rx_state=0}}"
//! );
//! assert_eq!(n, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The trace format
//!
//! Version 1 ([`VERSION`]). All integers are little-endian. A trace is a header, then
//! records until the end of the file. Recorders write each record with one `write(2)`, so a
//! trace cut by a killed recorder ends on a record boundary: it reads as complete records
//! without the writer's end record ([`TraceReader::complete`] is then false).
//!
//! **Header** (`H` bytes; `R` and `D` below):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `7f 4e 54 52 41 43 45 0a` ([`MAGIC`], `\x7fNTRACE\n`) |
//! | 8 | 2 | format version (1) |
//! | 10 | 2 | `H`, the header's length |
//! | 12 | 1 | recorder: 1 interposer, 2 FUSE server, 3 library ([`Recorder`]) |
//! | 13 | 1 | chip generation (2, 3, 4), 0 when the recorder does not know it |
//! | 14 | 2 | reserved, 0 |
//! | 16 | 4 | cap: bytes kept of each user buffer (at most [`MAX_CAP`]) |
//! | 20 | 4 | recorder's pid |
//! | 24 | 8 | `CLOCK_REALTIME` at the start, ns since the epoch |
//! | 32 | 8 | `CLOCK_MONOTONIC` at the same moment, ns (events use this clock) |
//! | 40 | 1 | `R`: length of the driver release name (at most [`MAX_RELEASE`]) |
//! | 41 | 1 | reserved, 0 |
//! | 42 | 2 | `D`: length of the device directory (at most [`MAX_PATH`]) |
//! | 44 | 4 | reserved, 0 |
//! | 48 | R | the driver release whose ABI the recorder captured by (`2.26.5.0`) |
//! | 48+R | D | the Neuron device directory the recorder watched |
//! | H-4 | 4 | CRC-32 (IEEE, as zlib) of bytes 0..H-4 |
//!
//! **Record**: a 4-byte body length `L` (56 ..= [`MAX_RECORD`]), the CRC-32 of the body, the
//! body. Every body starts with 56 bytes:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 1 | kind: 1 open, 2 close, 3 ioctl, 4 mmap, 5 munmap, 6 end |
//! | 1 | 1 | flags (ioctl only: bit 0 argument before kept, bit 1 argument after kept) |
//! | 2 | 2 | reserved, 0 |
//! | 4 | 4 | pid (thread group) |
//! | 8 | 4 | tid |
//! | 12 | 4 | device index `N` of `neuronN`, `0xffffffff` for none |
//! | 16 | 8 | fd (the server: its file handle) |
//! | 24 | 4 | the fd's open(2) flags (the access mode picks the driver's lane) |
//! | 28 | 4 | errno, 0 on success |
//! | 32 | 8 | `CLOCK_MONOTONIC` at the call's start, ns |
//! | 40 | 8 | the call's duration, ns |
//! | 48 | 8 | return value (mmap: the address's bits; -1 on failure) |
//!
//! then, by kind:
//!
//! * **open**: mode (4), path length `P` (2, at most [`MAX_PATH`]), reserved (2), the path.
//! * **close**: nothing.
//! * **ioctl**: request (4), argument length `A` (4, at most [`MAX_ARG`]), argument word (8),
//!   buffer count `B` (2, at most [`MAX_BUFFERS`]), reserved (6); the argument before the
//!   call (`A` bytes, when flag bit 0), after it (`A` bytes, when flag bit 1); then `B`
//!   buffers, each: address (8), whole length by the ABI (8), bytes kept `K` (4, at most the
//!   cap and the length), flags (1: bit 0 before kept, bit 1 after kept, bit 2 unreadable
//!   before, bit 3 unreadable after), label length (1), reserved (2), the label (a field path
//!   such as `tx`, `batches_ptr[1].ops_ptr`; UTF-8), the kept bytes before, after.
//! * **mmap**: address hint (8), length (8), prot (4), flags (4), offset (8).
//! * **munmap**: address (8), length (8).
//! * **end**: events this writer wrote before it (8). The interposer writes one per process
//!   at exit, the server one when it stops.
//!
//! Every reserved byte must be 0, every flag bit known, and the body must end exactly where
//! its fields do; the reader refuses anything else as corrupt, with the offset of the
//! record and the value that is wrong.
#![forbid(unsafe_code)]

pub mod capture;
pub mod chrome;
pub mod clock;
mod crc;
pub mod ctype;
pub mod decode;
pub mod errno;
mod error;
mod event;
pub mod filter;
mod format;
#[cfg(feature = "fuse")]
mod fuse_recorder;
pub mod ids;
pub mod interpose;
pub mod json;
mod reader;
#[cfg(feature = "replay")]
pub mod replay;
pub mod rules;
pub mod stats;
pub mod text;
mod writer;

pub use crc::{Crc32, crc32};
pub use error::TraceError;
pub use event::{Buffer, Call, Common, Event, Header, Ioctl, Recorder};
pub use format::{
    EncodeError, MAGIC, MAX_ARG, MAX_BUFFERS, MAX_CAP, MAX_LABEL, MAX_PATH, MAX_RECORD,
    MAX_RELEASE, VERSION, encode_event, encode_header,
};
#[cfg(feature = "fuse")]
pub use fuse_recorder::RecordingBackend;
pub use reader::TraceReader;
pub use writer::{TraceWriter, WriteError};
