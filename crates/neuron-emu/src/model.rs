//! The whole device state behind one lock: memory, units, scheduler.

use std::collections::VecDeque;

use crate::address_space::AddressSpace;
use crate::fault::Fault;
use crate::inject::Injections;
use crate::transfer::{PairOutcome, Scratch, run_pair};
use crate::unit::{QUEUES, UnitModel, Wake};
use crate::write_log::{WriteLog, WriteWindow};

/// Faults kept for [`Device::take_faults`](crate::Device::take_faults) (oldest dropped first).
const FAULT_LOG_CAPACITY: usize = 1024;

/// A fault together with where it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultRecord {
    /// Unit (engine) index.
    pub unit: usize,
    /// Queue pair.
    pub queue: usize,
    /// What went wrong.
    pub fault: Fault,
}

/// One scheduler step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A packet moved.
    Packet {
        /// Unit (engine) index.
        unit: usize,
        /// Queue pair.
        queue: usize,
        /// Payload bytes.
        bytes: u64,
    },
    /// A packet faulted.
    Fault(FaultRecord),
    /// The S2M side dropped a packet that had no RX descriptor (no-descriptor policy).
    Dropped {
        /// Unit (engine) index.
        unit: usize,
        /// Queue pair.
        queue: usize,
        /// Payload bytes dropped.
        bytes: u64,
    },
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Packets moved.
    pub packets: u64,
    /// Payload bytes moved.
    pub bytes: u64,
    /// Faults raised.
    pub faults: u64,
    /// Packets dropped for lack of an RX descriptor.
    pub dropped: u64,
}

impl RunReport {
    fn add(&mut self, step: &Step, packets: u64) {
        match step {
            Step::Packet { bytes, .. } => {
                self.packets += packets;
                self.bytes += bytes;
            }
            Step::Fault(_) => self.faults += 1,
            Step::Dropped { .. } => self.dropped += 1,
        }
    }
}

/// Where a BAR offset lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UnitOffset {
    pub(crate) unit: usize,
    pub(crate) offset: usize,
}

pub(crate) struct Model {
    pub(crate) mem: AddressSpace,
    pub(crate) units: Vec<UnitModel>,
    /// BAR offset of each unit, by unit index.
    bases: Vec<usize>,
    /// `(base, unit)` sorted by base, for decoding.
    by_base: Vec<(usize, usize)>,
    /// Queue pairs that may be able to run, in round-robin order.
    active: VecDeque<(usize, usize)>,
    /// Per unit, bit q set while pair q is in `active`.
    queued: Vec<u16>,
    scratch: Scratch,
    faults: VecDeque<FaultRecord>,
    /// Faults armed on queues (fired by doorbells: `inject`).
    pub(crate) injections: Injections,
    /// Every register write (`write_log`).
    pub(crate) writes: WriteLog,
}

impl Model {
    pub(crate) fn new(mem: AddressSpace, bases: Vec<usize>) -> Self {
        let mut by_base: Vec<(usize, usize)> = bases
            .iter()
            .copied()
            .enumerate()
            .map(|(u, b)| (b, u))
            .collect();
        by_base.sort_unstable();
        Self {
            mem,
            units: bases.iter().map(|_| UnitModel::new()).collect(),
            queued: vec![0; bases.len()],
            bases,
            by_base,
            active: VecDeque::new(),
            scratch: Scratch::default(),
            faults: VecDeque::new(),
            injections: Injections::default(),
            writes: WriteLog::default(),
        }
    }

    /// Sets what every unit's `m2s_feature.dma_version` reads.
    pub(crate) fn set_dma_version(&mut self, v: u32) {
        for u in &mut self.units {
            u.dma_version = v;
        }
    }

    pub(crate) fn unit_base(&self, unit: usize) -> Option<usize> {
        self.bases.get(unit).copied()
    }

    pub(crate) fn unit_count(&self) -> usize {
        self.units.len()
    }

    /// Decodes a BAR offset: 4-byte aligned and inside a unit's register window.
    pub(crate) fn locate(&self, off: usize) -> Option<UnitOffset> {
        if off % 4 != 0 {
            return None;
        }
        let i = self.by_base.partition_point(|&(b, _)| b <= off);
        let &(base, unit) = self.by_base.get(i.checked_sub(1)?)?;
        let offset = off - base;
        (offset < khal::regs::unit::UNIT_SIZE).then_some(UnitOffset { unit, offset })
    }

    /// The register at `at` (an offset the caller has located).
    pub(crate) fn read32_at(&mut self, at: UnitOffset) -> u32 {
        self.units
            .get_mut(at.unit)
            .map_or(mmio::BUS_ERROR_READ, |u| u.read(at.offset))
    }

    /// Returns true when the write may have made work runnable.
    pub(crate) fn write32(&mut self, off: usize, value: u32) -> bool {
        match self.locate(off) {
            Some(at) => self.write32_at(off, at, value),
            None => {
                self.writes.record(off, value, WriteWindow::Bar0);
                false
            }
        }
    }

    /// [`write32`](Self::write32) of an offset the caller has located in unit register file
    /// `at`.
    pub(crate) fn write32_at(&mut self, off: usize, at: UnitOffset, value: u32) -> bool {
        self.writes.record(off, value, WriteWindow::Bar0);
        let wake = if self.injections.is_empty() {
            let Some(unit) = self.units.get_mut(at.unit) else {
                return false;
            };
            unit.write(at.offset, value)
        } else {
            self.write_injecting(at, value)
        };
        match wake {
            Wake::None => false,
            Wake::Queue(q) => {
                self.schedule(at.unit, q);
                true
            }
            Wake::All => {
                for q in 0..QUEUES {
                    self.schedule(at.unit, q);
                }
                true
            }
        }
    }

    fn schedule(&mut self, unit: usize, q: usize) {
        let Some(bits) = self.queued.get_mut(unit) else {
            return;
        };
        let bit = 1u16 << q;
        if *bits & bit == 0 {
            *bits |= bit;
            self.active.push_back((unit, q));
        }
    }

    pub(crate) fn has_work(&self) -> bool {
        !self.active.is_empty()
    }

    /// Runs at most one packet: the next queue pair in round-robin order that can move one.
    pub(crate) fn step(&mut self) -> Option<Step> {
        while let Some((u, q)) = self.pop_active() {
            if let Some((step, _)) = self.run_one(u, q, 1) {
                return Some(step);
            }
        }
        None
    }

    fn pop_active(&mut self) -> Option<(usize, usize)> {
        let (u, q) = self.active.pop_front()?;
        if let Some(bits) = self.queued.get_mut(u) {
            *bits &= !(1u16 << q);
        }
        Some((u, q))
    }

    /// Runs pair `(u, q)` (just popped from the active set): one packet, or up to `batch`
    /// when it is the only runnable pair (what round-robin over one pair does anyway).
    /// Returns the step (for a batch: its total bytes) and the packets it stands for.
    fn run_one(&mut self, u: usize, q: usize, batch: u64) -> Option<(Step, u64)> {
        let batch = if self.active.is_empty() { batch } else { 1 };
        let unit = self.units.get_mut(u)?;
        match run_pair(unit, &mut self.mem, q, &mut self.scratch, batch) {
            PairOutcome::Moved {
                packets,
                bytes,
                more,
            } => {
                if more {
                    self.schedule(u, q);
                }
                Some((
                    Step::Packet {
                        unit: u,
                        queue: q,
                        bytes,
                    },
                    packets,
                ))
            }
            PairOutcome::Faulted(fault) => {
                let rec = FaultRecord {
                    unit: u,
                    queue: q,
                    fault,
                };
                if self.faults.len() == FAULT_LOG_CAPACITY {
                    self.faults.pop_front();
                }
                self.faults.push_back(rec);
                Some((Step::Fault(rec), 1))
            }
            PairOutcome::Dropped { bytes, more } => {
                if more {
                    self.schedule(u, q);
                }
                Some((
                    Step::Dropped {
                        unit: u,
                        queue: q,
                        bytes,
                    },
                    1,
                ))
            }
            PairOutcome::Ticking => {
                self.schedule(u, q);
                None
            }
            // Leaves the active set; the event that unblocks it schedules it again.
            PairOutcome::Wait(_) => None,
        }
    }

    /// Runs until nothing can move or `max_steps` steps (packets, drops, faults) were taken.
    pub(crate) fn run(&mut self, max_steps: u64) -> RunReport {
        let mut report = RunReport::default();
        let mut steps = 0;
        while steps < max_steps {
            let Some((u, q)) = self.pop_active() else {
                break;
            };
            let Some((step, n)) = self.run_one(u, q, max_steps - steps) else {
                continue;
            };
            report.add(&step, n);
            steps += n;
        }
        report
    }

    pub(crate) fn take_faults(&mut self) -> Vec<FaultRecord> {
        self.faults.drain(..).collect()
    }
}
