//! udma-desc (work in progress).
#![no_std]

pub mod caps;
mod doorbell;
mod queue_id;

pub use doorbell::Doorbell;
pub use queue_id::{InvalidQueueId, QUEUES_PER_ENGINE, QueueId};
