//! What the copy needs from a device, so the copy logic is written once.
//!
//! The production implementation is [`NdlDevice`](super::NdlDevice), generic over the
//! `ndl-std` kernel: the built-in device model (`EmulatedKernel`) and real hardware
//! (`RealKernel`) run the same code. The traits exist so the copy logic can also be tested
//! against a fault-injecting test double.

use khal::Arch;
use udma_desc::{DescStore, Doorbell, QueueId, RingPair};

/// A device that can bring a DMA queue up for a verified copy.
///
/// [`open_queue`](Self::open_queue) is generic over the arch, so the bring-up
/// (`khal::udma::Udma::<A, _>::init`, `init_queue`) is monomorphised like the rest of the
/// copy; the arch is chosen once, by the caller, through the tool's dispatch point.
pub trait CopyDevice {
    /// What can go wrong (shown to the user as one sentence).
    type Error: std::error::Error;
    /// A queue brought up for arch `A`, with its rings and two buffers.
    type Queue<'q, A: Arch>: CopyQueue<Error = Self::Error>
    where
        Self: 'q;

    /// A short human name (`the built-in device model`, `/dev/neuron0`).
    fn name(&self) -> String;

    /// Brings the engine and `queue` up for arch `A` with rings of `ring_size` descriptors,
    /// and allocates a source and a destination buffer of `bytes` each. Dropping the queue
    /// stops it and frees everything it allocated.
    fn open_queue<A: Arch>(
        &mut self,
        queue: QueueId,
        ring_size: u32,
        bytes: u64,
    ) -> Result<Self::Queue<'_, A>, Self::Error>;
}

/// One queue brought up for a copy: its TX/RX ring pair (descriptors are built into it with
/// `udma-desc`), its doorbell, and the source and destination buffers.
pub trait CopyQueue {
    /// TX (source-side) descriptor storage.
    type Tx: DescStore;
    /// RX (destination-side) descriptor storage.
    type Rx: DescStore;
    /// The queue's doorbell (`khal`'s tail-increment writes).
    type Bell: Doorbell;
    /// What can go wrong.
    type Error: std::error::Error;

    /// Bus address of the source buffer.
    fn src(&self) -> u64;

    /// Bus address of the destination buffer.
    fn dst(&self) -> u64;

    /// The rings.
    fn rings(&self) -> &RingPair<Self::Tx, Self::Rx>;

    /// The rings, to build packets into.
    fn rings_mut(&mut self) -> &mut RingPair<Self::Tx, Self::Rx>;

    /// The doorbell that hands built descriptors to the engine.
    fn bell(&self) -> &Self::Bell;

    /// Blocks until the engine has completed every descriptor the doorbells handed it, or
    /// reports why it cannot (an engine abort, a timeout).
    fn wait(&mut self) -> Result<(), Self::Error>;

    /// Writes `data` into the source buffer at byte `offset`.
    fn write_src(&mut self, offset: u64, data: &[u8]) -> Result<(), Self::Error>;

    /// Reads the destination buffer from byte `offset` into `buf`.
    fn read_dst(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), Self::Error>;
}
