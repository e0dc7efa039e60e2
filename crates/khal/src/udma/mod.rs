//! UDMA engine and queue bring-up and configuration over any [`mmio::Mmio`] window of one
//! UDMA unit (a mapped BAR, the recording fake, the device model).
//!
//! Each sequence names its source. The kernel engine init ([`Udma::init`], the kernel
//! [`BringUpProfile`]), queue init, the doorbell, the state change and ring-id masking are
//! the reference driver's (`udma-notes.md` sections 2, 3, 6, 7 and 10), register for
//! register on the success path, with one default that differs on purpose: engine init
//! programs the arch's packet limit as max descriptors per packet (V2 128, where the kernel
//! passes 65; see [`EngineParams::for_arch`]). The userspace HAL's `al_udma_init`
//! ([`Udma::init_hal`], the default profile) and the configuration layer are seed 004 §2's;
//! where the seed names a register without its fields or procedure (target ids, the TTT, the
//! no-descriptor word's upper bits, RX completion, `state_set_wait`'s poll) the ancestor
//! HAL's facts are used and named (`reference/al-hal/facts.tsv`). Every input is validated
//! **before** the first write, so an error leaves the hardware untouched (the driver
//! programs the TX queue before it checks the RX one).
//!
//! The product's steps after engine init (section 2 step 8) are methods bounded on the
//! generations that run them: [`Udma::arm_axi_error_aborts`] (V2,
//! [`AxiErrorAborts`](crate::caps::AxiErrorAborts)) and [`Udma::mask_ring_id_errors`] /
//! [`Udma::mask_ring_id_errors_with_external`] (V3/V4,
//! [`RingIdErrorMasking`](crate::caps::RingIdErrorMasking)).

mod axi_errors;
mod doorbell;
mod engine;
mod error;
mod error_irq;
mod ext_app;
mod hal_init;
mod no_desc;
mod prefetch;
mod profile;
mod queue;
mod queue_pair;
mod revision_get;
mod ring_id;
mod s2m_comp;
mod state;
mod steering;
mod tgtid;
mod ttt;

pub use axi_errors::{
    AXI_ERROR_CONTROL_ROW_DATA, AXI_ERROR_CONTROL_ROW_LOW, AXI_ERROR_CONTROL_ROW_QUEUE_SHIFT,
    AXI_ERROR_DETECTION_ON, AXI_ERROR_DETECTION_SET, AXI_ERROR_TABLES_PROGRAMMED, AXI_TIMEOUT_MAX,
    axi_error_control_row,
};
pub use doorbell::UnitDoorbell;
pub use engine::{
    AXI_TIMEOUT, EngineParams, OSTAND_S2M_WR, QUEUE_COUNT_ALL, Udma, ostand_m2s, ostand_s2m_rd,
};
pub use error::{RevisionFeature, UdmaError};
pub use error_irq::unmask_error_interrupts;
pub use prefetch::{MAX_DESCS_PER_PACKET, MIN_DESCS_PER_PACKET};
pub use profile::{
    ANCESTOR_AXI_TIMEOUT, BringUpProfile, DATA_CFG_MAX_PKT_LIMIT, HAL_PKT_CLK, KERNEL_AXI_TIMEOUT,
    NUM_OF_QUEUES_ALL, S2M_APP_ACK_TIMEOUT,
};
pub use queue::{MAX_RING_SIZE, MIN_RING_SIZE, RING_ALIGN, RingConfig};
pub use revision_get::{
    DMA_MISC_PROGRAMMING_ID, REV3_DMA_MISC_REVISION, RevisionSource, revision_from_dma_version,
};
pub use s2m_comp::{COMP_DESC_BEAT_BYTES, S2mQueueComp};
pub use state::{STATE_WAIT_POLL_INTERVAL_US, STATE_WAIT_POLLS, UdmaState, WaitFor};
pub use steering::QueueTarget;
pub use tgtid::{TgtidDir, TgtidMsix, TgtidQueue};
pub use ttt::TttEntry;
