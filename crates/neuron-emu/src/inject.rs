//! Faults armed on a queue: the faults users hit, reproducible on the model and, through the
//! device behind a served node (`EmulatedKernel::device`, `neuron-tool serve --fault`), on a
//! `/dev/neuronN` that real processes use.
//!
//! An armed fault fires once, at the next TX doorbell (`drtp_inc` of the queue's M2S block)
//! that posts descriptors on its queue, before the engine looks at them. It changes what a
//! faulty runtime, a corrupting agent or a hung bus would change; everything that follows is
//! the model's ordinary behaviour (the engine walk, the IOFIC, the abort), so a fault is
//! found the way it would be found on hardware:
//!
//! * [`Injection::BusError`] rewrites the source address of the first descriptor posted to
//!   the first byte past HBM channel 0's memory in the model: the data read fails (M2S
//!   DATA_AXI_RESP), which aborts TX where bring-up armed the abort.
//! * [`Injection::RingId`] gives that descriptor the previous lap's ring id, as a runtime
//!   that forgot to step the ring id at a wrap would: M2S PREFETCH_RING_ID, where the
//!   direction checks ring ids (`m2s.err_log_mask` PREF_RING_ID clear).
//! * [`Injection::Stall`] holds the queue: the engine takes none of the descriptors the
//!   doorbell posted and latches nothing, like a transaction that never returns; the
//!   completion never comes. The next doorbell, a `change_state` NORMAL or a queue reset
//!   releases it.
//!
//! The hook sits in the register-write path (a register write decodes to a doorbell only
//! while something is armed), never in the data path.

use khal::regs::queue::{self as kq, TailInc};
use mmio::Register;
use udma_desc::{DESC_BYTES, Descriptor, Direction};

use crate::address_space::RegionKind;
use crate::engine_walk::RingPos;
use crate::model::{Model, UnitOffset};
use crate::queue::QueueBlock;
use crate::unit::{QUEUES, Wake};

/// A fault to inject at a queue's next TX doorbell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Injection {
    /// The first descriptor posted reads from past the end of memory: a bus error.
    BusError,
    /// The first descriptor posted carries the previous lap's ring id.
    RingId,
    /// The engine takes none of the descriptors posted: the completion never comes.
    Stall,
}

impl Injection {
    /// Every injection, in the order of [`name`](Self::name)s the tool lists.
    pub const ALL: [Injection; 3] = [Self::BusError, Self::RingId, Self::Stall];

    /// The name `neuron-tool serve --fault` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Self::BusError => "bus-error",
            Self::RingId => "ring-id",
            Self::Stall => "stall",
        }
    }

    /// The injection called `name`.
    ///
    /// ```
    /// use neuron_emu::Injection;
    /// assert_eq!(Injection::from_name("ring-id"), Some(Injection::RingId));
    /// assert_eq!(Injection::from_name("nope"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|i| i.name() == name)
    }
}

/// An injection armed on queue `queue` of engine (unit) `engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Armed {
    /// Engine (unit) index.
    pub engine: usize,
    /// Queue of the engine.
    pub queue: usize,
    /// What fires.
    pub injection: Injection,
}

/// Why an injection could not be armed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InjectError {
    /// The device has no such engine.
    #[error("engine {engine} does not exist (the device has {engines} engines)")]
    NoEngine {
        /// The engine asked for.
        engine: usize,
        /// Engines of the device.
        engines: usize,
    },
    /// Engines have 16 queues.
    #[error("queue {queue} does not exist (engines have {QUEUES} queues)")]
    NoQueue {
        /// The queue asked for.
        queue: usize,
    },
}

/// What is armed on a device.
#[derive(Clone, Debug, Default)]
pub(crate) struct Injections {
    armed: Vec<Armed>,
}

impl Injections {
    pub(crate) fn is_empty(&self) -> bool {
        self.armed.is_empty()
    }

    pub(crate) fn armed(&self) -> Vec<Armed> {
        self.armed.clone()
    }

    /// Disarms and returns the first injection armed on `(engine, queue)`.
    fn take(&mut self, engine: usize, queue: usize) -> Option<Injection> {
        let i = self
            .armed
            .iter()
            .position(|a| a.engine == engine && a.queue == queue)?;
        Some(self.armed.remove(i).injection)
    }
}

impl Model {
    /// Arms `armed` (checked against the device's engines and queues).
    pub(crate) fn arm(&mut self, armed: Armed) -> Result<(), InjectError> {
        let engines = self.unit_count();
        if armed.engine >= engines {
            return Err(InjectError::NoEngine {
                engine: armed.engine,
                engines,
            });
        }
        if armed.queue >= QUEUES {
            return Err(InjectError::NoQueue { queue: armed.queue });
        }
        self.injections.armed.push(armed);
        Ok(())
    }

    /// A register write while injections are armed: the write itself, then, when it was a
    /// TX doorbell that posted descriptors on an armed queue, the injection.
    pub(crate) fn write_injecting(&mut self, at: UnitOffset, value: u32) -> Wake {
        let doorbell = match kq::locate_queue(at.offset) {
            Some((Direction::Tx, q, rel)) if rel == <kq::DrtpInc as Register>::OFFSET => Some(q),
            _ => None,
        };
        let before = doorbell.and_then(|q| {
            let txq = self.units.get(at.unit)?.m2s.queues.get(q)?;
            Some((q, txq.tail, txq.base(), txq.len))
        });
        let Some(unit) = self.units.get_mut(at.unit) else {
            return Wake::None;
        };
        let wake = unit.write(at.offset, value);
        let posted = TailInc::from_bits(value).val();
        if let Some((q, tail, base, len)) = before.filter(|_| posted > 0) {
            if let Some(injection) = self.injections.take(at.unit, q) {
                self.fire(at.unit, q, injection, FirstPosted { tail, base, len });
            }
        }
        wake
    }

    fn fire(&mut self, unit: usize, q: usize, injection: Injection, first: FirstPosted) {
        match injection {
            Injection::BusError => {
                let past_end = self.past_hbm0();
                first.rewrite(self, |d| {
                    let w = d.words();
                    Descriptor::from_words_addr(w[0], w[1], past_end)
                });
            }
            Injection::RingId => {
                // What the previous lap wrote at this slot: the ring id before this lap's.
                let stale = first.tail.ring_id.next().next().next();
                first.rewrite(self, |mut d| {
                    d.set_ring_id(stale);
                    d
                });
            }
            Injection::Stall => {
                if let Some(txq) = self
                    .units
                    .get_mut(unit)
                    .and_then(|u| u.m2s.queues.get_mut(q))
                {
                    txq.blocked = Some(QueueBlock::Stalled);
                }
            }
        }
    }

    /// The first DMA address past HBM channel 0's memory in the model (past the highest
    /// region when there is no channel 0): outside every region.
    fn past_hbm0(&self) -> u64 {
        let regions = self.mem.regions();
        regions
            .iter()
            .find(|r| r.kind() == RegionKind::Device { channel: 0 })
            .map(|r| r.end())
            .or_else(|| regions.iter().map(|r| r.end()).max())
            .unwrap_or(0)
    }
}

/// The slot the doorbell's first descriptor is in: the tail before the doorbell.
#[derive(Clone, Copy, Debug)]
struct FirstPosted {
    tail: RingPos,
    base: u64,
    len: u32,
}

impl FirstPosted {
    /// Rewrites the descriptor in ring memory with `change` (nothing when the slot is not
    /// in memory: the engine then meets a prefetch bus error there anyway).
    fn rewrite(self, m: &mut Model, change: impl FnOnce(Descriptor) -> Descriptor) {
        if self.tail.index >= self.len {
            return;
        }
        let addr = self
            .base
            .wrapping_add(u64::from(self.tail.index) * DESC_BYTES as u64);
        let mut bytes = [0u8; DESC_BYTES];
        if m.mem.read(addr, &mut bytes).is_ok() {
            let d = change(Descriptor::from_le_bytes(bytes));
            let _ = m.mem.write(addr, &d.to_le_bytes());
        }
    }
}
