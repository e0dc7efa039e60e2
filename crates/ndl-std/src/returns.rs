//! The return convention of every command: how the handler's return value reads.
//!
//! The reference (`ioctl-README.md`, "Return values") says handlers answer 0 on success and a
//! negative errno on failure, that many return the *positive* count of bytes that failed to
//! copy instead of -EFAULT, and that MEM_GET_EXTENDED_INFO answers a bad handle with +EINVAL.
//! No handler of driver 2.26.5.0 returns data in the return value (every result travels in
//! the argument struct or behind a pointer in it), so a non-zero return is always a failure;
//! the table only decides *which* failure. [`RETURNS`] has one row per catalog command, in
//! catalog order; the gateways read it at compile time (`const { of(REQ) }`).

use crate::error::{Error, Result};
#[allow(clippy::wildcard_imports)]
use crate::ioctl_codes::*;
use crate::kernel::Errno;

/// errno the driver's `-ENOTSUPP` reaches user space as (kernel-internal value 524; Linux
/// passes it through unchanged from an ioctl).
pub const ENOTSUPP: Errno = Errno::from_raw_os_error(524);

/// How a command's return value reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// 0 on success, -errno on failure; a positive value is the count of bytes a
    /// `copy_to_user`/`copy_from_user` left uncopied (a failure, [`Error::Positive`]).
    Status,
    /// The handler always returns 0 once dispatch reached it (deprecated no-ops and
    /// bookkeeping-only commands); only the gates (attach, copy-in) can fail it.
    Zero,
    /// As [`Returns::Status`], except that a positive value is an errno (MEM_GET_EXTENDED_INFO
    /// answers a bad handle with +EINVAL): reported as [`Error::Ioctl`] with that errno.
    PositiveErrno,
    /// The handler refuses every call with this errno (stubs and unsupported commands).
    Refused(Errno),
}

/// One row per catalog command, in catalog order (tested against `ioctl-commands.tsv`'s
/// handler notes).
pub const RETURNS: [(Command, Returns); CATALOG.len()] = [
    (DEVICE_RESET.command(), Returns::Zero),
    (DEVICE_READY.command(), Returns::Status),
    (DEVICE_RESET_STATUS.command(), Returns::Status),
    (DEVICE_INFO.command(), Returns::Status),
    (DEVICE_INIT.command(), Returns::Zero),
    (DEVICE_RELEASE.command(), Returns::Zero),
    (DEVICE_APP_PID.command(), Returns::Status),
    (DEVICE_GET_ALL_APPS_INFO.command(), Returns::Status),
    (BAR_READ.command(), Returns::Status),
    (BAR_WRITE.command(), Returns::Status),
    (POST_METRIC.command(), Returns::Status),
    (MEM_ALLOC.command(), Returns::Status),
    (MEM_ALLOC_V2.command(), Returns::Status),
    (MEM_ALLOC_V2MT.command(), Returns::Status),
    (MEM_ALLOC_V2MT64.command(), Returns::Status),
    (MEM_FREE.command(), Returns::Status),
    (MEM_COPY.command(), Returns::Status),
    (MEM_COPY64.command(), Returns::Status),
    (MEM_BUF_COPY.command(), Returns::Status),
    (MEM_BUF_COPY64.command(), Returns::Status),
    (MEM_GET_PA.command(), Returns::Status),
    (MEM_GET_INFO.command(), Returns::Status),
    (PROGRAM_ENGINE.command(), Returns::Status),
    (MEMSET.command(), Returns::Status),
    (MEMSET64.command(), Returns::Status),
    (MEM_GET_EXTENDED_INFO.command(), Returns::PositiveErrno),
    (DMA_ENG_INIT.command(), Returns::Zero),
    (DMA_ENG_SET_STATE.command(), Returns::Status),
    (DMA_ENG_GET_STATE.command(), Returns::Status),
    (DMA_QUEUE_INIT.command(), Returns::Status),
    (DMA_QUEUE_INIT_BATCH.command(), Returns::Status),
    (DMA_QUEUE_RELEASE.command(), Returns::Zero),
    (DMA_QUEUE_COPY_START.command(), Returns::Status),
    (DMA_ACK_COMPLETED.command(), Returns::Status),
    (DMA_QUEUE_GET_STATE.command(), Returns::Status),
    (DMA_COPY_DESCRIPTORS.command(), Returns::Status),
    (DMA_COPY_DESCRIPTORS64.command(), Returns::Status),
    (DMA_DESCRIPTOR_COPYOUT.command(), Returns::Status),
    (DMA_QUIESCE_QUEUES.command(), Returns::Refused(Errno::NOTTY)),
    (SEMAPHORE_INCREMENT.command(), Returns::Status),
    (SEMAPHORE_DECREMENT.command(), Returns::Status),
    (SEMAPHORE_READ.command(), Returns::Status),
    (SEMAPHORE_WRITE.command(), Returns::Status),
    (EVENT_SET.command(), Returns::Status),
    (EVENT_GET.command(), Returns::Status),
    (NOTIFICATIONS_INIT_V1.command(), Returns::Status),
    (NOTIFICATIONS_DESTROY_V1.command(), Returns::Zero),
    (NOTIFICATIONS_INIT_V2.command(), Returns::Status),
    (
        NOTIFICATIONS_INIT_WITH_REALLOC_V2.command(),
        Returns::Status,
    ),
    (
        NOTIFICATIONS_QUEUE_INFO.command(),
        Returns::Refused(Errno::PERM),
    ),
    (READ_HW_COUNTERS.command(), Returns::Status),
    (ACQUIRE_NEURON_DS.command(), Returns::Status),
    (RELEASE_NEURON_DS.command(), Returns::Zero),
    (CRWL_READER_ENTER.command(), Returns::Status),
    (CRWL_READER_EXIT.command(), Returns::Status),
    (CRWL_WRITER_ENTER.command(), Returns::Status),
    (CRWL_WRITER_DOWNGRADE.command(), Returns::Status),
    (CRWL_NC_RANGE_MARK.command(), Returns::Status),
    (CRWL_NC_RANGE_MARK_EXT0.command(), Returns::Status),
    (CRWL_NC_RANGE_UNMARK.command(), Returns::Zero),
    (CRWL_NC_RANGE_UNMARK_EXT0.command(), Returns::Zero),
    (CINIT_SET_STATE.command(), Returns::Status),
    (NC_MODEL_STARTED_COUNT.command(), Returns::Status),
    (COMPATIBLE_VERSION.command(), Returns::Status),
    (DEVICE_BASIC_INFO.command(), Returns::Status),
    (DEVICE_BDF.command(), Returns::Status),
    (NC_RESET.command(), Returns::Status),
    (NC_RESET_READY.command(), Returns::Status),
    (PROGRAM_ENGINE_NC.command(), Returns::Status),
    (PROGRAM_ENGINE_NC64.command(), Returns::Status),
    (DEVICE_BDF_EXT.command(), Returns::Status),
    (DMABUF_FD.command(), Returns::Status),
    (MEM_COPY_ASYNC.command(), Returns::Status),
    (MEM_COPY_ASYNC64.command(), Returns::Status),
    (MEM_COPY_ASYNC_WAIT.command(), Returns::Status),
    (DRIVER_INFO_GET.command(), Returns::Status),
    (DRIVER_INFO_SET.command(), Returns::Refused(ENOTSUPP)),
    (MEM_MC_GET_INFO.command(), Returns::Status),
    (MEM_MC_GET_INFO_V2.command(), Returns::Status),
    (RESOURCE_MMAP_INFO.command(), Returns::Status),
    (PRINTK.command(), Returns::Status),
    (HOST_DEVICE_ID.command(), Returns::Status),
    (HOST_DEVICE_ID_TO_RID_MAP.command(), Returns::Status),
    (DUMP_MEM_CHUNKS.command(), Returns::Status),
    (NC_PID_STATE_DUMP.command(), Returns::Status),
    (HBM_SCRUB_START.command(), Returns::Status),
    (HBM_SCRUB_WAIT.command(), Returns::Status),
    (GET_LOGICAL_TO_PHYSICAL_NC_MAP.command(), Returns::Status),
    (POD_INFO.command(), Returns::Status),
    (POD_STATUS.command(), Returns::Status),
    (POD_STATUS_V2.command(), Returns::Status),
    (POD_CTRL.command(), Returns::Status),
    (POD_CTRL_V2.command(), Returns::Status),
    (MEM_BUF_ZEROCOPY64.command(), Returns::Status),
    (H2T_DMA_ALLOC_QUEUES.command(), Returns::Status),
    (H2T_DMA_FREE_QUEUES.command(), Returns::Status),
    (POWER_PROFILE.command(), Returns::Status),
    (METRICS_CTRL.command(), Returns::Zero),
    (MEM_BUF_ZEROCOPY64_BATCHES.command(), Returns::Status),
    (THROTTLING_NOTIFICATIONS.command(), Returns::Status),
    (GET_VA_PLACEMENT.command(), Returns::Status),
];

/// The return convention of request `code` (`Status` for codes outside the catalog).
pub const fn of(code: u32) -> Returns {
    let mut i = 0;
    while i < RETURNS.len() {
        if RETURNS[i].0.code() == code {
            return RETURNS[i].1;
        }
        i += 1;
    }
    Returns::Status
}

/// Turns a raw ioctl result into the shim's answer under convention `conv`: `Ok(())` for
/// success, otherwise a typed error naming `cmd`.
pub(crate) fn check(
    cmd: &'static str,
    conv: Returns,
    ret: core::result::Result<i32, Errno>,
) -> Result<()> {
    match (ret, conv) {
        (Ok(0), _) => Ok(()),
        (Ok(ret), Returns::PositiveErrno) => Err(Error::Ioctl {
            cmd,
            errno: Errno::from_raw_os_error(ret),
        }),
        (Ok(ret), _) => Err(Error::Positive { cmd, ret }),
        (Err(errno), _) => Err(Error::Ioctl { cmd, errno }),
    }
}
