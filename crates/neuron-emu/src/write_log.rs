//! The model's register-write log: how many register writes reached the device, and the
//! latest ones with their offsets and values.
//!
//! Tools that promise to only read (`neuron-tool regs read`, `queue inspect`) are checked
//! against it: every write through [`Device`](crate::Device)'s `mmio::Mmio` window (BAR0
//! offsets) and through a [`TgtidBlock`](crate::TgtidBlock) counts, whatever the register
//! does with it. Recording is one increment and one ring-buffer push per register write,
//! which happen at bring-up and doorbells, never per packet.

use std::collections::VecDeque;

/// Writes kept with their offset and value (oldest dropped first).
pub const WRITE_LOG_CAPACITY: usize = 1024;

/// One recorded register write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegisterWrite {
    /// BAR0 offset written (for a target-id block write: the offset in that block).
    pub offset: usize,
    /// The value written.
    pub value: u32,
    /// Where the write went.
    pub window: WriteWindow,
}

/// The register window a recorded write went through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteWindow {
    /// The device's BAR0 window ([`Device`](crate::Device) as `mmio::Mmio`).
    Bar0,
    /// Unit `unit`'s target-id block ([`Device::tgtid_block`](crate::Device::tgtid_block)).
    Tgtid {
        /// The unit (engine) index.
        unit: usize,
    },
}

/// Every register write since the device was built: a count and the latest
/// [`WRITE_LOG_CAPACITY`].
#[derive(Clone, Debug, Default)]
pub(crate) struct WriteLog {
    count: u64,
    recent: VecDeque<RegisterWrite>,
}

impl WriteLog {
    /// Records one write.
    pub(crate) fn record(&mut self, offset: usize, value: u32, window: WriteWindow) {
        self.count += 1;
        if self.recent.len() == WRITE_LOG_CAPACITY {
            self.recent.pop_front();
        }
        self.recent.push_back(RegisterWrite {
            offset,
            value,
            window,
        });
    }

    /// Writes recorded since the device was built.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// The latest writes, oldest first.
    pub(crate) fn recent(&self) -> Vec<RegisterWrite> {
        self.recent.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_counts_everything_and_keeps_the_latest() {
        let mut log = WriteLog::default();
        for i in 0..(WRITE_LOG_CAPACITY + 5) {
            log.record(i * 4, i as u32, WriteWindow::Bar0);
        }
        assert_eq!(log.count(), (WRITE_LOG_CAPACITY + 5) as u64);
        let recent = log.recent();
        assert_eq!(recent.len(), WRITE_LOG_CAPACITY);
        assert_eq!(recent[0].offset, 5 * 4, "the oldest five were dropped");
    }
}
