//! One DMA queue driven from user space: engine registers through a mapped BAR0, rings in
//! mapped driver memory.

use std::time::{Duration, Instant};

use khal::Arch;
use khal::regs::QueueReg;
use khal::regs::queue::{Dir, RingPtr};
use khal::udma::{BringUpProfile, EngineParams, RING_ALIGN, RingConfig, Udma, UdmaState};
use mmio::{Mmio, Window};
use udma_desc::{
    CopyRequest, DESC_BYTES, DescRing, Direction, MAX_TRANSFER_BYTES, QueueId, RingPair,
};

use crate::mem::{DeviceMem, MemSpec, MemType};
use crate::{CopyError, RingMemory};
use ndl_std::{DeviceHandle, Error, Kernel, Mapping, MemLocation};

/// The engine handle of a [`DmaQueue`]: khal's `Udma` over the engine's window of the mapped
/// BAR0.
pub type MappedUdma<'a, K, A> = Udma<A, Window<Mapping<'a, K>>>;

/// The TX/RX rings of a [`DmaQueue`], living in mapped ring memory.
pub type MappedRings<'a, K> = RingPair<RingMemory<'a, K>, RingMemory<'a, K>>;

/// The `(block, block_id, resource)` triple RESOURCE_MMAP_INFO maps as the whole BAR0
/// register file.
///
/// The real driver serves no such resource (it maps no UDMA registers to user space); the
/// emulated kernel of `ndl-emu` serves one under numbers of its own in privileged mode. The
/// caller names it, so this crate invents no resource number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegisterResource {
    /// Block number.
    pub block: u32,
    /// Block instance.
    pub block_id: u32,
    /// Resource within the block.
    pub resource: u32,
}

impl From<(u32, u32, u32)> for RegisterResource {
    /// `(block, block_id, resource)`, the order RESOURCE_MMAP_INFO takes them in.
    fn from((block, block_id, resource): (u32, u32, u32)) -> Self {
        Self {
            block,
            block_id,
            resource,
        }
    }
}

/// Allocates `size` bytes aligned to `align` at `location` (MEM_ALLOC, memory type 0, core
/// 0) and looks up its DMA address (MEM_GET_EXTENDED_INFO): the arch's PCIe host base is
/// OR-ed in for host memory, as the driver does before handing host memory to an engine.
/// The memory is freed when the returned owner drops.
pub fn alloc_dma<'r, 'a, K: Kernel, A: Arch>(
    dev: &'r DeviceHandle<'a, K>,
    size: u64,
    align: u64,
    location: MemLocation,
) -> Result<DeviceMem<'r, 'a, K>, Error> {
    DeviceMem::alloc(
        dev,
        MemSpec {
            size,
            align,
            location,
            nc_id: 0,
            mem_type: MemType::Unspecified,
            host_window: A::SCALARS.pci_host_base,
        },
    )
}

/// One UDMA queue set up from user space, the way a runtime with register access drives it.
///
/// [`DmaQueue::open`] maps the BAR0 register resource the caller names, brings engine `engine` up with khal
/// over that mapping (engine init with the arch's error-interrupt policy, then NORMAL; this
/// re-initialises the engine, so open the queues of one engine before traffic starts),
/// allocates the TX and RX rings in host memory (256-byte aligned, `ring_size` descriptors,
/// a power of two), maps them, and programs the queue with khal. Descriptors are then built
/// by udma-desc straight into the mapped rings ([`RingMemory`] is a
/// [`DescStore`](udma_desc::DescStore)), and the doorbells are khal's, written through the
/// mapped BAR0. Over the emulated kernel every one of those accesses reaches the device
/// model as it happens.
///
/// Dropping the queue resets it (both directions paused, pointers back to 0), then unmaps
/// and frees the rings.
#[derive(Debug)]
pub struct DmaQueue<'a, K: Kernel, A: Arch> {
    engine: u32,
    udma: MappedUdma<'a, K, A>,
    // Dropped in this order after `Drop::drop` reset the queue: mappings, then memory.
    rings: MappedRings<'a, K>,
    _ring_mem: [DeviceMem<'a, 'a, K>; 2],
}

impl<'a, K: Kernel, A: Arch> DmaQueue<'a, K, A> {
    /// Sets up queue `queue` of engine `engine` with rings of `ring_size` descriptors (see
    /// the type docs).
    pub fn open(
        dev: &'a DeviceHandle<'a, K>,
        engine: u32,
        queue: QueueId,
        ring_size: u32,
        bar0: RegisterResource,
    ) -> Result<Self, CopyError> {
        let base = A::udma_engine_offset(engine)
            .ok()
            .and_then(|b| usize::try_from(b).ok())
            .ok_or(Error::OutOfRange {
                cmd: "DmaQueue::open",
                what: "engine",
                value: engine.into(),
            })?;
        let bar0 = dev.map_resource(bar0.block, bar0.block_id, bar0.resource)?;
        // User code brings the engine up as the userspace HAL does (seed 004 §2
        // `al_udma_init`: revision read and checked, error-interrupt policy included), not
        // with the kernel's sequence that the emulated kernel's probe runs.
        let udma = Udma::<A, _>::init_with(
            Window::new(bar0, base),
            EngineParams::for_arch::<A>(),
            BringUpProfile::DEFAULT,
        )?;
        udma.set_state(UdmaState::Normal)?;
        // Checked before anything is allocated.
        RingConfig {
            bus_addr: 0,
            size: ring_size,
        }
        .validate(Dir::Tx)?;

        let bytes = u64::from(ring_size) * DESC_BYTES as u64;
        let tx = alloc_dma::<K, A>(dev, bytes, RING_ALIGN, MemLocation::Host)?;
        let rx = alloc_dma::<K, A>(dev, bytes, RING_ALIGN, MemLocation::Host)?;
        // A chunk mapping covers the whole (page-rounded) chunk, as the driver requires.
        let tx_map = RingMemory::new(tx.map()?);
        let rx_map = RingMemory::new(rx.map()?);
        let ring = |b: &DeviceMem<'_, '_, K>| RingConfig {
            bus_addr: b.dma_addr(),
            size: ring_size,
        };
        udma.init_queue(queue, ring(&tx), ring(&rx))?;
        let rings = RingPair::new(
            queue,
            DescRing::with_size(Direction::Tx, tx_map, ring_size)?,
            DescRing::with_size(Direction::Rx, rx_map, ring_size)?,
        );
        Ok(Self {
            engine,
            udma,
            rings,
            _ring_mem: [tx, rx],
        })
    }

    /// The engine id.
    pub fn engine(&self) -> u32 {
        self.engine
    }

    /// The queue.
    pub fn queue(&self) -> QueueId {
        self.rings.queue()
    }

    /// khal's engine handle (registers through the mapped BAR0; it is also the doorbell).
    pub fn udma(&self) -> &MappedUdma<'a, K, A> {
        &self.udma
    }

    /// The rings.
    pub fn rings(&self) -> &MappedRings<'a, K> {
        &self.rings
    }

    /// The rings, mutably (custom descriptors, fault injection).
    pub fn rings_mut(&mut self) -> &mut MappedRings<'a, K> {
        &mut self.rings
    }

    /// Copy descriptor pairs that can be prepared now.
    pub fn room(&self) -> u32 {
        self.rings.tx().available().min(self.rings.rx().available())
    }

    /// Prepares a copy of `len` bytes from DMA address `src` to `dst`, split into
    /// descriptor pairs of at most 64 KiB; returns the number of pairs. All of them fit or
    /// none is written.
    pub fn prepare(&mut self, src: u64, dst: u64, len: u64) -> Result<u32, CopyError> {
        if len == 0 {
            return Err(CopyError::Empty);
        }
        // Every descriptor address is `src + off` / `dst + off` with `off < len`: a range
        // past the top of the 64-bit address space is refused, not wrapped (or a panic).
        for (what, base) in [("src + len", src), ("dst + len", dst)] {
            if base.checked_add(len - 1).is_none() {
                return Err(Error::OutOfRange {
                    cmd: "DmaQueue::prepare",
                    what,
                    value: base,
                }
                .into());
            }
        }
        let chunk = u64::from(MAX_TRANSFER_BYTES);
        let needed = len.div_ceil(chunk);
        let room = self.room();
        let pairs = u32::try_from(needed)
            .ok()
            .filter(|n| *n <= room)
            .ok_or(CopyError::RingTooSmall { needed, room })?;
        for i in 0..u64::from(pairs) {
            let off = i * chunk;
            let size = u32::try_from(chunk.min(len - off)).unwrap_or(MAX_TRANSFER_BYTES);
            let req = CopyRequest::new(src + off, dst + off, size);
            self.rings.copy_prepare_one::<A>(&req)?;
        }
        Ok(pairs)
    }

    /// Hands `pairs` prepared copies to the engine: khal's RX then TX doorbell, through the
    /// mapped BAR0.
    pub fn start(&self, pairs: u32) -> Result<(), CopyError> {
        self.rings.copy_start(&self.udma, pairs, pairs)?;
        Ok(())
    }

    /// Head pointers `(tx, rx)` as the queue registers read.
    pub fn heads(&self) -> (RingPtr, RingPtr) {
        let q = self.queue();
        let read = |dir| {
            let off = A::queue_reg_offset(dir, q, QueueReg::Drhp);
            RingPtr::from_bits(off.map_or(mmio::BUS_ERROR_READ, |o| self.udma.regs().read32(o)))
        };
        (read(Dir::Tx), read(Dir::Rx))
    }

    /// Engine state `(tx, rx)` as khal reads it.
    pub fn state(&self) -> (UdmaState, UdmaState) {
        (self.udma.state(Dir::Tx), self.udma.state(Dir::Rx))
    }

    /// Waits until the engine has consumed every posted descriptor: polls the head pointer
    /// registers until they reach the rings' next slots. Fails at once when either
    /// direction aborted, or after `timeout`.
    pub fn wait(&self, timeout: Duration) -> Result<(), CopyError> {
        let want = (
            self.rings.tx().ring().next_index(),
            self.rings.rx().ring().next_index(),
        );
        // A timeout too long to add to "now" (`Duration::MAX`) means "no deadline".
        let deadline = Instant::now().checked_add(timeout);
        loop {
            let (tx, rx) = self.heads();
            if (tx.offset(), rx.offset()) == want {
                return Ok(());
            }
            let (txs, rxs) = self.state();
            if txs == UdmaState::Abort || rxs == UdmaState::Abort {
                return Err(CopyError::Aborted { tx: txs, rx: rxs });
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(CopyError::Timeout {
                    timeout,
                    tx_head: tx.offset(),
                    rx_head: rx.offset(),
                    tx_expected: want.0,
                    rx_expected: want.1,
                });
            }
            std::thread::yield_now();
        }
    }

    /// Acknowledges `pairs` completed copies (their slots become free again).
    pub fn ack(&self, pairs: u32) -> Result<(), CopyError> {
        self.rings.ack(pairs)?;
        Ok(())
    }
}

impl<K: Kernel, A: Arch> Drop for DmaQueue<'_, K, A> {
    fn drop(&mut self) {
        // The engine must not fetch from rings that are about to be freed.
        let q = self.queue();
        for dir in [Dir::Tx, Dir::Rx] {
            let _ = self.udma.reset_queue(dir, q);
        }
    }
}
