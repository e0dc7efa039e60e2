//! The resources RESOURCE_MMAP_INFO serves on the emulated kernel.
//!
//! **Emulator-only.** The real driver maps no UDMA registers to user space (its
//! RESOURCE_MMAP_INFO answers only the special-resource table of [`crate::mmap_special`]).
//! A *privileged* emulated kernel ([`DeviceConfig::privileged`](crate::DeviceConfig::privileged))
//! also serves register windows of its own, for the register-level copy and privileged
//! tooling on the model, under block numbers far above any the driver uses, so a request
//! for them can never be mistaken for a real one; an unprivileged one answers EINVAL:
//!
//! * [`BAR0`]: the whole BAR0 register file (every UDMA unit at its arch offset);
//! * [`udma_unit`]`(e)`: the `0x3c800`-byte register window of engine `e` alone.
//!
//! Every other `(block, block_id, resource)` answers EINVAL.
//!
//! ```
//! use khal::Arch;
//! use mmio::Mmio;
//! use ndl_emu::{DeviceConfig, EmulatedKernel, resource};
//! use ndl_std::Ndl;
//!
//! let (block, id, res) = resource::BAR0;
//! let plain = Ndl::with_kernel(EmulatedKernel::new(khal::Generation::V2, 1)?);
//! assert!(plain.open_device(0)?.map_resource(block, id, res).is_err());
//!
//! let config = DeviceConfig::numbered(khal::Generation::V2, 0).with_privileged(true);
//! let ndl = Ndl::with_kernel(EmulatedKernel::with_devices(vec![config])?);
//! let dev = ndl.open_device(0)?;
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

/// `(block, block_id, resource)` of engine `engine`'s UDMA register window.
pub const fn udma_unit(engine: u32) -> (u32, u32, u32) {
    (BLOCK_UDMA, engine, 0)
}
