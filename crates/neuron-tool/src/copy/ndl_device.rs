//! The one [`CopyDevice`]: a Neuron device opened through `ndl-std`, over any kernel.
//!
//! The built-in device model is `Ndl<EmulatedKernel>` and real hardware is
//! `Ndl<RealKernel>`; both run this code. It opens the device read-write (a
//! [`DeviceHandle`]), learns the arch from DEVICE_INFO, brings engine [`ENGINE`] and the queue
//! up with `khal` through `ndl-std`'s [`DmaQueue`] (BAR0 mapped, rings in mapped host memory),
//! allocates the buffers with [`alloc_dma`] (source in host memory, destination in HBM
//! channel 0: a host-to-device copy, the common direction of a load), fills and reads them
//! with the driver's buffer-copy ioctls, and waits by polling the queue's head registers.
//!
//! The flow needs a driver that maps the UDMA registers to user space. The emulated kernel
//! does; the Neuron driver does not, so on hardware the bring-up fails at
//! RESOURCE_MMAP_INFO, and the error says so.

use std::fmt;
use std::time::Duration;

use khal::{Arch, Generation};
use ndl_std::copy::CopyError;
use ndl_std::copy::register_level::{DmaBuffer, DmaQueue, MappedUdma, alloc_dma};
use ndl_std::ioctl_codes::RESOURCE_MMAP_INFO;
use ndl_std::{DeviceHandle, Errno, Kernel, Mapping, MemLocation, Ndl};
use udma_desc::{QueueId, RingPair};

use super::device::{CopyDevice, CopyQueue};

/// The DMA engine the copy runs on.
pub const ENGINE: u32 = 0;

/// How long one wait for the engine may take before the copy is abandoned (one wait covers
/// up to a ring's worth of descriptors, about 255 MiB).
pub const WAIT_TIMEOUT: Duration = Duration::from_secs(30);

/// Alignment of the source and destination buffers (a descriptor takes any byte address;
/// 64 keeps them on cache lines).
const BUFFER_ALIGN: u64 = 64;

/// What the copy was doing when the device refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// DEVICE_INFO (the arch).
    DeviceInfo,
    /// Engine and queue bring-up (BAR0 mapping, khal init, rings).
    BringUp {
        /// The engine.
        engine: u32,
        /// The queue.
        queue: u8,
    },
    /// Allocating the source buffer.
    AllocSource,
    /// Allocating the destination buffer.
    AllocDestination,
    /// Writing the source buffer.
    Fill,
    /// Waiting for the engine.
    Wait,
    /// Reading the destination back.
    ReadBack,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DeviceInfo => f.write_str("reading the device info"),
            Self::BringUp { engine, queue } => {
                write!(f, "bringing up DMA engine {engine}, queue {queue}")
            }
            Self::AllocSource => f.write_str("allocating the source buffer"),
            Self::AllocDestination => f.write_str("allocating the destination buffer"),
            Self::Fill => f.write_str("writing the source buffer"),
            Self::Wait => f.write_str("waiting for the DMA engine"),
            Self::ReadBack => f.write_str("reading the destination back"),
        }
    }
}

/// A failed step: which one, what `ndl-std` said, and a hint when the cause is known.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{step}: {source}{}", hint(source))]
pub struct NdlError {
    /// The step.
    pub step: Step,
    /// Why it failed.
    pub source: CopyError,
}

/// The causes a user can act on, said in words.
fn hint(e: &CopyError) -> &'static str {
    match e {
        CopyError::Ndl(ndl_std::Error::Ioctl { errno, .. }) if *errno == Errno::NOTTY => {
            "; it is not a Neuron device node"
        }
        CopyError::Ndl(ndl_std::Error::Ioctl { cmd, .. }) if *cmd == RESOURCE_MMAP_INFO.name() => {
            "; this driver maps no UDMA registers to user space, so a copy driven from user \
             space cannot reach the engine (leave --device out to use the built-in device model)"
        }
        _ => "",
    }
}

fn at(step: Step) -> impl FnOnce(CopyError) -> NdlError {
    move |source| NdlError { step, source }
}

/// A device opened through `ndl-std` as a copy target (see the module docs).
#[derive(Debug)]
pub struct NdlDevice<'n, K: Kernel> {
    handle: DeviceHandle<'n, K>,
    name: String,
    engine: u32,
    src: MemLocation,
    dst: MemLocation,
    timeout: Duration,
}

impl<'n, K: Kernel> NdlDevice<'n, K> {
    /// Opens device `index` of `ndl` read-write; `name` is what summaries and errors call it.
    pub fn open(ndl: &'n Ndl<K>, index: u32, name: impl Into<String>) -> ndl_std::Result<Self> {
        Ok(Self {
            handle: ndl.open_device(index)?,
            name: name.into(),
            engine: ENGINE,
            src: MemLocation::Host,
            dst: MemLocation::Device {
                channel: 0,
                region: 0,
            },
            timeout: WAIT_TIMEOUT,
        })
    }

    /// The same device with another limit on each wait for the engine.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The chip generation the device reports (DEVICE_INFO).
    pub fn generation(&self) -> Result<Generation, NdlError> {
        ndl_std::copy::generation(&self.handle).map_err(at(Step::DeviceInfo))
    }

    /// The open device.
    pub fn handle(&self) -> &DeviceHandle<'n, K> {
        &self.handle
    }
}

/// A driver allocation, freed when dropped.
#[derive(Debug)]
struct Owned<'q, K: Kernel> {
    handle: &'q DeviceHandle<'q, K>,
    buf: DmaBuffer,
}

impl<K: Kernel> Drop for Owned<'_, K> {
    fn drop(&mut self) {
        // Nothing to do about a failed free on the way out; the fd's close releases it.
        let _ = self.handle.mem_free(self.buf.mem);
    }
}

/// A queue of an [`NdlDevice`] brought up for arch `A`, with its two buffers.
#[derive(Debug)]
pub struct NdlQueue<'q, K: Kernel, A: Arch> {
    // Declared first, so dropped first: the queue is stopped before its buffers are freed.
    queue: DmaQueue<'q, K, A>,
    src: Owned<'q, K>,
    dst: Owned<'q, K>,
    timeout: Duration,
}

impl<'q, K: Kernel, A: Arch> NdlQueue<'q, K, A> {
    /// `ndl-std`'s queue underneath (engine handle, head pointers, state).
    pub fn dma_queue(&self) -> &DmaQueue<'q, K, A> {
        &self.queue
    }
}

impl<K: Kernel> CopyDevice for NdlDevice<'_, K> {
    type Error = NdlError;
    type Queue<'q, A: Arch>
        = NdlQueue<'q, K, A>
    where
        Self: 'q;

    fn name(&self) -> String {
        self.name.clone()
    }

    fn open_queue<A: Arch>(
        &mut self,
        queue: QueueId,
        ring_size: u32,
        bytes: u64,
    ) -> Result<NdlQueue<'_, K, A>, NdlError> {
        let handle = &self.handle;
        let bring_up = Step::BringUp {
            engine: self.engine,
            queue: queue.get(),
        };
        let q = DmaQueue::<K, A>::open(
            handle,
            self.engine,
            queue,
            ring_size,
            ndl_emu::resource::BAR0_RESOURCE,
        )
        .map_err(at(bring_up))?;
        let alloc = |location, step| {
            alloc_dma::<K, A>(handle, bytes, BUFFER_ALIGN, location)
                .map(|buf| Owned { handle, buf })
                .map_err(|e| NdlError {
                    step,
                    source: e.into(),
                })
        };
        let src = alloc(self.src, Step::AllocSource)?;
        let dst = alloc(self.dst, Step::AllocDestination)?;
        Ok(NdlQueue {
            queue: q,
            src,
            dst,
            timeout: self.timeout,
        })
    }
}

impl<'q, K: Kernel, A: Arch> CopyQueue for NdlQueue<'q, K, A> {
    type Tx = Mapping<'q, K>;
    type Rx = Mapping<'q, K>;
    type Bell = MappedUdma<'q, K, A>;
    type Error = NdlError;

    fn src(&self) -> u64 {
        self.src.buf.dma_addr
    }

    fn dst(&self) -> u64 {
        self.dst.buf.dma_addr
    }

    fn rings(&self) -> &RingPair<Mapping<'q, K>, Mapping<'q, K>> {
        self.queue.rings()
    }

    fn rings_mut(&mut self) -> &mut RingPair<Mapping<'q, K>, Mapping<'q, K>> {
        self.queue.rings_mut()
    }

    fn bell(&self) -> &MappedUdma<'q, K, A> {
        self.queue.udma()
    }

    fn wait(&mut self) -> Result<(), NdlError> {
        self.queue.wait(self.timeout).map_err(at(Step::Wait))
    }

    fn write_src(&mut self, offset: u64, data: &[u8]) -> Result<(), NdlError> {
        self.src
            .handle
            .mem_buf_copy_to(self.src.buf.mem, offset, data)
            .map_err(|e| at(Step::Fill)(e.into()))
    }

    fn read_dst(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), NdlError> {
        self.dst
            .handle
            .mem_buf_copy_from(self.dst.buf.mem, offset, buf)
            .map_err(|e| at(Step::ReadBack)(e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::copy::{CopyOptions, fill_pattern, run_copy};
    use crate::error::ToolError;
    use khal_cayman::Cayman;
    use khal_mariana::Mariana;
    use khal_sunda::Sunda;
    use ndl_emu::{DeviceConfig, EmulatedKernel, Execution};
    use neuron_emu::{Direction, RegionKind};
    use udma_desc::Barrier;

    const QUEUE: u8 = 5;

    fn opts(size: u64, barrier: Barrier, ring: u32) -> CopyOptions {
        CopyOptions {
            queue: QueueId::new(QUEUE.into()).unwrap(),
            size,
            barrier,
            ring_size: ring,
        }
    }

    fn ndl(g: Generation, execution: Execution) -> Ndl<EmulatedKernel> {
        Ndl::with_kernel(
            EmulatedKernel::with_devices(vec![
                DeviceConfig::numbered(g, 0).with_execution(execution),
            ])
            .unwrap(),
        )
    }

    /// A copy of `size` on the emulated kernel for `A`; checks what the model executed and
    /// that everything was given back.
    fn copy_and_check<A: Arch>(size: u64, barrier: Barrier, ring: u32) -> u64 {
        let ndl = ndl(A::GENERATION, Execution::OnDoorbell);
        let mut dev = NdlDevice::open(&ndl, 0, "model").unwrap();
        assert_eq!(dev.generation().unwrap(), A::GENERATION);
        let mut seen = Vec::new();
        let s =
            run_copy::<A, _>(&mut dev, &opts(size, barrier, ring), &mut |d| seen.push(d)).unwrap();
        assert!(s.verified);
        assert_eq!((s.arch, s.bytes), (A::CODE_NAME, size));
        assert_eq!(seen.last(), Some(&size));
        assert_eq!(s.waits, seen.len() as u64);
        let model = ndl.kernel().device(0).unwrap();
        assert_eq!(model.take_faults(), []);
        let engine = usize::try_from(ENGINE).unwrap();
        for dir in [Direction::M2s, Direction::S2m] {
            let q = model.queue_stats(engine, dir, QUEUE.into()).unwrap();
            assert_eq!(
                (q.descriptors, q.packets),
                (s.descriptors, s.packets),
                "{dir:?}"
            );
            assert_eq!(q.bytes, size, "{dir:?}");
        }
        drop(dev);
        let used: u64 =
            model.with_memory(|m| m.regions().iter().map(|r| r.allocated_bytes()).sum());
        assert_eq!(used, 0, "rings and buffers freed");
        assert_eq!(ndl.kernel().mappings(), 0, "every mapping unmapped");
        s.waits
    }

    #[test]
    fn copies_on_every_arch_and_laps_small_rings() {
        // 32-slot rings hold 16 descriptors in flight: 5 MiB + 3 bytes is 81 descriptors,
        // so the rings lap 2.5 times and the model checks every ring-id stamp.
        assert!(copy_and_check::<Cayman>((5 << 20) + 3, Barrier::None, 32) >= 6);
        copy_and_check::<Sunda>(1 << 20, Barrier::Dmb, 64);
        copy_and_check::<Cayman>(100_003, Barrier::WriteBarrier, 64);
        copy_and_check::<Mariana>(4096, Barrier::Sow, 64);
    }

    #[test]
    fn a_corrupted_destination_fails_verification() {
        let ndl = ndl(Generation::V3, Execution::OnDoorbell);
        let model = ndl.kernel().device(0).unwrap();
        let hbm = model.with_memory(|m| {
            let id = m.find(RegionKind::Device { channel: 0 }).unwrap();
            m.region(id).unwrap().base()
        });
        let mut dev = NdlDevice::open(&ndl, 0, "model").unwrap();
        let size = 200_000u64;
        // After the last wait, before the read-back: the destination is the only allocation
        // in HBM channel 0; check that, then spoil one byte of it.
        let mut spoil = |done: u64| {
            if done == size {
                let mut b = [0u8; 1];
                model.read_mem(hbm + 70_000, &mut b).unwrap();
                let mut want = [0u8; 1];
                fill_pattern(70_000, &mut want);
                assert_eq!(b, want, "the copy landed at the channel's base");
                model.write_mem(hbm + 70_000, &[!b[0]]).unwrap();
            }
        };
        let e = run_copy::<Cayman, _>(&mut dev, &opts(size, Barrier::None, 64), &mut spoil)
            .unwrap_err();
        assert!(
            matches!(
                e,
                ToolError::VerifyFailed {
                    first: 70_000,
                    mismatches: 1
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn an_engine_that_never_runs_times_out_in_one_sentence() {
        let ndl = ndl(Generation::V2, Execution::Manual);
        let mut dev = NdlDevice::open(&ndl, 0, "model")
            .unwrap()
            .with_timeout(Duration::from_millis(20));
        let e = run_copy::<Sunda, _>(&mut dev, &opts(70_000, Barrier::None, 64), &mut |_| {})
            .unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("model: waiting for the DMA engine: timed out after 20ms"),
            "{text}"
        );
        assert!(text.contains("expected 2 / 2"), "{text}");
        drop(dev);
        assert_eq!(
            ndl.kernel().mappings(),
            0,
            "queue torn down after the failure"
        );
    }

    #[test]
    fn a_driver_without_register_mappings_is_named() {
        // The Neuron driver serves no UDMA register window: RESOURCE_MMAP_INFO refuses.
        let ndl = ndl(Generation::V4, Execution::OnDoorbell);
        ndl.kernel().retire(&RESOURCE_MMAP_INFO.command());
        let mut dev = NdlDevice::open(&ndl, 0, "/dev/neuron0").unwrap();
        let e = run_copy::<Mariana, _>(&mut dev, &opts(4096, Barrier::None, 64), &mut |_| {})
            .unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with(
                "/dev/neuron0: bringing up DMA engine 0, queue 5: \
                 NEURON_IOCTL_RESOURCE_MMAP_INFO failed: "
            ),
            "{text}"
        );
        assert!(
            text.contains("maps no UDMA registers to user space"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 1);
    }

    #[test]
    fn every_step_reads_as_words() {
        let e = NdlError {
            step: Step::AllocDestination,
            source: CopyError::Empty,
        };
        assert_eq!(
            e.to_string(),
            "allocating the destination buffer: nothing to copy"
        );
        for (step, text) in [
            (Step::DeviceInfo, "reading the device info"),
            (Step::Fill, "writing the source buffer"),
            (Step::ReadBack, "reading the destination back"),
            (Step::AllocSource, "allocating the source buffer"),
        ] {
            assert_eq!(step.to_string(), text);
        }
    }
}
