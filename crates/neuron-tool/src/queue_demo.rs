//! What `queue inspect` without `--device` looks at: the built-in model with a queue a
//! demonstration has just used, through the driver's calls (DMA_QUEUE_INIT, descriptors,
//! DMA_QUEUE_COPY_START), optionally into one of the faults users hit (issue 20 item 3).
//!
//! The model's faults are armed on the queue (`neuron_emu::Device::inject`) and fire at its
//! next TX doorbell; what follows is the model's own walk, cause and abort. The queue-init
//! limit is a request the driver refuses, not a device fault: the demonstration makes that
//! request and reports the refusal naming the queue and the limit it exceeded.
//!
//! The queue and its memory stay alive while the inspector looks (same process, same open
//! device), as a stuck runtime's would.

use khal::Arch;
use ndl_abi::DmaQueueInit;
use ndl_copy::driver::DriverQueue;
use ndl_copy::{Delivery, DeviceMem, MemSpec, MemType, QueueChoice};
use ndl_emu::EmulatedKernel;
use ndl_std::{DeviceHandle, Kernel, MemLocation, Ndl};
use neuron_emu::{Armed, Injection};
use udma_desc::{CopyRequest, QueueId, RING_MAX_SIZE};

use crate::cli::FaultName;
use crate::cmd::copy::MODEL_NAME;
use crate::device_target::device_error;
use crate::error::{Result, ToolError};

/// Descriptors per ring of the demonstration queue (the smallest ring DMA_QUEUE_INIT takes
/// that is a power of two: `dma-path.md` step 2, 32..2^23).
pub const DEMO_RING: u32 = 32;
/// Copies the demonstration posts.
pub const DEMO_COPIES: u32 = 4;
/// Bytes of each copy.
pub const DEMO_COPY_BYTES: u32 = 4096;

/// The injection a fault name arms, if it is a device fault.
pub fn injection(f: FaultName) -> Option<Injection> {
    match f {
        FaultName::BusError => Some(Injection::BusError),
        FaultName::RingId => Some(Injection::RingId),
        FaultName::Timeout => Some(Injection::Stall),
        FaultName::QueueInitLimit => None,
    }
}

/// What the demonstration did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Demonstration {
    /// One line on what it did.
    pub said: String,
    /// The driver's refusal of its request, naming the queue and the limit (the
    /// queue-init limit), when it was refused.
    pub refusal: Option<String>,
}

/// An errno by its name (`EINVAL`), or its text where the name is unknown.
pub fn errno_name(e: ndl_std::Errno) -> String {
    ndl_trace::errno::name(e.raw_os_error()).map_or_else(|| e.to_string(), str::to_string)
}

/// Arms `fault` (when it is a device fault) on queue `queue` of engine `engine` of device 0
/// of `kernel`.
pub fn arm(
    kernel: &EmulatedKernel,
    engine: u32,
    queue: u32,
    fault: Option<FaultName>,
) -> Result<()> {
    let Some(i) = fault.and_then(injection) else {
        return Ok(());
    };
    let dev = kernel
        .device(0)
        .ok_or_else(|| model_error("no device 0".into()))?;
    let armed = Armed {
        engine: usize::try_from(engine).unwrap_or(usize::MAX),
        queue: usize::try_from(queue).unwrap_or(usize::MAX),
        injection: i,
    };
    dev.inject(armed)
        .map_err(|e| ToolError::BadArgument(format!("--fault: {e}")))
}

/// Runs the demonstration on device 0 of `kernel` (queue `queue` of engine `engine`, into
/// `fault`), then `inspect` with what it did, while the queue is still held.
pub fn with_demo<A: Arch, R>(
    kernel: &EmulatedKernel,
    engine: u32,
    queue: u32,
    fault: Option<FaultName>,
    inspect: impl FnOnce(Demonstration) -> Result<R>,
) -> Result<R> {
    arm(kernel, engine, queue, fault)?;
    let ndl = Ndl::with_kernel(kernel.clone());
    let plan = DemoPlan {
        engine,
        queue,
        fault,
        delivery: Delivery::Mmap,
    };
    demo_on::<_, A, R>(&ndl, &plan, inspect)
}

/// What a demonstration does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DemoPlan {
    /// The engine (global id).
    pub engine: u32,
    /// Its queue.
    pub queue: u32,
    /// The fault armed on the queue (already armed by the caller; the queue-init limit is
    /// asked for here).
    pub fault: Option<FaultName>,
    /// How descriptors reach the rings (a served node cannot be mapped).
    pub delivery: Delivery,
}

/// The demonstration on device 0 of `ndl` (any kernel: the model in this process, or a
/// served node), then `inspect`, while the queue and its memory are still held.
pub fn demo_on<K: Kernel, A: Arch, R>(
    ndl: &Ndl<K>,
    plan: &DemoPlan,
    inspect: impl FnOnce(Demonstration) -> Result<R>,
) -> Result<R> {
    let (engine, queue, fault) = (plan.engine, plan.queue, plan.fault);
    let qid = QueueId::new(queue).map_err(|e| ToolError::BadArgument(format!("--queue: {e}")))?;
    let dev = ndl
        .open_device(0)
        .map_err(|e| device_error(MODEL_NAME, e))?;
    if fault == Some(FaultName::QueueInitLimit) {
        let refusal = over_the_limit::<A, _>(&dev, engine, queue)?;
        return inspect(Demonstration {
            said: format!("asked for too long a ring: {refusal}"),
            refusal: Some(refusal),
        });
    }
    let choice = QueueChoice::CoreEngine { engine, queue: qid };
    let mut q = DriverQueue::<_, A>::open(&dev, choice, DEMO_RING, plan.delivery)
        .map_err(|e| model_error(e.to_string()))?;
    let spec = MemSpec {
        size: u64::from(DEMO_COPIES * DEMO_COPY_BYTES),
        align: 0,
        location: MemLocation::Device {
            channel: 0,
            region: 0,
        },
        nc_id: 0,
        mem_type: MemType::Tensor,
        host_window: A::SCALARS.pci_host_base,
    };
    let alloc = |s| DeviceMem::alloc(&dev, s).map_err(|e| device_error(MODEL_NAME, e));
    let (src, dst) = (alloc(spec)?, alloc(spec)?);
    let copies: Vec<CopyRequest> = (0..DEMO_COPIES)
        .map(|i| {
            let at = u64::from(i * DEMO_COPY_BYTES);
            CopyRequest::new(src.dma_addr() + at, dst.dma_addr() + at, DEMO_COPY_BYTES)
        })
        .collect();
    let posted = q.post(&copies).map_err(|e| model_error(e.to_string()))?;
    q.start(posted).map_err(|e| model_error(e.to_string()))?;
    let said = format!(
        "{posted} copies of {DEMO_COPY_BYTES} bytes (HBM to HBM) posted on engine {engine} \
         queue {queue} and started{}",
        fault.map_or(String::new(), |f| format!(
            ", with fault {} armed on the queue",
            crate::cli::fault_name(f)
        ))
    );
    inspect(Demonstration {
        said,
        refusal: None,
    })
}

/// Asks DMA_QUEUE_INIT for a TX ring one step over the largest the driver takes; the
/// refusal, naming the queue and the limit.
fn over_the_limit<A: Arch, K: Kernel>(
    dev: &DeviceHandle<'_, K>,
    engine: u32,
    queue: u32,
) -> Result<String> {
    let asked = RING_MAX_SIZE + 16;
    // Rings of one page: the driver does not check a chunk's size against the count
    // (dma-path.md step 2), so the count is what it refuses. A handle of 0 would be "no
    // ring" and never checked.
    let spec = MemSpec {
        size: 4096,
        align: 0,
        location: MemLocation::Host,
        nc_id: 0,
        mem_type: MemType::Ring,
        host_window: A::SCALARS.pci_host_base,
    };
    let alloc = || DeviceMem::alloc(dev, spec).map_err(|e| device_error(MODEL_NAME, e));
    let (tx, rx) = (alloc()?, alloc()?);
    let init = DmaQueueInit {
        eng_id: engine,
        qid: queue,
        tx_desc_count: asked,
        rx_desc_count: DEMO_RING,
        tx_handle: tx.mem().0,
        rx_handle: rx.mem().0,
        rxc_handle: 0,
        axi_port: 0,
        _pad44: [0; 4],
    };
    let errno = match dev.dma_queue_init(&init) {
        Ok(()) => {
            return Err(model_error(format!(
                "DMA_QUEUE_INIT took a TX ring of {asked} descriptors"
            )));
        }
        Err(ndl_std::Error::Ioctl { errno, .. }) => errno,
        Err(e) => return Err(device_error(MODEL_NAME, e)),
    };
    Ok(format!(
        "DMA_QUEUE_INIT of engine {engine} queue {queue} was refused ({}): its TX ring of \
         {asked} descriptors exceeds the driver's limit of {RING_MAX_SIZE} descriptors per \
         ring (2^24 - 16, dma-path.md step 2)",
        errno_name(errno)
    ))
}

fn model_error(why: String) -> ToolError {
    ToolError::Device {
        device: MODEL_NAME.into(),
        why,
    }
}
