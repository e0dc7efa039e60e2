//! DMA engines, queues and descriptors (device lane).

use zerocopy::FromZeros;

use crate::compat::Family;
use crate::error::{Error, Result};
use crate::gateway::{Device, ioctl, ioctl_ptr};
use crate::kernel::Kernel;
use crate::wrappers::types::{MemHandle, QueueType, u32_arg};
use ndl_abi::limits::{DMA_DESC_BYTES, QUEUE_INIT_BATCH_MAX};

/// One DMA descriptor as the driver copies it: 16 bytes in memory order
/// ([`ndl_abi::limits::DMA_DESC_BYTES`]; udma-desc builds them).
pub type DescBytes = [u8; DMA_DESC_BYTES];
use ndl_abi::{
    DMA_ACK_COMPLETED, DMA_COPY_DESCRIPTORS, DMA_COPY_DESCRIPTORS64, DMA_DESCRIPTOR_COPYOUT,
    DMA_ENG_GET_STATE, DMA_ENG_INIT, DMA_ENG_SET_STATE, DMA_QUEUE_COPY_START, DMA_QUEUE_GET_STATE,
    DMA_QUEUE_INIT, DMA_QUEUE_INIT_BATCH, DMA_QUEUE_RELEASE, DMA_QUIESCE_QUEUES,
};
use ndl_abi::{
    DmaAckCompleted, DmaCopyDescriptors, DmaCopyDescriptors64, DmaDescriptorCopyout,
    DmaEngGetState, DmaEngInit, DmaEngSetState, DmaEngState, DmaQueueCopyStart, DmaQueueGetState,
    DmaQueueInit, DmaQueueInitBatch, DmaQueueRelease, DmaQueueState, DmaQuiesceQueues, UserPtr,
};

impl<K: Kernel> Device<'_, K> {
    /// DMA_ENG_INIT (a no-op in current drivers, kept for old ones).
    pub fn dma_eng_init(&self, eng_id: u32) -> Result<()> {
        let mut arg = DmaEngInit { eng_id };
        ioctl!(self, DMA_ENG_INIT, &mut arg)
    }

    /// DMA_ENG_SET_STATE: sets engine `eng_id`'s state.
    pub fn dma_eng_set_state(&self, eng_id: u32, state: u32) -> Result<()> {
        let mut arg = DmaEngSetState { eng_id, state };
        ioctl!(self, DMA_ENG_SET_STATE, &mut arg)
    }

    /// DMA_ENG_GET_STATE: engine `eng_id`'s revision, queue counts and tx/rx state.
    pub fn dma_eng_get_state(&self, eng_id: u32) -> Result<DmaEngState> {
        let mut state = DmaEngState::new_zeroed();
        let mut arg = DmaEngGetState::new_zeroed();
        arg.eng_id = eng_id;
        arg.state = UserPtr::output(&mut state);
        // SAFETY: `state` points to a writable `DmaEngState` that outlives the call.
        unsafe { ioctl_ptr!(self, DMA_ENG_GET_STATE, &mut arg) }?;
        Ok(state)
    }

    /// DMA_QUEUE_INIT: sets up one queue from rings in driver memory.
    pub fn dma_queue_init(&self, init: &DmaQueueInit) -> Result<()> {
        let mut arg = *init;
        ioctl!(self, DMA_QUEUE_INIT, &mut arg)
    }

    /// DMA_QUEUE_INIT_BATCH: sets up to 255 queues in one call.
    pub fn dma_queue_init_batch(&self, inits: &[DmaQueueInit]) -> Result<()> {
        let cmd = DMA_QUEUE_INIT_BATCH.name();
        if inits.len() > QUEUE_INIT_BATCH_MAX {
            return Err(Error::OutOfRange {
                cmd,
                what: "count",
                value: inits.len() as u64,
            });
        }
        // 12 KiB: keep it off the caller's stack frame.
        let mut arg = Box::new(DmaQueueInitBatch::new_zeroed());
        arg.count = inits.len() as u32; // <= 255 checked above
        for (slot, init) in arg.entries.iter_mut().zip(inits) {
            *slot = *init;
        }
        ioctl!(self, DMA_QUEUE_INIT_BATCH, &mut *arg)
    }

    /// DMA_QUEUE_RELEASE: tears down queue `qid` of engine `eng_id`.
    pub fn dma_queue_release(&self, eng_id: u32, qid: u32) -> Result<()> {
        let mut arg = DmaQueueRelease { eng_id, qid };
        ioctl!(self, DMA_QUEUE_RELEASE, &mut arg)
    }

    /// DMA_QUIESCE_QUEUES: the header names an undefined struct and the driver answers
    /// every call with -ENOIOCTLCMD (ENOTTY in user space); sent with the closest defined
    /// struct, `neuron_ioctl_dma_quiesce_queues`, so the command is reachable.
    pub fn dma_quiesce_queues(
        &self,
        nc_id: u32,
        engine_count: u32,
        queue_mask: &[u32; 64],
    ) -> Result<()> {
        let mut arg = DmaQuiesceQueues {
            nc_id,
            engine_count,
            queue_mask: *queue_mask,
        };
        ioctl!(self, DMA_QUIESCE_QUEUES, &mut arg)
    }

    /// DMA_QUEUE_COPY_START: hands `tx`/`rx` more descriptors to the engine.
    pub fn dma_queue_copy_start(&self, eng_id: u32, qid: u32, tx: u32, rx: u32) -> Result<()> {
        let mut arg = DmaQueueCopyStart {
            eng_id,
            qid,
            tx_desc_count: tx,
            rx_desc_count: rx,
        };
        ioctl!(self, DMA_QUEUE_COPY_START, &mut arg)
    }

    /// DMA_ACK_COMPLETED: acknowledges `count` completed descriptors.
    pub fn dma_ack_completed(&self, eng_id: u32, qid: u32, count: u32) -> Result<()> {
        let mut arg = DmaAckCompleted { eng_id, qid, count };
        ioctl!(self, DMA_ACK_COMPLETED, &mut arg)
    }

    /// DMA_QUEUE_GET_STATE: `(tx, rx)` ring state of a queue.
    pub fn dma_queue_get_state(
        &self,
        eng_id: u32,
        qid: u32,
    ) -> Result<(DmaQueueState, DmaQueueState)> {
        let mut tx = DmaQueueState::new_zeroed();
        let mut rx = DmaQueueState::new_zeroed();
        let mut arg = DmaQueueGetState {
            eng_id,
            qid,
            tx: UserPtr::output(&mut tx),
            rx: UserPtr::output(&mut rx),
        };
        // SAFETY: `tx` and `rx` point to writable states that outlive the call.
        unsafe { ioctl_ptr!(self, DMA_QUEUE_GET_STATE, &mut arg) }?;
        Ok((tx, rx))
    }

    /// DMA_COPY_DESCRIPTORS64 (falling back to DMA_COPY_DESCRIPTORS): writes `descs` (each
    /// 16 bytes in memory order) into the ring memory `mem` at byte `offset`.
    pub fn dma_copy_descriptors(
        &self,
        mem: MemHandle,
        offset: u64,
        queue_type: QueueType,
        descs: &[DescBytes],
    ) -> Result<()> {
        let cmd64 = DMA_COPY_DESCRIPTORS64.name();
        let num_descs = u32_arg(cmd64, "descriptor count", descs.len() as u64)?;
        let buffer = UserPtr::input_slice(descs).cast();
        self.compat(
            Family::DmaCopyDescriptors,
            || {
                let mut arg = DmaCopyDescriptors64::new_zeroed();
                arg.mem_handle = mem.0;
                arg.buffer = buffer;
                arg.num_descs = num_descs;
                arg.offset = offset;
                arg.queue_type = queue_type as u32;
                // SAFETY: `buffer` points to `num_descs` readable descriptors of `descs`.
                unsafe { ioctl_ptr!(self, DMA_COPY_DESCRIPTORS64, &mut arg) }
            },
            || {
                let cmd = DMA_COPY_DESCRIPTORS.name();
                let mut arg = DmaCopyDescriptors::new_zeroed();
                arg.mem_handle = mem.0;
                arg.buffer = buffer;
                arg.num_descs = num_descs;
                arg.offset = u32_arg(cmd, "offset", offset)?;
                arg.queue_type = queue_type as u32;
                // SAFETY: as above.
                unsafe { ioctl_ptr!(self, DMA_COPY_DESCRIPTORS, &mut arg) }
            },
        )
    }

    /// DMA_DESCRIPTOR_COPYOUT: reads `out.len()` descriptors (16 bytes each, memory order) of
    /// a queue's ring, starting at `start_index`.
    pub fn dma_descriptor_copyout(
        &self,
        eng_id: u32,
        qid: u32,
        queue_type: QueueType,
        start_index: u32,
        out: &mut [DescBytes],
    ) -> Result<()> {
        let cmd = DMA_DESCRIPTOR_COPYOUT.name();
        let mut arg = DmaDescriptorCopyout::new_zeroed();
        arg.eng_id = eng_id;
        arg.qid = qid;
        arg.r#type = queue_type as u32;
        arg.start_index = start_index;
        arg.count = u32_arg(cmd, "count", out.len() as u64)?;
        arg.buffer = UserPtr::output_slice(out).cast();
        // SAFETY: `buffer` points to `count` writable descriptors of `out`.
        unsafe { ioctl_ptr!(self, DMA_DESCRIPTOR_COPYOUT, &mut arg) }
    }
}
