//! Replay: a trace's calls issued again, in file order, against the emulated kernel
//! (`ndl-emu`), each checked against what the trace recorded — the return value, the errno,
//! and every output byte the recorder kept (the argument struct after the call and the
//! buffers the driver writes).
//!
//! * **Memory.** The replayed process's memory is an image of what the trace kept, at the
//!   addresses the trace recorded: the argument struct and the input buffers as they were
//!   before the call, output buffers zeroed, so the emulated driver follows the same
//!   pointers. A buffer the recorder capped is zero past its kept bytes; such a call is
//!   counted as *inexact* (its outputs, and later ones, may differ for that reason), and only
//!   the kept bytes of outputs are compared.
//! * **Remapping.** Descriptors map to the emulated kernel's own; values the driver chooses
//!   (memory handles, mmap cookies, reset request ids, wait handles, dma-buf fds:
//!   `tables/identifiers.tsv`) are learned where the replayed driver writes them and given
//!   back wherever the trace later passes the recorded value; addresses inside a traced
//!   mapping move with it. A recorded identifier that comes back as a different value than
//!   the one learned for it is a divergence.
//! * **Processes.** Each call is made as the recorded process (its pid), so attach checks,
//!   chunk ownership and per-process cleanup happen as they did.
//!
//! Device addresses are not remapped: a device address written into a descriptor or
//! reported by MEM_GET_EXTENDED_INFO replays exactly when the emulated kernel allocates as the
//! recorded one did (a trace recorded from `neuron-tool serve` on a fresh model, replayed on
//! a model of the same memory size), and differs otherwise — replay then says so.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use khal::Generation;
use ndl_abi::{Abi, StructLayout};
use ndl_emu::{DeviceConfig, EmulatedKernel, EmulatedRegion, UserMemory};
use ndl_std::{AccessMode, Errno, Kernel, MappedRegion, RawFd};

use crate::capture::argument;
use crate::ctype::{self, CType};
use crate::decode::command_name;
use crate::errno;
use crate::event::{Buffer, Call, Common, Event, Ioctl};
use crate::ids::{self, Kind, Loc};

/// Largest buffer replay lays out (a recorded length above it is served only up to it).
pub const MAX_IMAGE_BUFFER: u64 = 1 << 28;
/// Most devices replay builds (the tool's `serve` limit).
pub const MAX_DEVICES: u32 = 64;

/// How to build the emulated kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Chip generation of every device.
    pub generation: Generation,
    /// Devices (`neuron0` ..).
    pub devices: u32,
    /// Bytes per HBM channel and of host memory, per device (`neuron-tool serve --memory`).
    pub memory: u64,
}

/// One call whose replay differs from the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The event number.
    pub event: u64,
    /// The command (or call).
    pub command: String,
    /// What differs.
    pub what: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "event {} {}: {}", self.event, self.command, self.what)
    }
}

/// The emulated kernel could not be built.
#[derive(Debug, thiserror::Error)]
#[error("cannot build the emulated kernel: {0}")]
pub struct BuildError(#[from] ndl_emu::BuildError);

/// The user memory of one replayed call: the kept bytes at their recorded addresses.
#[derive(Debug, Default)]
struct Image {
    regions: RefCell<BTreeMap<u64, Vec<u8>>>,
}

impl Image {
    /// Lays `bytes` out at `addr`, merging with regions it touches (`bytes` win).
    fn place(&self, addr: u64, bytes: &[u8]) {
        let Some(end) = addr.checked_add(bytes.len() as u64) else {
            return;
        };
        if bytes.is_empty() {
            return;
        }
        let mut regions = self.regions.borrow_mut();
        let touching: Vec<u64> = regions
            .range(..=end)
            .filter(|(s, b)| s.saturating_add(b.len() as u64) >= addr)
            .map(|(s, _)| *s)
            .collect();
        let mut start = addr;
        let mut stop = end;
        let mut old = Vec::new();
        for s in touching {
            if let Some(b) = regions.remove(&s) {
                start = start.min(s);
                stop = stop.max(s.saturating_add(b.len() as u64));
                old.push((s, b));
            }
        }
        let Ok(len) = usize::try_from(stop - start) else {
            return;
        };
        let mut merged = vec![0u8; len];
        let mut put = |at: u64, b: &[u8]| {
            let off = usize::try_from(at - start).unwrap_or(usize::MAX);
            if let Some(dst) = merged.get_mut(off..off.saturating_add(b.len())) {
                dst.copy_from_slice(b);
            }
        };
        for (s, b) in &old {
            put(*s, b);
        }
        put(addr, bytes);
        regions.insert(start, merged);
    }

    fn with<R>(&self, addr: u64, len: usize, f: impl FnOnce(&mut [u8]) -> R) -> Option<R> {
        let mut regions = self.regions.borrow_mut();
        let (start, buf) = regions.range_mut(..=addr).next_back()?;
        let off = usize::try_from(addr - *start).ok()?;
        let slice = buf.get_mut(off..off.checked_add(len)?)?;
        Some(f(slice))
    }

    fn value(&self, addr: u64, size: usize) -> Option<u64> {
        self.with(addr, size, |b| {
            let mut v = [0u8; 8];
            if let Some(d) = v.get_mut(..b.len()) {
                d.copy_from_slice(b);
            }
            u64::from_le_bytes(v)
        })
    }

    fn set(&self, addr: u64, size: usize, value: u64) {
        self.with(addr, size, |b| {
            if let Some(src) = value.to_le_bytes().get(..b.len()) {
                b.copy_from_slice(src);
            }
        });
    }

    fn bytes(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        self.with(addr, len, |b| b.to_vec())
    }
}

impl UserMemory for Image {
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
        if dst.is_empty() {
            return Ok(());
        }
        self.with(addr, dst.len(), |b| dst.copy_from_slice(b))
            .ok_or(Errno::FAULT)
    }
    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno> {
        if src.is_empty() {
            return Ok(());
        }
        self.with(addr, src.len(), |b| b.copy_from_slice(src))
            .ok_or(Errno::FAULT)
    }
}

/// The access mode the driver sees for open flags (bit 0 set: free-access lane, as
/// `ndl-fuse` reads it).
fn access_mode(flags: u32) -> AccessMode {
    match flags & 3 {
        0 => AccessMode::ReadOnly,
        2 => AccessMode::ReadWrite,
        _ => AccessMode::WriteOnly,
    }
}

fn result_text(ret: i64, errno: i32) -> String {
    match errno {
        0 => format!("{ret}"),
        e => format!(
            "{ret} {}",
            errno::name(e).map_or_else(|| format!("errno {e}"), str::to_owned)
        ),
    }
}

fn errno_of(e: Errno) -> i32 {
    e.raw_os_error()
}

/// A call recorded and replayed as failing: a divergence when the errnos differ.
fn errno_differs(ret: i64, recorded: i32, replayed: Errno) -> Vec<String> {
    let replayed = errno_of(replayed);
    if replayed == recorded {
        return Vec::new();
    }
    vec![format!(
        "recorded {}, replayed {}",
        result_text(ret, recorded),
        result_text(-1, replayed)
    )]
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The path of the field at byte `offset` of `layout` (nested structs and arrays followed).
fn field_at(abi: &'static Abi, layout: &'static StructLayout, offset: usize) -> String {
    let Some(f) = layout
        .fields
        .iter()
        .find(|f| f.offset <= offset && offset < f.offset + f.size.max(1))
    else {
        return format!("byte {offset}");
    };
    let inner = offset - f.offset;
    if let CType::Struct(tag) = ctype::classify(abi, f.c_type) {
        if let Some(s) = ctype::struct_of(abi, layout, f.name, tag) {
            let size = s.size.max(1);
            let sub = field_at(abi, s, inner % size);
            return if f.size > s.size {
                format!("{}[{}].{sub}", f.name, inner / size)
            } else {
                format!("{}.{sub}", f.name)
            };
        }
    }
    f.name.trim_start_matches("r#").to_owned()
}

/// Replays events one at a time; see the module docs.
#[derive(Debug)]
pub struct Replayer {
    abi: &'static Abi,
    kernel: EmulatedKernel,
    fds: HashMap<(u32, i64), RawFd>,
    ids: HashMap<(Kind, u64), u64>,
    taken: HashMap<(Kind, u64), u64>,
    vas: Vec<(u64, u64, u64)>,
    regions: HashMap<(u32, u64), EmulatedRegion>,
    replayed: u64,
    inexact: u64,
}

impl Replayer {
    /// An emulated kernel as `options` say, decoding arguments by `abi`.
    pub fn new(abi: &'static Abi, options: &Options) -> Result<Self, BuildError> {
        let devices = (0..options.devices.clamp(1, MAX_DEVICES))
            .map(|i| {
                let mut c = DeviceConfig::numbered(options.generation, i);
                c.memory.hbm_bytes_per_channel = options.memory;
                c.memory.host_bytes = options.memory;
                c
            })
            .collect();
        Ok(Self {
            abi,
            kernel: EmulatedKernel::with_devices(devices)?,
            fds: HashMap::new(),
            ids: HashMap::new(),
            taken: HashMap::new(),
            vas: Vec::new(),
            regions: HashMap::new(),
            replayed: 0,
            inexact: 0,
        })
    }

    /// The emulated kernel (to inspect it after a replay).
    pub fn kernel(&self) -> &EmulatedKernel {
        &self.kernel
    }

    /// Calls issued so far.
    pub fn replayed(&self) -> u64 {
        self.replayed
    }

    /// Calls whose input buffers the recorder had capped: their replay used zeros past the
    /// kept bytes.
    pub fn inexact(&self) -> u64 {
        self.inexact
    }

    /// Replays event `n`; returns how it diverged (empty: it did not).
    pub fn event(&mut self, n: u64, e: &Event<'_>) -> Vec<Divergence> {
        let c = &e.common;
        let (command, found) = match &e.call {
            Call::End { .. } => return Vec::new(),
            Call::Open { path, .. } => ("open".to_owned(), self.open(c, path)),
            Call::Close => {
                self.close(c);
                return Vec::new();
            }
            Call::Ioctl(io) => (command_name(self.abi, io.request), self.ioctl_call(c, io)),
            Call::Mmap { len, offset, .. } => ("mmap".to_owned(), self.mmap(c, *len, *offset)),
            Call::Munmap { addr, .. } => ("munmap".to_owned(), self.munmap(c, *addr)),
        };
        found
            .into_iter()
            .map(|what| Divergence {
                event: n,
                command: command.clone(),
                what,
            })
            .collect()
    }

    /// An open(2) of the node the event names, as the recorded process, with its flags.
    fn open(&mut self, c: &Common, path: &[u8]) -> Vec<String> {
        let device = c.device.or_else(|| {
            let name = path.rsplit(|&b| b == b'/').next().unwrap_or_default();
            crate::interpose::device_index(name)
        });
        let Some(device) = device else {
            return vec!["names no neuronN node".into()];
        };
        self.replayed += 1;
        let node = PathBuf::from(format!("{}/neuron{device}", ndl_std::DEFAULT_ROOT));
        let r = self.kernel.open_as(&node, access_mode(c.open_flags), c.pid);
        let what = match (r, c.errno) {
            (Ok(fd), 0) => {
                self.fds.insert((c.pid, c.fd), fd);
                return Vec::new();
            }
            (Ok(fd), _) => {
                self.kernel.release(fd);
                format!(
                    "recorded {}, replayed a new fd",
                    result_text(c.ret, c.errno)
                )
            }
            (Err(err), 0) => format!(
                "recorded fd {}, replayed {}",
                c.fd,
                result_text(-1, errno_of(err))
            ),
            (Err(err), recorded) => return errno_differs(c.ret, recorded, err),
        };
        vec![what]
    }

    /// A close(2): the descriptor's file released. A second FLUSH of a shared open (a dup'ed
    /// fd) finds nothing: the first closed the file.
    fn close(&mut self, c: &Common) {
        if let Some(fd) = self.fds.remove(&(c.pid, c.fd)) {
            self.replayed += 1;
            self.kernel.release(fd);
        }
    }

    /// The replayed descriptor of the event's recorded one, or why the call is not replayed.
    fn fd_of(&self, c: &Common) -> Result<RawFd, String> {
        self.fds
            .get(&(c.pid, c.fd))
            .copied()
            .ok_or_else(|| format!("fd {} was not opened in the trace: not replayed", c.fd))
    }

    /// An ioctl(2) on the replayed descriptor (see [`Self::ioctl`]).
    fn ioctl_call(&mut self, c: &Common, io: &Ioctl<'_>) -> Vec<String> {
        let fd = match self.fd_of(c) {
            Ok(fd) => fd,
            Err(why) => return vec![why],
        };
        self.replayed += 1;
        self.ioctl(fd, c.pid, io, (c.ret, c.errno))
    }

    /// An mmap(2) at the replayed cookie; the mapping is kept under its recorded address so
    /// later pointers into it and its munmap follow it.
    fn mmap(&mut self, c: &Common, len: u64, offset: u64) -> Vec<String> {
        let fd = match self.fd_of(c) {
            Ok(fd) => fd,
            Err(why) => return vec![why],
        };
        self.replayed += 1;
        let offset = self
            .ids
            .get(&(Kind::Cookie, offset))
            .copied()
            .unwrap_or(offset);
        let r = usize::try_from(len)
            .map_err(|_| Errno::INVAL)
            .and_then(|len| self.kernel.mmap_as(fd, len, offset, c.pid));
        let what = match (r, c.errno) {
            (Ok(region), 0) => {
                let recorded_addr = u64::from_ne_bytes(c.ret.to_ne_bytes());
                self.vas.push((recorded_addr, len, region.addr()));
                self.regions.insert((c.pid, recorded_addr), region);
                return Vec::new();
            }
            (Ok(_), recorded) => {
                format!("recorded {}, replayed a mapping", result_text(-1, recorded))
            }
            (Err(err), 0) => format!(
                "recorded a mapping, replayed {}",
                result_text(-1, errno_of(err))
            ),
            (Err(err), recorded) => return errno_differs(-1, recorded, err),
        };
        vec![what]
    }

    /// An munmap(2) of a mapping replay made.
    fn munmap(&mut self, c: &Common, addr: u64) -> Vec<String> {
        let Some(region) = self.regions.remove(&(c.pid, addr)) else {
            return Vec::new();
        };
        self.replayed += 1;
        self.vas.retain(|&(a, _, _)| a != addr);
        match self.kernel.munmap(region) {
            Err(err) if c.errno == 0 => {
                vec![format!("replayed {}", result_text(-1, errno_of(err)))]
            }
            _ => Vec::new(),
        }
    }

    fn translate(&self, kind: Kind, recorded: u64) -> Option<u64> {
        if kind == Kind::Va {
            return self
                .vas
                .iter()
                .find(|&&(a, l, _)| a <= recorded && recorded < a.saturating_add(l))
                .map(|&(a, _, r)| r + (recorded - a));
        }
        self.ids.get(&(kind, recorded)).copied()
    }

    /// Lays out memory, remaps inputs, issues the call, compares; returns the differences.
    fn ioctl(&mut self, fd: RawFd, pid: u32, io: &Ioctl<'_>, recorded: (i64, i32)) -> Vec<String> {
        let mut out = Vec::new();
        let image = Image::default();
        if let Some(b) = io.before {
            image.place(io.arg, b);
        } else if let Some(a) = io.after {
            image.place(io.arg, &vec![0; a.len()]);
        }
        let mut capped = false;
        for b in &io.buffers {
            let kept = b.captured();
            let len = usize::try_from(b.len.min(MAX_IMAGE_BUFFER))
                .unwrap_or(kept)
                .max(kept);
            let mut bytes = vec![0u8; len];
            if let Some(before) = b.before {
                bytes[..kept].copy_from_slice(before);
                capped |= (kept as u64) < b.len;
            }
            image.place(b.addr, &bytes);
        }
        if capped {
            self.inexact += 1;
        }
        let locs = ids::locate(self.abi, io);
        for loc in &locs {
            if let Some(r) = image.value(loc.addr, loc.size).filter(|&r| r != 0) {
                if let Some(p) = self.translate(loc.kind, r) {
                    image.set(loc.addr, loc.size, p);
                }
            }
        }
        let r = self.kernel.ioctl_from(fd, io.request, io.arg, &image, pid);
        let replayed = match r {
            Ok(v) => (i64::from(v), 0),
            Err(e) => (-1, errno_of(e)),
        };
        if replayed != recorded {
            out.push(format!(
                "recorded {}, replayed {}",
                result_text(recorded.0, recorded.1),
                result_text(replayed.0, replayed.1)
            ));
        }
        for loc in &locs {
            self.learn(io, &image, loc, &mut out);
        }
        self.compare_argument(&image, io, &mut out);
        for b in &io.buffers {
            compare_buffer(&image, b, &mut out);
        }
        out
    }

    /// The argument struct after the replayed call against the recorded one: the first byte
    /// that differs, named by the field it falls in.
    fn compare_argument(&self, image: &Image, io: &Ioctl<'_>, out: &mut Vec<String>) {
        let Some(want) = io.after else {
            return;
        };
        let Some(got) = image.bytes(io.arg, want.len()) else {
            out.push("the argument struct is gone".into());
            return;
        };
        let Some(at) = want.iter().zip(&got).position(|(a, b)| a != b) else {
            return;
        };
        let (_, layout) = argument(self.abi, io.request);
        let field = layout.map_or_else(|| format!("byte {at}"), |l| field_at(self.abi, l, at));
        out.push(format!(
            "argument field {field} (byte {at}): recorded {}, replayed {}",
            hex(&want[at..(at + 8).min(want.len())]),
            hex(&got[at..(at + 8).min(got.len())])
        ));
    }

    /// An identifier the call left at `loc`: learn (recorded -> replayed), or check it against
    /// what was learned; a consistent one is written back as recorded so the byte compare
    /// passes it.
    fn learn(&mut self, io: &Ioctl<'_>, image: &Image, loc: &Loc, out: &mut Vec<String>) {
        let Some(r) = recorded_value(io, loc) else {
            return;
        };
        let Some(p) = image.value(loc.addr, loc.size) else {
            return;
        };
        if r == p || r == 0 || p == 0 {
            return;
        }
        let key = (loc.kind, r);
        let consistent = match self.translate(loc.kind, r) {
            Some(q) => q == p,
            None if loc.kind == Kind::Va => false,
            None if self.taken.contains_key(&(loc.kind, p)) => false,
            None => {
                self.ids.insert(key, p);
                self.taken.insert((loc.kind, p), r);
                true
            }
        };
        if consistent {
            image.set(loc.addr, loc.size, r);
        } else {
            out.push(format!(
                "{} {}: recorded {r:#x}, replayed {p:#x}, which does not match the {} replay gave for {r:#x}",
                loc.kind.as_str(),
                loc.path,
                loc.kind.as_str()
            ));
            // Reported once here; the byte compare would repeat it.
            image.set(loc.addr, loc.size, r);
        }
    }
}

/// The value the trace recorded after the call at `loc` (in the argument or a buffer).
fn recorded_value(io: &Ioctl<'_>, loc: &Loc) -> Option<u64> {
    let pick = |base: u64, bytes: Option<&[u8]>| -> Option<u64> {
        let bytes = bytes?;
        let off = usize::try_from(loc.addr.checked_sub(base)?).ok()?;
        let raw = bytes.get(off..off.checked_add(loc.size)?)?;
        let mut v = [0u8; 8];
        v.get_mut(..raw.len())?.copy_from_slice(raw);
        Some(u64::from_le_bytes(v))
    };
    pick(io.arg, io.after).or_else(|| io.buffers.iter().find_map(|b| pick(b.addr, b.after)))
}

fn compare_buffer(image: &Image, b: &Buffer<'_>, out: &mut Vec<String>) {
    let Some(want) = b.after else {
        return;
    };
    match image.bytes(b.addr, want.len()) {
        Some(got) => {
            if let Some(at) = want.iter().zip(&got).position(|(x, y)| x != y) {
                out.push(format!(
                    "buffer {} byte {at}: recorded {}, replayed {}",
                    b.label,
                    hex(&want[at..(at + 8).min(want.len())]),
                    hex(&got[at..(at + 8).min(got.len())])
                ));
            }
        }
        None => out.push(format!("buffer {} is gone", b.label)),
    }
}

/// What a first pass over a trace tells replay: how many devices it uses and, where a
/// DEVICE_INFO-like answer says, their generation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// One more than the highest device index an event names.
    pub devices: u32,
    /// The `architecture` a DEVICE_INFO, DEVICE_BASIC_INFO or DRIVER_INFO call returned.
    pub generation: Option<u8>,
}

impl Scan {
    /// Takes event `e` into account.
    pub fn add(&mut self, abi: &'static Abi, e: &Event<'_>) {
        if let Some(d) = e.common.device {
            self.devices = self.devices.max(d.saturating_add(1)).min(MAX_DEVICES);
        }
        let Call::Ioctl(io) = &e.call else { return };
        if self.generation.is_some() || e.common.errno != 0 {
            return;
        }
        let (_, Some(layout)) = argument(abi, io.request) else {
            return;
        };
        if !matches!(
            layout.c_name,
            "neuron_ioctl_device_info"
                | "neuron_ioctl_device_basic_info"
                | "neuron_ioctl_device_driver_info"
        ) {
            return;
        }
        self.generation = io
            .after
            .and_then(|a| crate::capture::field_value(layout, a, "architecture"))
            .and_then(|v| u8::try_from(v).ok())
            .filter(|v| (2..=4).contains(v));
    }
}
