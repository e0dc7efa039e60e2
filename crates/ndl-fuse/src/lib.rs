//! `ndl-fuse`: the emulated Neuron driver served as device files over FUSE, so the real
//! system-call path — `open(2)` flags choosing the lane, request codes and argument sizes as
//! Linux sees them, errno coming back through the syscall — runs against the device model.
//!
//! The server speaks the FUSE protocol on `/dev/fuse` itself ([`abi`] and a small request loop): no
//! FUSE library exposes both the ioctl argument address (`fuse_ioctl_in.arg`) and the
//! caller, which the driver's argument handling needs.

pub mod abi;
mod backend;
mod caller;
mod error;
mod mount;
mod process_memory;
mod server;
mod session;
mod termination;

pub use backend::{Backend, Caller};
pub use caller::tgid_of;
pub use error::Error;
pub use mount::{FUSE_DEVICE, Mount};
pub use process_memory::ProcessMemory;
pub use server::{DEFAULT_WORKERS, Server};
pub use termination::Termination;
