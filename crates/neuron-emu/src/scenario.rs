//! A byte-coded script of host actions against a small device: the fuzz target's input
//! format, also used to replay a failing input in a test.
//!
//! A script is a sequence of operations, each an opcode byte followed by its arguments
//! (little-endian). Every byte string is a valid script: unknown opcodes are skipped and a
//! truncated operation ends the script. [`ScenarioBuilder`] writes scripts (the fuzz seeds
//! are built with it); [`run_script`] executes one against a fresh [`Scenario::device`].
//!
//! The device is small on purpose, so random addresses and offsets often hit something:
//! two units at BAR0 offsets [`UNIT_BASES`], a 64 KiB device region at [`HBM_BASE`] and a
//! 64 KiB host region at [`HOST_BASE`].

use iofic::layout::{
    ABORT_MASK, CAUSE, CAUSE_SET, GROUP_STRIDE, MASK_CLEAR, SECONDARY_BASE_IN_UNIT,
};
use khal::regs::queue::{self as kq, QSwCtrl, QueueCfg, RingLen, RingPtr, TailInc};
use khal::regs::{ChangeStateCmd, m2s, s2m, unit as ub};
use mmio::{Mmio, MmioExt, Register};
use udma_desc::Direction;

use crate::address_space::{AddressSpace, RegionKind, RegionSpec};
use crate::device::{Device, ExecMode};
use crate::unit::QUEUES;

/// BAR0 offsets of the scenario device's two units.
pub const UNIT_BASES: [usize; 2] = [0x0, 0x4_0000];
/// DMA address of the scenario device's HBM region.
pub const HBM_BASE: u64 = 0x0;
/// DMA address of the scenario device's host region (the V2 PCIe host base).
pub const HOST_BASE: u64 = 0x1000_0000_0000;
/// Bytes in each scenario region.
pub const REGION_BYTES: u64 = 0x1_0000;
/// Most packets one `Run` operation executes (keeps a hostile script fast).
pub const MAX_STEPS_PER_RUN: u64 = 256;

/// Opcodes of the script.
mod op {
    pub const REG_WRITE: u8 = 0;
    pub const RAW_REG_WRITE: u8 = 1;
    pub const DESC_WRITE: u8 = 2;
    pub const MEM_WRITE: u8 = 3;
    pub const RUN: u8 = 4;
    pub const STEP: u8 = 5;
    pub const REG_READ: u8 = 6;
    pub const DOORBELL: u8 = 7;
    pub const QUEUE_SETUP: u8 = 8;
    pub const RAW_MEM_WRITE: u8 = 9;
    pub const ENGINE_UP: u8 = 10;
    pub const COUNT: u8 = 11;
}

/// A register a `RegWrite` / `RegRead` can name by index.
#[derive(Clone, Copy, Debug)]
enum Named {
    /// Offset inside the queue block of the operation's direction.
    Queue(usize),
    /// The direction's `q_sw_ctrl` (TX +0xb0, RX +0x64).
    QueueSwCtrl,
    /// Offset inside the operation's direction block.
    Dir(usize),
    /// Offset from the unit base.
    Unit(usize),
}

/// The registers scripts name by index (index modulo the length).
const NAMED_REGS: [Named; 16] = [
    Named::Queue(<kq::Cfg as Register>::OFFSET),
    Named::Queue(<kq::DrbpLow as Register>::OFFSET),
    Named::Queue(<kq::DrbpHigh as Register>::OFFSET),
    Named::Queue(<kq::Drl as Register>::OFFSET),
    Named::Queue(<kq::DrtpInc as Register>::OFFSET),
    Named::Queue(<kq::Drhp as Register>::OFFSET),
    Named::Queue(<kq::Drtp as Register>::OFFSET),
    Named::QueueSwCtrl,
    Named::Dir(<m2s::ChangeState as Register>::OFFSET),
    Named::Dir(<m2s::State as Register>::OFFSET),
    Named::Unit(m2s::CfgLenReg::ABS),
    Named::Dir(<m2s::ErrLogMaskReg as Register>::OFFSET),
    Named::Unit(m2s::DescPrefCfg2Reg::ABS),
    Named::Unit(SECONDARY_BASE_IN_UNIT + ABORT_MASK),
    Named::Unit(SECONDARY_BASE_IN_UNIT + CAUSE),
    Named::Unit(SECONDARY_BASE_IN_UNIT + GROUP_STRIDE + CAUSE_SET),
];

/// Which region a region selector byte names.
fn region_base(sel: u8) -> u64 {
    if sel & 1 == 0 { HBM_BASE } else { HOST_BASE }
}

/// Builds scripts (fuzz seeds, replay tests).
#[derive(Clone, Debug, Default)]
pub struct ScenarioBuilder {
    bytes: Vec<u8>,
}

/// The direction selector byte of script operations: 0 = M2S (TX), 1 = S2M (RX).
const fn dir_code(dir: Direction) -> u8 {
    match dir {
        Direction::Tx => 0,
        Direction::Rx => 1,
    }
}

impl ScenarioBuilder {
    /// An empty script.
    pub fn new() -> Self {
        Self::default()
    }

    /// The script bytes.
    pub fn build(self) -> Vec<u8> {
        self.bytes
    }

    fn push(mut self, b: &[u8]) -> Self {
        self.bytes.extend_from_slice(b);
        self
    }

    /// Writes `value` to named register `index` (see the module docs) of queue `q`,
    /// direction `dir` (queue registers) or of the unit (engine registers; `dir` selects the
    /// M2S or S2M copy).
    pub fn reg_write(self, unit: u8, dir: Direction, q: u8, index: u8, value: u32) -> Self {
        self.push(&[op::REG_WRITE, unit, dir_code(dir), q, index])
            .push(&value.to_le_bytes())
    }

    /// Writes `value` at a raw unit offset.
    pub fn raw_reg_write(self, unit: u8, offset: u32, value: u32) -> Self {
        self.push(&[op::RAW_REG_WRITE, unit])
            .push(&offset.to_le_bytes())
            .push(&value.to_le_bytes())
    }

    /// Writes 16 descriptor bytes at region offset `slot * 16`.
    pub fn desc_write(self, region: u8, slot: u16, desc: [u8; 16]) -> Self {
        self.push(&[op::DESC_WRITE, region])
            .push(&slot.to_le_bytes())
            .push(&desc)
    }

    /// Writes up to 255 bytes at a region offset.
    pub fn mem_write(self, region: u8, offset: u16, data: &[u8]) -> Self {
        let n = u8::try_from(data.len()).unwrap_or(u8::MAX);
        let data = data.get(..usize::from(n)).unwrap_or_default();
        self.push(&[op::MEM_WRITE, region])
            .push(&offset.to_le_bytes())
            .push(&[n])
            .push(data)
    }

    /// Writes `len` copies of `byte` at any 64-bit DMA address (exercises bus errors).
    pub fn raw_mem_write(self, addr: u64, len: u8, byte: u8) -> Self {
        self.push(&[op::RAW_MEM_WRITE])
            .push(&addr.to_le_bytes())
            .push(&[len, byte])
    }

    /// Runs at most `steps` packets.
    pub fn run(self, steps: u8) -> Self {
        self.push(&[op::RUN, steps])
    }

    /// Runs one packet.
    pub fn step(self) -> Self {
        self.push(&[op::STEP])
    }

    /// Reads named register `index`.
    pub fn reg_read(self, unit: u8, dir: Direction, q: u8, index: u8) -> Self {
        self.push(&[op::REG_READ, unit, dir_code(dir), q, index])
    }

    /// Rings the doorbell of queue `q` with `count`.
    pub fn doorbell(self, unit: u8, dir: Direction, q: u8, count: u8) -> Self {
        self.push(&[op::DOORBELL, unit, dir_code(dir), q, count])
    }

    /// Programs queue `q` of both directions as the vendor queue init does: TX ring at
    /// `tx_slot * 16` and RX ring at `rx_slot * 16` in `region`, `len` descriptors, enabled.
    pub fn queue_setup(
        self,
        unit: u8,
        q: u8,
        region: u8,
        tx_slot: u16,
        rx_slot: u16,
        len: u8,
    ) -> Self {
        self.push(&[op::QUEUE_SETUP, unit, q, region])
            .push(&tx_slot.to_le_bytes())
            .push(&rx_slot.to_le_bytes())
            .push(&[len])
    }

    /// Engine bring-up of a unit: 64K-as-zero, error causes unmasked and aborting, both
    /// directions NORMAL.
    pub fn engine_up(self, unit: u8) -> Self {
        self.push(&[op::ENGINE_UP, unit])
    }
}

/// The largest packet `m2s.cfg_len` can allow (its 20-bit field, all ones).
const fn packet_max() -> u32 {
    m2s::CfgLen::from_bits(u32::MAX).max_pkt_size()
}

/// The device scripts run against.
#[derive(Debug)]
pub struct Scenario {
    device: Device,
}

impl Default for Scenario {
    fn default() -> Self {
        Self::new()
    }
}

impl Scenario {
    /// A fresh scenario device (manual execution).
    pub fn new() -> Self {
        let mut mem = AddressSpace::new();
        // Fixed, disjoint regions: mapping cannot fail.
        let _ = mem.map(RegionSpec::new(
            "hbm0",
            RegionKind::Device { channel: 0 },
            HBM_BASE,
            REGION_BYTES,
        ));
        let _ = mem.map(RegionSpec::new(
            "host",
            RegionKind::Host,
            HOST_BASE,
            REGION_BYTES,
        ));
        let device = Device::from_address_space(mem, UNIT_BASES.to_vec(), ExecMode::Manual);
        Self { device }
    }

    /// The device.
    pub fn device(&self) -> &Device {
        &self.device
    }

    fn unit_base(unit: u8) -> usize {
        UNIT_BASES
            .get(usize::from(unit) % UNIT_BASES.len())
            .copied()
            .unwrap_or(0)
    }

    fn dir_base(dir: u8) -> usize {
        if dir & 1 == 0 {
            ub::M2S_BASE
        } else {
            ub::S2M_BASE
        }
    }

    fn sw_ctrl(dir: u8) -> usize {
        if dir & 1 == 0 {
            <kq::TxQSwCtrl as Register>::OFFSET
        } else {
            <kq::RxQSwCtrl as Register>::OFFSET
        }
    }

    /// Queue `q % 16`'s block of direction `dir & 1` (khal's queue block arrays).
    fn queue_base(dir: u8, q: u8) -> usize {
        let dir = if dir & 1 == 0 {
            Direction::Tx
        } else {
            Direction::Rx
        };
        // `q % 16` is a queue id: `new` cannot fail.
        udma_desc::QueueId::new(u32::from(q) % udma_desc::QUEUES_PER_ENGINE as u32)
            .map_or(0, |q| kq::queue_base(dir, q))
    }

    fn named_offset(unit: u8, dir: u8, q: u8, index: u8) -> usize {
        let named = NAMED_REGS
            .get(usize::from(index) % NAMED_REGS.len())
            .copied()
            .unwrap_or(Named::Unit(0));
        let off = match named {
            Named::Queue(off) => Self::queue_base(dir, q) + off,
            Named::QueueSwCtrl => Self::queue_base(dir, q) + Self::sw_ctrl(dir),
            Named::Dir(off) => Self::dir_base(dir) + off,
            Named::Unit(off) => off,
        };
        Self::unit_base(unit) + off
    }

    /// Executes a script; returns the number of operations run.
    pub fn run_script(&self, script: &[u8]) -> usize {
        let mut cur = Cursor(script);
        let mut ops = 0;
        while let Some(code) = cur.u8() {
            if self.exec(code % op::COUNT, &mut cur).is_none() {
                break;
            }
            ops += 1;
        }
        ops
    }

    fn exec(&self, code: u8, c: &mut Cursor<'_>) -> Option<()> {
        let d = &self.device;
        match code {
            op::REG_WRITE => {
                let (unit, dir, q, index) = (c.u8()?, c.u8()?, c.u8()?, c.u8()?);
                d.write32(Self::named_offset(unit, dir, q, index), c.u32()?);
            }
            op::RAW_REG_WRITE => {
                let unit = c.u8()?;
                let off = usize::try_from(c.u32()?).ok()?;
                d.write32(Self::unit_base(unit).wrapping_add(off), c.u32()?);
            }
            op::DESC_WRITE => {
                let base = region_base(c.u8()?);
                let slot = u64::from(c.u16()?);
                let bytes = c.take(16)?;
                let _ = d.write_mem(base + slot * 16, bytes);
            }
            op::MEM_WRITE => {
                let base = region_base(c.u8()?);
                let off = u64::from(c.u16()?);
                let n = usize::from(c.u8()?);
                let bytes = c.take(n)?;
                let _ = d.write_mem(base + off, bytes);
            }
            op::RUN => {
                let n = u64::from(c.u8()?).min(MAX_STEPS_PER_RUN);
                d.run(n);
            }
            op::STEP => {
                d.step();
            }
            op::REG_READ => {
                let (unit, dir, q, index) = (c.u8()?, c.u8()?, c.u8()?, c.u8()?);
                d.read32(Self::named_offset(unit, dir, q, index));
            }
            op::DOORBELL => {
                let (unit, dir, q, count) = (c.u8()?, c.u8()?, c.u8()?, c.u8()?);
                d.window(Self::unit_base(unit) + Self::queue_base(dir, q))
                    .write::<kq::DrtpInc>(TailInc::new().with_val(u32::from(count)));
            }
            op::QUEUE_SETUP => self.queue_setup(c)?,
            op::RAW_MEM_WRITE => {
                let addr = c.u64()?;
                let (n, byte) = (usize::from(c.u8()?), c.u8()?);
                let _ = d.with_memory(|m| m.fill(addr, n, byte));
            }
            op::ENGINE_UP => self.engine_up(c.u8()?),
            _ => {}
        }
        Some(())
    }

    /// `QUEUE_SETUP unit q region tx_slot rx_slot len`: both rings of queue `q` reset,
    /// placed at the slots of `region` and enabled, as a bring-up writes them.
    fn queue_setup(&self, c: &mut Cursor<'_>) -> Option<()> {
        let d = &self.device;
        let (unit, q, region) = (c.u8()?, c.u8()?, c.u8()?);
        let (tx_slot, rx_slot, len) = (c.u16()?, c.u16()?, c.u8()?);
        let base = region_base(region);
        for (dir, slot) in [(0u8, tx_slot), (1u8, rx_slot)] {
            let qw = d.window(Self::unit_base(unit) + Self::queue_base(dir, q));
            let ring = base + u64::from(slot) * 16;
            qw.write::<kq::Cfg>(QueueCfg::RESET);
            qw.write32(
                Self::sw_ctrl(dir),
                QSwCtrl::new().with_rst_q(true).into_bits(),
            );
            qw.write::<kq::DrbpLow>((ring & 0xffff_ffff) as u32);
            qw.write::<kq::DrbpHigh>((ring >> 32) as u32);
            qw.write::<kq::Drl>(RingLen::new().with_descs(u32::from(len)));
            qw.write::<kq::Cfg>(QueueCfg::RESET.enabled());
        }
        Some(())
    }

    /// `ENGINE_UP unit`: the packet limit, both secondary groups' abort and causes
    /// unmasked, and both directions to NORMAL.
    fn engine_up(&self, unit: u8) {
        let u = self.device.window(Self::unit_base(unit));
        u.write::<m2s::CfgLenReg>(
            m2s::CfgLen::new()
                .with_max_pkt_size(packet_max())
                .with_encode_64k(true),
        );
        for g in 0..2 {
            let group = SECONDARY_BASE_IN_UNIT + g * GROUP_STRIDE;
            u.write32(group + ABORT_MASK, 0);
            u.write32(group + MASK_CLEAR, 0);
        }
        let normal = ChangeStateCmd::new().with_normal(true);
        u.window(ub::M2S_BASE).write::<m2s::ChangeState>(normal);
        u.window(ub::S2M_BASE).write::<s2m::ChangeState>(normal);
    }
}

/// Executes `script` against a fresh scenario device; returns the device for inspection.
pub fn run_script(script: &[u8]) -> Scenario {
    let s = Scenario::new();
    s.run_script(script);
    s
}

struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, tail) = self.0.split_at_checked(n)?;
        self.0 = tail;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1)?.first().copied()
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// Slots of each ring `run_rings` sets up.
const RINGS_SLOTS: u8 = 32;
/// Host-region offset of the RX ring in `run_rings` (the TX ring is at 0).
const RINGS_RX_OFFSET: u16 = 0x200;
/// Host-region offset where `run_rings` puts the rest of the input (source data).
const RINGS_DATA_OFFSET: u64 = 0x1000;

/// Flags byte of [`run_rings`].
pub mod rings_flag {
    /// Turn off ring-id checking in both directions (`err_log_mask`).
    pub const NO_RING_ID_CHECK: u8 = 1 << 0;
    /// Ring TX before RX.
    pub const TX_FIRST: u8 = 1 << 1;
    /// Rebase every descriptor's buffer address into the host region.
    pub const REBASE_HOST: u8 = 1 << 2;
    /// Rebase every descriptor's buffer address into the HBM region.
    pub const REBASE_HBM: u8 = 1 << 3;
    /// Run in `OnDoorbell` mode instead of explicit runs.
    pub const ON_DOORBELL: u8 = 1 << 4;
}

/// Runs arbitrary ring bytes on a brought-up engine (unit 0, queue 0, both rings of
/// 32 slots in the host region).
///
/// Input: `[tx_count, rx_count, flags, TX ring (512 bytes), RX ring (512 bytes), data...]`;
/// missing bytes read as 0. The flags ([`rings_flag`]) can rebase descriptor addresses into a
/// region so the data path, not only the bus-error path, is reached.
pub fn run_rings(data: &[u8]) -> Scenario {
    let s = Scenario::new();
    let d = &s.device;
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let (tx_count, rx_count, flags) = (byte(0), byte(1), byte(2));
    let setup = ScenarioBuilder::new()
        .engine_up(0)
        .queue_setup(0, 0, 1, 0, RINGS_RX_OFFSET / 16, RINGS_SLOTS)
        .build();
    s.run_script(&setup);
    if flags & rings_flag::NO_RING_ID_CHECK != 0 {
        let u = d.window(UNIT_BASES[0]);
        u.window(ub::M2S_BASE)
            .write::<m2s::ErrLogMaskReg>(m2s::ErrLogMask::new().with_pref_ring_id(true));
        u.window(ub::S2M_BASE)
            .write::<s2m::ErrLogMaskReg>(s2m::ErrLogMask::new().with_pref_ring_id(true));
    }
    let ring_bytes = usize::from(RINGS_SLOTS) * 16;
    let body = data.get(3..).unwrap_or_default();
    let (rings, rest) = body.split_at(body.len().min(2 * ring_bytes));
    let mut rings = rings.to_vec();
    rings.resize(2 * ring_bytes, 0);
    let rebase = match flags & (rings_flag::REBASE_HOST | rings_flag::REBASE_HBM) {
        0 => None,
        f if f & rings_flag::REBASE_HOST != 0 => Some(HOST_BASE),
        _ => Some(HBM_BASE),
    };
    if let Some(base) = rebase {
        for slot in rings.chunks_exact_mut(16) {
            if let Some(addr) = slot.get_mut(8..16) {
                let mut a = [0u8; 8];
                a.copy_from_slice(addr);
                let rebased = base | (u64::from_le_bytes(a) % REGION_BYTES);
                addr.copy_from_slice(&rebased.to_le_bytes());
            }
        }
    }
    let (tx_ring, rx_ring) = rings.split_at(ring_bytes);
    let _ = d.write_mem(HOST_BASE, tx_ring);
    let _ = d.write_mem(HOST_BASE + u64::from(RINGS_RX_OFFSET), rx_ring);
    let n = rest
        .len()
        .min(usize::try_from(REGION_BYTES - RINGS_DATA_OFFSET).unwrap_or(0));
    let _ = d.write_mem(
        HOST_BASE + RINGS_DATA_OFFSET,
        rest.get(..n).unwrap_or_default(),
    );
    if flags & rings_flag::ON_DOORBELL != 0 {
        d.set_exec_mode(ExecMode::OnDoorbell);
    }
    let tx = ScenarioBuilder::new().doorbell(0, Direction::Tx, 0, tx_count);
    let rx = ScenarioBuilder::new().doorbell(0, Direction::Rx, 0, rx_count);
    let (a, b) = if flags & rings_flag::TX_FIRST != 0 {
        (tx, rx)
    } else {
        (rx, tx)
    };
    for _ in 0..2 {
        s.run_script(&a.clone().build());
        s.run_script(&b.clone().build());
        d.run(MAX_STEPS_PER_RUN);
    }
    s
}

/// An invariant of the model that a script broke.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("model invariant broken: {0}")]
pub struct InvariantViolation(pub String);

impl Scenario {
    /// Checks what must hold after any script: the memory map is unchanged, every engine
    /// state register reads one of its three legal values, every queue pointer is a 24-bit
    /// index with a 2-bit ring id and no stray bits, and accesses outside the units read as
    /// bus errors.
    pub fn check(&self) -> Result<(), InvariantViolation> {
        let bad = |m: String| Err(InvariantViolation(m));
        let sizes: Vec<u64> = self
            .device
            .with_memory(|m| m.regions().iter().map(|r| r.size()).collect());
        if sizes != [REGION_BYTES, REGION_BYTES] {
            return bad(format!("regions changed: {sizes:?}"));
        }
        for (u, &base) in UNIT_BASES.iter().enumerate() {
            for dir in [0u8, 1] {
                let state = self
                    .device
                    .window(base + Self::dir_base(dir))
                    .read::<m2s::State>();
                let fields = [
                    state.comp_ctrl(),
                    state.stream_if(),
                    state.data_ctrl(),
                    state.desc_pref(),
                ];
                let legal = fields.iter().all(|f| *f == state.comp_ctrl())
                    && state.comp_ctrl() != khal::regs::SubUnitState::Reserved
                    && state.into_bits() & !0x3333 == 0;
                if !legal {
                    return bad(format!("unit {u} dir {dir}: state {state:?}"));
                }
                for q in 0..QUEUES as u8 {
                    let qw = self.device.window(base + Self::queue_base(dir, q));
                    let len = qw.read::<kq::Drl>().descs();
                    for ptr in [qw.read::<kq::Drhp>(), qw.read::<kq::Drtp>()] {
                        let raw = ptr.into_bits();
                        let canonical = RingPtr::new()
                            .with_offset(ptr.offset())
                            .with_ring_id(ptr.ring_id())
                            .into_bits();
                        // A ring length rewritten after doorbells (without the queue reset
                        // the vendor init does) leaves the pointers where they were, so the
                        // index may exceed the new length; it must stay a canonical pointer.
                        if raw != canonical {
                            return bad(format!("unit {u} q {q}: pointer {raw:#x}, len {len}"));
                        }
                    }
                }
            }
        }
        // Past the last unit's registers: its kernel structure, then the TTT in gen_ex.
        let past = UNIT_BASES.iter().max().copied().unwrap_or(0) + khal::regs::ttt::TTT_IN_UNIT.end;
        if self.device.read32(past) != mmio::BUS_ERROR_READ {
            return bad(format!("{past:#x} decoded as a register"));
        }
        Ok(())
    }
}

/// Panics with the violation if [`Scenario::check`] fails (what a fuzz target wants).
///
/// # Panics
/// When an invariant is broken: that is a model bug the fuzzer reports.
pub fn check_invariants(s: &Scenario) {
    if let Err(e) = s.check() {
        panic!("{e}");
    }
}
