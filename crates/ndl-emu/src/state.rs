//! The emulated kernel's state: open files, and per device the driver's bookkeeping (attached
//! processes, memory handles, mmap cookies, queue rings, semaphores, locks ...) next to the
//! device model that owns everything the hardware owns (memory bytes, registers, engines).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use neuron_emu::{AllocError, Device, RegionKind};

use super::arch::Facts;
use super::config::DeviceConfig;
use super::user::UserMemory;
use ndl_std::MemLocation;
use ndl_std::{AccessMode, Errno, RawFd};

/// Processes that can attach to one device: "one of 16 per-device slots (-EBUSY when none is
/// free)" (dma-path.md step 0).
pub(crate) const MAX_ATTACHED: usize = 16;
/// First fd number the model hands out (clearly not a real fd of the test process).
const FIRST_FD: RawFd = 1000;
/// Page size of the model's mmap space.
pub(crate) const PAGE: u64 = 4096;
/// Where the model's synthetic user mappings start.
const FIRST_VA: u64 = 0x7e00_0000_0000;
/// Where the cookies of emulator-only objects start: far above every address of the
/// model (chunks are mapped at their own address, as the driver does).
const FIRST_COOKIE: u64 = 0x7000_0000_0000_0000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    Node { mode: AccessMode },
    Dmabuf,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenFile {
    pub(crate) device: u32,
    pub(crate) kind: FileKind,
    pub(crate) tgid: u32,
}

/// One ioctl as a handler sees it.
pub(crate) struct Call<'m> {
    pub(crate) device: u32,
    pub(crate) code: u32,
    /// The argument word: the user address of the argument struct.
    pub(crate) arg: u64,
    pub(crate) tgid: u32,
    /// The calling process's memory, the only way handlers reach `arg` and user buffers.
    pub(crate) mem: &'m dyn UserMemory,
}

/// What an mmap cookie (and a mapping made from it) reaches in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backing {
    /// Device or host memory at a DMA address.
    Memory { addr: u64 },
    /// The BAR0 register file from a BAR0 offset.
    Registers { base: usize },
}

/// A mappable object: what it reaches and how many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Object {
    pub(crate) backing: Backing,
    pub(crate) len: u64,
    /// What the driver's mmap path decides by: a memory chunk of process `pid` (mapped
    /// read-only for any other process), a special resource (mapped read-only when it is a
    /// RESOURCE_ALL entry), or an emulator-only register window.
    pub(crate) kind: ObjectKind,
}

/// How long a chunk lives, which decides who may write through a mapping of it
/// (`reference/mmap-README.md`, "How the device node's mmap decides").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lifespan {
    /// Freed with its process's last file; mapped read-only by any other process.
    Process,
    /// "Chunks with device lifespan (notification-queue rings, datastores, ...) are
    /// writable by every process that maps them"; not freed with the allocating process.
    Device,
}

/// Which of the driver's mmap paths serves an object (`reference/mmap-README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ObjectKind {
    /// A memory chunk allocated by process `pid`.
    Chunk { pid: u32, lifespan: Lifespan },
    /// An entry of the arch's special-resource table.
    Special { read_only: bool },
    /// An emulator-only register window (privileged kernels only).
    EmulatorRegisters,
}

/// One live mapping in the emulated process's address space.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MapRec {
    pub(crate) object: Object,
    pub(crate) len: u64,
    /// The process that made the mapping (GET_VA_PLACEMENT searches the caller's own).
    pub(crate) tgid: u32,
}

/// A memory handle: an allocation in the device model's memory.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Alloc {
    /// DMA address in the model (what an engine addresses).
    pub(crate) addr: u64,
    /// What the driver reports as `pa`: the DMA address for device memory, the host
    /// physical address (the DMA address without the arch's PCIe host base) for host memory.
    pub(crate) pa: u64,
    pub(crate) size: u64,
    pub(crate) kind: RegionKind,
    pub(crate) cookie: u64,
    pub(crate) pid: u32,
    pub(crate) lifespan: Lifespan,
}

impl Alloc {
    pub(crate) fn host(&self) -> bool {
        self.kind == RegionKind::Host
    }

    /// The DMA address of `[offset, offset + len)` inside the allocation (EINVAL outside).
    pub(crate) fn span(&self, offset: u64, len: u64) -> Result<u64, Errno> {
        match offset.checked_add(len) {
            Some(end) if end <= self.size => Ok(self.addr + offset),
            _ => Err(Errno::INVAL),
        }
    }
}

/// A ring a queue was initialised with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RingRec {
    pub(crate) addr: u64,
    pub(crate) size: u32,
}

/// The driver's record of a queue it initialised (the device owns head and tail).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct QueueRec {
    pub(crate) tx: Option<RingRec>,
    pub(crate) rx: Option<RingRec>,
    pub(crate) rxc_handle: u64,
    /// Software completion index (advanced by DMA_ACK_COMPLETED).
    pub(crate) acked: u32,
    /// The process that initialised it (strict isolation's owner).
    pub(crate) owner: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CoreLock {
    pub(crate) readers: u32,
    pub(crate) writer: Option<u32>,
}

#[derive(Debug)]
pub(crate) struct DeviceState {
    pub(crate) config: DeviceConfig,
    pub(crate) facts: Facts,
    /// The hardware.
    pub(crate) emu: Device,
    /// Size of the BAR0 window the model decodes (every UDMA unit inside it).
    pub(crate) bar0_size: u64,
    attached: BTreeMap<u32, usize>,
    pub(crate) allocs: BTreeMap<u64, Alloc>,
    pub(crate) cookies: HashMap<u64, Object>,
    /// Live mappings by synthetic user address.
    pub(crate) maps: BTreeMap<u64, MapRec>,
    /// Freed allocations still mapped: their memory returns to the allocator at the last
    /// unmap, like pages a VMA still references.
    zombies: BTreeSet<u64>,
    next_handle: u64,
    next_cookie: u64,
    pub(crate) semaphores: HashMap<(u32, u32), u32>,
    pub(crate) events: HashMap<(u32, u32), u32>,
    pub(crate) queues: BTreeMap<(u32, u32), QueueRec>,
    pub(crate) locks: HashMap<u32, CoreLock>,
    pub(crate) resets: HashSet<u32>,
    pub(crate) scrubs: HashSet<(u32, u32)>,
    pub(crate) resources: HashMap<(u32, u32, u32), u64>,
    pub(crate) notif_queues: HashMap<(u32, u32, u32), u64>,
    pub(crate) pod_state: u32,
    pub(crate) pod_mode: u32,
    /// H2T queues handed out by H2T_DMA_ALLOC_QUEUES: (engine, queue) -> owner.
    pub(crate) h2t_owned: BTreeMap<(u32, u32), H2tOwner>,
    /// Datastores of ACQUIRE_NEURON_DS: pid -> memory handle.
    pub(crate) datastores: BTreeMap<u32, u64>,
    /// The last state CINIT_SET_STATE set, per core.
    pub(crate) cinit: HashMap<u32, u32>,
    /// The wait slot the next MEM_COPY_ASYNC gets (1 or 2, alternating).
    pub(crate) next_wait_slot: u32,
    /// The profile POWER_PROFILE last set (GET_PERFORMANCE_PROFILE reports it).
    pub(crate) perf_profile: u32,
    /// H2T completion-queue regions: (engine, queue) -> memory handle.
    pub(crate) compl_queues: BTreeMap<(u32, u32), u64>,
    /// The process the current call or mmap is served for (strict isolation's reference).
    pub(crate) caller: u32,
}

/// Who holds an H2T queue from H2T_DMA_ALLOC_QUEUES, and as what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct H2tOwner {
    /// The allocating process.
    pub(crate) tgid: u32,
    /// A copy queue (used by the driver's own copies) rather than a service queue.
    pub(crate) copy: bool,
}

impl DeviceState {
    pub(crate) fn new(config: DeviceConfig, facts: Facts, emu: Device) -> Self {
        let bar0_end = (0..emu.unit_count())
            .filter_map(|u| emu.unit_base(u))
            .max()
            .map_or(0, |b| b + khal::regs::unit::UNIT_SIZE);
        Self {
            config,
            facts,
            emu,
            bar0_size: (bar0_end as u64).next_power_of_two(),
            attached: BTreeMap::new(),
            allocs: BTreeMap::new(),
            cookies: HashMap::new(),
            maps: BTreeMap::new(),
            zombies: BTreeSet::new(),
            next_handle: 0x1000,
            next_cookie: FIRST_COOKIE,
            semaphores: HashMap::new(),
            events: HashMap::new(),
            queues: BTreeMap::new(),
            locks: HashMap::new(),
            resets: HashSet::new(),
            scrubs: HashSet::new(),
            resources: HashMap::new(),
            notif_queues: HashMap::new(),
            pod_state: 0,
            pod_mode: 0,
            h2t_owned: BTreeMap::new(),
            datastores: BTreeMap::new(),
            cinit: HashMap::new(),
            next_wait_slot: 1,
            perf_profile: 0,
            compl_queues: BTreeMap::new(),
            caller: 0,
        }
    }

    pub(crate) fn attach(&mut self, tgid: u32) -> Result<(), Errno> {
        if !self.attached.contains_key(&tgid) && self.attached.len() >= MAX_ATTACHED {
            return Err(Errno::BUSY);
        }
        *self.attached.entry(tgid).or_default() += 1;
        Ok(())
    }

    /// Drops one privileged file of `tgid`; true when it was the process's last on this
    /// device (its slot is then free).
    fn detach(&mut self, tgid: u32) -> bool {
        let Some(n) = self.attached.get_mut(&tgid) else {
            return false;
        };
        *n -= 1;
        if *n == 0 {
            self.attached.remove(&tgid);
            return true;
        }
        false
    }

    /// What the driver releases when a process's last file on the device is flushed
    /// (dma-path.md section 9): its core write locks, its datastore, and its memory chunks
    /// (memory a live mapping still shows returns to the allocator at the last unmap).
    /// Device-lifespan chunks (notification rings) outlive the process. Releasing the
    /// process's datastore frees it, as RELEASE_NEURON_DS does (emulator's choice: the
    /// reference says the datastores are released, not what becomes of their memory).
    pub(crate) fn release_process(&mut self, tgid: u32) {
        for lock in self.locks.values_mut() {
            if lock.writer == Some(tgid) {
                lock.writer = None;
            }
        }
        if let Some(ds) = self.datastores.remove(&tgid) {
            // Listed in the map, so it exists.
            let _ = self.free(ds);
        }
        let owned: Vec<u64> = self
            .allocs
            .iter()
            .filter(|(_, a)| a.pid == tgid && a.lifespan == Lifespan::Process)
            .map(|(h, _)| *h)
            .collect();
        for handle in owned {
            // The handle was just listed, so it exists.
            let _ = self.free(handle);
        }
    }

    /// Memory handles currently allocated.
    pub(crate) fn allocations(&self) -> usize {
        self.allocs.len()
    }

    pub(crate) fn is_attached(&self, tgid: u32) -> bool {
        self.attached.contains_key(&tgid)
    }

    /// Every attached pid, in slot order.
    pub(crate) fn attached_pids(&self) -> impl Iterator<Item = u32> + '_ {
        self.attached.keys().copied()
    }

    /// The pid in attached-process slot 0.
    pub(crate) fn first_attached(&self) -> Option<u32> {
        self.attached.keys().next().copied()
    }

    /// NeuronCores of the device's arch.
    /// Bytes of memory the model has: every HBM channel and the host region.
    pub(crate) fn memory_bytes(&self) -> u64 {
        let m = &self.config.memory;
        let channels = u64::from(self.facts.scalars.dram_channels);
        m.hbm_bytes_per_channel
            .saturating_mul(channels)
            .saturating_add(m.host_bytes)
    }

    pub(crate) fn nc_count(&self) -> u32 {
        self.facts.scalars.nc_per_device.into()
    }

    /// DMA engines (UDMA units) of the device.
    pub(crate) fn engine_count(&self) -> u32 {
        u32::try_from(self.emu.unit_count()).unwrap_or(u32::MAX)
    }

    /// A fresh mmap cookie for `object`.
    pub(crate) fn new_cookie(&mut self, object: Object) -> u64 {
        let cookie = self.next_cookie;
        self.next_cookie += object.len.max(1).next_multiple_of(PAGE);
        self.cookies.insert(cookie, object);
        cookie
    }

    /// Allocates `size` bytes aligned to `align` (0 = page) in the memory `location` names,
    /// zeroed (no stale bytes of an earlier owner reach a new one).
    pub(crate) fn alloc(
        &mut self,
        size: u64,
        align: u64,
        location: MemLocation,
        pid: u32,
        lifespan: Lifespan,
    ) -> Result<u64, Errno> {
        if size == 0 || (align != 0 && !align.is_power_of_two()) {
            return Err(Errno::INVAL);
        }
        let kind = match location {
            MemLocation::Host => RegionKind::Host,
            MemLocation::Device { channel, .. } => RegionKind::Device {
                channel: u8::try_from(channel).map_err(|_| Errno::INVAL)?,
            },
        };
        // The driver rounds every chunk up to a page (what MEM_GET_EXTENDED_INFO reports and
        // what a mapping of the chunk must cover exactly).
        let size = size.checked_next_multiple_of(PAGE).ok_or(Errno::NOMEM)?;
        usize::try_from(size).map_err(|_| Errno::NOMEM)?;
        // `alloc_zeroed` clears only bytes written before: fresh memory costs no memset.
        let addr = self.emu.with_memory(|m| {
            let region = m.find(kind).ok_or(Errno::INVAL)?;
            m.alloc_zeroed(region, size, align.max(PAGE))
                .map_err(|e| match e {
                    AllocError::OutOfMemory { .. } => Errno::NOMEM,
                    _ => Errno::INVAL,
                })
        })?;
        // The driver's mmap offset of a chunk is its address (host chunks: with the host
        // window bits), the model's address of it.
        let cookie = addr;
        self.cookies.insert(
            cookie,
            Object {
                backing: Backing::Memory { addr },
                len: size,
                kind: ObjectKind::Chunk { pid, lifespan },
            },
        );
        let handle = self.next_handle;
        self.next_handle += 1;
        let pa = match kind {
            RegionKind::Host => addr & !self.facts.scalars.pci_host_base,
            RegionKind::Device { .. } => addr,
        };
        self.allocs.insert(
            handle,
            Alloc {
                addr,
                pa,
                size,
                kind,
                cookie,
                pid,
                lifespan,
            },
        );
        Ok(handle)
    }

    /// Frees a handle; the memory goes back to the model's allocator now, or at the last
    /// unmap of a mapping that still shows it.
    pub(crate) fn free(&mut self, handle: u64) -> Result<(), Errno> {
        let a = self.allocs.remove(&handle).ok_or(Errno::INVAL)?;
        self.cookies.remove(&a.cookie);
        if self.is_mapped(a.addr) {
            self.zombies.insert(a.addr);
        } else {
            self.emu.free(a.addr).map_err(|_| Errno::INVAL)?;
        }
        Ok(())
    }

    fn is_mapped(&self, addr: u64) -> bool {
        self.maps
            .values()
            .any(|m| m.object.backing == Backing::Memory { addr })
    }

    /// Drops the mapping at `va`; false when there is none.
    pub(crate) fn unmap(&mut self, va: u64) -> bool {
        let Some(rec) = self.maps.remove(&va) else {
            return false;
        };
        if let Backing::Memory { addr } = rec.object.backing {
            if self.zombies.contains(&addr) && !self.is_mapped(addr) {
                self.zombies.remove(&addr);
                // The block was allocated and is only now released; nothing else holds it.
                let _ = self.emu.free(addr);
            }
        }
        true
    }

    pub(crate) fn mem(&self, handle: u64) -> Result<&Alloc, Errno> {
        self.allocs
            .get(&handle)
            .filter(|a| !self.hidden(a))
            .ok_or(Errno::INVAL)
    }

    /// Whether strict isolation ([`DeviceConfig::isolate`]) hides `a` from the process
    /// being served: another process's process-lifespan chunk then answers as an unknown
    /// handle does.
    pub(crate) fn hidden(&self, a: &Alloc) -> bool {
        self.config.isolate && a.lifespan == Lifespan::Process && a.pid != self.caller
    }

    /// Whether strict isolation hides from the process being served what process `owner`
    /// holds (datastores, H2T queues).
    pub(crate) fn foreign(&self, owner: u32) -> bool {
        self.config.isolate && owner != self.caller
    }

    /// The allocation containing physical address `pa` (as MEM_GET_EXTENDED_INFO reports
    /// it).
    /// The chunk whose `[address, address + size)` holds `addr` (its mmap object).
    pub(crate) fn chunk_at(&self, addr: u64) -> Option<Object> {
        self.allocs
            .values()
            .find(|a| addr >= a.addr && addr - a.addr < a.size && !self.hidden(a))
            .and_then(|a| self.cookies.get(&a.cookie).copied())
    }

    pub(crate) fn by_pa(&self, pa: u64) -> Result<(u64, &Alloc), Errno> {
        // Host chunks are named with or without the host window bits (MEM_GET_EXTENDED_INFO
        // reports them with).
        let window = self.facts.scalars.pci_host_base;
        self.allocs
            .iter()
            .find(|(_, a)| {
                let pa = if a.host() { pa & !window } else { pa };
                pa >= a.pa && pa - a.pa < a.size && !self.hidden(a)
            })
            .map(|(h, a)| (*h, a))
            .ok_or(Errno::INVAL)
    }

    pub(crate) fn check_nc(&self, nc_id: u32) -> Result<(), Errno> {
        if nc_id < self.nc_count() {
            Ok(())
        } else {
            Err(Errno::INVAL)
        }
    }

    /// Reads model memory at a DMA address.
    pub(crate) fn read(&self, addr: u64, len: usize) -> Result<Vec<u8>, Errno> {
        self.emu.read_mem_vec(addr, len).map_err(|_| Errno::FAULT)
    }

    /// Writes model memory at a DMA address.
    pub(crate) fn write(&self, addr: u64, bytes: &[u8]) -> Result<(), Errno> {
        self.emu.write_mem(addr, bytes).map_err(|_| Errno::FAULT)
    }
}

#[derive(Debug)]
pub(crate) struct State {
    /// Where the nodes are served.
    pub(crate) root: std::path::PathBuf,
    pub(crate) devices: Vec<DeviceState>,
    pub(crate) files: HashMap<RawFd, OpenFile>,
    next_fd: RawFd,
    free_fds: Vec<RawFd>,
    next_va: u64,
    pub(crate) opens: usize,
    pub(crate) closes: usize,
    pub(crate) retired: HashSet<u32>,
    /// The driver release the kernel answers as.
    pub(crate) release: ndl_abi::Release,
    pub(crate) printk: crate::printk_log::PrintkLog,
    /// Core-range marks (global core index → owning tgid).
    pub(crate) marks: BTreeMap<u32, u32>,
}

impl State {
    pub(crate) fn new(devices: Vec<DeviceState>) -> Self {
        Self {
            root: std::path::PathBuf::from(ndl_std::DEFAULT_ROOT),
            devices,
            files: HashMap::new(),
            next_fd: FIRST_FD,
            free_fds: Vec::new(),
            next_va: FIRST_VA,
            opens: 0,
            closes: 0,
            retired: HashSet::new(),
            release: ndl_abi::Release::DEFAULT,
            printk: crate::printk_log::PrintkLog::default(),
            marks: BTreeMap::new(),
        }
    }

    pub(crate) fn device(&self, index: u32) -> Option<&DeviceState> {
        self.devices.get(usize::try_from(index).ok()?)
    }

    pub(crate) fn device_mut(&mut self, index: u32) -> Option<&mut DeviceState> {
        self.devices.get_mut(usize::try_from(index).ok()?)
    }

    /// Installs `file` under the lowest free fd number (like Linux, numbers are reused).
    pub(crate) fn new_fd(&mut self, file: OpenFile) -> RawFd {
        self.free_fds.sort_unstable_by(|a, b| b.cmp(a));
        let fd = self.free_fds.pop().unwrap_or_else(|| {
            self.next_fd += 1;
            self.next_fd - 1
        });
        self.files.insert(fd, file);
        self.opens += 1;
        fd
    }

    pub(crate) fn close(&mut self, fd: RawFd) {
        let Some(file) = self.files.remove(&fd) else {
            return;
        };
        self.free_fds.push(fd);
        self.closes += 1;
        match file.kind {
            FileKind::Node { mode } if mode.is_free_access() => {
                // Closing a free-access fd releases the core-range marks of the caller.
                self.marks.retain(|_, owner| *owner != file.tgid);
            }
            FileKind::Node { .. } => {
                if let Some(d) = self.device_mut(file.device) {
                    if d.detach(file.tgid) {
                        d.release_process(file.tgid);
                    }
                }
            }
            FileKind::Dmabuf => {}
        }
    }

    /// The driver's `flush` of `fd` by process `pid`, one close(2) of a descriptor of it.
    /// The opener's per-process cleanup runs when the file is released ([`Self::close`]);
    /// a process that reaches the device only through descriptors it did not open (a
    /// forked child using its parent's fd, never attached) has what it caused to be held
    /// released here, as the driver frees "whatever is left ... when the process's last fd
    /// is flushed" (`dma-path.md`, `mmap-README.md`): its process-lifespan memory and
    /// datastore on that device, its core write locks, and (free-access lane) its core-range
    /// marks. The model cannot count a process's descriptors of one file (the FUSE layer
    /// does not say): a child holding two duplicates is cleaned at the first close.
    pub(crate) fn flush(&mut self, fd: RawFd, pid: u32) {
        let Some(file) = self.files.get(&fd).copied() else {
            return;
        };
        if pid == file.tgid {
            return;
        }
        match file.kind {
            FileKind::Node { mode } if mode.is_free_access() => {
                self.marks.retain(|_, owner| *owner != pid);
            }
            FileKind::Node { .. } => {
                if let Some(d) = self.device_mut(file.device) {
                    if !d.is_attached(pid) {
                        d.release_process(pid);
                    }
                }
            }
            FileKind::Dmabuf => {}
        }
    }

    /// A fresh mapping address for `len` bytes, a guard page after it. ENOMEM when the
    /// page-rounded length does not fit the address space (as mmap(2) answers a length it
    /// cannot place; a length near `u64::MAX` must not wrap the sum).
    pub(crate) fn new_va(&mut self, len: u64) -> Result<u64, Errno> {
        let va = self.next_va;
        self.next_va = len
            .max(1)
            .checked_next_multiple_of(PAGE)
            .and_then(|l| l.checked_add(PAGE))
            .and_then(|l| va.checked_add(l))
            .ok_or(Errno::NOMEM)?;
        Ok(va)
    }

    /// Total cores across devices (the core-range index space).
    pub(crate) fn total_cores(&self) -> u32 {
        self.devices.iter().map(DeviceState::nc_count).sum()
    }

    /// Live mappings across devices.
    pub(crate) fn mappings(&self) -> usize {
        self.devices.iter().map(|d| d.maps.len()).sum()
    }
}
