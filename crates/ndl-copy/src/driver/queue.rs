//! One DMA queue the driver programs for this process (`reference/dma-path.md` steps 1-9).

use core::marker::PhantomData;

use khal::Arch;
use udma_desc::{
    CopyRequest, DESC_BYTES, DescStore, Descriptor, Direction, QueueId, Reservation, Ring,
    build_copy_pair,
};

use super::chunk;
use super::{Delivery, QueueChoice};
use crate::CopyError;
use crate::RingMemory;
use crate::mem::{DeviceMem, MemType};
use ndl_abi::{DmaQueueInit, DmaQueueState};
use ndl_std::{DescBytes, DeviceHandle, Error, Kernel, MemLocation, QueueType};

/// DMA_ENG_GET_STATE's value for an engine stopped by an error.
const ENG_STATE_ABORT: u32 = 3;

/// An H2T service queue from H2T_DMA_ALLOC_QUEUES, given back (H2T_DMA_FREE_QUEUES) on
/// drop: the driver does not reclaim it at process exit.
#[derive(Debug)]
struct ServiceQueue<'r, 'a, K: Kernel> {
    dev: &'r DeviceHandle<'a, K>,
    nc: u32,
    bmap: u32,
}

impl<K: Kernel> Drop for ServiceQueue<'_, '_, K> {
    fn drop(&mut self) {
        let _ = self.dev.h2t_dma_free_queues(self.nc, self.bmap);
    }
}

/// A queue of engine `eng_id` programmed by the driver (DMA_QUEUE_INIT) with a TX and an RX
/// ring in this process's host memory.
///
/// User space owns the slot indices and ring ids (udma-desc's [`Ring`]: ring id 1 after
/// init, +1 mod 4 on each wrap, 16 slots kept free), builds the descriptors with udma-desc
/// and hands them to the ring by the [`Delivery`] the caller chose; the driver rings the
/// doorbells (DMA_QUEUE_COPY_START, RX then TX).
///
/// Dropping it issues DMA_QUEUE_RELEASE, gives an H2T service queue back, unmaps and frees
/// the rings, in that order; construction undoes whatever it did when a step fails.
#[derive(Debug)]
pub struct DriverQueue<'r, 'a, K: Kernel, A: Arch> {
    dev: &'r DeviceHandle<'a, K>,
    eng_id: u32,
    qid: QueueId,
    delivery: Delivery,
    tx: Ring,
    rx: Ring,
    // Dropped in this order after `Drop::drop`: mappings, rings, service queue.
    tx_map: Option<RingMemory<'a, K>>,
    rx_map: Option<RingMemory<'a, K>>,
    tx_mem: DeviceMem<'r, 'a, K>,
    rx_mem: DeviceMem<'r, 'a, K>,
    _service: Option<ServiceQueue<'r, 'a, K>>,
    _arch: PhantomData<A>,
}

/// The engine and queue `choice` names: a core engine's queue as given, or the H2T
/// service queue the driver hands out (H2T_DMA_ALLOC_QUEUES), held until the copy ends.
fn take<'r, 'a, K: Kernel, A: Arch>(
    dev: &'r DeviceHandle<'a, K>,
    choice: QueueChoice,
) -> Result<(u32, QueueId, Option<ServiceQueue<'r, 'a, K>>), CopyError> {
    match choice {
        QueueChoice::H2tService { nc } => {
            let eng_id =
                u32::from(
                    A::SCALARS
                        .h2t_engine_id(nc)
                        .map_err(|_| Error::OutOfRange {
                            cmd: "H2T_DMA_ALLOC_QUEUES",
                            what: "nc_id",
                            value: nc.into(),
                        })?,
                );
            let q = dev.h2t_dma_alloc_queues(nc, 0, 1)?;
            let service = ServiceQueue {
                dev,
                nc,
                bmap: q.service_bmap,
            };
            let bit = q.service_bmap.trailing_zeros();
            let qid = u8::try_from(bit)
                .ok()
                .and_then(|b| QueueId::new(b.into()).ok())
                .ok_or(CopyError::NoServiceQueue {
                    nc,
                    bmap: q.service_bmap,
                })?;
            Ok((eng_id, qid, Some(service)))
        }
        QueueChoice::CoreEngine { engine, queue } => Ok((engine, queue, None)),
    }
}

/// The TX and RX ring mappings (none when descriptors are copied in) and the delivery.
type RingMaps<'a, K> = (
    Option<RingMemory<'a, K>>,
    Option<RingMemory<'a, K>>,
    Delivery,
);

/// Ring mappings `delivery` wants, and the delivery it comes to: [`Delivery::Auto`] maps
/// where the node allows it and falls back to copied descriptors where the mapping is
/// refused as unmappable (a FUSE-served node); an explicit delivery is kept as asked.
fn map_rings<'r, 'a, K: Kernel>(
    tx_mem: &DeviceMem<'r, 'a, K>,
    rx_mem: &DeviceMem<'r, 'a, K>,
    delivery: Delivery,
) -> Result<RingMaps<'a, K>, CopyError> {
    Ok(match delivery {
        Delivery::Mmap => (
            Some(RingMemory::new(tx_mem.map()?)),
            Some(RingMemory::new(rx_mem.map()?)),
            delivery,
        ),
        Delivery::CopyDescriptors => (None, None, delivery),
        Delivery::Auto => match tx_mem.map() {
            Ok(tx) => (
                Some(RingMemory::new(tx)),
                Some(RingMemory::new(rx_mem.map()?)),
                Delivery::Mmap,
            ),
            Err(Error::Mmap { errno, .. }) if errno == super::UNMAPPABLE => {
                (None, None, Delivery::CopyDescriptors)
            }
            Err(e) => return Err(e.into()),
        },
    })
}

impl<'r, 'a, K: Kernel, A: Arch> DriverQueue<'r, 'a, K, A> {
    /// Takes the queue `choice` names, allocates two host rings of `entries` descriptors
    /// (a power of two in `32..=2^23`, which is also a multiple of 16 as the driver
    /// requires), maps them for [`Delivery::Mmap`] (and for [`Delivery::Auto`] where the node
    /// can be mapped), and has the driver program the queue.
    pub fn open(
        dev: &'r DeviceHandle<'a, K>,
        choice: QueueChoice,
        entries: u32,
        delivery: Delivery,
    ) -> Result<Self, CopyError> {
        // Checked before anything is taken from the driver.
        let tx = Ring::new(Direction::Tx, entries)?;
        let rx = Ring::new(Direction::Rx, entries)?;
        let nc = super::core_of::<A>(choice);
        let (eng_id, qid, service) = take::<K, A>(dev, choice)?;
        // The driver wants engine state read through DMA_ENG_GET_STATE, never from
        // registers; an aborted engine would never finish.
        let eng = dev.dma_eng_get_state(eng_id)?;
        if eng.tx_state == ENG_STATE_ABORT || eng.rx_state == ENG_STATE_ABORT {
            return Err(CopyError::EngineAborted {
                eng_id,
                tx_state: eng.tx_state,
                rx_state: eng.rx_state,
            });
        }
        let bytes = u64::from(entries) * DESC_BYTES as u64;
        let window = A::SCALARS.pci_host_base;
        let tx_mem = chunk(dev, bytes, MemLocation::Host, nc, MemType::Ring, window)?;
        let rx_mem = chunk(dev, bytes, MemLocation::Host, nc, MemType::Ring, window)?;
        let (tx_map, rx_map, delivery) = map_rings(&tx_mem, &rx_mem, delivery)?;
        dev.dma_queue_init(&DmaQueueInit {
            eng_id,
            qid: qid.get().into(),
            tx_desc_count: entries,
            rx_desc_count: entries,
            tx_handle: tx_mem.mem().0,
            rx_handle: rx_mem.mem().0,
            // No completion ring: the driver refuses one for a user queue.
            rxc_handle: 0,
            axi_port: 0,
            _pad44: [0; 4],
        })?;
        Ok(Self {
            dev,
            eng_id,
            qid,
            delivery,
            tx,
            rx,
            tx_map,
            rx_map,
            tx_mem,
            rx_mem,
            _service: service,
            _arch: PhantomData,
        })
    }

    /// How descriptors reach the rings ([`Delivery::Auto`] resolved when the queue opened).
    pub fn delivery(&self) -> Delivery {
        self.delivery
    }

    /// The driver's global engine id.
    pub fn eng_id(&self) -> u32 {
        self.eng_id
    }

    /// The queue id.
    pub fn qid(&self) -> QueueId {
        self.qid
    }

    /// Entries (descriptor pairs) that can be posted now.
    pub fn room(&self) -> u32 {
        self.tx.available().min(self.rx.available())
    }

    /// Builds one descriptor pair per request with udma-desc (ring ids from the slots they
    /// land in) and puts them in the rings by the chosen delivery. Returns the number of
    /// entries posted in each ring.
    pub fn post(&mut self, copies: &[CopyRequest]) -> Result<u32, CopyError> {
        let n = u32::try_from(copies.len()).map_err(|_| Error::OutOfRange {
            cmd: "DriverQueue::post",
            what: "descriptor pairs",
            value: copies.len() as u64,
        })?;
        self.tx.ensure_room(n)?;
        self.rx.ensure_room(n)?;
        let (tx_res, rx_res) = (self.tx.reserve(n)?, self.rx.reserve(n)?);
        let mut tx_descs = Vec::with_capacity(copies.len());
        let mut rx_descs = Vec::with_capacity(copies.len());
        for (i, req) in (0u32..).zip(copies) {
            let (Some(ts), Some(rs)) = (tx_res.slot(i), rx_res.slot(i)) else {
                break;
            };
            let pair = build_copy_pair::<A>(ts.ring_id, rs.ring_id, req)?;
            tx_descs.push(pair.tx);
            rx_descs.push(pair.rx);
        }
        self.deliver(QueueType::Tx, &tx_res, &tx_descs)?;
        self.deliver(QueueType::Rx, &rx_res, &rx_descs)?;
        Ok(n)
    }

    fn deliver(
        &mut self,
        which: QueueType,
        res: &Reservation,
        descs: &[Descriptor],
    ) -> Result<(), CopyError> {
        let (map, mem) = match which {
            QueueType::Tx => (&mut self.tx_map, self.tx_mem.mem()),
            QueueType::Rx => (&mut self.rx_map, self.rx_mem.mem()),
        };
        match (self.delivery, map) {
            (Delivery::Mmap, Some(map)) => {
                // The process's own ring chunk, mapped: descriptors are stored in place.
                for (slot, d) in res.slots().zip(descs) {
                    map.store(slot.index, *d)?;
                }
            }
            _ => {
                // DMA_COPY_DESCRIPTORS copies a run at a byte offset; a run that wraps is
                // two calls. It takes the descriptors' bytes in memory order.
                let descs: Vec<DescBytes> = descs.iter().map(|d| d.to_le_bytes()).collect();
                let first = usize::try_from(res.first_run()).unwrap_or(usize::MAX);
                let (head, tail) = descs.split_at(first.min(descs.len()));
                let at = u64::from(res.start()) * DESC_BYTES as u64;
                self.dev.dma_copy_descriptors(mem, at, which, head)?;
                if !tail.is_empty() {
                    self.dev.dma_copy_descriptors(mem, 0, which, tail)?;
                }
            }
        }
        Ok(())
    }

    /// DMA_QUEUE_COPY_START: the driver rings the RX then the TX doorbell for `entries`
    /// new descriptors in each ring.
    pub fn start(&self, entries: u32) -> Result<(), CopyError> {
        let qid = self.qid.get().into();
        self.dev
            .dma_queue_copy_start(self.eng_id, qid, entries, entries)?;
        Ok(())
    }

    /// DMA_QUEUE_GET_STATE: both rings' hardware state (diagnostics; the completion marker
    /// is what says a copy is done).
    pub fn state(&self) -> Result<(DmaQueueState, DmaQueueState), CopyError> {
        Ok(self
            .dev
            .dma_queue_get_state(self.eng_id, self.qid.get().into())?)
    }

    /// The slot index each ring's next descriptor goes to (where the hardware heads are once
    /// everything posted has completed).
    pub fn next_indices(&self) -> (u32, u32) {
        (self.tx.next_index(), self.rx.next_index())
    }

    /// DMA_ACK_COMPLETED for `entries`, and the same slots back to both rings.
    pub fn ack(&mut self, entries: u32) -> Result<(), CopyError> {
        self.dev
            .dma_ack_completed(self.eng_id, self.qid.get().into(), entries)?;
        self.rx.ack(entries)?;
        self.tx.ack(entries)?;
        Ok(())
    }
}

impl<K: Kernel, A: Arch> Drop for DriverQueue<'_, '_, K, A> {
    fn drop(&mut self) {
        // A no-op in the 2.26.5.0 driver (the queue stays programmed until re-initialised or
        // the process exits), issued for drivers that do release.
        let _ = self
            .dev
            .dma_queue_release(self.eng_id, self.qid.get().into());
    }
}
