//! The verified copy: planning, the device interface, the generic runner and its summary.
//!
//! * [`plan`]: cutting a copy into ≤ 64 KiB descriptors and packets within the arch limits.
//! * [`device`]: [`CopyDevice`], what the copy needs from the device model or hardware.
//! * [`model`]: [`ModelDevice`], the built-in target over `neuron-emu`.
//! * [`run`]: [`run_copy`], generic over `A: khal::Arch` and the device.
//! * [`summary`]: [`CopySummary`], printed as text or JSON.

pub mod device;
#[cfg(test)]
mod loopback;
pub mod model;
pub mod plan;
pub mod run;
pub mod summary;

pub use device::{CopyDevice, DeviceQueue};
pub use model::{ModelDevice, ModelError};
pub use plan::{CopyPlan, PacketPlan, PlanError, SplitLimits};
pub use run::{COPY_RING, CopyOptions, fill_pattern, pattern_byte, run_copy};
pub use summary::{CopySummary, human_bytes};
