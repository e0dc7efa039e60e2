//! [`RingMemory`]: a mapping of ring memory as a udma-desc descriptor store.

use mmio::Mmio;
use ndl_std::{Kernel, Mapping};
use udma_desc::{DESC_BYTES, DescStore, Descriptor};

/// Descriptor rings in mapped ring memory: slot `i` is at byte `16 * i`, written as four
/// little-endian 32-bit words (word 0 first), the accesses device memory takes.
#[derive(Debug)]
pub struct RingMemory<'a, K: Kernel> {
    map: Mapping<'a, K>,
}

impl<'a, K: Kernel> RingMemory<'a, K> {
    /// Rings in `map`.
    pub fn new(map: Mapping<'a, K>) -> Self {
        Self { map }
    }

    /// The mapping.
    pub fn mapping(&self) -> &Mapping<'a, K> {
        &self.map
    }

    /// Byte offset of descriptor slot `index`, if the slot lies inside the mapping.
    fn slot(&self, index: u32) -> Result<usize, udma_desc::Error> {
        let capacity = self.capacity();
        usize::try_from(index)
            .ok()
            .filter(|i| *i < capacity)
            .map(|i| i * DESC_BYTES)
            .ok_or(udma_desc::Error::SlotOutOfRange { index, capacity })
    }
}

impl<K: Kernel> DescStore for RingMemory<'_, K> {
    fn capacity(&self) -> usize {
        self.map.len() / DESC_BYTES
    }

    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), udma_desc::Error> {
        let at = self.slot(index)?;
        for (i, word) in desc.words().into_iter().enumerate() {
            self.map.write32(at + 4 * i, word);
        }
        Ok(())
    }

    fn load(&self, index: u32) -> Result<Descriptor, udma_desc::Error> {
        let at = self.slot(index)?;
        let mut words = [0u32; 4];
        for (i, w) in words.iter_mut().enumerate() {
            *w = self.map.read32(at + 4 * i);
        }
        Ok(Descriptor::from_words(words))
    }
}
