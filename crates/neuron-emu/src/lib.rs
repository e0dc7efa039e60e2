//! A behavioural model of one AWS Neuron device: UDMA units that execute descriptor rings from
//! memory, and the IOFIC interrupt controllers that latch their causes.
//!
//! Software drives the model exactly as it drives silicon: register reads and writes through
//! [`mmio::Mmio`] (so `khal` bring-up runs unchanged), descriptors as bytes in the model's
//! [`AddressSpace`], doorbells as tail-pointer-increment writes. The model never sees the
//! builders' Rust values.
//!
//! * [`AddressSpace`] — device (HBM) and host regions addressed by 64-bit DMA addresses, with
//!   an aligned allocator; out-of-range accesses are [`BusError`]s.
//! * [`Device`] — the units and memory behind one lock; implements [`mmio::Mmio`].
//! * Execution: [`Device::step`] / [`Device::run_until_idle`] (deterministic), or
//!   [`ExecMode::OnDoorbell`], or a [`BackgroundEngine`] thread.
//! * Data-path semantics (framing, phase, pairing, ordering, faults): see [`Device`].

#![forbid(unsafe_code)]

mod address_space;
mod allocator;
mod arch_layout;
mod desc_store;
mod device;
mod engine_state;
mod error;
mod fault;
mod iofic_model;
mod model;
mod queue;
pub mod scenario;
mod transfer;
mod unit;
mod wire;

pub use address_space::{AddressSpace, Region, RegionId, RegionKind, RegionSpec};
pub use arch_layout::{MemoryConfig, regions, unit_bases};
pub use desc_store::DeviceDescStore;
pub use device::{BackgroundEngine, Device, DeviceConfig, ExecMode};
pub use engine_state::EngineState;
pub use error::{AllocError, BusError, MapError};
pub use fault::{Direction, Fault};
pub use iofic_model::{GROUP_A, GROUP_B, GROUP_C, GROUP_D, IoficGroupModel, Level, UnitIofic};
pub use model::{FaultRecord, RunReport, Step};
pub use queue::{QueueBlock, QueueStats, RingPos};
pub use transfer::WaitReason;
pub use unit::QUEUES;
