//! UDMA engine and queue bring-up and configuration over any [`mmio::Mmio`] window of one
//! UDMA unit (a mapped BAR, the recording fake, the device model).
//!
//! The register sequences are the reference driver's (`udma-notes.md` sections 2, 3, 6, 7),
//! byte for byte on the success path; every input is validated **before** the first write,
//! so an error leaves the hardware untouched (the driver programs the TX queue before it
//! checks the RX one).

mod doorbell;
mod engine;
mod error;
mod error_irq;
mod prefetch;
mod queue;
mod state;
mod steering;

pub use doorbell::UnitDoorbell;
pub use engine::{
    AXI_TIMEOUT, EngineParams, OSTAND_S2M_WR, QUEUE_COUNT_ALL, Udma, ostand_m2s, ostand_s2m_rd,
};
pub use error::{RevisionFeature, UdmaError};
pub use error_irq::unmask_error_interrupts;
pub use prefetch::{MAX_DESCS_PER_PACKET, MIN_DESCS_PER_PACKET};
pub use queue::{MAX_RING_SIZE, MIN_RING_SIZE, RING_ALIGN, RingConfig};
pub use state::UdmaState;
pub use steering::QueueTarget;
