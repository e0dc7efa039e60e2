//! The completion word pair: how user space learns that a user-programmed queue is done.
//!
//! The driver gives such queues no interrupt or notification (`reference/dma-path.md`
//! step 8). As in the driver's own copies, the last descriptor pair of a batch copies a
//! 4-byte marker from the first word of a host chunk to the second; the engine processes a
//! queue's descriptors in order, so when the marker has landed every earlier pair is done.

use udma_desc::CopyRequest;

use super::{Delivery, UNMAPPABLE, chunk};
use crate::mem::{DeviceMem, MemType};
use ndl_std::{DeviceHandle, Errno, Error, Kernel, Mapping, MemLocation, Result};

/// The marker value the driver's own copies use.
pub const COMPLETION_MARKER: u32 = 0xabcd_ef01;

/// Byte offset of the word the marker pair writes.
const LANDING: usize = 4;

/// The completion chunk, read and written through a mapping when the caller allows one,
/// else through MEM_BUF_COPY.
#[derive(Debug)]
pub(crate) struct Completion<'r, 'a, K: Kernel> {
    // Unmapped before the chunk is freed.
    map: Option<Mapping<'a, K>>,
    chunk: DeviceMem<'r, 'a, K>,
}

impl<'r, 'a, K: Kernel> Completion<'r, 'a, K> {
    /// Allocates the 8-byte pair in host memory (one page after rounding) and maps it when
    /// `mapped`.
    pub(crate) fn new(
        dev: &'r DeviceHandle<'a, K>,
        nc: u32,
        host_window: u64,
        mapped: bool,
    ) -> Result<Self> {
        let chunk = chunk(dev, 8, MemLocation::Host, nc, MemType::Ring, host_window)?;
        let map = if mapped { Some(chunk.map()?) } else { None };
        Ok(Self { map, chunk })
    }

    /// The completion chunk for a copy delivering by `delivery`, the delivery that runs
    /// (never [`Delivery::Auto`]) and, when `Auto` fell back, the errno the mapping got.
    pub(crate) fn for_delivery(
        dev: &'r DeviceHandle<'a, K>,
        nc: u32,
        host_window: u64,
        delivery: Delivery,
    ) -> Result<(Self, Delivery, Option<Errno>)> {
        match delivery {
            Delivery::Auto => match Self::new(dev, nc, host_window, true) {
                Ok(c) => Ok((c, Delivery::Mmap, None)),
                Err(Error::Mmap { errno, .. }) if errno == UNMAPPABLE => {
                    let c = Self::new(dev, nc, host_window, false)?;
                    Ok((c, Delivery::CopyDescriptors, Some(errno)))
                }
                Err(e) => Err(e),
            },
            d => Ok((
                Self::new(dev, nc, host_window, d == Delivery::Mmap)?,
                d,
                None,
            )),
        }
    }

    /// Writes the marker into the first word and clears the second (before each batch).
    pub(crate) fn arm(&self) -> Result<()> {
        let mut pair = [0u8; 8];
        pair[..4].copy_from_slice(&COMPLETION_MARKER.to_le_bytes());
        match &self.map {
            Some(m) => m.write_bytes(0, &pair),
            None => self.chunk.write(0, &pair),
        }
    }

    /// The last pair of a batch: 4 bytes from the first word to the second, no barrier.
    pub(crate) fn request(&self) -> CopyRequest {
        let at = self.chunk.dma_addr();
        CopyRequest::new(at, at + LANDING as u64, 4)
    }

    /// Whether the marker has landed in the second word.
    pub(crate) fn landed(&self) -> Result<bool> {
        let mut word = [0u8; 4];
        match &self.map {
            Some(m) => m.read_bytes(LANDING, &mut word)?,
            None => self.chunk.read(LANDING as u64, &mut word)?,
        }
        Ok(u32::from_le_bytes(word) == COMPLETION_MARKER)
    }
}
