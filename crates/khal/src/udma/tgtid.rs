//! Per-queue target-id (MSI-X) steering, `al_udma_gen_tgtid_conf_queue_set_adv` (seed 004
//! §2 @0x4756d0), one method per revision layout, each gated at compile time on the arch's
//! UDMA revision type.
//!
//! The seed gives where the words are, not what is in them (see
//! [`regs::tgtid`](crate::regs::tgtid)): the methods take the raw words and say which
//! queue bound the seed asserts. V4 asserts `qid < DMA_MAX_Q_V4` (16,
//! [`udma_desc::QUEUES_PER_ENGINE`], which every [`QueueId`] is below), V3 asserts `qid < udma->num_of_queues` (the configured count).

use mmio::{Mmio, MmioExt};
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::regs::{tgtid, unit};
use crate::{Arch, TgtidLayoutV3, TgtidLayoutV4};

/// Dwords in one V4 per-queue target-id block (16 bytes; field layout not in the seed).
pub const TGTID_QUEUE_V4_WORDS: usize = tgtid::TGTID_QUEUE_V4_STRIDE / 4;

impl<A: Arch, M: Mmio> Udma<A, M>
where
    A::Revision: TgtidLayoutV4,
{
    /// Writes queue `q`'s V4 target-id block (`gen + 16*(q+608)`), dword 0 first. The
    /// seed's bound is 16 queues (`DMA_MAX_Q_V4`), not the configured count.
    pub fn set_tgtid_queue_v4(&self, q: QueueId, words: [u32; TGTID_QUEUE_V4_WORDS]) {
        let genb = self.regs().window(unit::GEN_BASE);
        let block = tgtid::tgtid_queue_v4(q);
        for (i, v) in words.iter().enumerate() {
            genb.write32(block + 4 * i, *v);
        }
    }
}

impl<A: Arch, M: Mmio> Udma<A, M>
where
    A::Revision: TgtidLayoutV3,
{
    /// Writes the V3 target-id word (`gen + 0x23EC`) on behalf of queue `q`, which must be
    /// among the configured queues. The per-queue shifts are not in the seed: the caller
    /// passes the whole word.
    pub fn set_tgtid_conf_v3(&self, q: QueueId, word: u32) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        self.regs()
            .window(unit::GEN_BASE)
            .write32(tgtid::TGTID_CONF_V3, word);
        Ok(())
    }
}
