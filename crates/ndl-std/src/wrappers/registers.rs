//! Register and counter access by kernel address: BAR_READ, BAR_WRITE, READ_HW_COUNTERS
//! (device lane).
//!
//! The address arrays hold the kernel virtual addresses the driver checks against the BAR0
//! mapping DEVICE_INFO reports (`bar_address[0]`, `bar_size[0]`); the wrappers take them as
//! slices and check that the address and data slices have the same length before the call.

use zerocopy::FromZeros;

use crate::error::{Error, Result};
use crate::gateway::{Device, ioctl_ptr};
use crate::kernel::Kernel;
use crate::wrappers::types::u32_arg;
use ndl_abi::{BAR_READ, BAR_WRITE, READ_HW_COUNTERS};
use ndl_abi::{BarRw, ReadHwCounters, UserPtr};

/// The slices of a register access: as many data words as addresses, and the count fits.
fn same_len(cmd: &'static str, addresses: usize, data: usize) -> Result<u32> {
    if addresses != data {
        return Err(Error::OutOfRange {
            cmd,
            what: "data words (must equal the address count)",
            value: data as u64,
        });
    }
    u32_arg(cmd, "count", addresses as u64)
}

impl<K: Kernel> Device<'_, K> {
    /// BAR_READ: reads one 32-bit register per address of BAR `bar` (0, or 2 with one
    /// address) into `data`.
    pub fn bar_read(&self, bar: u32, addresses: &[u64], data: &mut [u32]) -> Result<()> {
        let count = same_len(BAR_READ.name(), addresses.len(), data.len())?;
        let mut arg = BarRw::new_zeroed();
        arg.bar = bar;
        arg.address = UserPtr::input_slice(addresses);
        arg.data = UserPtr::output_slice(data);
        arg.count = count;
        // SAFETY: `address` points to `count` readable words of `addresses`, `data` to
        // `count` writable words of `data`; both borrowed across the call.
        unsafe { ioctl_ptr!(self, BAR_READ, &mut arg) }
    }

    /// BAR_WRITE: writes `data[i]` to `addresses[i]` of BAR `bar` (0 only); the driver stops
    /// at the first refused address, with the earlier entries already written.
    pub fn bar_write(&self, bar: u32, addresses: &[u64], data: &[u32]) -> Result<()> {
        let count = same_len(BAR_WRITE.name(), addresses.len(), data.len())?;
        let mut arg = BarRw::new_zeroed();
        arg.bar = bar;
        arg.address = UserPtr::input_slice(addresses);
        arg.data = UserPtr::input_slice(data);
        arg.count = count;
        // SAFETY: both pointers name `count` readable words of borrowed slices; the driver
        // only reads `data` for BAR_WRITE.
        unsafe { ioctl_ptr!(self, BAR_WRITE, &mut arg) }
    }

    /// READ_HW_COUNTERS: reads one 32-bit counter per address into `data`.
    pub fn read_hw_counters(&self, addresses: &[u64], data: &mut [u32]) -> Result<()> {
        let count = same_len(READ_HW_COUNTERS.name(), addresses.len(), data.len())?;
        let mut arg = ReadHwCounters::new_zeroed();
        arg.address = UserPtr::input_slice(addresses);
        arg.data = UserPtr::output_slice(data);
        arg.count = count;
        // SAFETY: as in `bar_read`.
        unsafe { ioctl_ptr!(self, READ_HW_COUNTERS, &mut arg) }
    }
}
