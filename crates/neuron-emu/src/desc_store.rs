//! A descriptor ring that lives in the model's memory, for `udma-desc`'s builders.

use udma_desc::{DESC_BYTES, DescStore, Descriptor, Error};

use crate::device::Device;

/// Descriptor storage at a DMA address of a [`Device`]'s memory: the `udma-desc` builders
/// write ring slots straight into the bytes the engine fetches.
///
/// A slot that falls outside the device's memory reports
/// [`Error::SlotOutOfRange`](udma_desc::Error::SlotOutOfRange), like a slot past the capacity.
///
/// ```
/// use neuron_emu::{Device, DeviceConfig, DeviceDescStore, RegionKind, RegionSpec};
/// use udma_desc::{DescStore, Descriptor};
///
/// let dev = Device::new(DeviceConfig {
///     regions: vec![RegionSpec::new("hbm0", RegionKind::Device { channel: 0 }, 0, 1 << 16)],
///     ..Default::default()
/// })?;
/// let mut ring = DeviceDescStore::new(dev.clone(), 0x1000, 32);
/// ring.store(1, Descriptor::from_words([0x0c00_0010, 0, 0x2000, 0]))?;
/// assert_eq!(dev.read_mem_vec(0x1010, 4)?, [0x10, 0x00, 0x00, 0x0c]);
/// assert!(ring.store(32, Descriptor::ZERO).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct DeviceDescStore {
    device: Device,
    base: u64,
    slots: usize,
}

impl DeviceDescStore {
    /// `slots` descriptors starting at DMA address `base`.
    pub fn new(device: Device, base: u64, slots: usize) -> Self {
        Self {
            device,
            base,
            slots,
        }
    }

    /// DMA address of the first slot (what the queue's ring base registers get).
    pub fn base(&self) -> u64 {
        self.base
    }

    fn slot_addr(&self, index: u32) -> Result<u64, Error> {
        let err = Error::SlotOutOfRange {
            index,
            capacity: self.slots,
        };
        let i = usize::try_from(index).map_err(|_| err)?;
        if i >= self.slots {
            return Err(err);
        }
        self.base
            .checked_add(u64::from(index) * DESC_BYTES as u64)
            .ok_or(err)
    }
}

impl DescStore for DeviceDescStore {
    fn capacity(&self) -> usize {
        self.slots
    }

    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), Error> {
        let addr = self.slot_addr(index)?;
        self.device
            .write_mem(addr, &desc.to_le_bytes())
            .map_err(|_| Error::SlotOutOfRange {
                index,
                capacity: self.slots,
            })
    }

    fn load(&self, index: u32) -> Result<Descriptor, Error> {
        let addr = self.slot_addr(index)?;
        let mut b = [0u8; DESC_BYTES];
        self.device
            .read_mem(addr, &mut b)
            .map_err(|_| Error::SlotOutOfRange {
                index,
                capacity: self.slots,
            })?;
        Ok(Descriptor::from_le_bytes(b))
    }
}
