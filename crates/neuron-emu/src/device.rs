//! The device: units, memory and scheduler behind one lock, with an `mmio::Mmio` register
//! window that host code (khal bring-up, the emulated kernel) drives unchanged.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::address_space::{AddressSpace, RegionId, RegionSpec};
use crate::engine_state::EngineState;
use crate::engine_walk::{RingPos, WalkRules};
use crate::error::{AllocError, BusError, MapError};
use crate::inject::{Armed, InjectError};
use crate::iofic_model::Level;
use crate::model::{FaultRecord, Model, RunReport, Step};
use crate::queue::QueueStats;
use crate::ttt_model::TttEntryWords;
use crate::write_log::{RegisterWrite, WriteWindow};
use udma_desc::Direction;

/// When doorbells are executed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExecMode {
    /// Doorbells only post work; nothing moves until [`Device::step`],
    /// [`Device::run_until_idle`] or a [`BackgroundEngine`] runs it. Fully deterministic.
    #[default]
    Manual,
    /// The register write that rings a doorbell runs the device until idle before it returns
    /// (software that polls for completion works single-threaded).
    OnDoorbell,
}

impl ExecMode {
    const fn to_u8(self) -> u8 {
        match self {
            Self::Manual => 0,
            Self::OnDoorbell => 1,
        }
    }
    const fn from_u8(v: u8) -> Self {
        match v {
            1 => Self::OnDoorbell,
            _ => Self::Manual,
        }
    }
}

/// How a device is built: where its UDMA units sit in BAR0 and which memory it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceConfig {
    /// BAR0 offset of each UDMA unit; the index is the engine id.
    pub unit_bases: Vec<usize>,
    /// Memory regions (device HBM, host DRAM).
    pub regions: Vec<RegionSpec>,
    /// Initial execution mode.
    pub mode: ExecMode,
    /// What every unit's read-only `m2s_feature.dma_version` reads: the UDMA revision word
    /// (`al_udma_revision_get`, seed 004 §2; the register and the rule "the whole word when it
    /// is 4 or more" are the ancestor HAL's, `reference/al-hal/facts.tsv` rows `a`). Default
    /// and every shipped arch: 4. Preset another word ([`DeviceConfig::with_dma_version`]) to
    /// see how software takes an engine whose word is not what the sources lead it to expect.
    pub dma_version: u32,
}

impl DeviceConfig {
    /// The same configuration with every unit's `m2s_feature.dma_version` reading `word` (a
    /// model preset: a word below 4 also hides the TTT, which revision 4 brings).
    ///
    /// ```
    /// use mmio::Mmio;
    /// use neuron_emu::{Device, DeviceConfig};
    /// let dev = Device::new(DeviceConfig { unit_bases: vec![0], ..Default::default() }.with_dma_version(5))?;
    /// assert_eq!(dev.read32(0x604), 5);
    /// # Ok::<(), neuron_emu::MapError>(())
    /// ```
    pub fn with_dma_version(self, word: u32) -> Self {
        Self {
            dma_version: word,
            ..self
        }
    }
}

impl Default for DeviceConfig {
    fn default() -> Self {
        Self {
            unit_bases: Vec::new(),
            regions: Vec::new(),
            mode: ExecMode::default(),
            dma_version: khal::regs::m2s::UDMA_REV_ID_4,
        }
    }
}

pub(crate) struct Shared {
    model: Mutex<Model>,
    /// Signalled when work may have arrived (background engine) or at shutdown.
    work: Condvar,
    /// Signalled when the background engine finds nothing to run.
    idle: Condvar,
    mode: AtomicU8,
    background: AtomicBool,
    shutdown: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Model> {
        // A panic while holding the lock cannot leave the model half-updated in a way that
        // matters more than stopping would; keep serving rather than propagate the poison.
        self.model.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One emulated Neuron device.
///
/// Cloning gives another handle to the same device (shared state), so a register window, a
/// background engine and test code can all hold one.
///
/// ```
/// use mmio::Mmio;
/// use neuron_emu::{Device, DeviceConfig, RegionKind, RegionSpec};
///
/// let dev = Device::new(DeviceConfig {
///     unit_bases: vec![0x0],
///     regions: vec![RegionSpec::new("host", RegionKind::Host, 0x1_0000_0000, 1 << 20)],
///     ..Default::default()
/// })?;
/// dev.write32(0x204, 1); // M2S change_state NORMAL
/// assert_eq!(dev.read32(0x200), 0x1111);
/// assert_eq!(dev.read32(0x3c800), 0, "the TTT enable, in gen_ex past the kernel's structure");
/// assert_eq!(dev.read32(0x3cc1c), mmio::BUS_ERROR_READ, "past the unit's registers");
/// # Ok::<(), neuron_emu::MapError>(())
/// ```
#[derive(Clone)]
pub struct Device {
    shared: Arc<Shared>,
}

impl core::fmt::Debug for Device {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let m = self.shared.lock();
        f.debug_struct("Device")
            .field("units", &m.unit_count())
            .field("regions", &m.mem.regions())
            .finish()
    }
}

impl Device {
    /// Builds a device in its power-on state: engines disabled, queues reset, memory zeroed.
    pub fn new(config: DeviceConfig) -> Result<Self, MapError> {
        let mut mem = AddressSpace::new();
        for spec in config.regions {
            mem.map(spec)?;
        }
        let dev = Self::from_address_space(mem, config.unit_bases, config.mode);
        dev.shared.lock().set_dma_version(config.dma_version);
        Ok(dev)
    }

    /// Builds a device over an address space the caller mapped; `unit_bases` are the BAR0
    /// offsets of the UDMA units (index = engine id).
    pub fn from_address_space(mem: AddressSpace, unit_bases: Vec<usize>, mode: ExecMode) -> Self {
        Self {
            shared: Arc::new(Shared {
                model: Mutex::new(Model::new(mem, unit_bases)),
                work: Condvar::new(),
                idle: Condvar::new(),
                mode: AtomicU8::new(mode.to_u8()),
                background: AtomicBool::new(false),
                shutdown: AtomicBool::new(false),
            }),
        }
    }

    /// Current execution mode.
    pub fn exec_mode(&self) -> ExecMode {
        ExecMode::from_u8(self.shared.mode.load(Ordering::Acquire))
    }

    /// Changes the execution mode.
    pub fn set_exec_mode(&self, mode: ExecMode) {
        self.shared.mode.store(mode.to_u8(), Ordering::Release);
    }

    /// Number of UDMA units.
    pub fn unit_count(&self) -> usize {
        self.shared.lock().unit_count()
    }

    /// BAR0 offset of unit `unit`.
    pub fn unit_base(&self, unit: usize) -> Option<usize> {
        self.shared.lock().unit_base(unit)
    }

    /// Runs `f` with the address space locked (no engine runs meanwhile).
    pub fn with_memory<R>(&self, f: impl FnOnce(&mut AddressSpace) -> R) -> R {
        f(&mut self.shared.lock().mem)
    }

    /// Reads device or host memory at a DMA address.
    pub fn read_mem(&self, addr: u64, buf: &mut [u8]) -> Result<(), BusError> {
        self.with_memory(|m| m.read(addr, buf))
    }

    /// Reads `len` bytes of memory into a vector.
    pub fn read_mem_vec(&self, addr: u64, len: usize) -> Result<Vec<u8>, BusError> {
        self.with_memory(|m| m.read_vec(addr, len))
    }

    /// Writes device or host memory at a DMA address.
    pub fn write_mem(&self, addr: u64, data: &[u8]) -> Result<(), BusError> {
        self.with_memory(|m| m.write(addr, data))
    }

    /// Allocates `size` bytes aligned to `align` in a region; returns the DMA address.
    pub fn alloc(&self, region: RegionId, size: u64, align: u64) -> Result<u64, AllocError> {
        self.with_memory(|m| m.alloc(region, size, align))
    }

    /// Frees an allocation by its DMA address; returns its size.
    pub fn free(&self, addr: u64) -> Result<u64, AllocError> {
        self.with_memory(|m| m.free(addr))
    }

    /// Runs at most one packet (the next runnable queue pair in round-robin order).
    pub fn step(&self) -> Option<Step> {
        self.shared.lock().step()
    }

    /// Runs until no queue pair can move anything.
    ///
    /// Terminates: every step consumes posted descriptors or drops a pair from the run list.
    /// A pathological ring (a huge doorbell count over a ring without phase checking) can take
    /// long; [`run`](Self::run) bounds the work.
    pub fn run_until_idle(&self) -> RunReport {
        self.shared.lock().run(u64::MAX)
    }

    /// Runs at most `max_steps` packets (moved or faulted).
    pub fn run(&self, max_steps: u64) -> RunReport {
        self.shared.lock().run(max_steps)
    }

    /// True when no queue pair has runnable work.
    pub fn is_idle(&self) -> bool {
        !self.shared.lock().has_work()
    }

    /// Waits until the device is idle (for the background engine); false on timeout.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        // A timeout too long to add to "now" (`Duration::MAX`) means "no deadline".
        let deadline = Instant::now().checked_add(timeout);
        let mut m = self.shared.lock();
        while m.has_work() {
            m = match deadline {
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return false;
                    }
                    match self.shared.idle.wait_timeout(m, deadline - now) {
                        Ok((g, _)) => g,
                        Err(p) => p.into_inner().0,
                    }
                }
                None => match self.shared.idle.wait(m) {
                    Ok(g) => g,
                    Err(p) => p.into_inner(),
                },
            };
        }
        true
    }

    /// State of one direction of a unit.
    pub fn engine_state(&self, unit: usize, dir: Direction) -> Option<EngineState> {
        self.shared.lock().units.get(unit).map(|u| u.dir(dir).state)
    }

    /// The rules the engine walk applies on `unit` now, as its registers hold them.
    pub fn walk_rules(&self, unit: usize) -> Option<WalkRules> {
        let mut m = self.shared.lock();
        m.units.get_mut(unit).map(|u| u.settings().rules)
    }

    /// Counters of one queue.
    pub fn queue_stats(&self, unit: usize, dir: Direction, queue: usize) -> Option<QueueStats> {
        let m = self.shared.lock();
        Some(m.units.get(unit)?.dir(dir).queues.get(queue)?.stats)
    }

    /// Head position of one queue (what `drhp` reads, decoded).
    pub fn queue_head(&self, unit: usize, dir: Direction, queue: usize) -> Option<RingPos> {
        let m = self.shared.lock();
        Some(m.units.get(unit)?.dir(dir).queues.get(queue)?.head)
    }

    /// What an IOFIC group's cause register reads (latched causes plus summary bits),
    /// without CLEAR_ON_READ side effects.
    pub fn iofic_cause(&self, unit: usize, level: Level, group: usize) -> Option<u32> {
        let m = self.shared.lock();
        Some(m.units.get(unit)?.iofic.cause(level, group))
    }

    /// What an IOFIC group's status register reads (pending unmasked causes).
    pub fn iofic_status(&self, unit: usize, level: Level, group: usize) -> Option<u32> {
        let m = self.shared.lock();
        Some(m.units.get(unit)?.iofic.status(level, group))
    }

    /// Faults recorded since the last call (at most the last 1024).
    pub fn take_faults(&self) -> Vec<FaultRecord> {
        self.shared.lock().take_faults()
    }

    /// Starts a thread that runs doorbells as they arrive. Stop it by dropping the handle or
    /// calling [`BackgroundEngine::stop`]. At most one runs per device: a second call returns
    /// `None` while the first is alive.
    pub fn start_background(&self) -> Option<BackgroundEngine> {
        if self.shared.background.swap(true, Ordering::AcqRel) {
            return None;
        }
        self.shared.shutdown.store(false, Ordering::Release);
        let shared = Arc::clone(&self.shared);
        let thread = std::thread::Builder::new()
            .name("neuron-emu-engine".into())
            .spawn(move || background_loop(&shared));
        match thread {
            Ok(t) => Some(BackgroundEngine {
                shared: Arc::clone(&self.shared),
                thread: Some(t),
            }),
            Err(_) => {
                self.shared.background.store(false, Ordering::Release);
                None
            }
        }
    }

    fn after_write(&self, mut m: MutexGuard<'_, Model>, woke: bool) {
        if !woke {
            return;
        }
        if self.exec_mode() == ExecMode::OnDoorbell {
            m.run(u64::MAX);
            drop(m);
            self.shared.idle.notify_all();
        } else if self.shared.background.load(Ordering::Acquire) {
            drop(m);
            self.shared.work.notify_one();
        }
    }
}

impl Device {
    /// Arms a fault on a queue (see [`Injection`](crate::Injection)): it fires once, at the
    /// next TX doorbell that posts descriptors on that queue.
    ///
    /// ```
    /// use neuron_emu::{Armed, Device, Injection, MemoryConfig};
    /// let dev = Device::for_arch::<khal_cayman::Cayman>(&MemoryConfig::default())?;
    /// dev.inject(Armed { engine: 4, queue: 3, injection: Injection::Stall })?;
    /// assert_eq!(dev.armed_injections().len(), 1);
    /// assert!(dev.inject(Armed { engine: 4, queue: 16, injection: Injection::Stall }).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inject(&self, armed: Armed) -> Result<(), InjectError> {
        self.shared.lock().arm(armed)
    }

    /// The injections armed and not fired yet, in arming order.
    pub fn armed_injections(&self) -> Vec<Armed> {
        self.shared.lock().injections.armed()
    }

    /// Register writes that reached the device since it was built (BAR0 and target-id
    /// blocks), whatever they did.
    pub fn register_writes(&self) -> u64 {
        self.shared.lock().writes.count()
    }

    /// The latest register writes (at most [`WRITE_LOG_CAPACITY`](crate::WRITE_LOG_CAPACITY)),
    /// oldest first.
    pub fn recent_register_writes(&self) -> Vec<RegisterWrite> {
        self.shared.lock().writes.recent()
    }
}

impl Device {
    /// A register window on unit `unit`'s target-id block (the TTT; see [`TgtidBlock`]), on
    /// UDMA revision 4 and later only (`al_udma_ttt_en` asserts `rev_id >= 4`). Its offset 0
    /// is the unit's `gen_ex` (the seed's `tgtid_regs`), the TTT from `+0x800`; the unit's
    /// own window serves the same registers at unit `0x3c800..0x3cc1c`.
    pub fn tgtid_block(&self, unit: usize) -> Option<TgtidBlock> {
        let m = self.shared.lock();
        let u = m.units.get(unit)?;
        (u.dma_version >= khal::regs::m2s::UDMA_REV_ID_4).then(|| TgtidBlock {
            device: self.clone(),
            unit,
        })
    }

    /// Whether unit `unit`'s TTT is enabled (`cfg_v4_section_en` bit 0).
    pub fn ttt_enabled(&self, unit: usize) -> Option<bool> {
        self.shared.lock().units.get(unit).map(|u| u.ttt.enabled())
    }

    /// Unit `unit`'s committed TTT entries, by address word (transaction type `[4:0]`, queue
    /// `[8:5]`).
    pub fn ttt_entries(&self, unit: usize) -> Option<Vec<(u32, TttEntryWords)>> {
        self.shared.lock().units.get(unit).map(|u| u.ttt.entries())
    }
}

/// A register window on one unit's TTT registers with offset 0 at the unit's `gen_ex` (the
/// seed's `tgtid_regs`, the ancestor's `gen_ex_regs`): only the TTT's offsets (`+0x800` on)
/// have behaviour; the rest of the window is storage of its own, not the unit's `gen_ex`.
#[derive(Clone, Debug)]
pub struct TgtidBlock {
    device: Device,
    unit: usize,
}

impl mmio::Mmio for TgtidBlock {
    fn read32(&self, offset: usize) -> u32 {
        let m = self.device.shared.lock();
        m.units
            .get(self.unit)
            .map_or(mmio::BUS_ERROR_READ, |u| u.ttt.read(offset))
    }

    fn write32(&self, offset: usize, value: u32) {
        let mut m = self.device.shared.lock();
        let window = WriteWindow::Tgtid { unit: self.unit };
        m.writes.record(offset, value, window);
        if let Some(u) = m.units.get_mut(self.unit) {
            u.ttt.write(offset, value);
        }
    }
}

impl mmio::Mmio for Device {
    fn read32(&self, offset: usize) -> u32 {
        let mut m = self.shared.lock();
        // A unit's register file first (one lookup on the common path), then its TTT.
        if let Some(at) = m.locate(offset) {
            return m.read32_at(at);
        }
        if let Some((unit, off)) = crate::ttt_window::past_units(&m, offset) {
            return m
                .units
                .get(unit)
                .map_or(mmio::BUS_ERROR_READ, |u| u.ttt.read(off));
        }
        mmio::BUS_ERROR_READ
    }

    fn write32(&self, offset: usize, value: u32) {
        let mut m = self.shared.lock();
        // A unit's register file first (one lookup on the common path), then its TTT.
        if let Some(at) = m.locate(offset) {
            let woke = m.write32_at(offset, at, value);
            self.after_write(m, woke);
            return;
        }
        if let Some((unit, off)) = crate::ttt_window::past_units(&m, offset) {
            // A BAR0 write like any other for the write log, whichever model serves it.
            m.writes.record(offset, value, WriteWindow::Bar0);
            if let Some(u) = m.units.get_mut(unit) {
                u.ttt.write(off, value);
            }
            return;
        }
        let woke = m.write32(offset, value);
        self.after_write(m, woke);
    }
}

/// Packets the background engine runs per lock hold, so host accesses interleave.
const BACKGROUND_SLICE: u64 = 16;

fn background_loop(shared: &Shared) {
    loop {
        let mut m = shared.lock();
        loop {
            if shared.shutdown.load(Ordering::Acquire) {
                return;
            }
            if m.has_work() {
                break;
            }
            shared.idle.notify_all();
            m = match shared.work.wait(m) {
                Ok(g) => g,
                Err(p) => p.into_inner(),
            };
        }
        m.run(BACKGROUND_SLICE);
        let idle = !m.has_work();
        drop(m);
        if idle {
            shared.idle.notify_all();
        }
    }
}

/// Handle of a running background engine thread; dropping it stops and joins the thread.
pub struct BackgroundEngine {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl core::fmt::Debug for BackgroundEngine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BackgroundEngine")
            .field("running", &self.thread.is_some())
            .finish()
    }
}

impl BackgroundEngine {
    /// Stops the thread after its current slice and waits for it to exit.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let Some(t) = self.thread.take() else { return };
        {
            // Set the flag under the lock so the thread cannot miss the wake-up between its
            // check and its wait.
            let _m = self.shared.lock();
            self.shared.shutdown.store(true, Ordering::Release);
        }
        self.shared.work.notify_all();
        let _ = t.join();
        self.shared.background.store(false, Ordering::Release);
        self.shared.idle.notify_all();
    }
}

impl Drop for BackgroundEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}
