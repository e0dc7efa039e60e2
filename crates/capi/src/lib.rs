//! The C ABI of the neuron HAL: `libneuron_hal.a` / `libneuron_hal.so` and
//! `include/neuron_hal.h`, so that a C runtime (the runtime this project replaces, libnrt, is
//! C) can use the descriptor builders, the engine bring-up and the NDL gateways without
//! rewriting its callers.
//!
//! * **Names and argument orders** are the seeds' where they give them: seed 004 (KaenaHal:
//!   `al_udma_m2m_copy_prepare_one`, `_copy_start`, `_build_copy_descriptor`,
//!   `_build_packet`, `_crc_prepare_one`, `_reserve_descriptors`, `_set_descriptors`,
//!   `al_udma_available_get`, `al_udma_desc_action_add`, `al_udma_q_handle_get`,
//!   `al_udma_q_enable`, `al_udma_init`, `al_udma_revision_get`, `al_iofic_*`,
//!   `al_udma_iofic_*`) and seed 000 (the NDL: `ndl_device_ioctl`, `ndl_misc_ioctl`,
//!   `ndl_open_device`, the mmap pairing). Where a seed gives no signature, the header's
//!   comment says the signature is this project's.
//! * **Compile-time generation**: every function whose behaviour depends on the chip
//!   generation exists three times, `_v2`, `_v3`, `_v4`, each monomorphised Rust
//!   (`per_arch.rs` compiled once per arch type). A C program defines `NEURON_HAL_ARCH`
//!   (2, 3 or 4) before including the header and calls the plain names. The one run-time
//!   mapping is `neuron_hal_generation_from_pci_device_id` (`khal::dispatch`).
//! * **C conventions**: opaque handles (slot tokens, not addresses: `src/handle.rs`), caller
//!   ring memory as pointer + count, `0` or `-errno`, a thread-local last-error sentence,
//!   every entry inside `catch_unwind` (the crates below are panic-free by lint; the guard
//!   is there so that even a bug cannot unwind into C).
#![allow(unsafe_code)]

mod batch;
mod common;
mod engine;
mod failure;
mod handle;
mod ndl;
mod ndl_backend;
mod ndl_map;
mod regs;
mod ring_mem;
mod types;

use core::ffi::c_int;

pub use common::*;
pub use ndl::*;
pub use ndl_map::*;
pub use types::*;

use failure::guard;

/// The generations this library is built for, in dispatch order.
pub(crate) type Supported = (
    khal_sunda::Sunda,
    khal_cayman::Cayman,
    khal_mariana::Mariana,
);

/// The V2 (SUNDA: trn1, inf2) symbol set, `*_v2`.
pub mod v2 {
    use super::*;
    type A = khal_sunda::Sunda;
    macro_rules! c_name {
        ($n:literal) => {
            concat!($n, "_v2")
        };
    }
    include!("per_arch.rs");
}

/// The V3 (CAYMAN: trn2) symbol set, `*_v3`.
pub mod v3 {
    use super::*;
    type A = khal_cayman::Cayman;
    macro_rules! c_name {
        ($n:literal) => {
            concat!($n, "_v3")
        };
    }
    include!("per_arch.rs");
}

/// The V4 (MARIANA: trn3) symbol set, `*_v4`.
pub mod v4 {
    use super::*;
    type A = khal_mariana::Mariana;
    macro_rules! c_name {
        ($n:literal) => {
            concat!($n, "_v4")
        };
    }
    include!("per_arch.rs");
}
