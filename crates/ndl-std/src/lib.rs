//! `ndl-std`: a safe, complete, 1:1 Rust layer over the Neuron driver's `/dev/neuronN`
//! character devices — what `kvm-ioctls` is to `/dev/kvm`.
//!
//! * [`ioctl_codes`]: every command as a typed request constant, the decoder, the routing walk;
//!   [`ioctl_structs`]: every argument struct, layout-asserted against the reference tables.
//! * [`Kernel`]: the five system calls (open, close, ioctl, mmap, munmap) as a trait;
//!   [`RealKernel`] is Linux through `rustix`. The emulated kernel (a model of the driver's
//!   dispatcher over `neuron-emu` device models) lives in its own crate, `ndl-emu`, above this
//!   one: this crate depends on no device model and no arch crate.
//! * [`Ndl`]: the per-process context with the three gateways — [`Device`] (cached read-only
//!   fd per device), [`Misc`] (one write-only fd for the free-access lane), [`DeviceHandle`]
//!   (an owned read-write fd) — and [`Mapping`] for mmap'd driver objects.
//! * [`copy`]: the register-level DMA copy flow (rings in mapped memory, khal bring-up and
//!   doorbells through a mapped BAR0, udma-desc descriptors), generic over the kernel and the
//!   arch set.
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
pub mod copy;
mod error;
mod fd_slot;
mod gateway;
pub mod ioctl_codes;
pub mod ioctl_structs;
mod kernel;
mod mapping;
mod ndl;
mod real_kernel;
pub mod returns;
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
pub use wrappers::*;

/// The chip generation (re-exported from `khal`).
pub use khal::Generation;
