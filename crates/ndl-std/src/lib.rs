//! `ndl-std`: a safe, complete, 1:1 Rust layer over the Neuron driver's `/dev/neuronN`
//! character devices — what `kvm-ioctls` is to `/dev/kvm`.
//!
//! * [`ioctl_codes`]: every command as a typed request constant, the decoder, the routing walk;
//!   [`ioctl_structs`]: every argument struct, layout-asserted against the reference tables.
//! * [`Kernel`]: the five system calls (open, close, ioctl, mmap, munmap) as a trait;
//!   [`RealKernel`] is Linux through `rustix`, [`model::ModelKernel`] an in-process model of
//!   the driver's dispatcher.
//! * [`Ndl`]: the per-process context with the three gateways — [`Device`] (cached read-only
//!   fd per device), [`Misc`] (one write-only fd for the free-access lane), [`DeviceHandle`]
//!   (an owned read-write fd) — and [`Mapping`] for mmap'd driver objects.
//!
//! ```
//! use ndl_std::model::ModelKernel;
//! use ndl_std::Ndl;
//!
//! let ndl = Ndl::with_kernel(ModelKernel::new(2)); // nodes at /dev/neuron0..1 of the model
//! let (min, max) = ndl.misc().compatible_version()?;
//! assert!(min <= max);
//! let dev = ndl.open_device(1)?;
//! let mem = dev.mem_alloc(4096, 64, ndl_std::MemLocation::Host, 0)?;
//! dev.mem_buf_copy_to(mem, 0, b"hello")?;
//! let mut back = [0u8; 5];
//! dev.mem_buf_copy_from(mem, 0, &mut back)?;
//! assert_eq!(&back, b"hello");
//! # Ok::<(), ndl_std::Error>(())
//! ```

mod compat;
mod error;
mod fd_slot;
mod gateway;
pub mod ioctl_codes;
pub mod ioctl_structs;
mod kernel;
mod mapping;
pub mod model;
mod ndl;
mod real_kernel;
mod sync;
mod wrappers;

pub use compat::{CompatLatch, Family};
pub use error::{Error, Result};
pub use fd_slot::{FdSlot, PinnedFd};
pub use gateway::{Device, DeviceHandle, Misc};
pub use kernel::{AccessMode, Errno, Kernel, RawFd};
pub use mapping::Mapping;
pub use ndl::{DEFAULT_ROOT, MAX_DEVICES, Ndl};
pub use real_kernel::RealKernel;
pub use wrappers::*;
