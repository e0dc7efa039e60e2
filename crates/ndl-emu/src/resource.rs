//! The resources RESOURCE_MMAP_INFO serves on the emulated kernel.
//!
//! The driver's block and resource enumerations are not part of the reference tables, and
//! the real driver maps no UDMA registers to user space. The emulated kernel therefore serves
//! register windows of its own, under block numbers far above any the driver could use, so a
//! request for them can never be mistaken for a real one:
//!
//! * [`BAR0`]: the whole BAR0 register file (every UDMA unit at its arch offset);
//! * [`udma_unit`]`(e)`: the `0x3c800`-byte register window of engine `e` alone.
//!
//! Every other `(block, block_id, resource)` answers EINVAL.
//!
//! ```
//! use khal::Arch;
//! use mmio::Mmio;
//! use ndl_emu::{EmulatedKernel, resource};
//! use ndl_std::Ndl;
//!
//! let ndl = Ndl::with_kernel(EmulatedKernel::new(khal::Generation::V2, 1)?);
//! let dev = ndl.open_device(0)?;
//! let (block, id, res) = resource::BAR0;
//! let bar0 = dev.map_resource(block, id, res)?;
//! // Engine 5's M2S state register: brought up at probe, NORMAL in all four fields.
//! let unit = khal_sunda::Sunda::udma_engine_offset(5)? as usize;
//! assert_eq!(bar0.read32(unit + 0x200), 0x1111);
//! // The same register through engine 5's own window.
//! let (block, id, res) = resource::udma_unit(5);
//! assert_eq!(dev.map_resource(block, id, res)?.read32(0x200), 0x1111);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// Block number of the whole-BAR0 window.
pub const BLOCK_BAR0: u32 = 0x4e00;
/// Block number of the per-engine UDMA windows (`block_id` = engine id).
pub const BLOCK_UDMA: u32 = 0x4e01;

/// `(block, block_id, resource)` of the whole BAR0 register file.
pub const BAR0: (u32, u32, u32) = (BLOCK_BAR0, 0, 0);

/// [`BAR0`] as the register-level copy of `ndl-std` takes it.
pub const BAR0_RESOURCE: ndl_std::copy::RegisterResource = ndl_std::copy::RegisterResource {
    block: BLOCK_BAR0,
    block_id: 0,
    resource: 0,
};

/// `(block, block_id, resource)` of engine `engine`'s UDMA register window.
pub const fn udma_unit(engine: u32) -> (u32, u32, u32) {
    (BLOCK_UDMA, engine, 0)
}
