//! A mapping of the emulated kernel: a window into the device model, not host memory.

use std::sync::Weak;

use mmio::{BUS_ERROR_READ, Mmio};
use neuron_emu::Device;

use super::Inner;
use super::state::Backing;
use ndl_std::{Errno, MappedRegion};

/// What [`EmulatedKernel::mmap`](ndl_std::Kernel::mmap) hands out: `len` bytes of the device
/// model from a BAR0 offset (registers) or a DMA address (memory).
///
/// Every access goes through the model's lock, so a register write reaches the engine as it
/// happens (a doorbell write here rings the doorbell) and the engine thread of a background
/// device never races with it, which plain memory standing in for the mapping could not
/// give. Register accesses must be 4-byte aligned; memory takes any byte range. Outside the
/// window, reads return [`BUS_ERROR_READ`] and writes are dropped, as on a mapped BAR.
#[derive(Debug)]
pub struct EmulatedRegion {
    pub(super) device: Device,
    /// Writes are dropped (and `write_bytes` refused with EACCES): the driver maps another
    /// process's chunk and RESOURCE_ALL entries read-only, where a write would fault.
    pub(super) read_only: bool,
    pub(super) backing: Backing,
    pub(super) len: usize,
    pub(super) va: u64,
    pub(super) index: u32,
    pub(super) kernel: Weak<Inner>,
}

impl EmulatedRegion {
    /// The model address of byte `offset` for a `len`-byte access inside the window.
    fn at(&self, offset: usize, len: usize) -> Option<u64> {
        let end = offset.checked_add(len)?;
        if end > self.len {
            return None;
        }
        let off = u64::try_from(offset).ok()?;
        match self.backing {
            Backing::Memory { addr } => addr.checked_add(off),
            Backing::Registers { base } => u64::try_from(base).ok()?.checked_add(off),
        }
    }

    /// The BAR0 offset of an aligned register access, for register regions.
    fn reg(&self, offset: usize) -> Option<usize> {
        if offset % 4 != 0 {
            return None;
        }
        usize::try_from(self.at(offset, 4)?).ok()
    }

    /// Whether the driver would have mapped this read-only (another process's chunk, a
    /// RESOURCE_ALL special resource): writes through it are dropped.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The device index this region belongs to.
    pub fn device_index(&self) -> u32 {
        self.index
    }
}

impl Mmio for EmulatedRegion {
    fn read32(&self, offset: usize) -> u32 {
        match self.backing {
            Backing::Registers { .. } => self
                .reg(offset)
                .map_or(BUS_ERROR_READ, |off| self.device.read32(off)),
            Backing::Memory { .. } => {
                let mut b = [0u8; 4];
                match self.at(offset, 4) {
                    Some(addr) if offset % 4 == 0 && self.device.read_mem(addr, &mut b).is_ok() => {
                        u32::from_le_bytes(b)
                    }
                    _ => BUS_ERROR_READ,
                }
            }
        }
    }

    fn write32(&self, offset: usize, value: u32) {
        if self.read_only {
            return;
        }
        match self.backing {
            Backing::Registers { .. } => {
                if let Some(off) = self.reg(offset) {
                    self.device.write32(off, value);
                }
            }
            Backing::Memory { .. } => {
                if let Some(addr) = self.at(offset, 4).filter(|_| offset % 4 == 0) {
                    // Inside the window means inside the allocation: it cannot fail.
                    let _ = self.device.write_mem(addr, &value.to_le_bytes());
                }
            }
        }
    }
}

impl MappedRegion for EmulatedRegion {
    fn len(&self) -> usize {
        self.len
    }

    fn addr(&self) -> u64 {
        self.va
    }

    fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> Result<(), Errno> {
        let addr = self.at(offset, dst.len()).ok_or(Errno::FAULT)?;
        match self.backing {
            Backing::Memory { .. } => self.device.read_mem(addr, dst).map_err(|_| Errno::FAULT),
            Backing::Registers { .. } => {
                if offset % 4 != 0 || dst.len() % 4 != 0 {
                    return Err(Errno::INVAL);
                }
                for (i, chunk) in dst.chunks_exact_mut(4).enumerate() {
                    chunk.copy_from_slice(&self.read32(offset + 4 * i).to_le_bytes());
                }
                Ok(())
            }
        }
    }

    fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<(), Errno> {
        if self.read_only {
            return Err(Errno::ACCESS);
        }
        let addr = self.at(offset, src.len()).ok_or(Errno::FAULT)?;
        match self.backing {
            Backing::Memory { .. } => self.device.write_mem(addr, src).map_err(|_| Errno::FAULT),
            Backing::Registers { .. } => {
                if offset % 4 != 0 || src.len() % 4 != 0 {
                    return Err(Errno::INVAL);
                }
                for (i, chunk) in src.chunks_exact(4).enumerate() {
                    let mut w = [0u8; 4];
                    w.copy_from_slice(chunk);
                    self.write32(offset + 4 * i, u32::from_le_bytes(w));
                }
                Ok(())
            }
        }
    }
}

impl Drop for EmulatedRegion {
    fn drop(&mut self) {
        if let Some(inner) = self.kernel.upgrade() {
            inner.unmap(self.index, self.va);
        }
    }
}
