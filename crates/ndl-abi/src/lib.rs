//! `ndl-abi`: the Neuron driver's ioctl ABI — request codes, argument structs, return
//! conventions and the driver's routing facts — of seven driver releases, generated from the
//! driver's tables. It is to `ndl-std` what `kvm-bindings` is to `kvm-ioctls`: `no_std`, no
//! allocation, no panics, no system calls; one module per release.
//!
//! * One module per driver release, `v2_24_7_0` .. `v2_30_2_0` (the seven of
//!   `tables/abi/`); **2.26.5.0 is the default** and re-exported at the crate root (the release
//!   the emulated kernel follows). Each holds its typed request constants ([`Request`], one line
//!   per opcode), its `CATALOG` of untyped [`Command`]s, every argument struct (`#[repr(C)]`,
//!   size/align/offsets asserted at compile time, no padding bytes, `zerocopy` derives) and a
//!   `kernel` module with the driver's routing facts, compatible-version windows and version
//!   strings. A struct whose layout did not change from the release before is the same Rust
//!   type in both modules.
//! * [`UserPtr<T>`] for pointer fields, typed by the pointee; [`NoUserPtr`] marks the
//!   structs whose command touches no user memory but the argument itself (no field with
//!   `user_ptr = yes`, no flexible array member), so a shim can offer them as safe calls.
//! * [`Returns`]: how each command's return value reads ([`Command::returns`]); [`errno`]
//!   the errno values they name, [`limits`] the numbers the handlers enforce (PRINTK's 512
//!   bytes, the 16-byte descriptor the copy ioctls count in, ...), each with its source.
//! * [`Release`] and [`Abi`]: the releases as data, for picking one at run time;
//!   [`routing`] and each `kernel` module: the driver's dispatch walk (kernel side).
//!
//! Everything under `src/generated/` is written by `cargo xtask codegen` from the tables in
//! `tables/` (see `CONTRIBUTING.md` for the recipe); `cargo xtask codegen --check` fails on
//! any difference, and `cargo xtask ci` runs it.
//!
//! ```
//! use ndl_abi::{Dir, MEM_COPY64, MemCopy64, PROGRAM_ENGINE_NC, Release, kernel};
//! use zerocopy::FromZeros;
//!
//! assert_eq!(MEM_COPY64.code(), 0x8028_4E17);
//! let mut arg = MemCopy64::new_zeroed();
//! arg.size = 1 << 33; // 64-bit sizes are what MEM_COPY64 is for
//! assert_eq!(size_of::<MemCopy64>(), 40);
//!
//! let d = ndl_abi::decode(0xC008_4E69);
//! assert_eq!(d.names().next(), Some(PROGRAM_ENGINE_NC.name()));
//! assert_eq!((d.dir(), d.nr(), d.size()), (Dir::ReadWrite, 105, 8));
//! assert_eq!(d.lane(), Some(kernel::Lane::Device));
//!
//! // The 2.30.2.0 MEM_COPY64 is 56 bytes wide; the old 40-byte request kept a new name.
//! let new = Release::parse("2.30.2.0")?.abi();
//! assert_eq!(new.find("MEM_COPY64").map(|c| c.code()), Some(0x8038_4E17));
//! assert_eq!(new.lookup(0x8028_4E17).map(|c| c.short_name()), Some("MEM_COPY64_DEPRECATED"));
//! # Ok::<(), ndl_abi::UnknownRelease>(())
//! ```
#![no_std]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::cast_possible_truncation
    )
)]

mod driver;
mod generated;
mod layout;
mod release;
mod request;
mod returns;
pub mod routing;
mod user_ptr;

pub use driver::{CompatWindow, DriverArch, DriverVersion};
pub use generated::*;
pub use layout::{AbiLayout, FieldLayout, NoUserPtr, StructLayout};
pub use release::{Abi, Decoded, UnknownRelease};
pub use request::{Command, Dir, Form, MAX_SIZE, Request, TYPE, ioc, nr_of, size_of_code, type_of};
pub use returns::Returns;
pub use user_ptr::UserPtr;

/// Every command of the default release (2.26.5.0), in table order.
pub fn catalog() -> core::slice::Iter<'static, Command> {
    Release::DEFAULT.abi().catalog.iter()
}

/// The default release's command named `name`, with or without the `NEURON_IOCTL_` prefix.
pub fn find(name: &str) -> Option<&'static Command> {
    Release::DEFAULT.abi().find(name)
}

/// The default release's command whose request number is exactly `code`.
pub fn lookup(code: u32) -> Option<&'static Command> {
    Release::DEFAULT.abi().lookup(code)
}

/// Takes any 32-bit request number apart against the default release (2.26.5.0).
pub const fn decode(code: u32) -> Decoded {
    Release::DEFAULT.abi().decode(code)
}
