//! Register reads through BAR_READ, the driver's read path (`reference/bar-README.md`):
//! each address is the kernel's BAR0 mapping address (DEVICE_INFO `bar_address[0]`) plus a
//! register offset, inside `[bar_address[0], bar_address[0] + bar_size[0])`, and one call
//! reads at most [`BAR_READ_MAX`] registers. Offsets are checked against the mapping before
//! the call, so a bad one is named here instead of failing a whole call with EINVAL.
//!
//! Nothing here writes: BAR_READ is a plain 32-bit MMIO read per address. Registers whose
//! *read* changes the device (a cause register of a clear-on-read interrupt group, an AXI
//! error status that clears when read) are the callers' to leave out.

use ndl_std::{Device, Kernel};

use crate::device_target::{DeviceFacts, device_error};
use crate::error::{Result, ToolError};

/// Registers one BAR_READ may read: "on hardware the reader refuses more than 100
/// registers with -EINVAL" (`reference/bar-README.md`, BAR_READ).
pub const BAR_READ_MAX: usize = 100;

/// Reads registers of one device by BAR0 offset.
#[derive(Debug)]
pub struct BarReader<'d, 'a, K: Kernel> {
    dev: &'d Device<'a, K>,
    facts: DeviceFacts,
    name: &'d str,
    calls: u64,
}

impl<'d, 'a, K: Kernel> BarReader<'d, 'a, K> {
    /// A reader of `dev` (called `name` in errors) with the mapping `facts` reports.
    pub fn new(dev: &'d Device<'a, K>, facts: DeviceFacts, name: &'d str) -> Self {
        Self {
            dev,
            facts,
            name,
            calls: 0,
        }
    }

    /// The kernel address of BAR0 offset `offset`, if it lies inside the mapping.
    pub fn address(&self, offset: u64) -> Option<u64> {
        (offset < self.facts.bar0_size)
            .then(|| self.facts.bar0_kva.checked_add(offset))
            .flatten()
    }

    /// Reads the register at each BAR0 offset of `offsets`, in calls of at most
    /// [`BAR_READ_MAX`].
    pub fn read(&mut self, offsets: &[u64]) -> Result<Vec<u32>> {
        let mut addresses = Vec::with_capacity(offsets.len());
        for &off in offsets {
            addresses.push(self.address(off).ok_or_else(|| ToolError::Device {
                device: self.name.into(),
                why: format!(
                    "BAR0 offset {off:#x} is outside the BAR0 mapping of {} bytes that \
                     DEVICE_INFO reports, so BAR_READ would refuse it",
                    self.facts.bar0_size
                ),
            })?);
        }
        let mut out = vec![0u32; offsets.len()];
        for (a, d) in addresses
            .chunks(BAR_READ_MAX)
            .zip(out.chunks_mut(BAR_READ_MAX))
        {
            self.dev
                .bar_read(0, a, d)
                .map_err(|e| device_error(self.name, e))?;
            self.calls += 1;
        }
        Ok(out)
    }

    /// Reads one register.
    pub fn read_one(&mut self, offset: u64) -> Result<u32> {
        Ok(self.read(&[offset])?.first().copied().unwrap_or(0))
    }

    /// BAR_READ calls made so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }
}
