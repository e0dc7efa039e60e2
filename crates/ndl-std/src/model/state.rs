//! The model's state: open files, devices, allocations, queues, locks, mappings.

use core::ffi::c_void;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::kernel::{AccessMode, Errno, RawFd};

use super::region::{PAGE, Region};

/// Semaphores per NeuronCore in the model.
pub(crate) const SEMAPHORES: u32 = 32;
/// Events per NeuronCore in the model.
pub(crate) const EVENTS: u32 = 256;
/// DMA engines per device in the model.
pub(crate) const DMA_ENGINES: u32 = 16;
/// Queues per DMA engine in the model.
pub(crate) const DMA_QUEUES: u32 = 16;
/// HBM stacks per device in the model.
pub(crate) const HBM_COUNT: u32 = 4;
/// Largest allocation the model backs with memory.
pub(crate) const MAX_ALLOC: u64 = 64 << 20;
/// Processes that can attach to one device.
pub(crate) const MAX_ATTACHED: usize = 8;
/// First fd number the model hands out (clearly not a real fd of the test process).
const FIRST_FD: RawFd = 1000;

/// What one device of the model reports about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceConfig {
    /// Architecture id (DEVICE_INFO, BASIC_INFO, DRIVER_INFO).
    pub architecture: u32,
    /// Revision.
    pub revision: u32,
    /// PCI domain.
    pub domain: u32,
    /// PCI bus.
    pub bus: u32,
    /// PCI slot.
    pub slot: u8,
    /// PCI function.
    pub func: u8,
    /// NeuronCores on the device.
    pub nc_count: u32,
    /// Host device id (HOST_DEVICE_ID).
    pub host_device_id: u32,
    /// Routing id (HOST_DEVICE_ID_TO_RID_MAP).
    pub routing_id: u32,
    /// BAR0/BAR2 sizes (DEVICE_INFO).
    pub bar_size: [u64; 2],
    /// Logical → physical core order; `None` for an arch without a map (ENOTSUPP).
    pub nc_map: Option<Vec<u32>>,
}

impl DeviceConfig {
    /// Defaults for device `index`: a distinct bus and ids per device, 8 cores, an identity
    /// core map reversed (so a test can tell logical from physical).
    pub fn numbered(index: u32) -> Self {
        Self {
            architecture: 3,
            revision: 1,
            domain: 0,
            bus: 0x10 + index,
            slot: 0,
            func: 0,
            nc_count: 8,
            host_device_id: index,
            routing_id: 0x100 + index,
            bar_size: [1 << 20, 1 << 30],
            nc_map: Some((0..8).rev().collect()),
        }
    }
}

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
pub(crate) struct Call {
    pub(crate) device: u32,
    pub(crate) code: u32,
    pub(crate) arg: *mut c_void,
    pub(crate) tgid: u32,
}

#[derive(Debug)]
pub(crate) struct MappingRec {
    /// Keeps the memory alive while mapped, even after the allocation is freed.
    pub(crate) _region: Arc<Region>,
    pub(crate) len: usize,
    pub(crate) device: u32,
}

#[derive(Debug)]
pub(crate) struct Alloc {
    pub(crate) region: Arc<Region>,
    pub(crate) size: u64,
    pub(crate) host: bool,
    pub(crate) pa: u64,
    pub(crate) cookie: u64,
    pub(crate) pid: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ring {
    pub(crate) handle: u64,
    pub(crate) len: u32,
    pub(crate) head: u32,
    pub(crate) tail: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Queue {
    pub(crate) tx: Ring,
    pub(crate) rx: Ring,
    pub(crate) rxc_handle: u64,
    pub(crate) completed: u32,
    pub(crate) acked: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CoreLock {
    pub(crate) readers: u32,
    pub(crate) writer: Option<u32>,
}

#[derive(Debug)]
pub(crate) struct DeviceState {
    pub(crate) config: DeviceConfig,
    attached: BTreeMap<u32, usize>,
    pub(crate) allocs: BTreeMap<u64, Alloc>,
    pub(crate) cookies: HashMap<u64, Arc<Region>>,
    next_handle: u64,
    next_pa: u64,
    next_cookie: u64,
    pub(crate) semaphores: HashMap<(u32, u32), u32>,
    pub(crate) events: HashMap<(u32, u32), u32>,
    pub(crate) engines: HashMap<u32, u32>,
    pub(crate) queues: BTreeMap<(u32, u32), Queue>,
    pub(crate) locks: HashMap<u32, CoreLock>,
    pub(crate) resets: HashSet<u32>,
    pub(crate) scrubs: HashSet<(u32, u32)>,
    pub(crate) resources: HashMap<(u32, u32, u32), u64>,
    pub(crate) notif_queues: HashMap<(u32, u32, u32), u64>,
    pub(crate) pod_state: u32,
    pub(crate) pod_mode: u32,
}

impl DeviceState {
    fn new(config: DeviceConfig) -> Self {
        Self {
            config,
            attached: BTreeMap::new(),
            allocs: BTreeMap::new(),
            cookies: HashMap::new(),
            next_handle: 0x1000,
            next_pa: 0x10_0000_0000,
            next_cookie: 0x1000_0000,
            semaphores: HashMap::new(),
            events: HashMap::new(),
            engines: HashMap::new(),
            queues: BTreeMap::new(),
            locks: HashMap::new(),
            resets: HashSet::new(),
            scrubs: HashSet::new(),
            resources: HashMap::new(),
            notif_queues: HashMap::new(),
            pod_state: 0,
            pod_mode: 0,
        }
    }

    pub(crate) fn attach(&mut self, tgid: u32) -> Result<(), Errno> {
        if !self.attached.contains_key(&tgid) && self.attached.len() >= MAX_ATTACHED {
            return Err(Errno::BUSY);
        }
        *self.attached.entry(tgid).or_default() += 1;
        Ok(())
    }

    fn detach(&mut self, tgid: u32) {
        if let Some(n) = self.attached.get_mut(&tgid) {
            *n -= 1;
            if *n == 0 {
                self.attached.remove(&tgid);
            }
        }
    }

    pub(crate) fn is_attached(&self, tgid: u32) -> bool {
        self.attached.contains_key(&tgid)
    }

    /// The pid in attached-process slot 0.
    pub(crate) fn first_attached(&self) -> Option<u32> {
        self.attached.keys().next().copied()
    }

    /// A fresh mmap cookie covering `len` bytes of `region`.
    pub(crate) fn new_cookie(&mut self, region: Arc<Region>) -> u64 {
        let cookie = self.next_cookie;
        let pages = region.len().max(1).next_multiple_of(PAGE) as u64;
        self.next_cookie += pages;
        self.cookies.insert(cookie, region);
        cookie
    }

    /// Allocates `size` bytes aligned to `align` (0 = page).
    pub(crate) fn alloc(
        &mut self,
        size: u64,
        align: u64,
        host: bool,
        pid: u32,
    ) -> Result<u64, Errno> {
        if size == 0 || (align != 0 && !align.is_power_of_two()) {
            return Err(Errno::INVAL);
        }
        if size > MAX_ALLOC {
            return Err(Errno::NOMEM);
        }
        let len = usize::try_from(size).map_err(|_| Errno::NOMEM)?;
        let region = Arc::new(Region::new(len)?);
        let pa = self.next_pa.next_multiple_of(align.max(PAGE as u64));
        self.next_pa = pa + size.next_multiple_of(PAGE as u64);
        let cookie = self.new_cookie(Arc::clone(&region));
        let handle = self.next_handle;
        self.next_handle += 1;
        self.allocs.insert(
            handle,
            Alloc {
                region,
                size,
                host,
                pa,
                cookie,
                pid,
            },
        );
        Ok(handle)
    }

    pub(crate) fn free(&mut self, handle: u64) -> Result<(), Errno> {
        let a = self.allocs.remove(&handle).ok_or(Errno::INVAL)?;
        self.cookies.remove(&a.cookie);
        Ok(())
    }

    pub(crate) fn mem(&self, handle: u64) -> Result<&Alloc, Errno> {
        self.allocs.get(&handle).ok_or(Errno::INVAL)
    }

    /// The allocation containing physical address `pa`.
    pub(crate) fn by_pa(&self, pa: u64) -> Result<(u64, &Alloc), Errno> {
        self.allocs
            .iter()
            .find(|(_, a)| pa >= a.pa && pa - a.pa < a.size)
            .map(|(h, a)| (*h, a))
            .ok_or(Errno::INVAL)
    }

    pub(crate) fn check_nc(&self, nc_id: u32) -> Result<(), Errno> {
        if nc_id < self.config.nc_count {
            Ok(())
        } else {
            Err(Errno::INVAL)
        }
    }
}

#[derive(Debug)]
pub(crate) struct State {
    pub(crate) devices: Vec<DeviceState>,
    pub(crate) files: HashMap<RawFd, OpenFile>,
    next_fd: RawFd,
    free_fds: Vec<RawFd>,
    pub(crate) opens: usize,
    pub(crate) closes: usize,
    pub(crate) mappings: HashMap<usize, MappingRec>,
    pub(crate) retired: HashSet<u32>,
    pub(crate) printk: Vec<String>,
    /// Core-range marks (global core index → owning tgid).
    pub(crate) marks: BTreeMap<u32, u32>,
}

impl State {
    pub(crate) fn new(devices: Vec<DeviceConfig>) -> Self {
        Self {
            devices: devices.into_iter().map(DeviceState::new).collect(),
            files: HashMap::new(),
            next_fd: FIRST_FD,
            free_fds: Vec::new(),
            opens: 0,
            closes: 0,
            mappings: HashMap::new(),
            retired: HashSet::new(),
            printk: Vec::new(),
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
                    d.detach(file.tgid);
                }
            }
            FileKind::Dmabuf => {}
        }
    }

    /// Total cores across devices (the core-range index space).
    pub(crate) fn total_cores(&self) -> u32 {
        self.devices.iter().map(|d| d.config.nc_count).sum()
    }
}
