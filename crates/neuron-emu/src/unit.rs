//! One UDMA unit: its register file (M2S, S2M, gen) and the state behind it.
//!
//! Registers with behaviour (queue pointers, doorbells, `change_state`/`state`, the IOFIC
//! windows) are decoded here; every other register in the unit's window is plain storage that
//! reads back what was written (or its reset value), so bring-up code that programs AXI, prefetch
//! or address-selector registers sees ordinary hardware.

use khal::regs::queue::{self as kq, QSwCtrl, RingLen, TxRlimitMask};
use khal::regs::s2m::NoDescCfg;
use khal::regs::{general, m2s, s2m, unit as ub};
use mmio::{Placed, Register};

use udma_desc::Direction;

use crate::engine_state::EngineState;
use crate::engine_walk::WalkRules;
use crate::fault::Fault;
use crate::iofic_model::{GROUP_A, GROUP_B, Level, RaisedAbort, UnitIofic};
use crate::offset_hasher::OffsetMap;
use crate::queue::{QueueModel, ring_ptr_reg};
use crate::rule_registers::RuleRegisters;
use crate::ttt_model::TttModel;

/// Queues per direction.
pub const QUEUES: usize = udma_desc::QUEUES_PER_ENGINE as usize;

// Offsets inside a direction block that both directions share.
const STATE: usize = <m2s::State as Register>::OFFSET;
/// `m2s_feature.dma_version` (M2S only): read only, the UDMA revision.
const DMA_VERSION: usize = <m2s::DmaVersion as Register>::OFFSET;
const CHANGE_STATE: usize = <m2s::ChangeState as Register>::OFFSET;
const _: () = assert!(
    <s2m::State as Register>::OFFSET == STATE
        && <s2m::ChangeState as Register>::OFFSET == CHANGE_STATE
);
// Offsets inside a queue block.
const Q_CFG: usize = <kq::Cfg as Register>::OFFSET;
const Q_DRBP_LOW: usize = <kq::DrbpLow as Register>::OFFSET;
const Q_DRBP_HIGH: usize = <kq::DrbpHigh as Register>::OFFSET;
const Q_DRL: usize = <kq::Drl as Register>::OFFSET;
const Q_DRHP: usize = <kq::Drhp as Register>::OFFSET;
const Q_DRTP_INC: usize = <kq::DrtpInc as Register>::OFFSET;
const Q_DRTP: usize = <kq::Drtp as Register>::OFFSET;
const Q_DCP: usize = <kq::Dcp as Register>::OFFSET;
const Q_TX_RLIMIT_MASK: usize = <kq::TxRlimitMaskReg as Register>::OFFSET;

/// One direction (M2S or S2M) of a unit.
#[derive(Clone, Debug)]
pub(crate) struct DirectionModel {
    pub(crate) state: EngineState,
    pub(crate) queues: [QueueModel; QUEUES],
}

impl DirectionModel {
    fn new() -> Self {
        Self {
            state: EngineState::Disabled,
            queues: core::array::from_fn(|_| QueueModel::new()),
        }
    }
}

/// What a register write asks the scheduler to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wake {
    /// Nothing new can run.
    None,
    /// Queue pair `q` may be able to run.
    Queue(usize),
    /// Any queue pair of the unit may be able to run.
    All,
}

/// A decoded unit offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reg {
    Engine(Direction, usize),
    Queue(Direction, usize, usize),
    Gen(usize),
    Plain,
}

fn decode(off: usize) -> Reg {
    // The queue blocks: khal's block arrays (`TxQueue`, `RxQueue`), the one statement of
    // where queue q's registers are.
    if let Some((dir, q, rel)) = kq::locate_queue(off) {
        return Reg::Queue(dir, q, rel);
    }
    let (dir, rel, queues_start) = if off < ub::S2M_BASE {
        (Direction::Tx, off - ub::M2S_BASE, kq::TxQueue::BASE)
    } else if off < ub::GEN_BASE {
        (Direction::Rx, off - ub::S2M_BASE, kq::RxQueue::BASE)
    } else {
        return Reg::Gen(off - ub::GEN_BASE);
    };
    // Engine registers sit below the queue blocks; past the last queue block is storage.
    if off < queues_start {
        Reg::Engine(dir, rel)
    } else {
        Reg::Plain
    }
}

/// `q_sw_ctrl` sits at different offsets per direction (TX +0xb0, RX +0x64).
fn sw_ctrl_offset(dir: Direction) -> usize {
    match dir {
        Direction::Tx => <kq::TxQSwCtrl as Register>::OFFSET,
        Direction::Rx => <kq::RxQSwCtrl as Register>::OFFSET,
    }
}

/// Reset value of `m2s.cfg_len`: the largest packet size the field holds (`udma_desc`'s
/// `MAX_PACKET_BYTES`, the MAX_PKT_SIZE mask of `udma-bitfields.tsv`) with 64K-as-zero off,
/// until the bring-up turns it on. A model choice: neither source gives the hardware reset
/// value.
const CFG_LEN_RESET: u32 = m2s::CfgLen::new()
    .with_max_pkt_size(udma_desc::MAX_PACKET_BYTES)
    .into_bits();

/// Reset value of a plain register (unit offset), where the hardware's is not 0.
fn plain_reset_value(off: usize) -> u32 {
    if off == m2s::CfgLenReg::ABS {
        return CFG_LEN_RESET;
    }
    // The spare "ones" registers reset to all ones (udma-registers.tsv).
    if off == general::SpareOnes0::ABS || off == general::SpareOnes1::ABS {
        return u32::MAX;
    }
    if let Reg::Queue(Direction::Tx, _, Q_TX_RLIMIT_MASK) = decode(off) {
        return TxRlimitMask::RESET.into_bits();
    }
    0
}

/// Engine settings a packet runs with, read from the unit's plain registers (cached by the
/// unit until a plain register changes: see [`UnitModel::settings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Either stream interface is disabled (`stream_cfg`).
    pub(crate) stream_disabled: bool,
    /// What the engine walk applies.
    pub(crate) rules: WalkRules,
    /// The S2M "no descriptor" policy (S2M `+0x344`, seed 004 §2).
    pub(crate) no_desc: NoDescCfg,
}

impl Settings {
    /// Reads the settings from the unit's registers.
    fn read(unit: &UnitModel) -> Self {
        let words = RuleRegisters::OFFSETS.map(|off| unit.plain(off));
        Self {
            stream_disabled: unit
                .plain_as::<m2s::StreamCfgReg>(m2s::StreamCfgReg::ABS)
                .disable()
                || unit
                    .plain_as::<s2m::StreamCfgReg>(s2m::StreamCfgReg::ABS)
                    .stream_disabled(),
            rules: RuleRegisters::from_words(words).rules(),
            no_desc: unit.plain_as::<s2m::NoDescCfgReg>(s2m::NoDescCfgReg::ABS),
        }
    }
}

/// One UDMA unit.
#[derive(Clone, Debug)]
pub(crate) struct UnitModel {
    pub(crate) m2s: DirectionModel,
    pub(crate) s2m: DirectionModel,
    pub(crate) iofic: UnitIofic,
    /// The TTT in `gen_ex` (the ancestor HAL's Transaction Type Table, revision 4; see
    /// [`TttModel`]).
    pub(crate) ttt: TttModel,
    /// What `m2s_feature.dma_version` reads (the device's UDMA revision).
    pub(crate) dma_version: u32,
    plain: OffsetMap<u32>,
    /// The data path's per-packet view of the plain registers, read once and kept until the
    /// next plain register write (bring-up writes them; packets only read them).
    settings: Option<Settings>,
}

impl UnitModel {
    pub(crate) fn new() -> Self {
        Self {
            m2s: DirectionModel::new(),
            s2m: DirectionModel::new(),
            iofic: UnitIofic::new(),
            ttt: TttModel::default(),
            dma_version: khal::regs::m2s::UDMA_REV_ID_4,
            plain: OffsetMap::default(),
            settings: None,
        }
    }

    /// Stores a plain register; the cached packet settings are re-read on next use.
    fn set_plain(&mut self, off: usize, value: u32) {
        self.plain.insert(off, value);
        self.settings = None;
    }

    /// The engine settings a packet runs with, as the plain registers hold them now.
    pub(crate) fn settings(&mut self) -> Settings {
        if let Some(s) = self.settings {
            return s;
        }
        let s = Settings::read(self);
        self.settings = Some(s);
        s
    }

    pub(crate) fn dir(&self, d: Direction) -> &DirectionModel {
        match d {
            Direction::Tx => &self.m2s,
            Direction::Rx => &self.s2m,
        }
    }

    pub(crate) fn dir_mut(&mut self, d: Direction) -> &mut DirectionModel {
        match d {
            Direction::Tx => &mut self.m2s,
            Direction::Rx => &mut self.s2m,
        }
    }

    /// A plain register's value (unit offset).
    pub(crate) fn plain(&self, off: usize) -> u32 {
        self.plain
            .get(&off)
            .copied()
            .unwrap_or_else(|| plain_reset_value(off))
    }

    /// A plain register as its typed value; `abs` is its offset from the unit base.
    pub(crate) fn plain_as<R: Register>(&self, abs: usize) -> R::Value {
        R::Value::from(self.plain(abs))
    }

    /// Register read at a unit offset (4-byte aligned, inside the unit window).
    pub(crate) fn read(&mut self, off: usize) -> u32 {
        match decode(off) {
            Reg::Engine(d, STATE) => self.dir(d).state.register(),
            Reg::Engine(Direction::Tx, DMA_VERSION) => self.dma_version,
            Reg::Engine(_, CHANGE_STATE) => 0,
            Reg::Queue(d, q, reg) => {
                let Some(queue) = self.dir(d).queues.get(q) else {
                    return 0;
                };
                match reg {
                    Q_CFG => queue.cfg,
                    Q_DRBP_LOW => queue.base_low,
                    Q_DRBP_HIGH => queue.base_high,
                    Q_DRL => queue.len,
                    Q_DRHP | Q_DCP => ring_ptr_reg(queue.head),
                    Q_DRTP => ring_ptr_reg(queue.tail),
                    Q_DRTP_INC => 0,
                    x if x == sw_ctrl_offset(d) => 0,
                    _ => self.plain(off),
                }
            }
            Reg::Gen(g) => match self.iofic.read(g) {
                Some(v) => v,
                None => self.plain(off),
            },
            Reg::Engine(..) | Reg::Plain => self.plain(off),
        }
    }

    /// Register write at a unit offset; says which queue pairs may now run.
    pub(crate) fn write(&mut self, off: usize, value: u32) -> Wake {
        match decode(off) {
            Reg::Engine(_, STATE) | Reg::Engine(Direction::Tx, DMA_VERSION) => Wake::None,
            Reg::Engine(d, CHANGE_STATE) => {
                let dir = self.dir_mut(d);
                dir.state = dir.state.after_command(value);
                if dir.state == EngineState::Normal {
                    for q in &mut dir.queues {
                        q.blocked = None;
                    }
                    Wake::All
                } else {
                    Wake::None
                }
            }
            Reg::Queue(d, q, reg) => {
                let sw_ctrl = sw_ctrl_offset(d);
                let Some(queue) = self.dir_mut(d).queues.get_mut(q) else {
                    return Wake::None;
                };
                match reg {
                    Q_CFG => {
                        queue.cfg = value;
                        return Wake::Queue(q);
                    }
                    Q_DRBP_LOW => queue.set_base_low(value),
                    Q_DRBP_HIGH => queue.set_base_high(value),
                    Q_DRL => queue.set_len(RingLen::from_bits(value).descs()),
                    Q_DRTP_INC => {
                        queue.doorbell(value);
                        return Wake::Queue(q);
                    }
                    // Head, tail and current pointer are read only.
                    Q_DRHP | Q_DRTP | Q_DCP => {}
                    x if x == sw_ctrl => {
                        if QSwCtrl::from_bits(value).rst_q() {
                            queue.reset_pointers();
                        }
                    }
                    _ => {
                        self.set_plain(off, value);
                    }
                }
                Wake::None
            }
            Reg::Gen(g) => match self.iofic.write(g, value) {
                Some(abort) => {
                    self.apply_abort(abort);
                    Wake::None
                }
                None => {
                    self.set_plain(off, value);
                    Wake::None
                }
            },
            Reg::Engine(..) | Reg::Plain => {
                self.set_plain(off, value);
                // Stream enables and packet limits live here: let waiting queues re-check.
                Wake::All
            }
        }
    }

    fn apply_abort(&mut self, abort: RaisedAbort) {
        if abort.m2s {
            self.m2s.state = EngineState::Aborted;
        }
        if abort.s2m {
            self.s2m.state = EngineState::Aborted;
        }
    }

    /// Reports a fault on queue `q`: latches its cause in the secondary IOFIC group of its
    /// direction (unless the direction's `err_log_mask` hides it), aborts that direction when
    /// the cause's abort-mask bit is 0, and blocks the queue.
    pub(crate) fn report_fault(&mut self, q: usize, fault: &Fault) {
        let d = fault.direction();
        let bit = fault.cause_bit();
        let err_log_mask = match d {
            Direction::Tx => self.plain(m2s::ErrLogMaskReg::ABS),
            Direction::Rx => self.plain(s2m::ErrLogMaskReg::ABS),
        };
        let logged = err_log_mask & bit == 0;
        if logged {
            let group = match d {
                Direction::Tx => GROUP_A,
                Direction::Rx => GROUP_B,
            };
            let aborting = self.iofic.raise(Level::Secondary, group, bit);
            self.apply_abort(RaisedAbort::from_secondary(group, aborting));
        }
        if let Some(queue) = self.dir_mut(d).queues.get_mut(q) {
            queue.blocked = Some(crate::queue::QueueBlock::Fault);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Offsets here are literal `udma-registers.tsv` values (test vectors, independent of
    //! the khal constants the model uses).
    use super::*;

    const TXQ3: usize = 0x4000; // m2s_q 3 = 0x1000 + 3 * 0x1000
    const RXQ3: usize = 0x24000; // s2m_q 3 = 0x21000 + 3 * 0x1000
    const SEC_A: usize = 0x3a000;

    #[test]
    fn decode_covers_the_map() {
        assert_eq!(decode(0x204), Reg::Engine(Direction::Tx, 0x204));
        assert_eq!(decode(0x20200), Reg::Engine(Direction::Rx, 0x200));
        assert_eq!(decode(0x01038), Reg::Queue(Direction::Tx, 0, 0x38));
        assert_eq!(decode(0x10038), Reg::Queue(Direction::Tx, 15, 0x38));
        assert_eq!(decode(0x11000), Reg::Plain);
        assert_eq!(decode(0x21064), Reg::Queue(Direction::Rx, 0, 0x64));
        assert_eq!(decode(0x3a030), Reg::Gen(0x2030));
    }

    #[test]
    fn queue_registers_behave_like_the_reference() {
        let mut u = UnitModel::new();
        assert_eq!(u.read(TXQ3 + 0x20), 0x0300_0000, "cfg reset value");
        assert_eq!(u.read(TXQ3 + 0x74), 0x7, "rlimit.mask reset value");
        u.write(TXQ3 + 0x28, 0x1234_5640);
        u.write(TXQ3 + 0x2c, 0x10);
        u.write(TXQ3 + 0x30, 32);
        assert_eq!(u.m2s.queues[3].base(), 0x10_1234_5640);
        assert_eq!(u.write(TXQ3 + 0x38, 40), Wake::Queue(3));
        assert_eq!(u.read(TXQ3 + 0x3c), 0x8000_0008, "wrapped once: ring id 2");
        assert_eq!(u.read(TXQ3 + 0x34), 0x4000_0000, "head at 0, ring id 1");
        u.write(TXQ3 + 0x34, 5);
        assert_eq!(u.read(TXQ3 + 0x34), 0x4000_0000, "head is read only");
        u.write(TXQ3 + 0xb0, 0x100);
        assert_eq!(u.read(TXQ3 + 0x3c), 0x4000_0000, "reset tail");
        assert_eq!(u.m2s.queues[3].posted, 0);
        // RX reset is at +0x64, not +0xb0.
        u.write(RXQ3 + 0x30, 32);
        u.write(RXQ3 + 0x38, 2);
        u.write(RXQ3 + 0xb0, 0x100);
        assert_eq!(u.s2m.queues[3].posted, 2, "+0xb0 is plain storage on RX");
        u.write(RXQ3 + 0x64, 0x100);
        assert_eq!(u.s2m.queues[3].posted, 0);
    }

    #[test]
    fn change_state_and_state_readback() {
        let mut u = UnitModel::new();
        assert_eq!(u.read(0x200), 0);
        assert_eq!(u.write(0x204, 0x1), Wake::All);
        assert_eq!(u.read(0x200), 0x1111);
        assert_eq!(u.read(0x20200), 0, "directions are independent");
        u.write(0x204, 0x4);
        assert_eq!(u.read(0x200), 0x2222);
        u.write(0x204, 0x2);
        assert_eq!(u.read(0x200), 0);
    }

    #[test]
    fn faults_latch_abort_and_respect_err_log_mask() {
        let mut u = UnitModel::new();
        u.write(0x204, 0x1);
        u.write(SEC_A + 0x30, !0x0fff_ffff);
        let f = Fault::TxRingId {
            slot: 0,
            expected: udma_desc::RingId::INITIAL,
            found: udma_desc::RingId::INITIAL.next(),
        };
        u.write(0x20c, 1 << 17);
        u.report_fault(0, &f);
        assert_eq!(u.iofic.cause(Level::Secondary, GROUP_A), 0, "not logged");
        assert_eq!(u.m2s.state, EngineState::Normal);
        u.write(0x20c, 0);
        u.report_fault(0, &f);
        assert_eq!(u.iofic.cause(Level::Secondary, GROUP_A), 1 << 17);
        assert_eq!(u.m2s.state, EngineState::Aborted);
        assert_eq!(u.s2m.state, EngineState::Disabled, "S2M untouched");
    }

    #[test]
    fn plain_registers_store_and_have_reset_values() {
        let mut u = UnitModel::new();
        // Not a hardware fact (no source gives the reset value): the model's documented
        // choice, the MAX_PKT_SIZE field mask of udma-bitfields.tsv with ENCODE_64K clear.
        assert_eq!(u.read(0x254), 0x000f_ffff, "m2s.cfg_len model reset");
        assert_eq!(u.read(0x3b468), u32::MAX);
        assert_eq!(u.read(0x3b46c), u32::MAX);
        assert_eq!(u.read(0x3b460), 0);
        u.write(0x310, 0x0100_08f8);
        assert_eq!(u.read(0x310), 0x0100_08f8);
        u.write(0x3a300, 0x05f5_e100);
        assert_eq!(u.read(0x3a300), 0x05f5_e100);
    }

    #[test]
    fn cached_packet_settings_follow_every_register_they_read() {
        let mut u = UnitModel::new();
        let regs = [
            m2s::StreamCfgReg::ABS,
            s2m::StreamCfgReg::ABS,
            m2s::CfgLenReg::ABS,
            m2s::DescPrefCfg2Reg::ABS,
            m2s::ErrLogMaskReg::ABS,
            s2m::ErrLogMaskReg::ABS,
            s2m::NoDescCfgReg::ABS,
        ];
        for off in regs {
            let before = u.settings();
            let old = u.read(off);
            u.write(off, !old);
            assert_eq!(u.settings(), Settings::read(&u), "after writing {off:#x}");
            assert_ne!(u.settings(), before, "{off:#x} changes the settings");
            u.write(off, old);
            assert_eq!(u.settings(), before, "restoring {off:#x}");
        }
    }
}
