//! `kernel-fuzz`: the fuzz harness of the emulated kernel's untrusted surface (issue 25,
//! item 6). Since `ndl-fuse` serves `/dev/neuronN`, any local process reaches
//! [`ndl_emu::EmulatedKernel::ioctl_from`] with any request, any argument word and any
//! pointers into its own memory; this harness plays several such processes.
//!
//! * An input is a [`Program`]: a header byte that builds the kernel (generation, one or
//!   two devices, privileged or not) and up to [`MAX_OPS`] operations — open, close,
//!   ioctl, mmap, munmap, stores and loads in user memory and through mappings — from up to
//!   [`PROCESSES`] processes. Request numbers come from every release's catalog
//!   ([`requests`]), resized or raw; argument words point into the caller's memory, at its
//!   end, nowhere, or anywhere.
//! * Each process's memory is a [`ByteMemory`] of [`USER_BYTES`] bytes: the kernel reaches
//!   it only through [`ndl_emu::UserMemory`], and everything outside it is EFAULT.
//! * After the program every process exits and [`Run::finish`] checks the release
//!   invariants (see [`invariants`]).
//! * [`record`] turns real call sequences (a driver-style copy, the `ndl-std` wrappers)
//!   into programs: the seed corpus under `fuzz/seeds/kernel/` is written from them by this
//!   crate's tests.
//!
//! Every input is deterministic (a fresh kernel, doorbells run when rung) and bounded (a
//! few MiB of device memory, 64 KiB per process, [`MAX_OPS`] operations of at most
//! [`MAX_BYTES`] bytes), so a run that takes long or allocates much is the kernel's doing.
//!
//! ```
//! use kernel_fuzz::{Op, Program, Setup, check};
//!
//! // Process 0 opens the device read-write and exits without closing: the exit cleans up.
//! let p = Program {
//!     setup: Setup::from_byte(1),
//!     ops: vec![Op::Open { process: 0, device: 0, mode: 2 }],
//! };
//! assert_eq!(check(&p.encode()), Ok(()));
//! ```

mod decode;
pub mod invariants;
pub mod memory;
pub mod program;
pub mod record;
pub mod requests;
pub mod run;

pub use invariants::Violation;
pub use memory::{ByteMemory, USER_BASE, USER_BYTES};
pub use program::{Caller, MAX_BYTES, MAX_OPS, Op, PROCESSES, Place, Program, Ptr, Req, Setup};
pub use run::Run;

/// The fuzz target's body: runs the program `data` spells, then checks the invariants.
pub fn check(data: &[u8]) -> Result<(), Violation> {
    Run::program(&Program::decode(data)).finish()
}
