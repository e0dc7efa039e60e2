//! `ndl-std`: a safe, complete, 1:1 Rust layer over the Neuron driver's `/dev/neuronN`
//! character devices — what `kvm-ioctls` is to `/dev/kvm`.
//!
//! * [`ioctl_codes`]: every command as a typed request constant, the decoder, the routing walk;
//!   [`ioctl_structs`]: every argument struct, layout-asserted against the reference tables.
//! * [`Kernel`]: the five system calls (open, close, ioctl, mmap, munmap) as a trait;
//!   [`RealKernel`] is Linux through `rustix`, [`emulated::EmulatedKernel`] a model of the
//!   driver's dispatcher whose devices are `neuron-emu` device models.
//! * [`Ndl`]: the per-process context with the three gateways — [`Device`] (cached read-only
//!   fd per device), [`Misc`] (one write-only fd for the free-access lane), [`DeviceHandle`]
//!   (an owned read-write fd) — and [`Mapping`] for mmap'd driver objects (a volatile window
//!   over Linux, a window into the device model over the emulated kernel).
//! * [`copy`]: the end-to-end DMA copy flow (rings in mapped memory, khal bring-up and
//!   doorbells through a mapped BAR0, udma-desc descriptors), generic over the kernel.
//!
//! ```
//! use ndl_std::emulated::EmulatedKernel;
//! use ndl_std::Ndl;
//!
//! // Two trn2 (V3) devices at /dev/neuron0..1 of the emulated kernel.
//! let ndl = Ndl::with_kernel(EmulatedKernel::new(khal::Generation::V3, 2)?);
//! let (min, max) = ndl.misc().compatible_version()?;
//! assert!(min <= max);
//! let dev = ndl.open_device(1)?;
//! let mem = dev.mem_alloc(4096, 64, ndl_std::MemLocation::Host, 0)?;
//! dev.mem_buf_copy_to(mem, 0, b"hello")?;
//! let mut back = [0u8; 5];
//! dev.mem_buf_copy_from(mem, 0, &mut back)?;
//! assert_eq!(&back, b"hello");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod compat;
pub mod copy;
pub mod emulated;
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
mod wrappers;

pub use compat::{CompatLatch, Family};
pub use error::{Error, Result};
pub use fd_slot::{FdSlot, PinnedFd};
pub use gateway::{Device, DeviceHandle, Misc};
pub use kernel::{AccessMode, Errno, Kernel, MappedRegion, RawFd};
pub use mapping::Mapping;
pub use ndl::{DEFAULT_ROOT, MAX_DEVICES, Ndl};
pub use real_kernel::{RealKernel, RealRegion};
pub use wrappers::*;

/// The chip generation (re-exported from `khal`).
pub use khal::Generation;

/// The arch types this crate dispatches to (khal's one dispatch point turns a device's
/// generation into one of them): V2 SUNDA, V3 CAYMAN, V4 MARIANA.
pub type Arches = (
    khal_sunda::Sunda,
    khal_cayman::Cayman,
    khal_mariana::Mariana,
);
