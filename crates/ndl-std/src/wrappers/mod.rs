//! A safe wrapper for every command, on the gateway of the command's lane ([`WRAPPERS`]
//! lists them; `table.rs`).
//!
//! Each wrapper builds the argument struct (padding zeroed), points user-address fields at
//! borrows of the right mutability, issues the request through the const-opcode path, and
//! turns the answer into typed values. A failure names the command.

mod copy_async;
mod datastore;
mod device_info;
mod device_lifecycle;
mod dma;
mod firmware;
mod h2t;
mod h2t_completion;
mod memory;
mod memory_legacy;
mod misc_info;
mod nc;
mod perf_profile;
mod pod;
mod registers;
mod table;
mod types;

pub use copy_async::{ASYNC_WAIT_HANDLES, AsyncCopy, ZeroCopyAt};
pub use device_lifecycle::AppsInfo;
pub use dma::DescBytes;
pub use h2t::H2tQueues;
pub use h2t_completion::{ComplQueue, ComplQueueHeader, ComplQueueRegion, Completion};
pub use memory::{BatchFrom, BatchTo, McInfo, OpFrom, OpTo};
pub use misc_info::VaPlacement;
pub use perf_profile::PerfProfiles;
pub use pod::{PodModes, PodStatusInfo};
pub use table::{Gateway, WRAPPERS, Wrapper, wrappers_of};
pub use types::{MemHandle, MemLocation, NcRangeMark, QueueType, ResourceInfo};
