//! Register access (`ndl-std` family `registers`): BAR_READ and BAR_WRITE as the 2.26.5.0
//! driver answers them (`reference/bar-README.md`). READ_HW_COUNTERS is hardware-only
//! ([`crate::hardware_only`]).
//!
//! Addresses are kernel virtual addresses: DEVICE_INFO's `bar_address[0]` (the kernel's
//! BAR0 mapping; a synthetic value here) plus the register offset. Every entry must lie in
//! `[bar_address[0], bar_address[0] + bar_size[0])`; BAR_WRITE also refuses the offsets the
//! arch's `khal::Arch::is_bar0_write_blocked` names (the driver's
//! `ndma_is_bar0_write_blocked`). Entries are processed in order and a refusal stops the
//! ioctl with EINVAL: entries before it are already written, nothing at or after it is.
//!
//! **Counts are bounded before anything is allocated or walked** (issue 25): BAR_READ, on
//! either bar, refuses more than [`BAR_READ_MAX`] registers with EINVAL, as the driver does
//! on hardware (`bar-README.md`: "on hardware the reader refuses more than 100 registers";
//! the model stands for hardware, so it keeps the cap the driver has there). BAR_WRITE has no
//! cap in the driver besides its kernel allocation ("a huge count fails the kernel allocation
//! with -ENOMEM"): the model answers ENOMEM where that allocation could not be a `kmalloc`
//! ([`BAR_WRITE_MAX`]), and for any allocation the host refuses.

use mmio::Mmio;
use ndl_abi::BarRw;
use ndl_std::Errno;

use super::{Answer, DONE};
use crate::state::{Call, DeviceState};

/// Most registers one BAR_READ reads (`bar-README.md`, the driver's cap on hardware; more
/// is EINVAL).
pub(crate) const BAR_READ_MAX: u32 = 100;

/// Most entries one BAR_WRITE takes: the driver's address array (8 bytes an entry) must fit
/// one `kmalloc`, whose limit (`KMALLOC_MAX_SIZE`) is 4 MiB on x86-64 with 4 KiB pages. The
/// driver's allocator is not named in `reference/`: a bound of the model's own choosing at
/// the point where the driver's allocation would fail (ENOMEM), labelled as such.
pub(crate) const BAR_WRITE_MAX: u32 = (4 << 20) / 8;

/// The BAR0 kernel mapping address DEVICE_INFO reports for device `index` (synthetic: a
/// kernel address user space only passes back).
pub(crate) fn bar0_kva(index: u32) -> u64 {
    0xC000_0000 + u64::from(index) * 0x1_0000_0000
}

/// The BAR0 offset of kernel address `a`, if it lies in the BAR0 mapping.
fn offset(d: &DeviceState, index: u32, a: u64) -> Option<u64> {
    let base = bar0_kva(index);
    (a >= base && a - base < d.bar0_size).then(|| a - base)
}

/// Reads the `count` user addresses of `a`.
fn addresses(call: &Call<'_>, a: &BarRw, count: usize) -> Result<Vec<u64>, Errno> {
    let n = count.checked_mul(8).ok_or(Errno::NOMEM)?;
    let bytes = call.mem.copy_in_bytes(a.address.addr(), n)?;
    Ok(bytes
        .chunks_exact(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            u64::from_ne_bytes(w)
        })
        .collect())
}

/// BAR_READ: bar 0 or 2 (both read through the BAR0 mapping), at most [`BAR_READ_MAX`]
/// registers; every address checked before any read.
pub(crate) fn bar_read(d: &mut DeviceState, call: &Call<'_>, a: &mut BarRw) -> Answer {
    if (a.bar != 0 && a.bar != 2) || a.count > BAR_READ_MAX {
        return Err(Errno::INVAL);
    }
    let count = usize::try_from(a.count).map_err(|_| Errno::INVAL)?;
    // Bar 2 copies in one address and walks `count` entries of it.
    let copied = if a.bar == 2 { count.min(1) } else { count };
    let addrs = addresses(call, a, copied)?;
    let offsets = (0..count)
        .map(|i| {
            let a = addrs
                .get(i)
                .or(addrs.first())
                .copied()
                .ok_or(Errno::INVAL)?;
            offset(d, call.device, a).ok_or(Errno::INVAL)
        })
        .collect::<Result<Vec<u64>, Errno>>()?;
    let mut out = Vec::with_capacity(count.saturating_mul(4));
    for off in offsets {
        let off = usize::try_from(off).map_err(|_| Errno::INVAL)?;
        out.extend_from_slice(&d.emu.read32(off).to_ne_bytes());
    }
    call.mem.write(a.data.addr(), &out)?;
    DONE
}

/// BAR_WRITE: bar 0 only; each entry in range and not write-blocked, else EINVAL with the
/// earlier entries written.
pub(crate) fn bar_write(d: &mut DeviceState, call: &Call<'_>, a: &mut BarRw) -> Answer {
    if a.bar != 0 {
        return Err(Errno::INVAL);
    }
    if a.count > BAR_WRITE_MAX {
        return Err(Errno::NOMEM);
    }
    let count = usize::try_from(a.count).map_err(|_| Errno::INVAL)?;
    let bytes = count.checked_mul(4).ok_or(Errno::NOMEM)?;
    let values = call.mem.copy_in_bytes(a.data.addr(), bytes)?;
    let addrs = addresses(call, a, count)?;
    for (addr, value) in addrs.iter().zip(values.chunks_exact(4)) {
        let off = offset(d, call.device, *addr).ok_or(Errno::INVAL)?;
        if d.facts.scalars.is_bar0_write_blocked(off) {
            return Err(Errno::INVAL);
        }
        let mut w = [0u8; 4];
        w.copy_from_slice(value);
        let off = usize::try_from(off).map_err(|_| Errno::INVAL)?;
        d.emu.write32(off, u32::from_ne_bytes(w));
    }
    DONE
}
