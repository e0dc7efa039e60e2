//! Which wrapper issues which command: one row per public wrapper, checked against the
//! catalog by test (every command has a wrapper on the gateway of its lane).
//!
//! The macro also names each wrapper as a path (`Device::<RealKernel>::mem_free`), so a row
//! whose method does not exist on that gateway does not compile: the table cannot list a
//! wrapper the code lacks. A family wrapper lists its commands newest first: the first is
//! what it sends, the rest the fallbacks of [`crate::compat`] (the seed's `_cm` path on
//! EINVAL). Names follow the command: the wrapper's name, without a `_cm`
//! (compat-mode) or `_to`/`_from` (direction) suffix, begins the command's lower-case name.

use crate::gateway::{Device, DeviceHandle, Misc};
use crate::real_kernel::RealKernel;
use ndl_abi::v2_27_4_0;
#[allow(clippy::wildcard_imports)]
use ndl_abi::*;

/// The three gateways of the seed (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gateway {
    /// Per-device fd, cached read-only (`ndl_device_ioctl`).
    Device,
    /// The process-wide write-only fd (`ndl_misc_ioctl`).
    Misc,
    /// The fd a device handle captured (the copy/memset/buf-copy commands).
    DeviceHandle,
}

/// One wrapper: its method name, gateway and the commands it issues.
#[derive(Clone, Copy, Debug)]
pub struct Wrapper {
    /// The method's name.
    pub name: &'static str,
    /// The gateway type it is a method of.
    pub gateway: Gateway,
    /// The commands it sends, the first one first; later ones are fallbacks.
    pub commands: &'static [Command],
}

macro_rules! wrappers {
    ($($gate:ident :: $name:ident => [$($cmd:path),+ $(,)?];)*) => {
        /// Every wrapper, by gateway.
        pub const WRAPPERS: &[Wrapper] = &[$(
            Wrapper {
                name: stringify!($name),
                gateway: Gateway::$gate,
                commands: &[$($cmd.command()),+],
            },
        )*];

        /// Names every row's method as a path: a missing method is a compile error.
        #[allow(dead_code, reason = "compiled for its type check only")]
        fn every_row_names_a_method() {
            $( let _ = $gate::<'static, RealKernel>::$name; )*
        }
    };
}

wrappers! {
    Device::device_reset => [DEVICE_RESET];
    Device::device_ready => [DEVICE_READY];
    Device::device_reset_status => [DEVICE_RESET_STATUS];
    Device::device_info => [DEVICE_INFO];
    Device::device_init => [DEVICE_INIT];
    Device::device_release => [DEVICE_RELEASE];
    Device::device_app_pid => [DEVICE_APP_PID];
    Device::device_get_all_apps_info => [DEVICE_GET_ALL_APPS_INFO];
    Device::bar_read => [BAR_READ];
    Device::bar_write => [BAR_WRITE];
    Device::post_metric => [POST_METRIC];
    Device::mem_alloc_cm => [MEM_ALLOC];
    Device::mem_alloc => [MEM_ALLOC_V2MT64, MEM_ALLOC_V2MT];
    Device::mem_alloc_v2 => [MEM_ALLOC_V2];
    Device::mem_free => [MEM_FREE];
    Device::mem_get_pa => [MEM_GET_PA];
    Device::mem_get_info => [MEM_GET_INFO];
    Device::program_engine => [PROGRAM_ENGINE];
    Device::mem_get_extended_info => [MEM_GET_EXTENDED_INFO];
    Device::dma_eng_init => [DMA_ENG_INIT];
    Device::dma_eng_set_state => [DMA_ENG_SET_STATE];
    Device::dma_eng_get_state => [DMA_ENG_GET_STATE];
    Device::dma_queue_init => [DMA_QUEUE_INIT];
    Device::dma_queue_init_batch => [DMA_QUEUE_INIT_BATCH];
    Device::dma_queue_release => [DMA_QUEUE_RELEASE];
    Device::dma_queue_copy_start => [DMA_QUEUE_COPY_START];
    Device::dma_ack_completed => [DMA_ACK_COMPLETED];
    Device::dma_queue_get_state => [DMA_QUEUE_GET_STATE];
    Device::dma_copy_descriptors => [DMA_COPY_DESCRIPTORS64, DMA_COPY_DESCRIPTORS];
    Device::dma_descriptor_copyout => [DMA_DESCRIPTOR_COPYOUT];
    Device::dma_quiesce_queues => [DMA_QUIESCE_QUEUES];
    Device::semaphore_increment => [SEMAPHORE_INCREMENT];
    Device::semaphore_decrement => [SEMAPHORE_DECREMENT];
    Device::semaphore_read => [SEMAPHORE_READ];
    Device::semaphore_write => [SEMAPHORE_WRITE];
    Device::event_set => [EVENT_SET];
    Device::event_get => [EVENT_GET];
    Device::notifications_init_v1 => [NOTIFICATIONS_INIT_V1];
    Device::notifications_destroy_v1 => [NOTIFICATIONS_DESTROY_V1];
    Device::notifications_init => [NOTIFICATIONS_INIT_V2];
    Device::notifications_init_with_realloc => [NOTIFICATIONS_INIT_WITH_REALLOC_V2];
    Device::notifications_queue_info => [NOTIFICATIONS_QUEUE_INFO];
    Device::read_hw_counters => [READ_HW_COUNTERS];
    Device::acquire_neuron_ds => [ACQUIRE_NEURON_DS];
    Device::release_neuron_ds => [RELEASE_NEURON_DS];
    Device::crwl_reader_enter => [CRWL_READER_ENTER];
    Device::crwl_reader_exit => [CRWL_READER_EXIT];
    Device::crwl_writer_enter => [CRWL_WRITER_ENTER];
    Device::crwl_writer_downgrade => [CRWL_WRITER_DOWNGRADE];
    Device::cinit_set_state => [CINIT_SET_STATE];
    Device::nc_model_started_count => [NC_MODEL_STARTED_COUNT];
    Device::device_bdf => [DEVICE_BDF];
    Device::nc_reset => [NC_RESET];
    Device::nc_reset_ready => [NC_RESET_READY];
    Device::program_engine_nc => [PROGRAM_ENGINE_NC64, PROGRAM_ENGINE_NC];
    Device::mem_mc_get_info => [MEM_MC_GET_INFO_V2, MEM_MC_GET_INFO];
    Device::resource_mmap_info => [RESOURCE_MMAP_INFO];
    Device::host_device_id => [HOST_DEVICE_ID];
    Device::dump_mem_chunks => [DUMP_MEM_CHUNKS];
    Device::hbm_scrub_start => [HBM_SCRUB_START];
    Device::hbm_scrub_wait => [HBM_SCRUB_WAIT];
    Device::h2t_dma_alloc_queues => [H2T_DMA_ALLOC_QUEUES];
    Device::h2t_dma_free_queues => [H2T_DMA_FREE_QUEUES];
    Device::power_profile => [POWER_PROFILE];
    Device::metrics_ctrl => [METRICS_CTRL];
    Device::throttling_notifications => [THROTTLING_NOTIFICATIONS];
    Device::get_performance_profile => [v2_27_4_0::GET_PERFORMANCE_PROFILE];
    Device::available_perf_profiles => [v2_27_4_0::AVAILABLE_PERF_PROFILES];
    Device::get_async_h2t_dma_compl_queues => [v2_27_4_0::GET_ASYNC_H2T_DMA_COMPL_QUEUES];
    DeviceHandle::mem_copy => [MEM_COPY64, MEM_COPY];
    DeviceHandle::mem_buf_copy_to => [MEM_BUF_COPY64, MEM_BUF_COPY];
    DeviceHandle::mem_buf_copy_from => [MEM_BUF_COPY64, MEM_BUF_COPY];
    DeviceHandle::memset => [MEMSET64, MEMSET];
    DeviceHandle::mem_buf_zerocopy64_batches_to => [MEM_BUF_ZEROCOPY64_BATCHES];
    DeviceHandle::mem_buf_zerocopy64_batches_from => [MEM_BUF_ZEROCOPY64_BATCHES];
    DeviceHandle::mem_buf_zerocopy64_to => [MEM_BUF_ZEROCOPY64];
    DeviceHandle::mem_buf_zerocopy64_from => [MEM_BUF_ZEROCOPY64];
    DeviceHandle::mem_copy_async => [MEM_COPY_ASYNC64, MEM_COPY_ASYNC];
    DeviceHandle::mem_copy_async_wait => [MEM_COPY_ASYNC_WAIT];
    Misc::compatible_version => [COMPATIBLE_VERSION];
    Misc::device_basic_info => [DEVICE_BASIC_INFO];
    Misc::device_bdf_ext => [DEVICE_BDF_EXT];
    Misc::driver_info_get => [DRIVER_INFO_GET];
    Misc::driver_info_set => [DRIVER_INFO_SET];
    Misc::host_device_id_to_rid_map => [HOST_DEVICE_ID_TO_RID_MAP];
    Misc::get_logical_to_physical_nc_map => [GET_LOGICAL_TO_PHYSICAL_NC_MAP];
    Misc::printk => [PRINTK];
    Misc::dmabuf_fd => [DMABUF_FD];
    Misc::crwl_nc_range_mark => [CRWL_NC_RANGE_MARK];
    Misc::crwl_nc_range_mark_ext => [CRWL_NC_RANGE_MARK_EXT0];
    Misc::crwl_nc_range_unmark => [CRWL_NC_RANGE_UNMARK];
    Misc::crwl_nc_range_unmark_ext => [CRWL_NC_RANGE_UNMARK_EXT0];
    Misc::nc_pid_state_dump => [NC_PID_STATE_DUMP];
    Misc::get_va_placement => [GET_VA_PLACEMENT];
    Misc::pod_info => [POD_INFO];
    Misc::pod_status => [POD_STATUS_V2, POD_STATUS];
    Misc::pod_ctrl => [POD_CTRL];
    Misc::pod_ctrl_v2 => [POD_CTRL_V2];
}

/// The wrappers that issue `cmd`.
pub fn wrappers_of(cmd: &Command) -> impl Iterator<Item = &'static Wrapper> + use<'_> {
    WRAPPERS
        .iter()
        .filter(move |w| w.commands.iter().any(|c| c.code() == cmd.code()))
}
