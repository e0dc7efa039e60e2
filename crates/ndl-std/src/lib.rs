//! `ndl-std`: a safe, complete, 1:1 Rust layer over the Neuron driver's `/dev/neuronN`
//! character devices — what `kvm-ioctls` is to `/dev/kvm`.
//!
//! * The ABI — every request constant, argument struct, return convention and the driver's
//!   routing facts, of seven driver releases — is the generated crate `ndl-abi`, as
//!   `kvm-bindings` is beside `kvm-ioctls`; this crate holds no ABI literal of its own.
//! * [`Kernel`]: the five system calls (open, close, ioctl, mmap, munmap) as a trait;
//!   [`RealKernel`] is Linux through `rustix`. The emulated kernel (a model of the driver's
//!   dispatcher over `neuron-emu` device models) lives in its own crate, `ndl-emu`, above this
//!   one: this crate depends on no device model and no arch crate.
//! * [`Ndl`]: the per-process context with the three gateways — [`Device`] (cached read-only
//!   fd per device), [`Misc`] (one write-only fd for the free-access lane), [`DeviceHandle`]
//!   (an owned read-write fd) — and [`Mapping`] for mmap'd driver objects. [`Ndl::global`]
//!   is the process-wide instance (lazily opened, closed at exit), like the NDL's globals.
//! * A safe wrapper for every command, a method of the gateway of its lane; [`WRAPPERS`]
//!   lists which wrapper sends which commands (a test checks it covers the catalog of
//!   2.26.5.0 and the commands 2.27.4.0 adds). A command whose argument the ABI crate marks
//!   [`ndl_abi::NoUserPtr`] is issued without `unsafe`; `unsafe` remains only where a user
//!   address crosses the boundary. Each answer is read under the command's
//!   [`ndl_abi::Returns`]; failures are [`Error`]s naming the command and errno, convertible
//!   to [`std::io::Error`].
//! * The DMA copy flows built on these wrappers are the crate `ndl-copy` (the driver-style
//!   copy, and the register-level copy behind a feature); this crate depends on no arch crate
//!   and no descriptor crate.
//!
//! # Real hardware, privileges, and the model
//!
//! **Runs on real hardware** (a process that can open `/dev/neuronN` read-write): every
//! wrapper whose command the driver serves on the lane its gateway uses; [`Mapping`]s of the process's own memory chunks (MEM_GET_EXTENDED_INFO's
//! `mmap_offset`, the whole chunk) and of the arch's special resources (RESOURCE_MMAP_INFO:
//! semaphores, events, state buffers, TOP_SP blocks, whole HBM channels on V3/V4;
//! RESOURCE_ALL entries read-only); and every command `ndl-copy`'s **driver-style copy**
//! issues (`reference/dma-path.md`, driver 2.26.5.0; run only against the emulated kernel
//! here, not on hardware).
//!
//! **Needs privileges**: mmap of raw device memory at an offset that is neither a chunk nor
//! a special resource needs CAP_SYS_RAWIO (the driver's root path, BAR4 only; EPERM
//! otherwise). A process that did not open the node itself (e.g. a forked child) is not
//! attached: the attach-checked commands (DMA_QUEUE_INIT, DMA_ACK_COMPLETED, MEM_FREE,
//! BAR_WRITE, ...) answer EACCES. A write-only (free-access) fd reaches only the misc
//! commands and cannot map.
//!
//! **Only the model does**: `ndl-copy`'s register-level path. It maps a BAR0 register
//! window and programs ring bases and doorbells itself, which the driver refuses to every
//! process, root included (no mmap reaches DMA engine registers; BAR_WRITE blocks the ring
//! base, completion base and tail-increment words of every queue,
//! `reference/bar0-write-block.tsv`). `ndl-emu`'s emulated kernel serves such a window only
//! when configured privileged, under resource numbers of its own that no driver uses.
//!
//! ```no_run
//! use ndl_std::{MemLocation, Ndl};
//!
//! // The real driver at /dev/neuron1.
//! let ndl = Ndl::new();
//! let dev = ndl.open_device(1)?;
//! let mem = dev.mem_alloc(4096, 64, MemLocation::Host, 0)?;
//! dev.mem_buf_copy_to(mem, 0, b"hello")?;
//! let mut back = [0u8; 5];
//! dev.mem_buf_copy_from(mem, 0, &mut back)?;
//! assert_eq!(&back, b"hello");
//! dev.mem_free(mem)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod compat;
mod context;
mod error;
mod fd_slot;
mod gateway;
mod kernel;
mod mapping;
mod ndl;
mod real_kernel;
mod returns;
mod sync;
#[cfg(feature = "test-utils")]
pub mod testing;
mod wrappers;

pub use compat::{CompatLatch, Family};
pub use context::{DEFAULT_ROOT, MAX_DEVICES};
pub use error::{Error, Result};
pub use fd_slot::{FdSlot, PinnedFd};
pub use gateway::{Device, DeviceHandle, Misc};
pub use kernel::{AccessMode, Errno, Kernel, MappedRegion, RawFd};
pub use mapping::Mapping;
pub use ndl::Ndl;
pub use real_kernel::{RealKernel, RealRegion};
pub use returns::ENOTSUPP;
pub use wrappers::*;
