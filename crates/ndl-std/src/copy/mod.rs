//! The DMA copy flow, end to end, as a runtime with register access runs it (what
//! `neuron-tool copy` calls), generic over the [`Kernel`].
//!
//! 1. DEVICE_INFO gives the architecture; khal's one dispatch point turns it into the arch
//!    type `A` ([`copy`] → [`copy_on`]).
//! 2. [`DmaQueue::open`]: map the BAR0 register resource, bring the engine up with khal over
//!    the mapping, allocate and map the TX/RX rings (host memory, 256-byte aligned, power of
//!    two), program the queue with khal.
//! 3. Allocate source and destination; write the source from the user buffer (buffer copy).
//! 4. Build copy descriptor pairs of at most 64 KiB with udma-desc into the mapped rings, ring
//!    khal's doorbells through the mapped BAR0, wait for the head pointers (polled through the
//!    mapping), acknowledge; repeat while data remains.
//! 5. Read the destination back (buffer copy) and compare every byte.
//!
//! The flow needs a kernel that maps the UDMA registers to user space: the emulated kernel
//! of `ndl-emu` does (in privileged mode, under a resource of its own); the real driver does
//! not. Completion is polled, so the device must run by itself: an emulated device that runs
//! on doorbells or in the background, or hardware; with a manually stepped model, drive
//! [`DmaQueue`] step by step and run the model between [`DmaQueue::start`] and
//! [`DmaQueue::wait`]. `ndl-emu`'s tests run it end to end.

mod error;
mod queue;

use std::time::Duration;

use khal::{Arch, ArchSet, ArchVisitor, Generation};
use udma_desc::QueueId;

pub use error::CopyError;
pub use queue::{DmaBuffer, DmaQueue, MappedRings, MappedUdma, RegisterResource, alloc_dma};

use crate::gateway::{Device, DeviceHandle};
use crate::kernel::Kernel;
use crate::wrappers::MemLocation;

/// Where and how a copy runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyOptions {
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

impl Default for CopyOptions {
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

/// What a copy did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyReport {
    /// The device's generation (from DEVICE_INFO).
    pub generation: Generation,
    /// Bytes copied and verified.
    pub bytes: u64,
    /// Descriptor pairs used (one per 64 KiB or less).
    pub descriptors: u64,
    /// Doorbell rounds (batches of pairs started and waited for).
    pub batches: u32,
}

/// The generation DEVICE_INFO reports for `dev`.
pub fn generation<K: Kernel>(dev: &Device<'_, K>) -> Result<Generation, CopyError> {
    let arch = dev.info()?.architecture;
    u8::try_from(arch)
        .ok()
        .and_then(|a| Generation::from_number(a).ok())
        .ok_or(CopyError::Arch(arch))
}

/// Copies `data` through a DMA queue of `dev` and verifies the destination byte for byte
/// (see the module docs). The arch comes from DEVICE_INFO through khal's dispatch point over
/// the caller's arch set `S`; `bar0` names the register resource to map.
pub fn copy<S: ArchSet, K: Kernel>(
    dev: &DeviceHandle<'_, K>,
    data: &[u8],
    options: &CopyOptions,
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
    options: &'r CopyOptions,
    bar0: RegisterResource,
}

impl<K: Kernel> ArchVisitor for CopyVisit<'_, '_, K> {
    type Output = Result<CopyReport, CopyError>;
    fn visit<A: Arch>(self) -> Self::Output {
        copy_on::<K, A>(self.dev, self.data, self.options, self.bar0)
    }
}

/// A driver allocation freed when dropped.
struct Owned<'r, 'a, K: Kernel> {
    dev: &'r DeviceHandle<'a, K>,
    buf: DmaBuffer,
}

impl<K: Kernel> Drop for Owned<'_, '_, K> {
    fn drop(&mut self) {
        let _ = self.dev.mem_free(self.buf.mem);
    }
}

/// [`copy`] for a known arch `A`.
pub fn copy_on<K: Kernel, A: Arch>(
    dev: &DeviceHandle<'_, K>,
    data: &[u8],
    options: &CopyOptions,
    bar0: RegisterResource,
) -> Result<CopyReport, CopyError> {
    if data.is_empty() {
        return Err(CopyError::Empty);
    }
    let queue = QueueId::new(options.queue.into()).map_err(|_| crate::Error::OutOfRange {
        cmd: "copy",
        what: "queue",
        value: options.queue.into(),
    })?;
    let len = data.len() as u64;
    // The buffers are declared before the queue so that they are dropped after it: on every
    // early return (a timeout with the engine still running, an abort) the queue is reset
    // first, and only then is memory the engine may still write freed.
    let src = Owned {
        dev,
        buf: alloc_dma::<K, A>(dev, len, 64, options.src)?,
    };
    let dst = Owned {
        dev,
        buf: alloc_dma::<K, A>(dev, len, 64, options.dst)?,
    };
    let mut q = DmaQueue::<K, A>::open(dev, options.engine, queue, options.ring_size, bar0)?;
    dev.mem_buf_copy_to(src.buf.mem, 0, data)?;

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
        let pairs = q.prepare(src.buf.dma_addr + done, dst.buf.dma_addr + done, n)?;
        q.start(pairs)?;
        q.wait(options.timeout)?;
        q.ack(pairs)?;
        done += n;
        descriptors += u64::from(pairs);
        batches += 1;
    }

    let mut back = vec![0u8; data.len()];
    dev.mem_buf_copy_from(dst.buf.mem, 0, &mut back)?;
    verify(data, &back)?;
    Ok(CopyReport {
        generation: A::GENERATION,
        bytes: len,
        descriptors,
        batches,
    })
}

/// Compares source and destination; the first differing byte is the error.
pub fn verify(expected: &[u8], found: &[u8]) -> Result<(), CopyError> {
    match expected.iter().zip(found).position(|(a, b)| a != b) {
        Some(i) => Err(CopyError::Mismatch {
            offset: i as u64,
            expected: expected.get(i).copied().unwrap_or(0),
            found: found.get(i).copied().unwrap_or(0),
        }),
        None if expected.len() != found.len() => Err(CopyError::LengthMismatch {
            expected: expected.len() as u64,
            found: found.len() as u64,
        }),
        None => Ok(()),
    }
}
