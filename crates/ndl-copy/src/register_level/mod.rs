//! The register-level copy: an explicit opt-in for the device model and privileged tooling,
//! **never the default**, and refused by the real driver.
//!
//! It drives one UDMA queue from user space the way firmware or a kernel driver would: khal
//! brings the engine up and programs the queue through a mapped BAR0 register window, the
//! rings live in mapped driver memory, and khal's doorbells are written through the
//! mapping. The driver (2.26.5.0) refuses exactly this: no mmap reaches DMA engine registers
//! (`reference/mmap-README.md`), and BAR_WRITE refuses the ring-base, completion-base and
//! tail-increment words of every queue (`reference/bar0-write-block.tsv`), because the
//! driver owns every DMA queue register (`reference/dma-path.md`, "The division of
//! labour"). On a real host this path can only fail; use [`super::driver`] there.
//!
//! 1. DEVICE_INFO gives the architecture; khal's one dispatch point over the caller's arch
//!    set turns it into the arch type `A` ([`copy`] → [`copy_on`]).
//! 2. [`DmaQueue::open`]: map the register resource the caller names ([`RegisterResource`];
//!    `ndl-emu` serves one in privileged mode only), bring the engine up with khal over the
//!    mapping, allocate and map the TX/RX rings, program the queue with khal.
//! 3. Allocate source and destination; write the source from the user buffer (buffer copy).
//! 4. Build copy descriptor pairs of at most 64 KiB with udma-desc into the mapped rings, ring
//!    khal's doorbells through the mapped BAR0, wait for the head pointers (polled through the
//!    mapping), acknowledge; repeat while data remains.
//! 5. Read the destination back (buffer copy) and compare every byte.
//!
//! Completion is polled, so the device must run by itself: an emulated device that runs on
//! doorbells or in the background; with a manually stepped model, drive [`DmaQueue`] step
//! by step and run the model between [`DmaQueue::start`] and [`DmaQueue::wait`].
//! `ndl-emu`'s tests run it end to end.

mod queue;

use std::time::Duration;

use khal::{Arch, ArchSet, ArchVisitor};
use udma_desc::QueueId;

pub use queue::{DmaQueue, MappedRings, MappedUdma, RegisterResource, alloc_dma};

use super::{CopyError, CopyReport, generation, verify};
use ndl_std::{DeviceHandle, Kernel, MemLocation};

/// Where and how a copy runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterOptions {
    /// DMA engine id.
    pub engine: u32,
    /// Queue of the engine (0..16).
    pub queue: u8,
    /// Descriptors per ring: a power of two, 32..=2^23. At most `ring_size - 16` pairs are in
    /// flight at once (the ring keeps a 16-slot reserve).
    pub ring_size: u32,
    /// Where the source buffer lives.
    pub src: MemLocation,
    /// Where the destination buffer lives.
    pub dst: MemLocation,
    /// How long to wait for each batch of descriptors.
    pub timeout: Duration,
}

impl Default for RegisterOptions {
    /// Engine 0, queue 0, 256-descriptor rings, host memory to HBM channel 0, 5 s.
    fn default() -> Self {
        Self {
            engine: 0,
            queue: 0,
            ring_size: 256,
            src: MemLocation::Host,
            dst: MemLocation::Device {
                channel: 0,
                region: 0,
            },
            timeout: Duration::from_secs(5),
        }
    }
}

/// Copies `data` through a DMA queue of `dev` and verifies the destination byte for byte
/// (see the module docs). The arch comes from DEVICE_INFO through khal's dispatch point over
/// the caller's arch set `S`; `bar0` names the register resource to map.
pub fn copy<S: ArchSet, K: Kernel>(
    dev: &DeviceHandle<'_, K>,
    data: &[u8],
    options: &RegisterOptions,
    bar0: RegisterResource,
) -> Result<CopyReport, CopyError> {
    let g = generation(dev)?;
    khal::dispatch::<S, _>(
        g,
        CopyVisit {
            dev,
            data,
            options,
            bar0,
        },
    )
    .map_err(|_| CopyError::Arch(g.number().into()))?
}

struct CopyVisit<'r, 'a, K: Kernel> {
    dev: &'r DeviceHandle<'a, K>,
    data: &'r [u8],
    options: &'r RegisterOptions,
    bar0: RegisterResource,
}

impl<K: Kernel> ArchVisitor for CopyVisit<'_, '_, K> {
    type Output = Result<CopyReport, CopyError>;
    fn visit<A: Arch>(self) -> Self::Output {
        copy_on::<K, A>(self.dev, self.data, self.options, self.bar0)
    }
}

/// [`copy`] for a known arch `A`.
pub fn copy_on<K: Kernel, A: Arch>(
    dev: &DeviceHandle<'_, K>,
    data: &[u8],
    options: &RegisterOptions,
    bar0: RegisterResource,
) -> Result<CopyReport, CopyError> {
    if data.is_empty() {
        return Err(CopyError::Empty);
    }
    let queue = QueueId::new(options.queue.into()).map_err(|_| ndl_std::Error::OutOfRange {
        cmd: "copy",
        what: "queue",
        value: options.queue.into(),
    })?;
    let len = data.len() as u64;
    // The buffers are declared before the queue so that they are dropped after it: on every
    // early return (a timeout with the engine still running, an abort) the queue is reset
    // first, and only then is memory the engine may still write freed.
    let src = alloc_dma::<K, A>(dev, len, 64, options.src)?;
    let dst = alloc_dma::<K, A>(dev, len, 64, options.dst)?;
    let mut q = DmaQueue::<K, A>::open(dev, options.engine, queue, options.ring_size, bar0)?;
    src.write(0, data)?;

    let chunk = u64::from(udma_desc::MAX_TRANSFER_BYTES);
    let per_batch = u64::from(q.room()) * chunk;
    if per_batch == 0 {
        return Err(CopyError::RingTooSmall {
            needed: len.div_ceil(chunk),
            room: 0,
        });
    }
    let (mut done, mut descriptors, mut batches) = (0u64, 0u64, 0u32);
    while done < len {
        let n = per_batch.min(len - done);
        let pairs = q.prepare(src.dma_addr() + done, dst.dma_addr() + done, n)?;
        q.start(pairs)?;
        q.wait(options.timeout)?;
        q.ack(pairs)?;
        done += n;
        descriptors += u64::from(pairs);
        batches += 1;
    }

    let mut back = vec![0u8; data.len()];
    dst.read(0, &mut back)?;
    verify(data, &back)?;
    Ok(CopyReport {
        generation: A::GENERATION,
        engine: options.engine,
        queue: options.queue,
        bytes: len,
        descriptors,
        batches,
        // The rings are written through the mapped BAR window's memory, never by ioctl.
        delivery: crate::Delivery::Mmap,
        mmap_refused: None,
    })
}
