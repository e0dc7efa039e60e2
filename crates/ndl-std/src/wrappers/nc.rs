//! NeuronCore services: semaphores, events, notification queues, core reset, HBM scrub and
//! the core reader/writer lock (device lane).

use crate::error::Result;
use crate::gateway::{Device, ioctl};
use zerocopy::FromZeros;

use crate::kernel::Kernel;
use crate::wrappers::types::MemHandle;
use ndl_abi::{
    CINIT_SET_STATE, CRWL_READER_ENTER, CRWL_READER_EXIT, CRWL_WRITER_DOWNGRADE, CRWL_WRITER_ENTER,
    EVENT_GET, EVENT_SET, HBM_SCRUB_START, HBM_SCRUB_WAIT, NC_MODEL_STARTED_COUNT, NC_RESET,
    NC_RESET_READY, NOTIFICATIONS_DESTROY_V1, NOTIFICATIONS_INIT_V1, NOTIFICATIONS_INIT_V2,
    NOTIFICATIONS_INIT_WITH_REALLOC_V2, NOTIFICATIONS_QUEUE_INFO, Request, SEMAPHORE_DECREMENT,
    SEMAPHORE_INCREMENT, SEMAPHORE_READ, SEMAPHORE_WRITE,
};
use ndl_abi::{
    CinitSet, Crwl, DeviceReady, DeviceReset, Event, HbmScrubStart, HbmScrubWait,
    NcModelStartedCount, NotificationsDestroy, NotificationsInitV1, NotificationsInitV2,
    NotificationsInitWithReallocV2, NotificationsQueueInfo, Semaphore, Uuid,
};

impl<K: Kernel> Device<'_, K> {
    fn semaphore<const REQ: u32>(
        &self,
        req: &Request<Semaphore>,
        nc_id: u32,
        index: u32,
        value: u32,
    ) -> Result<u32> {
        let mut arg = Semaphore {
            nc_id,
            semaphore_index: index,
            value,
        };
        self.call_in_place::<REQ, _>(req, &mut arg)?;
        Ok(arg.value)
    }

    /// SEMAPHORE_INCREMENT: adds `value` to semaphore `index` of core `nc_id`.
    pub fn semaphore_increment(&self, nc_id: u32, index: u32, value: u32) -> Result<()> {
        self.semaphore::<{ SEMAPHORE_INCREMENT.code() }>(&SEMAPHORE_INCREMENT, nc_id, index, value)
            .map(drop)
    }

    /// SEMAPHORE_DECREMENT: subtracts `value`.
    pub fn semaphore_decrement(&self, nc_id: u32, index: u32, value: u32) -> Result<()> {
        self.semaphore::<{ SEMAPHORE_DECREMENT.code() }>(&SEMAPHORE_DECREMENT, nc_id, index, value)
            .map(drop)
    }

    /// SEMAPHORE_READ: the semaphore's value.
    pub fn semaphore_read(&self, nc_id: u32, index: u32) -> Result<u32> {
        self.semaphore::<{ SEMAPHORE_READ.code() }>(&SEMAPHORE_READ, nc_id, index, 0)
    }

    /// SEMAPHORE_WRITE: sets the semaphore to `value`.
    pub fn semaphore_write(&self, nc_id: u32, index: u32, value: u32) -> Result<()> {
        self.semaphore::<{ SEMAPHORE_WRITE.code() }>(&SEMAPHORE_WRITE, nc_id, index, value)
            .map(drop)
    }

    /// EVENT_SET: sets event `index` of core `nc_id` to `value`.
    pub fn event_set(&self, nc_id: u32, index: u32, value: u32) -> Result<()> {
        let mut arg = Event {
            nc_id,
            event_index: index,
            value,
        };
        ioctl!(self, EVENT_SET, &mut arg)
    }

    /// EVENT_GET: the event's value.
    pub fn event_get(&self, nc_id: u32, index: u32) -> Result<u32> {
        let mut arg = Event {
            nc_id,
            event_index: index,
            value: 0,
        };
        ioctl!(self, EVENT_GET, &mut arg)?;
        Ok(arg.value)
    }

    /// NOTIFICATIONS_INIT_V2: allocates a notification queue as `init` describes; returns
    /// its `(mmap cookie, memory handle)`.
    pub fn notifications_init(&self, init: &NotificationsInitV2) -> Result<(u64, MemHandle)> {
        let mut arg = *init;
        ioctl!(self, NOTIFICATIONS_INIT_V2, &mut arg)?;
        Ok((arg.mmap_offset, MemHandle(arg.mem_handle)))
    }

    /// NOTIFICATIONS_INIT_WITH_REALLOC_V2: as [`Device::notifications_init`], optionally
    /// forcing a fresh allocation.
    pub fn notifications_init_with_realloc(
        &self,
        init: &NotificationsInitWithReallocV2,
    ) -> Result<(u64, MemHandle)> {
        let mut arg = *init;
        ioctl!(self, NOTIFICATIONS_INIT_WITH_REALLOC_V2, &mut arg)?;
        Ok((arg.mmap_offset, MemHandle(arg.mem_handle)))
    }

    /// NOTIFICATIONS_INIT_V1 (deprecated layout, still served): allocates a `size`-byte
    /// notification queue of type `nq_type` for engine `engine_index` of core `nc_id`;
    /// returns its mmap cookie.
    pub fn notifications_init_v1(
        &self,
        nc_id: u32,
        nq_type: u32,
        engine_index: u32,
        size: u32,
    ) -> Result<u64> {
        let mut arg = NotificationsInitV1 {
            nc_id,
            nq_type,
            engine_index,
            size,
            mmap_offset: 0,
        };
        ioctl!(self, NOTIFICATIONS_INIT_V1, &mut arg)?;
        Ok(arg.mmap_offset)
    }

    /// NOTIFICATIONS_DESTROY_V1: the driver's no-op (queues go with their process).
    pub fn notifications_destroy_v1(&self, mmap_offset: u64) -> Result<()> {
        let mut arg = NotificationsDestroy { mmap_offset };
        ioctl!(self, NOTIFICATIONS_DESTROY_V1, &mut arg)
    }

    /// NOTIFICATIONS_QUEUE_INFO: `(head, phase_bit)` of a queue. The driver's handler is a
    /// stub that refuses every call (EPERM); wrapped so the command is reachable.
    pub fn notifications_queue_info(
        &self,
        nq_dev_id: u8,
        nq_dev_type: u8,
        nq_type: u8,
        engine_index: u8,
    ) -> Result<(u32, u32)> {
        let mut arg = NotificationsQueueInfo::new_zeroed();
        arg.nq_dev_id = nq_dev_id;
        arg.nq_dev_type = nq_dev_type;
        arg.nq_type = nq_type;
        arg.engine_index = engine_index;
        ioctl!(self, NOTIFICATIONS_QUEUE_INFO, &mut arg)?;
        Ok((arg.head, arg.phase_bit))
    }

    /// CINIT_SET_STATE: moves core `nc_id`'s init state machine to `state`; returns the
    /// state the driver reports back (`new_state`).
    pub fn cinit_set_state(&self, nc_id: u32, state: u32) -> Result<u32> {
        let mut arg = CinitSet {
            nc_id,
            state,
            new_state: 0,
        };
        ioctl!(self, CINIT_SET_STATE, &mut arg)?;
        Ok(arg.new_state)
    }

    /// NC_MODEL_STARTED_COUNT: how many models core `nc_id` has started.
    pub fn nc_model_started_count(&self, nc_id: u32) -> Result<u64> {
        let mut arg = NcModelStartedCount::new_zeroed();
        arg.nc_id = nc_id;
        ioctl!(self, NC_MODEL_STARTED_COUNT, &mut arg)?;
        Ok(arg.started_count)
    }

    /// NC_RESET: resets the cores in `nc_map`; returns the request id to wait on.
    pub fn nc_reset(&self, nc_map: u32) -> Result<u32> {
        let mut arg = DeviceReset {
            nc_map,
            request_id: 0,
        };
        ioctl!(self, NC_RESET, &mut arg)?;
        Ok(arg.request_id)
    }

    /// NC_RESET_READY: waits for reset `request_id`; returns the driver's result word.
    pub fn nc_reset_ready(&self, request_id: u32) -> Result<i32> {
        let mut arg = DeviceReady {
            request_id,
            result: 0,
        };
        ioctl!(self, NC_RESET_READY, &mut arg)?;
        Ok(arg.result)
    }

    /// HBM_SCRUB_START: starts scrubbing HBM `hbm_index` with `init_val`.
    pub fn hbm_scrub_start(
        &self,
        nc_id: u32,
        hbm_index: u32,
        axi_port: u32,
        init_val: u32,
    ) -> Result<()> {
        let mut arg = HbmScrubStart {
            nc_id,
            hbm_index,
            axi_port,
            init_val,
        };
        ioctl!(self, HBM_SCRUB_START, &mut arg)
    }

    /// HBM_SCRUB_WAIT: waits for the scrub started on `hbm_index`.
    pub fn hbm_scrub_wait(&self, nc_id: u32, hbm_index: u32) -> Result<()> {
        let mut arg = HbmScrubWait { nc_id, hbm_index };
        ioctl!(self, HBM_SCRUB_WAIT, &mut arg)
    }

    fn crwl<const REQ: u32>(&self, req: &Request<Crwl>, nc_id: u32, uuid: &[u8; 32]) -> Result<()> {
        let mut arg = Crwl {
            nc_id,
            uuid: Uuid { value: *uuid },
        };
        self.call_in_place::<REQ, _>(req, &mut arg)
    }

    /// CRWL_READER_ENTER: takes core `nc_id`'s lock shared, for model `uuid`.
    pub fn crwl_reader_enter(&self, nc_id: u32, uuid: &[u8; 32]) -> Result<()> {
        self.crwl::<{ CRWL_READER_ENTER.code() }>(&CRWL_READER_ENTER, nc_id, uuid)
    }

    /// CRWL_READER_EXIT: drops a shared hold.
    pub fn crwl_reader_exit(&self, nc_id: u32, uuid: &[u8; 32]) -> Result<()> {
        self.crwl::<{ CRWL_READER_EXIT.code() }>(&CRWL_READER_EXIT, nc_id, uuid)
    }

    /// CRWL_WRITER_ENTER: takes the lock exclusively.
    pub fn crwl_writer_enter(&self, nc_id: u32, uuid: &[u8; 32]) -> Result<()> {
        self.crwl::<{ CRWL_WRITER_ENTER.code() }>(&CRWL_WRITER_ENTER, nc_id, uuid)
    }

    /// CRWL_WRITER_DOWNGRADE: turns the exclusive hold into a shared one.
    pub fn crwl_writer_downgrade(&self, nc_id: u32, uuid: &[u8; 32]) -> Result<()> {
        self.crwl::<{ CRWL_WRITER_DOWNGRADE.code() }>(&CRWL_WRITER_DOWNGRADE, nc_id, uuid)
    }
}
