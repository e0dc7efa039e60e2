//! The emulated driver's handler table: one row per command the model serves, over every
//! release `ndl-abi` carries, each naming the request constant (whose argument type the
//! handler must take), how the argument is copied ([`Copy`]) and the handler.
//!
//! A row applies to a release when that release's catalog has a command of the row's name
//! and request number; the release's routing then decides whether a call reaches it. The
//! unit tests check the table against every release's catalog: each catalog command has a
//! row, is in [`crate::hardware_only::HARDWARE_ONLY`], or is in [`NOT_MODELLED`].

use core::ffi::c_int;

#[allow(clippy::wildcard_imports)]
use ndl_abi::*;
use ndl_abi::{Command, v2_24_7_0, v2_27_4_0, v2_28_0_0, v2_29_0_0, v2_30_2_0};
use ndl_std::Errno;

use super::copy::{self, Copy};
use crate::handlers::buf_copy::buf_copy_ioctl;
use crate::handlers::mem_copy::{copy_async_ioctl, mem_copy_ioctl};
use crate::handlers::{
    copy_async, datastore, device_info, device_lifecycle, dma, firmware, h2t, h2t_completion,
    memory, memory_legacy, misc_info, nc, no_op, perf_profile, pod, registers,
};
use crate::state::{Call, State};

/// How a row is found for a request its nr family routes (handler notes of
/// `ioctl-commands.tsv`); exact-match commands are found by their request number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Demux {
    /// The request number must be the row's ("picked by exact cmd"; every exact-match
    /// command).
    Exact,
    /// `_IOC_SIZE` must be the row's ("switches on `_IOC_SIZE`").
    Size,
    /// Every request of the nr reaches the row ("any size or dir with nr N reaches it").
    Any,
}

/// One row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The command (its name and request number in the releases it applies to).
    pub(crate) command: Command,
    /// How an nr-routed request finds the row.
    pub(crate) demux: Demux,
    /// Copy-in, handler, copy-out.
    pub(crate) run: fn(&mut State, &Call<'_>) -> Result<c_int, Errno>,
}

impl Entry {
    /// Whether an nr-routed request `code` reaches this row.
    pub(crate) fn accepts(&self, code: u32) -> bool {
        match self.demux {
            Demux::Exact => code == self.command.code(),
            Demux::Size => size_of_code(code) == self.command.size(),
            Demux::Any => true,
        }
    }
}

/// A row whose handler runs on the fd's device.
macro_rules! device {
    ($req:expr, $copy:expr, $handler:expr) => {
        device!($req, Exact, $copy, $handler)
    };
    ($req:expr, $demux:ident, $copy:expr, $handler:expr) => {
        Entry {
            command: $req.command(),
            demux: Demux::$demux,
            run: |st, call| copy::on_device($req, st, call, $copy, $handler),
        }
    };
}

/// A row whose handler needs the whole kernel.
macro_rules! kernel {
    ($req:expr, $copy:expr, $handler:expr) => {
        kernel!($req, Exact, $copy, $handler)
    };
    ($req:expr, $demux:ident, $copy:expr, $handler:expr) => {
        Entry {
            command: $req.command(),
            demux: Demux::$demux,
            run: |st, call| copy::on_kernel($req, st, call, $copy, $handler),
        }
    };
}

const IN: Copy = Copy::IN;
const IN_OUT: Copy = Copy::IN_OUT;
const OUT: Copy = Copy::OUT;
const NONE: Copy = Copy::NONE;

/// Every row, by `ndl-std` wrapper family.
pub(crate) static TABLE: &[Entry] = &[
    // device_lifecycle
    device!(DEVICE_RESET, NONE, no_op),
    device!(DEVICE_INIT, NONE, no_op),
    device!(DEVICE_RELEASE, NONE, no_op),
    device!(DEVICE_READY, OUT, device_lifecycle::ready),
    device!(DEVICE_RESET_STATUS, OUT, device_lifecycle::ready),
    device!(DEVICE_APP_PID, OUT, device_lifecycle::app_pid),
    device!(
        DEVICE_GET_ALL_APPS_INFO,
        IN_OUT,
        device_lifecycle::all_apps_info
    ),
    // device_info
    device!(DEVICE_INFO, OUT, device_info::info),
    device!(DEVICE_BDF, OUT, device_info::bdf),
    device!(HOST_DEVICE_ID, OUT, device_info::host_device_id),
    // registers
    device!(BAR_READ, IN, registers::bar_read),
    device!(BAR_WRITE, IN, registers::bar_write),
    // memory
    device!(MEM_ALLOC_V2, IN, memory::alloc_v2),
    device!(MEM_ALLOC_V2MT, IN, memory::alloc_v2mt),
    device!(MEM_ALLOC_V2MT64, IN, memory::alloc_v2mt64),
    device!(
        v2_28_0_0::MEM_ALLOC_V2MT64_PA,
        IN_OUT,
        memory::alloc_v2mt64_pa
    ),
    device!(MEM_FREE, IN, memory::free),
    device!(MEM_GET_EXTENDED_INFO, IN_OUT, memory::extended_info),
    device!(MEM_COPY, IN, mem_copy_ioctl::<MemCopy>),
    device!(MEM_COPY64, IN, mem_copy_ioctl::<MemCopy64>),
    device!(
        v2_30_2_0::MEM_COPY64_DEPRECATED,
        IN,
        mem_copy_ioctl::<v2_30_2_0::MemCopy64Deprecated>
    ),
    device!(
        v2_30_2_0::MEM_COPY64,
        IN,
        mem_copy_ioctl::<v2_30_2_0::MemCopy64>
    ),
    device!(MEM_BUF_COPY, IN, buf_copy_ioctl::<MemBufCopy>),
    device!(MEM_BUF_COPY64, IN, buf_copy_ioctl::<MemBufCopy64>),
    device!(MEMSET, IN, memory::memset32),
    device!(MEMSET64, IN, memory::memset64),
    device!(MEM_MC_GET_INFO, Size, IN_OUT, memory::mc_get_info),
    device!(MEM_MC_GET_INFO_V2, Size, IN_OUT, memory::mc_get_info_v2),
    device!(PROGRAM_ENGINE_NC, IN, memory::program_nc),
    device!(PROGRAM_ENGINE_NC64, IN, memory::program_nc64),
    device!(RESOURCE_MMAP_INFO, IN_OUT, memory::resource_mmap_info),
    device!(MEM_BUF_ZEROCOPY64_BATCHES, IN, memory::zerocopy64_batches),
    // memory_legacy
    device!(MEM_ALLOC, IN, memory_legacy::alloc),
    device!(MEM_GET_PA, IN, memory_legacy::get_pa),
    device!(MEM_GET_INFO, IN, memory_legacy::get_info),
    device!(PROGRAM_ENGINE, IN, memory_legacy::program_engine),
    device!(DUMP_MEM_CHUNKS, IN_OUT, memory_legacy::dump_mem_chunks),
    // dma
    device!(DMA_ENG_INIT, IN, no_op),
    device!(DMA_ENG_SET_STATE, IN, dma::eng_set_state),
    device!(DMA_ENG_GET_STATE, IN, dma::eng_get_state),
    device!(DMA_QUEUE_INIT, IN, dma::queue_init),
    device!(
        DMA_QUEUE_INIT_BATCH,
        IN.in_fault(Errno::ACCESS),
        dma::queue_init_batch
    ),
    device!(DMA_QUEUE_RELEASE, IN, no_op),
    device!(DMA_QUEUE_COPY_START, IN, dma::copy_start),
    device!(DMA_ACK_COMPLETED, IN, dma::ack_completed),
    device!(DMA_QUEUE_GET_STATE, IN, dma::queue_get_state),
    device!(DMA_COPY_DESCRIPTORS, IN, dma::copy_descriptors),
    device!(DMA_COPY_DESCRIPTORS64, IN, dma::copy_descriptors64),
    device!(DMA_DESCRIPTOR_COPYOUT, IN, dma::descriptor_copyout),
    device!(DMA_QUIESCE_QUEUES, NONE, dma::quiesce),
    // nc
    device!(SEMAPHORE_INCREMENT, IN, nc::sem_increment),
    device!(SEMAPHORE_DECREMENT, IN, nc::sem_decrement),
    device!(SEMAPHORE_READ, IN_OUT, nc::sem_read),
    device!(SEMAPHORE_WRITE, IN, nc::sem_write),
    device!(EVENT_SET, IN, nc::event_set),
    device!(EVENT_GET, IN_OUT, nc::event_get),
    device!(NOTIFICATIONS_INIT_V1, IN_OUT, nc::notifications_init_v1),
    device!(NOTIFICATIONS_DESTROY_V1, NONE, no_op),
    device!(NOTIFICATIONS_INIT_V2, IN_OUT, nc::notifications_init_v2),
    device!(
        NOTIFICATIONS_INIT_WITH_REALLOC_V2,
        IN_OUT,
        nc::notifications_init_with_realloc
    ),
    device!(NOTIFICATIONS_QUEUE_INFO, NONE, nc::notifications_queue_info),
    device!(CRWL_READER_ENTER, IN, nc::reader_enter),
    device!(CRWL_READER_EXIT, IN, nc::reader_exit),
    device!(CRWL_WRITER_ENTER, IN, nc::writer_enter),
    device!(CRWL_WRITER_DOWNGRADE, IN, nc::writer_downgrade),
    device!(CINIT_SET_STATE, IN_OUT, nc::cinit_set_state),
    device!(NC_MODEL_STARTED_COUNT, IN_OUT, nc::model_started_count),
    device!(NC_RESET, IN_OUT, nc::nc_reset),
    device!(NC_RESET_READY, IN_OUT, nc::nc_reset_ready),
    device!(HBM_SCRUB_START, IN, nc::hbm_scrub_start),
    device!(HBM_SCRUB_WAIT, IN, nc::hbm_scrub_wait),
    // datastore
    device!(ACQUIRE_NEURON_DS, IN_OUT, datastore::acquire),
    device!(RELEASE_NEURON_DS, IN, datastore::release),
    // h2t
    device!(H2T_DMA_ALLOC_QUEUES, IN_OUT, h2t::alloc),
    device!(H2T_DMA_FREE_QUEUES, IN, h2t::free),
    // h2t_completion (2.27.4.0)
    device!(
        v2_27_4_0::GET_ASYNC_H2T_DMA_COMPL_QUEUES,
        IN_OUT,
        h2t_completion::get_queues
    ),
    // firmware
    device!(POWER_PROFILE, IN, firmware::power_profile),
    device!(METRICS_CTRL, NONE, no_op),
    // perf_profile (2.27.4.0)
    device!(
        v2_27_4_0::GET_PERFORMANCE_PROFILE,
        IN_OUT,
        perf_profile::get
    ),
    device!(
        v2_27_4_0::AVAILABLE_PERF_PROFILES,
        IN_OUT,
        perf_profile::available
    ),
    // copy_async
    device!(MEM_COPY_ASYNC, IN_OUT, copy_async_ioctl::<MemCopyAsync>),
    device!(MEM_COPY_ASYNC64, IN_OUT, copy_async_ioctl::<MemCopyAsync64>),
    device!(MEM_COPY_ASYNC_WAIT, IN, copy_async::wait),
    device!(
        v2_24_7_0::MEM_BUF_ZEROCOPY64,
        Any,
        IN,
        buf_copy_ioctl::<MemBufCopy64>
    ),
    device!(MEM_BUF_ZEROCOPY64, IN, buf_copy_ioctl::<MemBufCopy64zc>),
    device!(
        v2_29_0_0::MEM_BUF_ZEROCOPY64,
        IN,
        buf_copy_ioctl::<v2_29_0_0::MemBufCopy64zc>
    ),
    // misc_info
    kernel!(COMPATIBLE_VERSION, OUT, misc_info::compatible_version),
    kernel!(DEVICE_BASIC_INFO, OUT, misc_info::basic_info),
    kernel!(DEVICE_BDF_EXT, IN_OUT, misc_info::bdf_ext),
    kernel!(DRIVER_INFO_GET, Any, OUT, misc_info::driver_info),
    kernel!(HOST_DEVICE_ID_TO_RID_MAP, Size, OUT, misc_info::rid_map),
    kernel!(GET_LOGICAL_TO_PHYSICAL_NC_MAP, IN, misc_info::nc_map),
    kernel!(PRINTK, IN, misc_info::printk),
    kernel!(DMABUF_FD, IN, misc_info::dmabuf_fd),
    kernel!(CRWL_NC_RANGE_MARK, IN_OUT, misc_info::range_mark),
    kernel!(CRWL_NC_RANGE_MARK_EXT0, IN_OUT, misc_info::range_mark_ext),
    kernel!(CRWL_NC_RANGE_UNMARK, IN, misc_info::range_unmark),
    kernel!(CRWL_NC_RANGE_UNMARK_EXT0, IN, misc_info::range_unmark_ext),
    kernel!(NC_PID_STATE_DUMP, IN, misc_info::nc_pid_state_dump),
    kernel!(
        GET_VA_PLACEMENT,
        Any,
        IN_OUT.out_unchecked(),
        misc_info::va_placement
    ),
    // pod
    kernel!(POD_INFO, IN_OUT, pod::info),
    kernel!(POD_STATUS, Copy::prefix_out(2), pod::status),
    kernel!(POD_STATUS_V2, Copy::prefix_out(2), pod::status_v2),
    kernel!(POD_CTRL, IN_OUT, pod::ctrl),
    kernel!(POD_CTRL_V2, IN_OUT, pod::ctrl_v2),
];

/// Commands of newer releases the model does not serve, each with why: they answer ENOSYS
/// (the model's own answer for "not modelled"; no driver answers it).
#[allow(
    dead_code,
    reason = "documentation the catalog test checks; the dispatcher answers \
          NOT_MODELLED_ERRNO for any exact command without a row"
)]
pub(crate) const NOT_MODELLED: &[(&str, &str)] = &[
    (
        "NEURON_IOCTL_HOST_MEM_PIN",
        "2.28.0.0: pins a range of the caller's own memory for device DMA; the model has no \
         page tables to pin",
    ),
    (
        "NEURON_IOCTL_HOST_MEM_UNPIN",
        "2.28.0.0: releases a HOST_MEM_PIN pin, which the model does not make",
    ),
    (
        "NEURON_IOCTL_DMABUF_FD_V2",
        "2.29.0.0: exports a dma-buf with its offset; not modelled yet",
    ),
    (
        "NEURON_IOCTL_GET_BAR_INFO",
        "2.30.2.0: switch-fabric BAR lists, which the model's devices do not have",
    ),
];

/// The errno a command of [`NOT_MODELLED`] answers.
pub(crate) const NOT_MODELLED_ERRNO: Errno = Errno::NOSYS;
