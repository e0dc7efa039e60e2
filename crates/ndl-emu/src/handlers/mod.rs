//! The driver's ioctl handlers, one file per command family (the families of `ndl-std`'s
//! wrappers, `ndl_std::WRAPPERS`).
//!
//! A handler is a function of the device (or, for the commands that span devices or files,
//! the kernel) state, the call, and the typed argument the dispatcher copied in; it answers
//! what the driver answers ([`Reply`] or an errno). It never copies its argument struct in
//! or out itself: the dispatcher (`crate::dispatch`) does that once, as the table entry
//! says. What a handler still reaches through the call's `UserMemory` are the user buffers
//! and arrays the argument points to, as the driver's handlers do.

use core::ffi::c_int;

use ndl_std::{Errno, MemLocation};

use crate::state::{Call, DeviceState, State};

pub(crate) mod buf_copy;
pub(crate) mod copy_async;
pub(crate) mod datastore;
pub(crate) mod device_info;
pub(crate) mod device_lifecycle;
pub(crate) mod dma;
pub(crate) mod firmware;
pub(crate) mod h2t;
pub(crate) mod h2t_completion;
pub(crate) mod mem_copy;
pub(crate) mod memory;
pub(crate) mod memory_legacy;
pub(crate) mod misc_info;
pub(crate) mod nc;
pub(crate) mod perf_profile;
pub(crate) mod pod;
pub(crate) mod registers;

/// What a handler answers besides an errno.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reply {
    /// The ioctl returns the value; the argument is written back where the table entry's
    /// copy rule says so.
    Done(c_int),
    /// The ioctl returns the value and the argument is not written back
    /// (MEM_GET_EXTENDED_INFO's positive EINVAL).
    Bare(c_int),
    /// The argument is written back, then the ioctl fails with the errno (DUMP_MEM_CHUNKS'
    /// EAGAIN with the need, CRWL_NC_RANGE_MARK's EBUSY with what is free,
    /// GET_VA_PLACEMENT's ENXIO with -1, -1).
    FailAfterWrite(Errno),
}

/// The common answer: 0, argument written back where the entry says so.
pub(crate) const DONE: Answer = Ok(Reply::Done(0));

/// A handler's answer.
pub(crate) type Answer = Result<Reply, Errno>;

/// A handler of one device's command (the device the fd is open on).
pub(crate) type OnDevice<T> = fn(&mut DeviceState, &Call<'_>, &mut T) -> Answer;

/// A handler that needs the whole kernel (other devices, the fd table, the log).
pub(crate) type OnKernel<T> = fn(&mut State, &Call<'_>, &mut T) -> Answer;

/// A deprecated command the driver answers with 0 and nothing else.
pub(crate) fn no_op<T>(_: &mut DeviceState, _: &Call<'_>, _: &mut T) -> Answer {
    DONE
}

/// The memory a `(host_memory, dram_channel, dram_region)` triple names.
pub(crate) fn location(host_memory: u32, dram_channel: u32, dram_region: u32) -> MemLocation {
    if host_memory != 0 {
        MemLocation::Host
    } else {
        MemLocation::Device {
            channel: dram_channel,
            region: dram_region,
        }
    }
}

/// A byte count as a host length (EINVAL when it does not fit).
pub(crate) fn len(v: u64) -> Result<usize, Errno> {
    usize::try_from(v).map_err(|_| Errno::INVAL)
}
