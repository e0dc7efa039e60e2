//! What must hold after every program, once each of its processes has gone (issue 25, rule
//! 2: "what a process causes to be held is released when its last fd goes, or is bounded";
//! the driver's teardown, `reference/dma-path.md` section 9: at a process's last fd it
//! releases core locks and datastores, frees the process's chunks and drops its mmap
//! records):
//!
//! * no fd is open, every open was closed, and no mapping is left;
//! * no memory handle and no byte of device memory is held, except the device-lifespan
//!   notification rings the driver keeps by design (at most one per successful
//!   NOTIFICATIONS_INIT, and then the byte count is not checked);
//! * every attach slot is free: 16 new processes can attach to each device (dma-path.md
//!   step 0: "one of 16 per-device slots (-EBUSY when none is free)");
//! * the kernel still answers a new client (COMPATIBLE_VERSION on a free-access fd).
//!
//! A process goes as a process exit does: its mappings are dropped and every fd it holds is
//! closed, including dma-buf fds the program never saw as numbers; a process that called
//! through a file it did not open (a forked child) holds a descriptor of it too, and its
//! close is a FLUSH by that process before the file's release. The order is the
//! setup's: mappings first, or files first so freed chunks still mapped take the deferred
//! path.

use ndl_abi::COMPATIBLE_VERSION;
use ndl_emu::EmulatedKernel;
use ndl_std::AccessMode;

use crate::memory::{ByteMemory, USER_BASE};
use crate::run::{Run, allocated, node};

/// Attach slots per device (`reference/dma-path.md` step 0).
pub const ATTACH_SLOTS: u32 = 16;
/// First pid of the processes that probe the kernel after a program (none of the
/// program's: those are `PID_BASE..PID_BASE + PROCESSES`).
pub const PROBE_PID_BASE: u32 = 9000;

/// A broken invariant, in one sentence.
pub type Violation = String;

impl Run {
    /// Every process exits; then the invariants of the module docs are checked.
    pub fn finish(mut self) -> Result<(), Violation> {
        if self.setup.unmap_first {
            self.drop_maps();
            self.close_files();
        } else {
            self.close_files();
            self.drop_maps();
        }
        let k = &self.kernel;
        if k.open_fds() != 0 || k.opens() != k.closes() {
            return Err(format!(
                "{} fds still open after every process exited ({} opens, {} closes)",
                k.open_fds(),
                k.opens(),
                k.closes()
            ));
        }
        if k.mappings() != 0 {
            return Err(format!("{} mappings left after every unmap", k.mappings()));
        }
        for (device, kept) in (0u32..).zip(&self.device_lifespan) {
            self.memory_released(device, *kept)?;
            attach_slots_free(k, device)?;
        }
        new_client_answered(k)
    }

    fn drop_maps(&mut self) {
        // Dropping a region unmaps it, as the exit of its process does.
        self.maps.clear();
    }

    fn close_files(&mut self) {
        let files: Vec<_> = self.files.drain(..).flatten().collect();
        for file in files {
            self.close_file(file);
        }
        // What the program never held as a number (dma-buf fds): the kernel numbers fds
        // from its first upward, reusing the lowest free, so all lie below first + opens.
        if let Some(first) = self.lowest_fd {
            let opens = i32::try_from(self.kernel.opens()).unwrap_or(i32::MAX);
            for fd in first..first.saturating_add(opens) {
                self.kernel.release(fd);
            }
        }
    }

    fn memory_released(&self, device: u32, kept: usize) -> Result<(), Violation> {
        let k = &self.kernel;
        let handles = k.allocations(device);
        if handles > kept {
            return Err(format!(
                "device {device}: {handles} memory handles held after every process \
                 exited ({kept} device-lifespan notification rings allowed)"
            ));
        }
        let now = allocated(k, device);
        let base = &self.baseline[device as usize];
        if kept == 0 && now != *base {
            return Err(format!(
                "device {device}: bytes allocated per region {now:?} after every process \
                 exited, {base:?} when the kernel was built"
            ));
        }
        Ok(())
    }
}

/// [`ATTACH_SLOTS`] new processes attach to `device`, then leave.
fn attach_slots_free(k: &EmulatedKernel, device: u32) -> Result<(), Violation> {
    let mut fds = Vec::new();
    let mut refused = None;
    for i in 0..ATTACH_SLOTS {
        match k.open_as(&node(device), AccessMode::ReadOnly, PROBE_PID_BASE + i) {
            Ok(fd) => fds.push(fd),
            Err(e) => {
                refused = Some((i, e));
                break;
            }
        }
    }
    for fd in fds {
        k.release(fd);
    }
    match refused {
        Some((i, e)) => Err(format!(
            "device {device}: new process {i} could not attach ({e}) after every process \
             exited: an attach slot is still held"
        )),
        None => Ok(()),
    }
}

/// A new process opens the free-access lane and reads the compatible-version window.
fn new_client_answered(k: &EmulatedKernel) -> Result<(), Violation> {
    let pid = PROBE_PID_BASE + ATTACH_SLOTS;
    let fd = k
        .open_as(&node(0), AccessMode::WriteOnly, pid)
        .map_err(|e| format!("a new client cannot open the device: {e}"))?;
    let mem = ByteMemory::default();
    let r = k.ioctl_from(fd, COMPATIBLE_VERSION.code(), USER_BASE, &mem, pid);
    k.release(fd);
    match (r, k.open_fds()) {
        (Ok(0), 0) => Ok(()),
        (r, open) => Err(format!(
            "a new client's COMPATIBLE_VERSION answered {r:?} ({open} fds open after it)"
        )),
    }
}
