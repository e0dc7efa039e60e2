//! Shared rig for the end-to-end tests: a model device of arch `A`, engines brought up with
//! khal, rings built by udma-desc straight into model memory.
#![allow(dead_code)]

use iofic::Control;
use iofic::caps::IoficCaps;
use iofic::udma::{m2s_errors, parity_errors, primary_misc, s2m_errors};
use khal::Arch;
use khal::regs::unit;
use khal::udma::{EngineParams, RingConfig, Udma, UdmaState};
use mmio::{MmioExt, Window};
use neuron_emu::{Device, DeviceDescStore, MemoryConfig, RegionId, RegionKind, RunReport};
use udma_desc::{CopyRequest, DescRing, Direction, QueueId, RingPair};

/// A unit's register window on the model.
pub type Regs = Window<Device>;
/// A khal engine handle on the model.
pub type Engine<A> = Udma<A, Regs>;
/// A queue's ring pair in model memory.
pub type Pair = RingPair<DeviceDescStore, DeviceDescStore>;

/// Small memory so snapshots stay cheap.
pub const MEM: MemoryConfig = MemoryConfig {
    hbm_bytes_per_channel: 2 << 20,
    host_bytes: 4 << 20,
    host_phys_base: 0,
};

pub struct Rig<A: Arch> {
    pub dev: Device,
    pub host: RegionId,
    pub hbm: RegionId,
    _arch: core::marker::PhantomData<A>,
}

impl<A: Arch> Rig<A> {
    pub fn new() -> Self {
        let dev = Device::for_arch::<A>(&MEM).expect("arch memory map");
        let host = dev.with_memory(|m| m.find(RegionKind::Host)).unwrap();
        let hbm = dev
            .with_memory(|m| m.find(RegionKind::Device { channel: 0 }))
            .unwrap();
        Self {
            dev,
            host,
            hbm,
            _arch: core::marker::PhantomData,
        }
    }

    /// A fresh rig with engine `engine` brought up and queue `q` initialised over rings of
    /// `size` descriptors: where most tests start.
    pub fn with_queue(engine: usize, q: u8, size: u32) -> (Self, Engine<A>, Pair) {
        let rig = Self::new();
        let udma = rig.engine(engine);
        let pair = rig.queue(&udma, q, size);
        (rig, udma, pair)
    }

    /// Engine init with the product parameters (khal), then NORMAL.
    pub fn engine(&self, engine: usize) -> Engine<A> {
        let base = self.dev.unit_base(engine).expect("engine exists");
        let udma = Udma::<A, _>::init(
            Window::new(self.dev.clone(), base),
            EngineParams::for_arch::<A>(),
        )
        .expect("engine init");
        assert_error_interrupts_brought_up(&udma);
        udma.set_state(UdmaState::Normal).unwrap();
        udma
    }

    /// Queue init (khal) over two rings of `size` descriptors allocated in host memory.
    pub fn queue(&self, udma: &Engine<A>, q: u8, size: u32) -> Pair {
        let bytes = u64::from(size) * 16;
        let tx_base = self.dev.alloc(self.host, bytes, 256).unwrap();
        let rx_base = self.dev.alloc(self.host, bytes, 256).unwrap();
        let q = QueueId::new(u32::from(q)).unwrap();
        udma.init_queue(
            q,
            RingConfig {
                bus_addr: tx_base,
                size,
            },
            RingConfig {
                bus_addr: rx_base,
                size,
            },
        )
        .unwrap();
        let n = size as usize;
        RingPair::new(
            q,
            DescRing::new(
                Direction::Tx,
                DeviceDescStore::new(self.dev.clone(), tx_base, n),
            )
            .unwrap(),
            DescRing::new(
                Direction::Rx,
                DeviceDescStore::new(self.dev.clone(), rx_base, n),
            )
            .unwrap(),
        )
    }

    /// A buffer of `len` bytes in `region`, filled with a pattern from `seed`.
    pub fn buffer(&self, region: RegionId, len: usize, seed: u32) -> (u64, Vec<u8>) {
        let addr = self.dev.alloc(region, len as u64, 64).unwrap();
        let data = pattern(len, seed);
        self.dev.write_mem(addr, &data).unwrap();
        (addr, data)
    }

    /// An empty (zeroed) buffer; `alloc` hands out zero bytes the first time.
    pub fn zeroed(&self, region: RegionId, len: usize) -> u64 {
        let addr = self.dev.alloc(region, len as u64, 64).unwrap();
        self.dev.with_memory(|m| m.fill(addr, len, 0)).unwrap();
        addr
    }

    /// Prepares one copy of `size` bytes host -> HBM from a fresh buffer patterned with `seed`
    /// to a fresh zeroed one; returns (src, dst, data).
    pub fn copy_one(&self, pair: &mut Pair, size: usize, seed: u32) -> (u64, u64, Vec<u8>) {
        let (src, data) = self.buffer(self.host, size, seed);
        let dst = self.zeroed(self.hbm, size);
        pair.copy_prepare_one::<A>(&CopyRequest::new(src, dst, size as u32))
            .unwrap();
        (src, dst, data)
    }

    /// Runs the device until idle and asserts that exactly `packets` packets moved and nothing
    /// faulted (showing the faults if something did).
    pub fn run_clean(&self, packets: u64) -> RunReport {
        let report = self.dev.run_until_idle();
        assert_eq!(
            (report.packets, report.faults),
            (packets, 0),
            "{:?}",
            self.dev.take_faults()
        );
        report
    }

    /// Every byte of every region.
    pub fn snapshot(&self) -> Vec<(u64, Vec<u8>)> {
        self.dev.with_memory(|m| {
            m.regions()
                .iter()
                .map(|r| (r.base(), m.read_vec(r.base(), r.size() as usize).unwrap()))
                .collect()
        })
    }

    /// Asserts that no byte outside `allowed` (DMA ranges) differs from `before`.
    pub fn assert_unchanged_outside(&self, before: &[(u64, Vec<u8>)], allowed: &[(u64, usize)]) {
        for ((base, old), (_, new)) in before.iter().zip(self.snapshot()) {
            if *old == new {
                continue;
            }
            for (i, (a, b)) in old.iter().zip(&new).enumerate() {
                let addr = base + i as u64;
                let inside = allowed
                    .iter()
                    .any(|&(s, l)| addr >= s && addr < s + l as u64);
                assert!(
                    a == b || inside,
                    "byte at {addr:#x} changed: {a:#x} -> {b:#x}"
                );
            }
        }
    }
}

/// Asserts that engine init alone left the unit's error-interrupt groups as the TX then RX
/// bring-up programs them with `A`'s masks: the model resets every group to all masked and
/// nothing aborting, so these values can only come from khal's init step.
fn assert_error_interrupts_brought_up<A: Arch>(udma: &Engine<A>) {
    // The masks are the arch's UDMA revision's (khal implements `IoficCaps` per revision).
    let genb = udma.regs().window(unit::GEN_BASE);
    let (tx, rx) = (m2s_errors(&genb), s2m_errors(&genb));
    let (parity, summary) = (parity_errors(&genb), primary_misc(&genb));
    assert_eq!(
        (u32::from(tx.masked()), u32::from(tx.aborting())),
        (
            !<A::Revision as IoficCaps>::M2S_ERROR_MASK,
            <A::Revision as IoficCaps>::M2S_ERROR_MASK
        ),
        "secondary A: TX error causes unmasked and aborting"
    );
    assert_eq!(
        (u32::from(rx.masked()), u32::from(rx.aborting())),
        (
            !<A::Revision as IoficCaps>::S2M_ERROR_MASK,
            <A::Revision as IoficCaps>::S2M_ERROR_MASK
        ),
        "secondary B: RX error causes unmasked and aborting"
    );
    assert_eq!(
        (u32::from(parity.masked()), u32::from(parity.aborting())),
        (
            !(<A::Revision as IoficCaps>::M2S_PARITY_MASK
                | <A::Revision as IoficCaps>::S2M_PARITY_MASK),
            <A::Revision as IoficCaps>::S2M_PARITY_MASK
        ),
        "secondary C: both parity halves unmasked, the RX abort write replaced the TX one"
    );
    assert_eq!(
        u32::from(summary.masked()),
        !(<A::Revision as IoficCaps>::M2S_PRIMARY_D_UNMASK
            | <A::Revision as IoficCaps>::S2M_PRIMARY_D_UNMASK),
        "primary D: the secondary summaries lifted"
    );
    for control in [tx.control(), rx.control(), summary.control()] {
        assert_eq!(control.into_bits(), Control::PROGRAMMED.into_bits());
    }
}

/// A deterministic byte pattern (xorshift), different per seed.
pub fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = u64::from(seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}
