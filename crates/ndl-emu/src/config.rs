//! How an emulated device is built: generation, PCI identity, memory, execution.

use khal::Generation;
use ndl_std::Errno;
use neuron_emu::{MapError, MemoryConfig};

/// Host physical address of the host memory of [`DeviceConfig::numbered`] devices.
pub const HOST_PHYS_BASE: u64 = 1 << 32;

/// How the device model runs the descriptors a doorbell posts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Execution {
    /// The doorbell write runs the device until idle before it returns: a copy is complete
    /// when the doorbell ioctl (or register write) returns. Deterministic, single-threaded.
    #[default]
    OnDoorbell,
    /// A background engine thread per device runs doorbells as they arrive, like hardware:
    /// software polls head pointers for completion.
    Background,
    /// Nothing runs until the test steps the model itself
    /// ([`EmulatedKernel::device`](super::EmulatedKernel::device), then
    /// `run_until_idle`).
    Manual,
}

/// What one emulated device is: its chip generation (which picks the `khal` arch type
/// through the one dispatch point), its PCI identity, its memory and how it executes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceConfig {
    /// Chip generation (DEVICE_INFO, BASIC_INFO and DRIVER_INFO report its arch number).
    pub generation: Generation,
    /// Revision.
    pub revision: u32,
    /// PCI domain.
    pub domain: u32,
    /// PCI bus.
    pub bus: u32,
    /// PCI slot.
    pub slot: u8,
    /// PCI function.
    pub func: u8,
    /// Host device id (HOST_DEVICE_ID).
    pub host_device_id: u32,
    /// Routing id (HOST_DEVICE_ID_TO_RID_MAP).
    pub routing_id: u32,
    /// Sizes and placement of the model's HBM and host memory.
    pub memory: MemoryConfig,
    /// How doorbells are executed.
    pub execution: Execution,
    /// Stands for CAP_SYS_RAWIO of the calling process; off by default. A privileged kernel
    /// maps raw device memory at offsets that are neither a chunk nor a special resource
    /// (the driver's root path) and serves the **emulator-only** register windows of
    /// [`resource`](super::resource) (BAR0 and per-engine UDMA), which no real driver
    /// serves; they exist for the register-level copy and privileged tooling on the model.
    pub privileged: bool,
    /// Strict isolation, the emulator's own mode (off by default, which keeps the driver's
    /// behaviour): a memory handle, a chunk's mmap key, a datastore, an H2T queue or a DMA
    /// queue another process initialised answers as an unknown one does (and a DMA queue
    /// another live process holds is not re-programmed: EBUSY). The 2.26.5.0 driver checks none of
    /// them against the caller, so any process may read, write, memset or free another's
    /// memory by handle; see the README's security section. Device-lifespan objects
    /// (notification rings, completion queues) stay device-wide, as the driver defines them.
    pub isolate: bool,
}

impl DeviceConfig {
    /// Defaults for device `index` of `generation`: a distinct bus and ids per device,
    /// 16 MiB per HBM channel and 16 MiB of host memory at host physical address
    /// 4 GiB (so host physical addresses never coincide with device addresses of HBM
    /// channel 0, which starts at 0).
    pub fn numbered(generation: Generation, index: u32) -> Self {
        Self {
            generation,
            revision: 1,
            domain: 0,
            bus: 0x10 + index,
            slot: 0,
            func: 0,
            host_device_id: index,
            routing_id: 0x100 + index,
            memory: MemoryConfig {
                hbm_bytes_per_channel: 16 << 20,
                host_bytes: 16 << 20,
                host_phys_base: HOST_PHYS_BASE,
            },
            execution: Execution::OnDoorbell,
            privileged: false,
            isolate: false,
        }
    }

    /// The same device with strict isolation on or off (see [`DeviceConfig::isolate`]).
    pub fn with_isolate(mut self, isolate: bool) -> Self {
        self.isolate = isolate;
        self
    }

    /// The same device with the privileged option (see [`DeviceConfig::privileged`]).
    pub fn with_privileged(mut self, privileged: bool) -> Self {
        self.privileged = privileged;
        self
    }

    /// The same device executing doorbells as `execution` says.
    pub fn with_execution(mut self, execution: Execution) -> Self {
        self.execution = execution;
        self
    }
}

/// Why an emulated kernel could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// The device's memory map is impossible (overlapping or overflowing regions).
    #[error("device {index}: {source}")]
    Memory {
        /// The device index.
        index: u32,
        /// What the model said.
        source: MapError,
    },
    /// No arch type of this build implements the generation.
    #[error("device {index}: {generation} is not supported by this build")]
    Unsupported {
        /// The device index.
        index: u32,
        /// The generation asked for.
        generation: Generation,
    },
    /// The device's engine bring-up failed (a khal refusal; a bug in the arch tables).
    #[error("device {index}: engine {engine} bring-up failed: {reason}")]
    BringUp {
        /// The device index.
        index: u32,
        /// The engine.
        engine: u32,
        /// khal's error, as text.
        reason: String,
    },
    /// The driver release does not support the device's arch
    /// ([`EmulatedKernel::with_release`](super::EmulatedKernel::with_release)).
    #[error("device {index}: driver {release} does not support {generation}")]
    Release {
        /// The device index.
        index: u32,
        /// The device's generation.
        generation: Generation,
        /// The release asked for.
        release: ndl_abi::Release,
    },
    /// The background engine thread could not be started.
    #[error("device {index}: the background engine thread could not be started")]
    Background {
        /// The device index.
        index: u32,
    },
}

impl BuildError {
    /// The errno the failure answers where the driver has one: ENOMEM when the host has no
    /// memory for a device's memory map (a `--memory` larger than the host maps). The
    /// model's regions are mapped when the kernel is built, so this is where an oversized
    /// memory is refused, as a value, never as an abort.
    pub fn errno(&self) -> Option<Errno> {
        match self {
            Self::Memory { source, .. } if source.host_errno().is_some() => Some(Errno::NOMEM),
            _ => None,
        }
    }
}
