//! NeuronCore services: semaphores, events, notification queues, core reset, HBM scrub and
//! the core reader/writer lock (device lane).

use crate::error::Result;
use crate::gateway::{Device, ioctl};
use crate::ioctl_codes::{
    CRWL_READER_ENTER, CRWL_READER_EXIT, CRWL_WRITER_DOWNGRADE, CRWL_WRITER_ENTER, EVENT_GET,
    EVENT_SET, HBM_SCRUB_START, HBM_SCRUB_WAIT, NC_RESET, NC_RESET_READY, NOTIFICATIONS_INIT_V2,
    NOTIFICATIONS_INIT_WITH_REALLOC_V2, Request, SEMAPHORE_DECREMENT, SEMAPHORE_INCREMENT,
    SEMAPHORE_READ, SEMAPHORE_WRITE,
};
use crate::ioctl_structs::{
    Crwl, DeviceReady, DeviceReset, Event, HbmScrubStart, HbmScrubWait, NotificationsInitV2,
    NotificationsInitWithReallocV2, Semaphore, Uuid,
};
use crate::kernel::Kernel;
use crate::wrappers::types::MemHandle;

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
        // SAFETY: no user addresses.
        unsafe { self.call::<REQ, _>(req, &mut arg) }?;
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
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, EVENT_SET, &mut arg) }
    }

    /// EVENT_GET: the event's value.
    pub fn event_get(&self, nc_id: u32, index: u32) -> Result<u32> {
        let mut arg = Event {
            nc_id,
            event_index: index,
            value: 0,
        };
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, EVENT_GET, &mut arg) }?;
        Ok(arg.value)
    }

    /// NOTIFICATIONS_INIT_V2: allocates a notification queue as `init` describes; returns
    /// its `(mmap cookie, memory handle)`.
    pub fn notifications_init(&self, init: &NotificationsInitV2) -> Result<(u64, MemHandle)> {
        let mut arg = *init;
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, NOTIFICATIONS_INIT_V2, &mut arg) }?;
        Ok((arg.mmap_offset, MemHandle(arg.mem_handle)))
    }

    /// NOTIFICATIONS_INIT_WITH_REALLOC_V2: as [`Device::notifications_init`], optionally
    /// forcing a fresh allocation.
    pub fn notifications_init_with_realloc(
        &self,
        init: &NotificationsInitWithReallocV2,
    ) -> Result<(u64, MemHandle)> {
        let mut arg = *init;
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, NOTIFICATIONS_INIT_WITH_REALLOC_V2, &mut arg) }?;
        Ok((arg.mmap_offset, MemHandle(arg.mem_handle)))
    }

    /// NC_RESET: resets the cores in `nc_map`; returns the request id to wait on.
    pub fn nc_reset(&self, nc_map: u32) -> Result<u32> {
        let mut arg = DeviceReset {
            nc_map,
            request_id: 0,
        };
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, NC_RESET, &mut arg) }?;
        Ok(arg.request_id)
    }

    /// NC_RESET_READY: waits for reset `request_id`; returns the driver's result word.
    pub fn nc_reset_ready(&self, request_id: u32) -> Result<i32> {
        let mut arg = DeviceReady {
            request_id,
            result: 0,
        };
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, NC_RESET_READY, &mut arg) }?;
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
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, HBM_SCRUB_START, &mut arg) }
    }

    /// HBM_SCRUB_WAIT: waits for the scrub started on `hbm_index`.
    pub fn hbm_scrub_wait(&self, nc_id: u32, hbm_index: u32) -> Result<()> {
        let mut arg = HbmScrubWait { nc_id, hbm_index };
        // SAFETY: no user addresses.
        unsafe { ioctl!(self, HBM_SCRUB_WAIT, &mut arg) }
    }

    fn crwl<const REQ: u32>(&self, req: &Request<Crwl>, nc_id: u32, uuid: &[u8; 32]) -> Result<()> {
        let mut arg = Crwl {
            nc_id,
            uuid: Uuid { value: *uuid },
        };
        // SAFETY: no user addresses.
        unsafe { self.call::<REQ, _>(req, &mut arg) }
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
