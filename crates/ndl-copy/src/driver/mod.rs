//! The DMA copy on the driver's terms — the default path, and the one that runs on real
//! hardware. It follows `reference/dma-path.md` (driver 2.26.5.0) step by step, issuing
//! only ioctls the driver serves to a process that opened the node read-write:
//!
//! 0. The [`DeviceHandle`] is the O_RDWR fd: privileged lane, process attached.
//! 1. **Queue** ([`QueueChoice`]): an H2T service queue from H2T_DMA_ALLOC_QUEUES (the only
//!    queue the driver hands out; given back with H2T_DMA_FREE_QUEUES), or a queue of a core
//!    engine the caller's side has agreed to use. The engine's state is read with
//!    DMA_ENG_GET_STATE (an aborted engine is refused up front).
//! 2. **Memory**: MEM_ALLOC_V2MT64 for the source, the destination, the TX and RX rings
//!    (host memory, no alignment argument — the driver refuses one for host memory — and a
//!    power-of-two entry count in `32..=2^23`, so a multiple of 16 and 256-byte aligned at
//!    both ends) and the completion word pair, each a [`DeviceMem`]:
//!    freed with MEM_FREE on drop, so on success and on every error path.
//! 3. MEM_GET_EXTENDED_INFO gives each chunk's bus address and mmap offset.
//! 4. DMA_QUEUE_INIT: the driver programs the queue (no completion ring).
//! 5. Descriptors are built by udma-desc ([`udma_desc::build_copy_pair`], one pair per
//!    64 KiB), the ring ids following the driver's convention (1 after init, +1 mod 4 on
//!    each wrap), plus the completion pair that copies a marker word.
//! 6. **Delivery** ([`Delivery`]): stored through an mmap of the process's own ring chunk,
//!    or handed to DMA_COPY_DESCRIPTORS(64) (which checks their addresses) — the caller
//!    picks, because a mapping is not always possible.
//! 7. DMA_QUEUE_COPY_START: the driver rings the RX, then the TX doorbell.
//! 8. Completion: the marker is polled in the completion chunk (through its mapping, or by
//!    MEM_BUF_COPY when nothing is mapped); its landing means every earlier pair completed.
//!    DMA_QUEUE_GET_STATE is read only when the wait times out, to name where the heads
//!    stopped.
//! 9. DMA_ACK_COMPLETED, next batch (slot indices continue, rings wrap); at the end
//!    DMA_QUEUE_RELEASE, H2T_DMA_FREE_QUEUES, munmap and MEM_FREE.
//!
//! Source and destination data move by MEM_BUF_COPY, or through mappings of the two chunks
//! ([`DataMove`]), in pieces of at most [`STREAM_BYTES`](super::STREAM_BYTES) (a caller's slice goes in one
//! piece): a copy of any size holds no buffer of its size besides the caller's own.
//!
//! Over `ndl-emu`'s emulated kernel the same calls reach the device model; its tests run
//! this path for every generation, both deliveries, every barrier and ring wrap.

mod completion;
mod queue;
mod stream;

use std::time::{Duration, Instant};

use khal::{Arch, ArchSet, ArchVisitor};
use udma_desc::{Barrier, CopyRequest, MAX_TRANSFER_BYTES, QueueId};

pub use completion::COMPLETION_MARKER;
pub use queue::DriverQueue;

use super::source::Source;
use super::{CopyError, CopyReport, generation};
use crate::mem::{DeviceMem, MemSpec, MemType};
use completion::Completion;
use stream::Port;

use ndl_std::DeviceHandle;
use ndl_std::Kernel;
use ndl_std::MemLocation;

/// Which DMA queue a copy uses (`reference/dma-path.md` step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueChoice {
    /// A service queue of core `nc`'s H2T engine, allocated from the driver for this copy
    /// and given back after it. H2T engines face the host, so host memory is reachable.
    H2tService {
        /// The core whose H2T engine serves the copy.
        nc: u32,
    },
    /// Queue `queue` of engine `engine` (the driver's global id). The driver does not
    /// arbitrate these between processes; avoid queue 14 of the NX engines and queue 15,
    /// and on V3/V4 use an engine with host connectivity when host memory is involved.
    CoreEngine {
        /// Global engine id.
        engine: u32,
        /// Queue of the engine.
        queue: QueueId,
    },
}

/// How descriptors reach the ring memory (`reference/dma-path.md` step 6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Delivery {
    /// Stored through an mmap of the process's own ring chunk (no address check by the
    /// driver). The completion word is polled through a mapping too.
    #[default]
    Mmap,
    /// Handed to DMA_COPY_DESCRIPTORS(64), which checks each host address and copies them
    /// in; nothing is mapped (the completion word is read with MEM_BUF_COPY).
    CopyDescriptors,
    /// [`Mmap`](Self::Mmap) where the node can be mapped, else
    /// [`CopyDescriptors`](Self::CopyDescriptors): the first mapping the copy makes (its
    /// completion chunk's) decides, and only ENODEV — mmap(2)'s "the file does not support
    /// memory mapping", what a FUSE-served node answers a shared mapping — falls back. The
    /// report says which ran and why ([`CopyReport::delivery`](crate::CopyReport)).
    Auto,
}

impl Delivery {
    /// The name the tool and reports use (`mmap`, `copy-descriptors`, `auto`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Mmap => "mmap",
            Self::CopyDescriptors => "copy-descriptors",
            Self::Auto => "auto",
        }
    }
}

/// The errno of a mapping refusal that [`Delivery::Auto`] answers by delivering through
/// ioctls instead: ENODEV, "the underlying file system of the specified file does not
/// support memory mapping" (mmap(2)); FUSE answers it for a shared mapping of a file opened
/// with direct I/O (the `ndl-fuse` crate docs). Any other refusal is an error.
pub const UNMAPPABLE: ndl_std::Errno = ndl_std::Errno::NODEV;

/// How the source reaches its chunk and the destination comes back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataMove {
    /// MEM_BUF_COPY: the driver copies between the user buffer and the chunk.
    #[default]
    BufCopy,
    /// mmap of the whole chunk (the process's own, so writable), then plain copies.
    Mapping,
}

/// Where and how a driver-style copy runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyOptions {
    /// The queue.
    pub queue: QueueChoice,
    /// How descriptors reach the rings.
    pub delivery: Delivery,
    /// How the data reaches the source chunk and comes back from the destination.
    pub data: DataMove,
    /// Descriptors per ring: a power of two in `32..=2^23`. A batch holds at most
    /// `ring_entries - 16` entries (the ring keeps 16 free), one of them the completion pair.
    pub ring_entries: u32,
    /// Where the source buffer lives.
    pub src: MemLocation,
    /// Where the destination buffer lives.
    pub dst: MemLocation,
    /// The ordering of the last data pair of each batch (the driver's own copies put the
    /// write barrier there).
    pub barrier: Barrier,
    /// How long to wait for each batch's completion marker.
    pub timeout: Duration,
}

impl Default for CopyOptions {
    /// Core 0's H2T service queue, descriptors through a mapping, 256-entry rings, host
    /// memory to HBM channel 0, the driver's write barrier, 5 s per batch.
    fn default() -> Self {
        Self {
            queue: QueueChoice::H2tService { nc: 0 },
            delivery: Delivery::Mmap,
            data: DataMove::BufCopy,
            ring_entries: 256,
            src: MemLocation::Host,
            dst: MemLocation::Device {
                channel: 0,
                region: 0,
            },
            barrier: Barrier::WriteBarrier,
            timeout: Duration::from_secs(5),
        }
    }
}

/// Copies `data` through a DMA queue of `dev` on the driver's terms and verifies the
/// destination byte for byte (see the module docs). The arch comes from DEVICE_INFO through
/// khal's dispatch point over the caller's arch set `S`.
pub fn copy<S: ArchSet, K: Kernel>(
    dev: &DeviceHandle<'_, K>,
    data: &[u8],
    options: &CopyOptions,
) -> Result<CopyReport, CopyError> {
    copy_source::<S, K, [u8]>(dev, data, options)
}

/// [`copy`] of bytes a [`Source`] produces: they are streamed to the source chunk and
/// checked against the destination in [`STREAM_BYTES`](super::STREAM_BYTES) pieces, so the process never holds
/// a buffer of the copy's size (beyond what `source` itself holds).
pub fn copy_source<S: ArchSet, K: Kernel, D: Source + ?Sized>(
    dev: &DeviceHandle<'_, K>,
    source: &D,
    options: &CopyOptions,
) -> Result<CopyReport, CopyError> {
    let g = generation(dev)?;
    khal::dispatch::<S, _>(
        g,
        Visit {
            dev,
            source,
            options,
        },
    )
    .map_err(|_| CopyError::Arch(g.number().into()))?
}

struct Visit<'r, 'a, K: Kernel, D: Source + ?Sized> {
    dev: &'r DeviceHandle<'a, K>,
    source: &'r D,
    options: &'r CopyOptions,
}

impl<K: Kernel, D: Source + ?Sized> ArchVisitor for Visit<'_, '_, K, D> {
    type Output = Result<CopyReport, CopyError>;
    fn visit<A: Arch>(self) -> Self::Output {
        copy_source_on::<K, A, D>(self.dev, self.source, self.options)
    }
}

/// The core a copy's memory is accounted to: the H2T queue's core, or the core that owns
/// a core engine (`dma_eng_per_nc` engines per core; ids past them count as core 0).
fn core_of<A: Arch>(queue: QueueChoice) -> u32 {
    match queue {
        QueueChoice::H2tService { nc } => nc,
        QueueChoice::CoreEngine { engine, .. } => {
            let nc = engine / u32::from(A::SCALARS.dma_eng_per_nc.max(1));
            if nc < u32::from(A::SCALARS.nc_per_device) {
                nc
            } else {
                0
            }
        }
    }
}

/// [`copy`] for a known arch `A`.
pub fn copy_on<K: Kernel, A: Arch>(
    dev: &DeviceHandle<'_, K>,
    data: &[u8],
    options: &CopyOptions,
) -> Result<CopyReport, CopyError> {
    copy_source_on::<K, A, [u8]>(dev, data, options)
}

/// [`copy_source`] for a known arch `A`.
pub fn copy_source_on<K: Kernel, A: Arch, D: Source + ?Sized>(
    dev: &DeviceHandle<'_, K>,
    source: &D,
    options: &CopyOptions,
) -> Result<CopyReport, CopyError> {
    if source.is_empty() {
        return Err(CopyError::Empty);
    }
    // Refused before anything is allocated: a barrier the arch lacks.
    CopyRequest::new(0, 0, 1)
        .with_barrier(options.barrier)
        .validate::<A>()?;
    let len = source.len();
    let nc = core_of::<A>(options.queue);
    let window = A::SCALARS.pci_host_base;
    // Declared before the queue, so dropped after it: the queue is released before memory
    // the engine may still address is freed.
    let src = chunk(dev, len, options.src, nc, MemType::Tensor, window)?;
    let dst = chunk(dev, len, options.dst, nc, MemType::Tensor, window)?;
    let (completion, delivery, mmap_refused) =
        Completion::for_delivery(dev, nc, window, options.delivery)?;
    let mut q = DriverQueue::<K, A>::open(dev, options.queue, options.ring_entries, delivery)?;
    Port::open(dev, &src, options.data)?.fill(source)?;

    let chunk = u64::from(MAX_TRANSFER_BYTES);
    // One entry of every batch is the completion pair.
    let per_batch = u64::from(q.room().saturating_sub(1));
    if per_batch == 0 {
        return Err(CopyError::RingTooSmall {
            needed: len.div_ceil(chunk),
            room: 0,
        });
    }
    let (mut done, mut descriptors, mut batches) = (0u64, 0u64, 0u32);
    let mut reqs = Vec::new();
    while done < len {
        reqs.clear();
        while done < len && (reqs.len() as u64) < per_batch {
            let n = chunk.min(len - done);
            // `n` <= 64 KiB, so it fits.
            let size = u32::try_from(n).unwrap_or(MAX_TRANSFER_BYTES);
            reqs.push(CopyRequest::new(
                src.dma_addr() + done,
                dst.dma_addr() + done,
                size,
            ));
            done += n;
        }
        let pairs = reqs.len() as u64;
        if let Some(last) = reqs.last_mut() {
            *last = last.with_barrier(options.barrier);
        }
        reqs.push(completion.request());
        completion.arm()?;
        let entries = q.post(&reqs)?;
        q.start(entries)?;
        wait(&q, &completion, options.timeout)?;
        q.ack(entries)?;
        descriptors += pairs;
        batches += 1;
    }

    Port::open(dev, &dst, options.data)?.verify(source)?;
    Ok(CopyReport {
        generation: A::GENERATION,
        engine: q.eng_id(),
        queue: q.qid().get(),
        bytes: len,
        descriptors,
        batches,
        delivery,
        mmap_refused,
    })
}

/// A chunk of the copy: no alignment (host memory takes none; chunks are page-aligned,
/// which covers the 256-byte ring alignment), accounted to core `nc` as `use_`.
fn chunk<'r, 'a, K: Kernel>(
    dev: &'r DeviceHandle<'a, K>,
    size: u64,
    location: MemLocation,
    nc: u32,
    use_: MemType,
    host_window: u64,
) -> Result<DeviceMem<'r, 'a, K>, ndl_std::Error> {
    DeviceMem::alloc(
        dev,
        MemSpec {
            size,
            align: 0,
            location,
            nc_id: nc,
            mem_type: use_,
            host_window,
        },
    )
}

/// Polls the completion marker. Its landing is the completion: the marker pair is the last
/// of the queue and the engine processes a queue in order, so every earlier pair has
/// completed (dma-path.md step 8). DMA_QUEUE_GET_STATE is diagnostics only: it is read on a
/// timeout, to say in the error where the heads stopped.
fn wait<K: Kernel, A: Arch>(
    q: &DriverQueue<'_, '_, K, A>,
    completion: &Completion<'_, '_, K>,
    timeout: Duration,
) -> Result<(), CopyError> {
    let deadline = Instant::now() + timeout;
    loop {
        if completion.landed()? {
            return Ok(());
        }
        if Instant::now() >= deadline {
            break;
        }
        std::thread::yield_now();
    }
    let (tx, rx) = q.state()?;
    let (tx_expected, rx_expected) = q.next_indices();
    Err(CopyError::Timeout {
        timeout,
        tx_head: tx.head_pointer,
        rx_head: rx.head_pointer,
        tx_expected,
        rx_expected,
    })
}
