//! The ring pair of one configured queue: where seed 004 §1's queue-id assertion is made.
//!
//! `al_udma_m2m_copy_prepare_one` asserts `qid < udma->num_of_queues` (al_hal_udma_m2m.c:636)
//! on every call. Here a [`RingPair`] belongs to one queue and is made once, so the check
//! is made once, when the pair is made for an engine: [`Udma::ring_pair`] refuses a queue at
//! or above the configured count, and every later `copy_prepare_one`, `crc_prepare_one`,
//! `packet_prepare` and `copy_start` on that pair is for a configured queue. A pair made
//! directly with [`RingPair::new`] is not checked against any engine (it knows none).

use mmio::Mmio;
use udma_desc::{DescRing, DescStore, QueueId, RingPair};

use super::{Udma, UdmaError};
use crate::Arch;

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// The ring pair of queue `q` over `tx` and `rx`, for a queue among the engine's
    /// configured queues (seed 004 §1 `copy_prepare_one`: `assert(qid <
    /// udma->num_of_queues)`); [`UdmaError::QueueNotConfigured`] otherwise.
    ///
    /// ```
    /// use khal::udma::{Udma, UdmaError};
    /// use mmio::FakeRegs;
    /// use udma_desc::{DescRing, Descriptor, Direction, QueueId};
    /// let regs: FakeRegs<8, 8> = FakeRegs::new();
    /// let engine = Udma::<khal_cayman::Cayman, _>::attach(&regs, 2, None)?;
    /// let (mut t, mut r) = ([Descriptor::ZERO; 32], [Descriptor::ZERO; 32]);
    /// let (tx, rx) = (DescRing::new(Direction::Tx, &mut t[..])?, DescRing::new(Direction::Rx, &mut r[..])?);
    /// let refused = engine.ring_pair(QueueId::new(2)?, tx, rx);
    /// assert!(matches!(refused, Err(UdmaError::QueueNotConfigured { queue: 2, count: 2 })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ring_pair<T: DescStore, R: DescStore>(
        &self,
        q: QueueId,
        tx: DescRing<T>,
        rx: DescRing<R>,
    ) -> Result<RingPair<T, R>, UdmaError> {
        self.check_queue(q)?;
        Ok(RingPair::new(q, tx, rx))
    }
}
