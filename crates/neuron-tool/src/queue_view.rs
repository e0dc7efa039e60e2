//! One DMA queue as the driver lets any process on the device lane see it, gathered for
//! `queue inspect` through the driver's read paths only (`reference/dma-path.md` step 8,
//! `reference/bar-README.md`):
//!
//! * DMA_ENG_GET_STATE: the engine's TX and RX state (1 IDLE, 2 NORMAL, 3 ABORT);
//! * DMA_QUEUE_GET_STATE: both rings' base, length, head, tail and completion pointers;
//! * DMA_DESCRIPTOR_COPYOUT: both rings' descriptors;
//! * BAR_READ: the queue's registers (heads and tails with their ring ids), the registers
//!   the engine's walk rules come from ([`neuron_emu::RuleRegisters`]), the engine states,
//!   and the unit's interrupt cause registers.
//!
//! None of these is attach-checked or owner-checked by the driver (`ioctl-commands.tsv`,
//! `dma-path.md`: "The driver does not check which process or core owns" a core-engine
//! queue), so a process that did not program the queue can inspect it. Nothing is written.

use khal::Arch;
use ndl_abi::{DmaEngState, DmaQueueState, MemChunkInfo};
use ndl_std::{DescBytes, Device, Kernel, QueueType};
use neuron_emu::RuleRegisters;
use neuron_emu::engine_walk::{RingPos, WalkRules};
use udma_desc::{Descriptor, Direction, RingId};
use zerocopy::FromZeros;

use crate::bar_reader::BarReader;
use crate::cli::BlockName;
use crate::cmd::regs_read::{EngineRegs, RegValue, read_rows, unit_base};
use crate::cmd::ring::{RingReport, analyse};
use crate::device_target::{DeviceFacts, device_error};
use crate::error::{Result, ToolError};
use crate::unit_regs::unit_rows;

/// Longest ring read back and walked (1 MiB of descriptors); a longer ring is reported
/// from its state and registers only.
pub const MAX_WALK_RING: u32 = 1 << 16;
/// Descriptors one DMA_DESCRIPTOR_COPYOUT reads.
const COPYOUT_CHUNK: u32 = 4096;

/// One ring of the queue.
#[derive(Clone, Debug)]
pub struct RingView {
    /// TX (M2S) or RX (S2M).
    pub dir: Direction,
    /// What DMA_QUEUE_GET_STATE reported.
    pub state: DmaQueueState,
    /// The head register: the next slot the engine takes, and the lap's ring id.
    pub head: RingPos,
    /// The tail register: one past the last slot posted.
    pub tail: RingPos,
    /// Descriptors posted and not taken (tail minus head, laps counted by ring id).
    pub posted: u32,
    /// The whole ring (empty when it was not read).
    pub descs: Vec<Descriptor>,
    /// The engine walk from the head over the posted descriptors.
    pub walk: Option<RingReport>,
    /// Why the ring was not read or walked.
    pub note: Option<String>,
}

/// The queue as read.
#[derive(Clone, Debug)]
pub struct QueueView {
    /// The engine (global id).
    pub engine: u32,
    /// The queue.
    pub queue: u32,
    /// DMA_ENG_GET_STATE.
    pub engine_state: DmaEngState,
    /// Both rings, TX then RX; `None` when DMA_QUEUE_GET_STATE refused the queue.
    pub rings: Option<[RingView; 2]>,
    /// Why DMA_QUEUE_GET_STATE refused the queue.
    pub refused: Option<String>,
    /// The registers read (queue block, states, rule registers, interrupt causes).
    pub registers: EngineRegs,
    /// The walk rules the rule registers hold.
    pub rules: WalkRules,
    /// Each HBM channel's window, `(base, bytes)`: the arch's `hbm_bases` and
    /// `hbm_active_size` (`reference/arch-scalars.tsv`).
    pub hbm: Vec<(u64, u64)>,
    /// Every chunk the driver lists in those channels (DUMP_MEM_CHUNKS, any process's),
    /// `(pa, size)`; or why they could not be listed. Host memory has no such listing.
    pub chunks: std::result::Result<Vec<(u64, u64)>, String>,
}

impl QueueView {
    /// A register read, by full name.
    pub fn register(&self, name: &str) -> Option<&RegValue> {
        self.registers.registers.iter().find(|r| r.name == name)
    }

    /// A register's value, by full name (0 when it was not read).
    pub fn value(&self, name: &str) -> u32 {
        self.register(name).and_then(|r| r.value).unwrap_or(0)
    }
}

/// Reads queue `queue` of engine `engine` of `dev` (arch `A`).
pub fn read_queue<K: Kernel, A: Arch>(
    dev: &Device<'_, K>,
    facts: &DeviceFacts,
    name: &str,
    engine: u32,
    queue: u32,
) -> Result<QueueView> {
    let base = unit_base::<A>(engine)?;
    let mut bar = BarReader::new(dev, *facts, name);
    let registers = read_rows(&mut bar, engine, base, &queue_rows::<A>(queue))?;
    let engine_state = dev
        .dma_eng_get_state(engine)
        .map_err(|e| device_error(name, e))?;
    let rules = rules_of(&registers);
    let mut view = QueueView {
        engine,
        queue,
        engine_state,
        rings: None,
        refused: None,
        registers,
        rules,
        hbm: A::SCALARS
            .hbm_bases
            .iter()
            .map(|&b| (b, A::SCALARS.hbm_active_size))
            .collect(),
        chunks: hbm_chunks(dev, A::SCALARS.hbm_bases.len()),
    };
    match dev.dma_queue_get_state(engine, queue) {
        Ok((tx, rx)) => {
            let tx = ring_view(dev, name, &view, Direction::Tx, tx)?;
            let rx = ring_view(dev, name, &view, Direction::Rx, rx)?;
            view.rings = Some([tx, rx]);
        }
        Err(ndl_std::Error::Ioctl { errno, .. }) => {
            let errno = crate::queue_demo::errno_name(errno);
            view.refused = Some(format!("DMA_QUEUE_GET_STATE refused it ({errno})"));
        }
        Err(e) => return Err(device_error(name, e)),
    }
    Ok(view)
}

/// Most chunks listed per HBM channel: DUMP_MEM_CHUNKS answers how many it needs, and the
/// listing is not asked for more than this (24 bytes each).
pub const MAX_CHUNKS: u32 = 1 << 16;

/// The chunks of HBM channels `0..channels` as DUMP_MEM_CHUNKS lists them, `(pa, size)`,
/// asked again once with the count the driver said it needs; or why they were not listed.
fn hbm_chunks<K: Kernel>(
    dev: &Device<'_, K>,
    channels: usize,
) -> std::result::Result<Vec<(u64, u64)>, String> {
    let mut all = Vec::new();
    for channel in (0u32..).take(channels) {
        let mut buf = vec![MemChunkInfo::new_zeroed(); 64];
        let n = match dev.dump_mem_chunks(channel, &mut buf) {
            Ok(n) => n,
            Err(ndl_std::Error::BufferTooSmall { needed, .. }) if needed <= MAX_CHUNKS.into() => {
                buf.resize(
                    usize::try_from(needed).unwrap_or(0),
                    MemChunkInfo::new_zeroed(),
                );
                dev.dump_mem_chunks(channel, &mut buf)
                    .map_err(|e| format!("DUMP_MEM_CHUNKS of HBM {channel}: {e}"))?
            }
            Err(e) => return Err(format!("DUMP_MEM_CHUNKS of HBM {channel}: {e}")),
        };
        all.extend(buf.iter().take(n).map(|c| (c.pa, c.size)));
    }
    Ok(all)
}

/// The walk rules the rule registers among `regs` hold.
fn rules_of(regs: &EngineRegs) -> WalkRules {
    let words = RuleRegisters::OFFSETS.map(|off| {
        regs.registers
            .iter()
            .find(|r| r.unit_offset == off as u64)
            .and_then(|r| r.value)
            .unwrap_or(0)
    });
    RuleRegisters::from_words(words).rules()
}

/// The registers `queue inspect` reads: the queue's blocks, both engine states, the rule
/// registers, and every interrupt group's cause.
fn queue_rows<A: Arch>(queue: u32) -> Vec<crate::unit_regs::RegRow> {
    let mut rows = unit_rows::<A>(Some(BlockName::Queue), Some(queue));
    let engines = unit_rows::<A>(Some(BlockName::M2s), None)
        .into_iter()
        .chain(unit_rows::<A>(Some(BlockName::S2m), None))
        .filter(|r| {
            ["m2s.state", "s2m.state"].contains(&r.short)
                || RuleRegisters::OFFSETS.contains(&r.offset)
        });
    rows.extend(engines);
    let causes = unit_rows::<A>(Some(BlockName::Iofic), None)
        .into_iter()
        .filter(|r| r.name.ends_with(".int_cause_grp"));
    rows.extend(causes);
    rows
}

/// Position `raw` (a head or tail register) holds.
fn pos(raw: u32) -> RingPos {
    let p = khal::regs::queue::RingPtr::from(raw);
    RingPos {
        index: p.offset(),
        ring_id: RingId::from_bits(u32::from(p.ring_id())),
    }
}

/// Slots from `head` to `tail` on a ring of `len`, a full lap when they meet on different
/// ring ids.
pub fn distance(head: RingPos, tail: RingPos, len: u32) -> u32 {
    if len == 0 {
        return 0;
    }
    let d = (u64::from(tail.index) + u64::from(len) - u64::from(head.index)) % u64::from(len);
    match u32::try_from(d).unwrap_or(0) {
        0 if head.ring_id != tail.ring_id => len,
        d => d,
    }
}

/// One ring: state, pointers from the registers, descriptors, and the walk.
fn ring_view<K: Kernel>(
    dev: &Device<'_, K>,
    name: &str,
    view: &QueueView,
    dir: Direction,
    state: DmaQueueState,
) -> Result<RingView> {
    let q = view.queue;
    let (block, h, t) = match dir {
        Direction::Tx => ("m2s_q", "tdrhp", "tdrtp"),
        Direction::Rx => ("s2m_q", "rdrhp", "rdrtp"),
    };
    let head = pos(view.value(&format!("{block}[{q}].{h}")));
    let tail = pos(view.value(&format!("{block}[{q}].{t}")));
    let len = state.length;
    let mut ring = RingView {
        dir,
        state,
        head,
        tail,
        posted: distance(head, tail, len),
        descs: Vec::new(),
        walk: None,
        note: None,
    };
    if len == 0 {
        ring.note = Some("no ring is programmed".into());
        return Ok(ring);
    }
    if len > MAX_WALK_RING {
        ring.note = Some(format!(
            "a ring of {len} descriptors is longer than the {MAX_WALK_RING} read back"
        ));
        return Ok(ring);
    }
    ring.descs = copyout(dev, name, view.engine, q, dir, len)?;
    let walk = analyse(
        &ring.descs,
        dir,
        head,
        Some(ring.posted.into()),
        &view.rules,
    );
    match walk {
        Ok(w) => ring.walk = Some(w),
        Err(e) => ring.note = Some(format!("the ring cannot be walked: {e}")),
    }
    Ok(ring)
}

/// The `len` descriptors of a ring, through DMA_DESCRIPTOR_COPYOUT.
fn copyout<K: Kernel>(
    dev: &Device<'_, K>,
    name: &str,
    engine: u32,
    queue: u32,
    dir: Direction,
    len: u32,
) -> Result<Vec<Descriptor>> {
    let which = match dir {
        Direction::Tx => QueueType::Tx,
        Direction::Rx => QueueType::Rx,
    };
    let mut out = Vec::with_capacity(len as usize);
    let mut buf: Vec<DescBytes> = Vec::new();
    let mut start = 0;
    while start < len {
        let n = (len - start).min(COPYOUT_CHUNK);
        buf.resize(n as usize, [0; 16]);
        dev.dma_descriptor_copyout(engine, queue, which, start, &mut buf)
            .map_err(|e| device_error(name, e))?;
        out.extend(buf.iter().map(|b| Descriptor::from_le_bytes(*b)));
        start += n;
    }
    if out.len() != len as usize {
        return Err(ToolError::Device {
            device: name.into(),
            why: format!(
                "DMA_DESCRIPTOR_COPYOUT gave {} of {len} descriptors",
                out.len()
            ),
        });
    }
    Ok(out)
}
