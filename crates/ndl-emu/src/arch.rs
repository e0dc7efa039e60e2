//! Where the emulated kernel meets `khal`: a device's generation becomes an arch type through
//! khal's one dispatch point, and every engine operation is khal's own register sequence run
//! on the model's BAR0 (engine bring-up, state, queue init and reset, doorbells).

use khal::regs::QueueReg;
use khal::regs::queue::{Dir, RingLen, RingPtr};
use khal::udma::{EngineParams, QUEUE_COUNT_ALL, RingConfig, Udma, UdmaError, UdmaState};
use khal::{Arch, ArchVisitor, Generation, Scalars};
use mmio::{Mmio, Window};
use neuron_emu::{Device, MapError, MemoryConfig};
use udma_desc::{Doorbell, QueueId};

use crate::Arches;
use ndl_std::Errno;

/// The arch facts the kernel's handlers need, copied from the arch type at probe.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facts {
    pub(crate) generation: Generation,
    pub(crate) scalars: Scalars,
    pub(crate) udma_revision: u8,
}

struct FactsOf;

impl ArchVisitor for FactsOf {
    type Output = Facts;
    fn visit<A: Arch>(self) -> Facts {
        Facts {
            generation: A::GENERATION,
            scalars: A::SCALARS,
            udma_revision: A::UDMA_REVISION,
        }
    }
}

impl Facts {
    /// The facts of `generation`, if this build supports it.
    pub(crate) fn of(generation: Generation) -> Option<Self> {
        khal::dispatch::<Arches, _>(generation, FactsOf).ok()
    }
}

struct Build<'a>(&'a MemoryConfig);

impl ArchVisitor for Build<'_> {
    type Output = Result<Device, MapError>;
    fn visit<A: Arch>(self) -> Result<Device, MapError> {
        Device::for_arch::<A>(self.0)
    }
}

struct NcMapEntryOf {
    mapping_type: u32,
    entry: u16,
}

impl ArchVisitor for NcMapEntryOf {
    type Output = Result<khal::NcLocation, khal::ArchError>;
    fn visit<A: Arch>(self) -> Self::Output {
        // The emulated host is a standard platform with no `force_die_flip`: no die flip
        // (arch-callbacks.tsv `ncdev_logical_to_physical_nc_map`).
        A::logical_to_physical_nc(self.mapping_type, self.entry, None, false)
    }
}

/// Entry `entry` of `generation`'s logical-to-physical core map, as khal's arch answers it
/// (`None`: not in this build).
pub(crate) fn nc_map_entry(
    generation: Generation,
    mapping_type: u32,
    entry: u16,
) -> Option<Result<khal::NcLocation, khal::ArchError>> {
    khal::dispatch::<Arches, _>(
        generation,
        NcMapEntryOf {
            mapping_type,
            entry,
        },
    )
    .ok()
}

/// A power-on device model of `generation` (`None`: not in this build).
pub(crate) fn build(
    generation: Generation,
    memory: &MemoryConfig,
) -> Option<Result<Device, MapError>> {
    khal::dispatch::<Arches, _>(generation, Build(memory)).ok()
}

/// One thing the kernel does to a UDMA engine.
#[derive(Clone, Copy, Debug)]
pub(crate) enum EngineOp {
    /// Engine init (khal, error-interrupt policy included), then NORMAL.
    BringUp,
    /// `change_state` on both directions.
    SetState(UdmaState),
    /// Both directions' state.
    State,
    /// Programs one direction of a queue with a ring under the driver's ring rules, as the
    /// driver's DMA_QUEUE_INIT does (khal's `init_queue_dir_driver_rules`: no power of two).
    InitQueue(Dir, QueueId, RingConfig),
    /// Rings the RX then the TX doorbell (a zero count rings nothing).
    Doorbell(QueueId, u32, u32),
    /// Head, tail and ring length registers of one direction of a queue.
    Pointers(Dir, QueueId),
}

/// What an [`EngineOp`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EngineAnswer {
    Done,
    State {
        tx: UdmaState,
        rx: UdmaState,
    },
    Pointers {
        head: RingPtr,
        tail: RingPtr,
        /// Ring length in descriptors, as the queue's length register holds it.
        len: u32,
    },
}

struct Run<'a> {
    dev: &'a Device,
    base: usize,
    op: EngineOp,
}

/// khal's refusals are argument errors to the caller of the ioctl.
fn inval(_: UdmaError) -> Errno {
    Errno::INVAL
}

impl ArchVisitor for Run<'_> {
    type Output = Result<EngineAnswer, UdmaError>;

    fn visit<A: Arch>(self) -> Result<EngineAnswer, UdmaError> {
        let regs = Window::new(self.dev, self.base);
        if let EngineOp::BringUp = self.op {
            // Engine init includes the arch's error-interrupt policy (abort arming).
            let udma = Udma::<A, _>::init(regs, EngineParams::for_arch::<A>())?;
            udma.set_state(UdmaState::Normal)?;
            return Ok(EngineAnswer::Done);
        }
        let udma = Udma::<A, _>::attach(regs, QUEUE_COUNT_ALL, None)?;
        Ok(match self.op {
            EngineOp::BringUp => EngineAnswer::Done,
            EngineOp::SetState(s) => {
                udma.set_state(s)?;
                EngineAnswer::Done
            }
            EngineOp::State => EngineAnswer::State {
                tx: udma.state(Dir::Tx),
                rx: udma.state(Dir::Rx),
            },
            EngineOp::InitQueue(dir, q, ring) => {
                udma.init_queue_dir_driver_rules(dir, q, ring)?;
                EngineAnswer::Done
            }
            EngineOp::Doorbell(q, tx, rx) => {
                if rx > 0 {
                    udma.ring_rx(q, rx);
                }
                if tx > 0 {
                    udma.ring_tx(q, tx);
                }
                EngineAnswer::Done
            }
            EngineOp::Pointers(dir, q) => {
                let read = |reg| {
                    A::queue_reg_offset(dir, q, reg)
                        .map_or(mmio::BUS_ERROR_READ, |off| udma.regs().read32(off))
                };
                EngineAnswer::Pointers {
                    head: RingPtr::from_bits(read(QueueReg::Drhp)),
                    tail: RingPtr::from_bits(read(QueueReg::Drtp)),
                    len: RingLen::from_bits(read(QueueReg::Drl)).descs(),
                }
            }
        })
    }
}

/// Runs `op` on engine `engine` of `dev` (a `generation` device) with khal's code for that
/// arch. EINVAL for an engine the device does not have or an operation khal refuses.
pub(crate) fn engine(
    generation: Generation,
    dev: &Device,
    engine: u32,
    op: EngineOp,
) -> Result<EngineAnswer, Errno> {
    let base = usize::try_from(engine)
        .ok()
        .and_then(|e| dev.unit_base(e))
        .ok_or(Errno::INVAL)?;
    khal::dispatch::<Arches, _>(generation, Run { dev, base, op })
        .map_err(|_| Errno::NODEV)?
        .map_err(inval)
}

/// Brings every engine of a fresh device up, as the driver does when it initialises the
/// device (before any process can open it).
pub(crate) fn bring_up_all(generation: Generation, dev: &Device) -> Result<(), (u32, String)> {
    for unit in 0..dev.unit_count() {
        let engine = u32::try_from(unit).map_err(|_| (u32::MAX, "engine id".to_string()))?;
        let base = dev.unit_base(unit).ok_or((engine, "no unit".to_string()))?;
        let run = Run {
            dev,
            base,
            op: EngineOp::BringUp,
        };
        match khal::dispatch::<Arches, _>(generation, run) {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return Err((engine, e.to_string())),
            Err(e) => return Err((engine, e.to_string())),
        }
    }
    Ok(())
}
