//! The verified copy: planning, the device interface, the generic runner and its summary.
//!
//! * [`plan`]: cutting a copy into ≤ 64 KiB descriptors and packets within the arch limits.
//! * [`device`]: [`CopyDevice`] and [`CopyQueue`], what the copy needs from a device.
//! * [`ndl_device`]: [`NdlDevice`], the one implementation: a device opened through
//!   `ndl-std`, the built-in model (`EmulatedKernel`) and hardware (`RealKernel`) alike.
//! * [`run`]: [`run_copy`], generic over `A: khal::Arch` and the device.
//! * [`summary`]: [`CopySummary`], printed as text or JSON.

pub mod device;
#[cfg(test)]
mod loopback;
pub mod ndl_device;
pub mod plan;
pub mod run;
pub mod summary;

pub use device::{CopyDevice, CopyQueue};
pub use ndl_device::{ENGINE, NdlDevice, NdlError, NdlQueue, Step, WAIT_TIMEOUT};
pub use plan::{CopyPlan, PacketPlan, PlanError, SplitLimits};
pub use run::{COPY_RING, CopyOptions, fill_pattern, pattern_byte, run_copy};
pub use summary::{CopySummary, human_bytes};
