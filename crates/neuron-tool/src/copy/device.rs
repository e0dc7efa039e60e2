//! What the copy needs from a device, so the copy logic is written once for the device
//! model and for real hardware.

use khal::Arch;
use udma_desc::{DescStore, Doorbell, QueueId};

/// A queue brought up for a copy: its two rings' descriptor storage, its doorbell and the
/// two buffers.
#[derive(Debug)]
pub struct DeviceQueue<S, B> {
    /// TX (source-side) ring storage, `ring_size` descriptors.
    pub tx: S,
    /// RX (destination-side) ring storage, `ring_size` descriptors.
    pub rx: S,
    /// The queue's doorbell (e.g. `khal::udma::UnitDoorbell` over the unit's registers).
    pub bell: B,
    /// Bus address of the source buffer.
    pub src: u64,
    /// Bus address of the destination buffer.
    pub dst: u64,
}

/// A device (or the device model) that can run a verified copy on one queue.
///
/// The implementation owns everything device-specific: opening it, bringing the queue up
/// with `khal`, allocating the rings and buffers, mapping memory, and waiting for the
/// engine. The copy logic ([`run_copy`](super::run_copy)) only builds descriptors into the
/// stores, rings the doorbell and reads the destination back.
///
/// [`open_queue`](Self::open_queue) is generic over the arch, so the bring-up
/// (`khal::udma::Udma::<A, _>::init`, `init_queue`) is monomorphised like the rest of the
/// copy; the arch is chosen once, by the caller, through the tool's dispatch point.
pub trait CopyDevice {
    /// Where ring descriptors are written (device memory, a mapped window, plain memory).
    type Store: DescStore;
    /// The queue's doorbell (arch-independent: a register write).
    type Bell: Doorbell;
    /// What can go wrong (shown to the user as one sentence).
    type Error: std::error::Error;

    /// A short human name (`built-in model`, `/dev/neuron0`).
    fn name(&self) -> String;

    /// Brings the engine and `queue` up for arch `A` with rings of `ring_size` descriptors,
    /// and allocates a source and a destination buffer of `bytes` each.
    fn open_queue<A: Arch>(
        &mut self,
        queue: QueueId,
        ring_size: u32,
        bytes: u64,
    ) -> Result<DeviceQueue<Self::Store, Self::Bell>, Self::Error>;

    /// Writes `data` to bus address `addr` (filling the source).
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), Self::Error>;

    /// Reads bus address `addr` into `buf` (reading the destination back).
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), Self::Error>;

    /// Blocks until the engine has completed `tx` more TX and `rx` more RX descriptors of
    /// `queue` (those handed over by the last doorbells), or reports why it cannot.
    fn wait(&mut self, queue: QueueId, tx: u32, rx: u32) -> Result<(), Self::Error>;
}
