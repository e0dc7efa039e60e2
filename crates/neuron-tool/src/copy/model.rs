//! The built-in target: [`CopyDevice`] over the `neuron-emu` device model.
//!
//! The model is driven exactly like silicon: `khal` brings engine 0 and the queue up through
//! the model's register window, descriptors are written into model memory
//! ([`DeviceDescStore`]), the doorbell is `khal`'s tail-increment write. The source buffer
//! lives in host memory and the destination in HBM channel 0 (a host-to-device copy, the
//! common direction of a load). The model runs deterministically: each wait runs it until
//! idle, then checks that no fault was raised and that the queue consumed exactly the
//! descriptors handed to it.

use khal::Arch;
use khal::udma::{EngineParams, RingConfig, Udma, UdmaError, UdmaState, UnitDoorbell};
use mmio::Window;
use neuron_emu::{
    AllocError, BusError, Device, DeviceDescStore, Direction, MapError, MemoryConfig, RegionKind,
};
use udma_desc::{DESC_BYTES, QueueId};

use super::device::{CopyDevice, DeviceQueue};

/// The UDMA unit (engine) the copy runs on.
const UNIT: usize = 0;
/// Memory beyond the buffers: rings and allocator alignment.
const SLACK: u64 = 1 << 20;

/// Why the model could not run the copy.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The model's memory map could not be built.
    #[error("device model: {0}")]
    Map(#[from] MapError),
    /// A buffer or ring did not fit.
    #[error("device model: {0}")]
    Alloc(#[from] AllocError),
    /// A host access outside the model's memory.
    #[error("device model: {0}")]
    Bus(#[from] BusError),
    /// `khal` refused the bring-up.
    #[error("engine bring-up failed: {0}")]
    Udma(#[from] UdmaError),
    /// The copy does not fit one HBM channel of this arch.
    #[error("a copy of {bytes} bytes does not fit one HBM channel ({max} bytes)")]
    TooLarge {
        /// Bytes asked for.
        bytes: u64,
        /// Channel size.
        max: u64,
    },
    /// The model lacks a region or unit it should have.
    #[error("device model has no {0}")]
    Missing(&'static str),
    /// The engine raised a fault.
    #[error("the engine faulted on queue {queue}: {fault}")]
    Fault {
        /// The queue.
        queue: usize,
        /// The model's description of the fault.
        fault: String,
    },
    /// The engine went idle before consuming what was handed to it.
    #[error("the engine completed {done} of {expected} RX descriptors and stopped")]
    Incomplete {
        /// RX descriptors consumed.
        done: u64,
        /// RX descriptors handed over.
        expected: u64,
    },
    /// `wait`, `read` or `write` before `open_queue`.
    #[error("device model used before its queue was opened")]
    NotOpen,
}

/// The device model as a copy target (built at `open_queue`, for the arch of the copy).
#[derive(Debug, Default)]
pub struct ModelDevice {
    dev: Option<Device>,
    /// RX descriptors the queue had consumed at the last successful wait.
    rx_done: u64,
}

impl ModelDevice {
    /// A target that builds its model when the queue is opened.
    pub fn new() -> Self {
        Self::default()
    }

    fn dev(&self) -> Result<&Device, ModelError> {
        self.dev.as_ref().ok_or(ModelError::NotOpen)
    }

    fn unit_window(dev: &Device) -> Result<Window<Device>, ModelError> {
        let base = dev
            .unit_base(UNIT)
            .ok_or(ModelError::Missing("UDMA unit 0"))?;
        Ok(Window::new(dev.clone(), base))
    }
}

impl CopyDevice for ModelDevice {
    type Store = DeviceDescStore;
    type Bell = UnitDoorbell<Window<Device>>;
    type Error = ModelError;

    fn name(&self) -> String {
        "the built-in device model (host to HBM)".into()
    }

    fn open_queue<A: Arch>(
        &mut self,
        queue: QueueId,
        ring_size: u32,
        bytes: u64,
    ) -> Result<DeviceQueue<DeviceDescStore, Self::Bell>, ModelError> {
        let max = A::SCALARS.hbm_active_size;
        if bytes > max {
            return Err(ModelError::TooLarge { bytes, max });
        }
        let ring_bytes = u64::from(ring_size) * DESC_BYTES as u64;
        let mem = MemoryConfig {
            hbm_bytes_per_channel: bytes.saturating_add(SLACK),
            host_bytes: bytes.saturating_add(2 * ring_bytes + SLACK),
            ..MemoryConfig::default()
        };
        let dev = Device::for_arch::<A>(&mem)?;
        let host = dev
            .with_memory(|m| m.find(RegionKind::Host))
            .ok_or(ModelError::Missing("host memory region"))?;
        let hbm = dev
            .with_memory(|m| m.find(RegionKind::Device { channel: 0 }))
            .ok_or(ModelError::Missing("HBM channel 0"))?;

        let udma = Udma::<A, _>::init(Self::unit_window(&dev)?, EngineParams::for_arch::<A>())?;
        udma.set_state(UdmaState::Normal)?;
        let align = khal::udma::RING_ALIGN;
        let tx = dev.alloc(host, ring_bytes, align)?;
        let rx = dev.alloc(host, ring_bytes, align)?;
        udma.init_queue(
            queue,
            RingConfig {
                bus_addr: tx,
                size: ring_size,
            },
            RingConfig {
                bus_addr: rx,
                size: ring_size,
            },
        )?;
        let src = dev.alloc(host, bytes, 64)?;
        let dst = dev.alloc(hbm, bytes, 64)?;
        let slots = usize::try_from(ring_size).unwrap_or(0);
        let q = DeviceQueue {
            tx: DeviceDescStore::new(dev.clone(), tx, slots),
            rx: DeviceDescStore::new(dev.clone(), rx, slots),
            bell: UnitDoorbell(Self::unit_window(&dev)?),
            src,
            dst,
        };
        self.dev = Some(dev);
        self.rx_done = 0;
        Ok(q)
    }

    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), ModelError> {
        Ok(self.dev()?.write_mem(addr, data)?)
    }

    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), ModelError> {
        Ok(self.dev()?.read_mem(addr, buf)?)
    }

    fn wait(&mut self, queue: QueueId, _tx: u32, rx: u32) -> Result<(), ModelError> {
        let dev = self.dev()?;
        dev.run_until_idle();
        if let Some(f) = dev.take_faults().into_iter().next() {
            return Err(ModelError::Fault {
                queue: f.queue,
                fault: f.fault.to_string(),
            });
        }
        let done = dev
            .queue_stats(UNIT, Direction::S2m, queue.index())
            .map_or(0, |s| s.descriptors);
        let expected = self.rx_done + u64::from(rx);
        if done != expected {
            return Err(ModelError::Incomplete {
                done: done - self.rx_done.min(done),
                expected: u64::from(rx),
            });
        }
        self.rx_done = done;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::copy::{CopyOptions, run_copy};
    use khal_cayman::Cayman;
    use khal_mariana::Mariana;
    use khal_sunda::Sunda;
    use udma_desc::Barrier;

    fn opts(size: u64, barrier: Barrier, ring: u32) -> CopyOptions {
        CopyOptions {
            queue: QueueId::new(5).unwrap(),
            size,
            barrier,
            ring_size: ring,
        }
    }

    #[test]
    fn copies_on_every_arch_and_verifies() {
        let s = run_copy::<Sunda, _>(
            &mut ModelDevice::new(),
            &opts(1 << 20, Barrier::Dmb, 64),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!((s.descriptors, s.packets, s.verified), (16, 2, true));
        run_copy::<Cayman, _>(
            &mut ModelDevice::new(),
            &opts(100_003, Barrier::WriteBarrier, 64),
            &mut |_| {},
        )
        .unwrap();
        run_copy::<Mariana, _>(
            &mut ModelDevice::new(),
            &opts(4096, Barrier::Sow, 64),
            &mut |_| {},
        )
        .unwrap();
    }

    #[test]
    fn small_rings_wrap_through_every_phase() {
        // 32-slot rings hold 16 descriptors: 5 MiB (80 descriptors) laps the ring 2.5 times,
        // so the phase goes 1, 2, 3 and the model checks every stamp.
        let mut dev = ModelDevice::new();
        let s = run_copy::<Cayman, _>(&mut dev, &opts(5 << 20, Barrier::None, 32), &mut |_| {})
            .unwrap();
        assert_eq!(s.descriptors, 80);
        assert!(s.waits >= 5, "{}", s.waits);
    }

    #[test]
    fn too_large_for_hbm_is_refused() {
        let mut dev = ModelDevice::new();
        let e = dev
            .open_queue::<Sunda>(QueueId::new(0).unwrap(), 64, 17 << 30)
            .unwrap_err();
        assert!(
            e.to_string().contains("does not fit one HBM channel"),
            "{e}"
        );
    }

    #[test]
    fn use_before_open_is_an_error_not_a_panic() {
        let mut dev = ModelDevice::new();
        assert!(matches!(
            dev.wait(QueueId::new(0).unwrap(), 1, 1),
            Err(ModelError::NotOpen)
        ));
        assert!(matches!(dev.read(0, &mut [0; 4]), Err(ModelError::NotOpen)));
    }
}
