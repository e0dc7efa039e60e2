//! One safe function per command family, on the gateway of the command's lane.
//!
//! Each wrapper builds the argument struct (padding zeroed), points user-address fields at
//! borrows of the right mutability, issues the request through the const-opcode path, and
//! turns the answer into typed values. A failure names the command.

mod device_info;
mod dma;
mod h2t;
mod memory;
mod misc_info;
mod nc;
mod pod;
mod types;

pub use dma::QUEUE_INIT_BATCH_MAX;
pub use h2t::H2tQueues;
pub use memory::{BatchFrom, BatchTo, McInfo, OpFrom, OpTo};
pub use misc_info::{NC_MAP_MAX_ENTRIES, PRINTK_MAX};
pub use pod::{PodModes, PodStatusInfo};
pub use types::{MemHandle, MemLocation, NcRangeMark, QueueType, ResourceInfo};
