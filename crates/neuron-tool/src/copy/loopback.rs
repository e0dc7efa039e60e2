//! Test-only [`CopyDevice`]: two host buffers and a tiny engine that executes the rings the
//! way the device model does (FIRST/LAST framing, phase check with the +1-per-wrap rule,
//! one RX descriptor per TX data descriptor). It injects faults the copy logic must catch
//! (a corrupted byte, a dropped descriptor, an engine that never completes) independently of
//! any device model.

use std::cell::RefCell;
use std::rc::Rc;

use udma_desc::{
    DescRing, DescStore, Descriptor, Direction, Doorbell, QueueId, RingId, RingPair, TxLenCtrl,
};

use super::device::{CopyDevice, CopyQueue};

const SRC: u64 = 0x1_0000_0000;
const DST: u64 = 0x2_0000_0000;

/// A fault to inject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopbackFault {
    /// Flip one destination byte after the copy.
    FlipByte(u64),
    /// Do not move the data of the n-th descriptor (from 0).
    SkipDescriptor(u64),
    /// Never complete anything.
    Timeout,
}

/// Why the loopback engine stopped.
#[derive(Debug, thiserror::Error)]
pub enum LoopbackError {
    /// Fewer completions than waited for.
    #[error("engine did not complete {0} descriptors")]
    Incomplete(u32),
    /// A framing or phase error in the rings.
    #[error("ring error at slot {slot}: {what}")]
    Ring {
        /// The slot.
        slot: u32,
        /// What was wrong.
        what: &'static str,
    },
    /// An address outside the buffers.
    #[error("bus error at {0:#x}")]
    Bus(u64),
}

/// Ring storage shared between the copy (writer) and the engine (reader).
#[derive(Clone, Debug, Default)]
pub struct Shared(Rc<RefCell<Vec<Descriptor>>>);

impl DescStore for Shared {
    fn capacity(&self) -> usize {
        self.0.borrow().len()
    }
    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), udma_desc::Error> {
        self.0.borrow_mut().as_mut_slice().store(index, desc)
    }
    fn load(&self, index: u32) -> Result<Descriptor, udma_desc::Error> {
        self.0.borrow().as_slice().load(index)
    }
}

/// Posted-but-not-executed descriptor counts, shared by the doorbell and the engine.
#[derive(Clone, Debug, Default)]
pub struct Bell(Rc<RefCell<(u32, u32)>>);

impl Doorbell for Bell {
    fn ring_rx(&self, _: QueueId, count: u32) {
        self.0.borrow_mut().1 += count;
    }
    fn ring_tx(&self, _: QueueId, count: u32) {
        self.0.borrow_mut().0 += count;
    }
}

#[derive(Debug)]
struct Head {
    index: u32,
    phase: RingId,
}

impl Head {
    fn advance(&mut self, size: u32) {
        self.index += 1;
        if self.index == size {
            self.index = 0;
            self.phase = self.phase.next();
        }
    }
}

/// The test device.
#[derive(Debug)]
pub struct Loopback {
    src: Vec<u8>,
    dst: Vec<u8>,
    tx: Shared,
    rx: Shared,
    bell: Bell,
    heads: (Head, Head),
    size: u32,
    fault: Option<LoopbackFault>,
    opened: bool,
    descs: u64,
    packets: u64,
    max_packet: u32,
}

impl Loopback {
    /// Buffers of `bytes`, rings of `ring` descriptors.
    pub fn new(bytes: u64, ring: u32) -> Self {
        let n = usize::try_from(bytes).unwrap();
        Self {
            src: vec![0; n],
            dst: vec![0; n],
            tx: Shared(Rc::new(RefCell::new(vec![Descriptor::ZERO; ring as usize]))),
            rx: Shared(Rc::new(RefCell::new(vec![Descriptor::ZERO; ring as usize]))),
            bell: Bell::default(),
            heads: (
                Head {
                    index: 0,
                    phase: RingId::INITIAL,
                },
                Head {
                    index: 0,
                    phase: RingId::INITIAL,
                },
            ),
            size: ring,
            fault: None,
            opened: false,
            descs: 0,
            packets: 0,
            max_packet: 0,
        }
    }

    /// The same device with a fault.
    pub fn with_fault(mut self, f: LoopbackFault) -> Self {
        self.fault = Some(f);
        self
    }

    /// Whether `open_queue` was called.
    pub fn opened(&self) -> bool {
        self.opened
    }

    /// TX data descriptors executed.
    pub fn descriptors_executed(&self) -> u64 {
        self.descs
    }

    /// Packets executed.
    pub fn packets_executed(&self) -> u64 {
        self.packets
    }

    /// Most descriptors seen in one packet.
    pub fn max_packet_descs(&self) -> u32 {
        self.max_packet
    }

    /// Executes one packet; returns its descriptor count.
    fn packet(&mut self) -> Result<u32, LoopbackError> {
        let mut n = 0u32;
        loop {
            let slot = self.heads.0.index;
            let d = self.tx.load(slot).map_err(|_| LoopbackError::Bus(0))?;
            let c = TxLenCtrl::from_bits(d.word0());
            if d.ring_id() != self.heads.0.phase {
                return Err(LoopbackError::Ring {
                    slot,
                    what: "TX ring id",
                });
            }
            if (n == 0) != c.first() {
                return Err(LoopbackError::Ring {
                    slot,
                    what: "FIRST",
                });
            }
            let rslot = self.heads.1.index;
            let r = self.rx.load(rslot).map_err(|_| LoopbackError::Bus(0))?;
            if r.ring_id() != self.heads.1.phase {
                return Err(LoopbackError::Ring {
                    slot: rslot,
                    what: "RX ring id",
                });
            }
            let len = u64::from(c.size());
            let from = d
                .buf_ptr()
                .checked_sub(SRC)
                .ok_or(LoopbackError::Bus(d.buf_ptr()))?;
            let to = r
                .buf_ptr()
                .checked_sub(DST)
                .ok_or(LoopbackError::Bus(r.buf_ptr()))?;
            let data = self
                .src
                .get(from as usize..(from + len) as usize)
                .ok_or(LoopbackError::Bus(d.buf_ptr()))?
                .to_vec();
            if self.fault != Some(LoopbackFault::SkipDescriptor(self.descs)) {
                self.dst
                    .get_mut(to as usize..(to + len) as usize)
                    .ok_or(LoopbackError::Bus(r.buf_ptr()))?
                    .copy_from_slice(&data);
            }
            self.descs += 1;
            n += 1;
            self.heads.0.advance(self.size);
            self.heads.1.advance(self.size);
            if c.last() {
                self.packets += 1;
                self.max_packet = self.max_packet.max(n);
                return Ok(n);
            }
        }
    }
}

impl CopyDevice for Loopback {
    type Error = LoopbackError;
    type Queue<'q, A: khal::Arch> = LoopbackQueue<'q>;

    fn name(&self) -> String {
        "loopback".into()
    }

    fn open_queue<A: khal::Arch>(
        &mut self,
        queue: QueueId,
        ring_size: u32,
        bytes: u64,
    ) -> Result<LoopbackQueue<'_>, LoopbackError> {
        assert_eq!((ring_size, bytes as usize), (self.size, self.src.len()));
        self.opened = true;
        let ring = |dir, store| DescRing::with_size(dir, store, ring_size).unwrap();
        Ok(LoopbackQueue {
            rings: RingPair::new(
                queue,
                ring(Direction::Tx, self.tx.clone()),
                ring(Direction::Rx, self.rx.clone()),
            ),
            bell: self.bell.clone(),
            dev: self,
        })
    }
}

/// The loopback's queue: rings over the shared stores, the counting doorbell.
#[derive(Debug)]
pub struct LoopbackQueue<'q> {
    dev: &'q mut Loopback,
    rings: RingPair<Shared, Shared>,
    bell: Bell,
}

impl CopyQueue for LoopbackQueue<'_> {
    type Tx = Shared;
    type Rx = Shared;
    type Bell = Bell;
    type Error = LoopbackError;

    fn src(&self) -> u64 {
        SRC
    }

    fn dst(&self) -> u64 {
        DST
    }

    fn rings(&self) -> &RingPair<Shared, Shared> {
        &self.rings
    }

    fn rings_mut(&mut self) -> &mut RingPair<Shared, Shared> {
        &mut self.rings
    }

    fn bell(&self) -> &Bell {
        &self.bell
    }

    fn write_src(&mut self, offset: u64, data: &[u8]) -> Result<(), LoopbackError> {
        let off = offset as usize;
        self.dev
            .src
            .get_mut(off..off + data.len())
            .ok_or(LoopbackError::Bus(SRC + offset))?
            .copy_from_slice(data);
        Ok(())
    }

    fn read_dst(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), LoopbackError> {
        let dev = &mut *self.dev;
        let off = offset as usize;
        if let Some(LoopbackFault::FlipByte(at)) = dev.fault {
            if let Some(b) = dev.dst.get_mut(at as usize) {
                *b ^= 0xff;
            }
            dev.fault = None;
        }
        buf.copy_from_slice(
            dev.dst
                .get(off..off + buf.len())
                .ok_or(LoopbackError::Bus(DST + offset))?,
        );
        Ok(())
    }

    /// Executes every posted packet.
    fn wait(&mut self) -> Result<(), LoopbackError> {
        let posted = *self.bell.0.borrow();
        if self.dev.fault == Some(LoopbackFault::Timeout) {
            return Err(LoopbackError::Incomplete(posted.0));
        }
        while *self.bell.0.borrow() != (0, 0) {
            let (ptx, prx) = *self.bell.0.borrow();
            if ptx == 0 || prx == 0 {
                return Err(LoopbackError::Incomplete(ptx.max(prx)));
            }
            let n = self.dev.packet()?;
            let mut p = self.bell.0.borrow_mut();
            p.0 -= n;
            p.1 -= n;
        }
        Ok(())
    }
}
