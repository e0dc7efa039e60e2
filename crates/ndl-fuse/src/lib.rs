//! `ndl-fuse`: the emulated Neuron driver served as device files over FUSE, so the real
//! system-call path — `open(2)` flags choosing the lane, request codes and argument sizes as
//! Linux sees them, errno coming back through the syscall — runs against the device model.
//!
//! ```text
//! process ── open/ioctl/close ──▶ Linux VFS ──▶ fuse ──▶ /dev/fuse ──▶ Server (this crate)
//!    ▲                                                                     │ Backend
//!    └──────────── process_vm_readv / process_vm_writev ◀── EmulatedKernel ┘
//! ```
//!
//! The server speaks the FUSE protocol on `/dev/fuse` itself ([`abi`] and a small request
//! loop): no FUSE library exposes both the ioctl argument address (`fuse_ioctl_in.arg`) and
//! the caller, which the driver's argument handling needs.
//!
//! # What works
//!
//! * **open(2)** of `DIR/neuronN` is an open file of the emulated kernel, made by the calling
//!   process (thread group) with the caller's access mode: O_WRONLY (and access mode 3) take
//!   the free-access lane, O_RDONLY/O_RDWR attach the process and take the privileged path
//!   (attach-checked requests answer EACCES to a process that did not open the node itself).
//! * **ioctl(2)**: every Neuron request. Linux hands FUSE a restricted ioctl with only
//!   `_IOC_SIZE` bytes copied (8 for the pointer-form commands); the server ignores that copy
//!   and, like the driver, reads the whole argument struct — and the buffers and arrays it
//!   points to — from the caller's memory with `process_vm_readv`, writing results back with
//!   `process_vm_writev` ([`ProcessMemory`], the emulated kernel's `UserMemory` for another
//!   process, passed to `EmulatedKernel::ioctl_from` with the caller's tgid), also for
//!   commands encoded `_IOW` that write results
//!   (GET_VA_PLACEMENT, DEVICE_BASIC_INFO ...). The reply carries no data, so FUSE copies
//!   nothing back over those results. The result or errno is the driver's, with two
//!   differences Linux imposes: ENOSYS arrives as ENOTTY (FUSE's ioctl path translates it),
//!   and an argument address that is not readable fails with EFAULT in the kernel before
//!   the server sees it (the driver would answer some of those with a positive count).
//! * **close(2)**: FLUSH per close, RELEASE when the last reference goes; RELEASE closes the
//!   emulated file, so what the driver releases on close (attach slot, core-range marks, and
//!   the process's memory when its last privileged file on the device goes) is released —
//!   also when the process is killed. FLUSH reaches the kernel too
//!   ([`EmulatedKernel::flush`](ndl_emu::EmulatedKernel::flush)): a process that uses the
//!   device only through a descriptor it did not open (a forked child) has what it holds
//!   released when it closes that descriptor or dies.
//! * **mmap(2)** does not reach the model: files are opened with FOPEN_DIRECT_IO, so a
//!   MAP_SHARED mapping fails with ENODEV (FUSE cannot keep page-cache pages coherent with
//!   memory the engines write). Flows over the mount use ioctl-only delivery: descriptors
//!   with DMA_COPY_DESCRIPTORS, data with MEM_BUF_COPY. So what the driver does through
//!   mappings (read-only mappings of another process's chunk, DMABUF_FD and GET_VA_PLACEMENT
//!   on a mapped address) cannot be exercised through the mount.
//! * **Processes**: the caller is the thread FUSE reports, mapped to its thread group
//!   (cached, re-validated per request); a forked child using its parent's fd is another
//!   process to the driver (EACCES on attach-checked requests), as on the real driver.
//! * read/write/fsync answer EINVAL (the driver has none).
//! * **Who may use the mount**: only the user who mounted it (no `allow_other`), so in
//!   practice root, since the server calls mount(2) itself.
//! * **Differs from the driver**: the opener's per-process cleanup runs when the *file* is
//!   released (its last reference closed), not at the flush of the opener's last fd: a file
//!   shared with a forked child keeps the opener's chunks until the child has closed it too.
//!   A non-opener's cleanup runs at its first FLUSH (FUSE does not say how many duplicates
//!   of the file a process still holds).
//!
//! Measured (release build, `cargo bench -p ndl-fuse`, 2 cores shared with other builds, so
//! rough): one COMPATIBLE_VERSION round trip through the Ndl wrappers 0.34 µs in-process
//! vs 19 µs through FUSE; MEM_BUF_COPY64 of 64 MiB 62 ms (1.0 GiB/s) vs 85 ms (750 MiB/s);
//! the driver-style 64 MiB copy 207 ms vs 288 ms.
//!
//! # Trying the real-hardware path without hardware
//!
//! Mounting needs root (the server calls mount(2) itself; no `fusermount`):
//!
//! ```text
//! # terminal 1: four trn2 (V3) devices under /tmp/neuron
//! mkdir -p /tmp/neuron
//! sudo neuron-tool serve --mount /tmp/neuron --arch cayman --devices 4
//!
//! # terminal 2: the driver-style copy through real open/ioctl/close on the served node
//! # (descriptors by DMA_COPY_DESCRIPTORS: a served node cannot be mmap'd shared)
//! sudo neuron-tool copy --device /tmp/neuron/neuron0 --size 64MiB --delivery copy-descriptors
//!
//! # Ctrl-C in terminal 1 unmounts.
//! ```
//!
//! In a test, [`Server::start`] mounts and serves on a temporary directory, and stopping or
//! dropping the [`Server`] unmounts it:
//!
//! ```no_run
//! use ndl_fuse::{EmulatedBackend, Server};
//! use khal::Generation;
//! use ndl_std::Ndl;
//!
//! let dir = tempfile::tempdir()?;
//! let kernel = ndl_emu::EmulatedKernel::new(Generation::V3, 1)?;
//! let server = Server::start(dir.path(), EmulatedBackend::new(kernel))?;
//! // The real-syscall backend, opening DIR/neuronN.
//! let ndl = Ndl::new().with_root(dir.path());
//! // arch-scalars.tsv: a V3 driver accepts runtime versions 10 to 11.
//! assert_eq!(ndl.misc().compatible_version()?, (10, 11));
//! server.stop()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod abi;
mod backend;
mod caller;
mod emulated_backend;
mod error;
mod mount;
mod process_memory;
mod server;
mod session;
mod termination;

pub use backend::{Backend, Caller};
pub use caller::tgid_of;
pub use emulated_backend::EmulatedBackend;
pub use error::Error;
pub use mount::{FUSE_DEVICE, Mount};
pub use process_memory::ProcessMemory;
pub use server::{DEFAULT_WORKERS, Server};
pub use termination::Termination;
