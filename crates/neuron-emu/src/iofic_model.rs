//! The hardware side of the IOFIC: what a group's registers do when written and read.
//!
//! The `iofic` crate drives these registers assuming exactly this behaviour
//! (`reference/iofic.tsv`, `udma-notes.md` section 9):
//!
//! * cause (+0x00) latches events; writing it **clears the bits written as 0** (write-0-to-clear,
//!   so unrelated causes survive a racing clear); with the external CLEAR_ON_READ control flag a
//!   read also clears what it returned;
//! * cause-set (+0x08) raises the bits written as 1 (a software interrupt); it reads 0;
//! * mask (+0x10) is a plain register, 1 = masked;
//! * mask-clear (+0x18) **unmasks the bits written as 0** and leaves the bits written as 1; it reads
//!   back the mask;
//! * status (+0x20) is the pending, unmasked causes: `cause & !mask` (read only);
//! * control (+0x28) is plain; with AUTO_MASK a cause that fires also sets its mask bit;
//! * abort mask (+0x30) is plain, 1 = this cause does **not** abort the engine.
//!
//! Reset state: no cause, everything masked, nothing aborting, control 0 (the driver's bring-up
//! is what unmasks and arms causes). Every source in the model is an event, so a cause latches
//! the same way with or without SET_ON_POSEDGE (an event is a rising edge).
//!
//! Summary bits are levels, computed at read time: primary group D bits 8, 9, 10, 11 are set while
//! secondary group A, B, C, D has a pending unmasked cause, and primary group A bits 0, 1, 2 while
//! primary group B, C, D has one. Clearing a summary bit in the primary cause therefore has no
//! effect until the secondary cause is cleared.

use iofic::layout::{
    AXI_ERROR_IN_GEN, AXI_ERROR_M2S_DESC_RD_IN_GEN, AXI_ERROR_MSIX_IN_GEN, AXI_ERROR_STRIDE,
    GROUP_STRIDE, GroupReg, LEVEL_WINDOW_SIZE, MAX_GROUPS, PRIMARY_BASE_IN_GEN,
    SECONDARY_BASE_IN_GEN, locate,
};
use iofic::{Control, ParityCause, SUMMARY_REV4};

pub use iofic::layout::{GROUP_A, GROUP_B, GROUP_C, GROUP_D};

/// Bits of the control register the model keeps: everything but the read-only controller
/// revision (bits 29:28; seed 004 §4 `al_iofic_handle_init` reads it as `(reg >> 28) & 3`).
/// No source gives the value silicon reports, so the model reports 0 (a model choice).
const CONTROL_WRITABLE: u32 = !control_revision_bits();

/// The bits of the control register that `Control::revision` reads.
const fn control_revision_bits() -> u32 {
    let mut mask = 0;
    let mut bit = 0;
    while bit < u32::BITS {
        if Control::from_bits(1 << bit).revision().get() != 0 {
            mask |= 1 << bit;
        }
        bit += 1;
    }
    mask
}
const _: () = assert!(control_revision_bits() == 0x3000_0000);

/// Primary group A bits that summarise primary groups B, C, D. The reference only says that
/// group A is "summary of the other groups"; the model uses bit g-1 for group g (B = bit 0,
/// C = bit 1, D = bit 2), the order of the Annapurna UDMA interrupt layout.
pub const PRIMARY_A_SUMMARY: [u32; 3] = [1 << 0, 1 << 1, 1 << 2];

/// The secondary level ends where the gen block's AXI registers start (`axi.cfg_1` at gen
/// +0x2300), so its window holds 12 groups, not the 16 a full level window would.
const SECONDARY_WINDOW_SIZE: usize =
    <khal::regs::general::AxiCfg1 as mmio::Register>::OFFSET - SECONDARY_BASE_IN_GEN;
const _: () = assert!(SECONDARY_WINDOW_SIZE == 0x300 && SECONDARY_WINDOW_SIZE <= LEVEL_WINDOW_SIZE);

/// Single-group AXI-error controllers in `gen` (the six the bring-up programs, then MSI-X).
const AXI_ERROR_CONTROLLERS: usize = AXI_ERROR_IN_GEN.len() + 1;
const _: () = assert!(
    AXI_ERROR_M2S_DESC_RD_IN_GEN + (AXI_ERROR_CONTROLLERS - 1) * AXI_ERROR_STRIDE
        == AXI_ERROR_MSIX_IN_GEN
);

/// One interrupt group (a 0x40-byte register window).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoficGroupModel {
    cause: u32,
    mask: u32,
    control: u32,
    abort_mask: u32,
}

impl Default for IoficGroupModel {
    fn default() -> Self {
        Self::new()
    }
}

impl IoficGroupModel {
    /// A group in its reset state: no cause, all masked, nothing aborts.
    pub const fn new() -> Self {
        Self {
            cause: 0,
            mask: u32::MAX,
            control: 0,
            abort_mask: u32::MAX,
        }
    }

    /// The latched causes (without summary bits).
    pub const fn latched(&self) -> u32 {
        self.cause
    }
    /// The mask (1 = masked).
    pub const fn mask(&self) -> u32 {
        self.mask
    }
    /// The control register.
    pub const fn control(&self) -> u32 {
        self.control
    }
    /// The abort mask (1 = does not abort).
    pub const fn abort_mask(&self) -> u32 {
        self.abort_mask
    }

    /// Pending unmasked causes, with `summary` level bits OR-ed into the cause.
    pub const fn status_with(&self, summary: u32) -> u32 {
        (self.cause | summary) & !self.mask
    }

    /// Latches `bits` (an error or completion event); returns the bits that abort the engine
    /// (those whose abort-mask bit is 0).
    pub fn latch(&mut self, bits: u32) -> u32 {
        self.cause |= bits;
        if Control::from_bits(self.control).auto_mask() {
            self.mask |= bits;
        }
        bits & !self.abort_mask
    }

    /// A register read at `offset` inside the group window; `summary` are the level bits the
    /// group's cause register shows on top of the latched ones.
    pub(crate) fn read(&mut self, reg: GroupReg, summary: u32) -> u32 {
        match reg {
            GroupReg::Cause => {
                let value = self.cause | summary;
                if Control::from_bits(self.control).clear_on_read() {
                    self.cause = 0;
                }
                value
            }
            GroupReg::CauseSet => 0,
            GroupReg::Mask | GroupReg::MaskClear => self.mask,
            GroupReg::Status => self.status_with(summary),
            GroupReg::Control => self.control,
            GroupReg::AbortMask => self.abort_mask,
        }
    }

    /// A register write to `reg`; returns the bits that abort the engine when the write
    /// raised causes (cause-set).
    pub(crate) fn write(&mut self, reg: GroupReg, value: u32) -> u32 {
        match reg {
            // Write-0-to-clear: bits written as 0 clear, 1 bits keep.
            GroupReg::Cause => self.cause &= value,
            GroupReg::CauseSet => return self.latch(value),
            GroupReg::Mask => self.mask = value,
            // Write-0-to-clear view of the mask: 0 bits unmask, 1 bits leave the mask bit.
            GroupReg::MaskClear => self.mask &= value,
            GroupReg::Status => {}
            GroupReg::Control => self.control = value & CONTROL_WRITABLE,
            GroupReg::AbortMask => self.abort_mask = value,
        }
        0
    }
}

/// Which level of a unit's interrupt controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// The primary controller: A summary, B RX completions, C TX completions, D misc/summaries.
    Primary,
    /// The secondary controller: A M2S errors, B S2M errors, C AXI FIFO parity.
    Secondary,
}

/// The interrupt controllers of one UDMA unit: primary, secondary and the single-group
/// AXI-error controllers of the gen block.
#[derive(Clone, Debug)]
pub struct UnitIofic {
    primary: [IoficGroupModel; MAX_GROUPS],
    secondary: [IoficGroupModel; MAX_GROUPS],
    axi_error: [IoficGroupModel; AXI_ERROR_CONTROLLERS],
}

impl Default for UnitIofic {
    fn default() -> Self {
        Self::new()
    }
}

impl UnitIofic {
    /// All groups in their reset state.
    pub fn new() -> Self {
        Self {
            primary: core::array::from_fn(|_| IoficGroupModel::new()),
            secondary: core::array::from_fn(|_| IoficGroupModel::new()),
            axi_error: core::array::from_fn(|_| IoficGroupModel::new()),
        }
    }

    /// The group model, if the level has that group.
    pub fn group(&self, level: Level, group: usize) -> Option<&IoficGroupModel> {
        match level {
            Level::Primary => self.primary.get(group),
            Level::Secondary => self.secondary.get(group),
        }
    }

    fn group_mut(&mut self, level: Level, group: usize) -> Option<&mut IoficGroupModel> {
        match level {
            Level::Primary => self.primary.get_mut(group),
            Level::Secondary => self.secondary.get_mut(group),
        }
    }

    /// Summary bits primary group D shows for the secondary level.
    fn primary_d_summary(&self) -> u32 {
        self.secondary
            .iter()
            .zip(SUMMARY_REV4)
            .filter(|(g, _)| g.status_with(0) != 0)
            .fold(0, |acc, (_, bit)| acc | bit.bits())
    }

    /// Summary bits primary group A shows for primary groups B, C, D.
    fn primary_a_summary(&self) -> u32 {
        let d_summary = self.primary_d_summary();
        let pending = [
            self.primary.get(GROUP_B).map_or(0, |g| g.status_with(0)),
            self.primary.get(GROUP_C).map_or(0, |g| g.status_with(0)),
            self.primary
                .get(GROUP_D)
                .map_or(0, |g| g.status_with(d_summary)),
        ];
        pending
            .iter()
            .zip(PRIMARY_A_SUMMARY)
            .filter(|(p, _)| **p != 0)
            .fold(0, |acc, (_, bit)| acc | bit)
    }

    /// The summary (level) bits a group's cause register shows.
    pub fn summary(&self, level: Level, group: usize) -> u32 {
        match (level, group) {
            (Level::Primary, GROUP_A) => self.primary_a_summary(),
            (Level::Primary, GROUP_D) => self.primary_d_summary(),
            _ => 0,
        }
    }

    /// What the group's cause register reads (latched causes plus summary bits), without the
    /// side effect of CLEAR_ON_READ.
    pub fn cause(&self, level: Level, group: usize) -> u32 {
        self.group(level, group)
            .map_or(0, |g| g.latched() | self.summary(level, group))
    }

    /// What the group's status register reads.
    pub fn status(&self, level: Level, group: usize) -> u32 {
        self.group(level, group)
            .map_or(0, |g| g.status_with(self.summary(level, group)))
    }

    /// Latches `bits` in a group; returns the bits that abort the engine.
    pub fn raise(&mut self, level: Level, group: usize, bits: u32) -> u32 {
        self.group_mut(level, group).map_or(0, |g| g.latch(bits))
    }

    /// Decodes an offset inside the gen block to (controller, group, register).
    fn decode(gen_offset: usize) -> Option<(Ctl, usize, GroupReg)> {
        let in_level = |base: usize, size: usize| {
            let off = gen_offset.checked_sub(base)?;
            (off < size).then_some(off)
        };
        if let Some(off) = in_level(PRIMARY_BASE_IN_GEN, LEVEL_WINDOW_SIZE) {
            let (g, reg) = locate(off)?;
            return Some((Ctl::Primary, g, reg));
        }
        if let Some(off) = in_level(SECONDARY_BASE_IN_GEN, SECONDARY_WINDOW_SIZE) {
            let (g, reg) = locate(off)?;
            return Some((Ctl::Secondary, g, reg));
        }
        let off = gen_offset.checked_sub(AXI_ERROR_M2S_DESC_RD_IN_GEN)?;
        let ctl = off / AXI_ERROR_STRIDE;
        let in_group = off % AXI_ERROR_STRIDE;
        if ctl >= AXI_ERROR_CONTROLLERS || in_group >= GROUP_STRIDE {
            return None;
        }
        Some((Ctl::AxiError, ctl, GroupReg::from_offset(in_group)?))
    }

    /// Handles a register read at an offset inside the gen block; `None` if no IOFIC
    /// register is there.
    pub(crate) fn read(&mut self, gen_offset: usize) -> Option<u32> {
        let (ctl, group, reg) = Self::decode(gen_offset)?;
        let (level, g) = match ctl {
            Ctl::Primary => (Level::Primary, group),
            Ctl::Secondary => (Level::Secondary, group),
            Ctl::AxiError => return self.axi_error.get_mut(group).map(|g| g.read(reg, 0)),
        };
        let summary = self.summary(level, g);
        self.group_mut(level, g).map(|grp| grp.read(reg, summary))
    }

    /// Handles a register write at an offset inside the gen block. Returns `None` if no IOFIC
    /// register is there, else the directions a cause-set write made abort.
    pub(crate) fn write(&mut self, gen_offset: usize, value: u32) -> Option<RaisedAbort> {
        let (ctl, group, reg) = Self::decode(gen_offset)?;
        let aborting = match ctl {
            Ctl::Primary => self.primary.get_mut(group)?.write(reg, value),
            Ctl::Secondary => self.secondary.get_mut(group)?.write(reg, value),
            Ctl::AxiError => {
                self.axi_error.get_mut(group)?.write(reg, value);
                0
            }
        };
        Some(match ctl {
            Ctl::Secondary => RaisedAbort::from_secondary(group, aborting),
            _ => RaisedAbort::default(),
        })
    }
}

/// Which engine directions an event aborts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RaisedAbort {
    pub(crate) m2s: bool,
    pub(crate) s2m: bool,
}

impl RaisedAbort {
    /// Secondary group A aborts M2S, B aborts S2M, C splits by bit (TX bits 0-5, RX 6-11).
    pub(crate) fn from_secondary(group: usize, aborting: u32) -> Self {
        match group {
            GROUP_A => Self {
                m2s: aborting != 0,
                s2m: false,
            },
            GROUP_B => Self {
                m2s: false,
                s2m: aborting != 0,
            },
            GROUP_C => Self {
                m2s: aborting & ParityCause::M2S.bits() != 0,
                s2m: aborting & !ParityCause::M2S.bits() != 0,
            },
            _ => Self::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctl {
    Primary,
    Secondary,
    AxiError,
}

#[cfg(test)]
mod tests {
    use super::*;
    use iofic::layout::{ABORT_MASK, CAUSE, CAUSE_SET, CONTROL, MASK, MASK_CLEAR, STATUS};

    const SEC: usize = SECONDARY_BASE_IN_GEN;
    const PRI: usize = PRIMARY_BASE_IN_GEN;
    const fn reg(base: usize, group: usize, off: usize) -> usize {
        base + group * GROUP_STRIDE + off
    }

    #[test]
    fn mask_clear_unmasks_only_zero_bits() {
        let mut g = IoficGroupModel::new();
        g.write(GroupReg::MaskClear, !0x0000_0500);
        assert_eq!(g.mask(), !0x0000_0500);
        g.write(GroupReg::MaskClear, !0x0000_0200);
        assert_eq!(g.mask(), !0x0000_0700, "earlier unmasks survive");
        g.write(GroupReg::Mask, 0x1);
        assert_eq!(
            g.read(GroupReg::MaskClear, 0),
            0x1,
            "mask-clear reads the mask"
        );
    }

    #[test]
    fn cause_write_zero_clears_and_cause_set_latches() {
        let mut g = IoficGroupModel::new();
        g.write(GroupReg::CauseSet, 0b1011);
        assert_eq!(g.latched(), 0b1011);
        g.write(GroupReg::Cause, !0b0010);
        assert_eq!(g.latched(), 0b1001, "only the 0 bit cleared");
        assert_eq!(g.read(GroupReg::CauseSet, 0), 0);
        g.write(GroupReg::Cause, 0xffff_ffff);
        assert_eq!(g.latched(), 0b1001, "writing ones clears nothing");
    }

    #[test]
    fn status_is_unmasked_cause_and_abort_mask_selects_aborts() {
        let mut g = IoficGroupModel::new();
        assert_eq!(g.latch(0x30), 0, "reset abort mask: nothing aborts");
        assert_eq!(
            g.read(GroupReg::Status, 0),
            0,
            "reset mask: nothing pending"
        );
        g.write(GroupReg::MaskClear, !0x10);
        assert_eq!(g.read(GroupReg::Status, 0), 0x10);
        g.write(GroupReg::AbortMask, !0x20);
        assert_eq!(g.latch(0x30), 0x20);
    }

    #[test]
    fn control_flags_clear_on_read_and_auto_mask_and_read_only_revision() {
        let mut g = IoficGroupModel::new();
        g.write(GroupReg::Mask, 0);
        let c = Control::new().with_clear_on_read(true).with_auto_mask(true);
        g.write(GroupReg::Control, c.into_bits() | 0x3000_0000);
        assert_eq!(
            g.read(GroupReg::Control, 0),
            c.into_bits(),
            "revision bits are read only"
        );
        g.latch(0x4);
        assert_eq!(g.mask(), 0x4, "auto-mask masked the cause that fired");
        assert_eq!(g.read(GroupReg::Cause, 0), 0x4);
        assert_eq!(g.read(GroupReg::Cause, 0), 0, "cleared by the first read");
    }

    #[test]
    fn secondary_causes_summarise_into_primary_d_and_a() {
        let mut io = UnitIofic::new();
        // The driver's M2S policy: unmask secondary A and primary D bits 8 and 10.
        io.write(reg(SEC, GROUP_A, MASK_CLEAR), !0x0fff_ffff);
        io.write(reg(PRI, GROUP_D, MASK_CLEAR), !0x500);
        io.write(reg(SEC, GROUP_A, ABORT_MASK), !0x0fff_ffff);
        let abort = io.write(reg(SEC, GROUP_A, CAUSE_SET), 1 << 17);
        assert_eq!(
            abort,
            Some(RaisedAbort {
                m2s: true,
                s2m: false
            })
        );
        assert_eq!(io.read(reg(PRI, GROUP_D, CAUSE)), Some(0x100));
        assert_eq!(io.read(reg(PRI, GROUP_D, STATUS)), Some(0x100));
        io.write(reg(PRI, GROUP_A, MASK_CLEAR), !0x4);
        assert_eq!(
            io.status(Level::Primary, GROUP_A),
            0x4,
            "A bit 2 summarises D"
        );
        // Clearing the primary summary bit does nothing while the secondary is pending.
        io.write(reg(PRI, GROUP_D, CAUSE), !0x100);
        assert_eq!(io.cause(Level::Primary, GROUP_D), 0x100);
        io.write(reg(SEC, GROUP_A, CAUSE), 0);
        assert_eq!(io.cause(Level::Primary, GROUP_D), 0);
        assert_eq!(io.cause(Level::Primary, GROUP_A), 0);
        // A masked secondary cause does not summarise.
        io.raise(Level::Secondary, GROUP_B, 1 << 3);
        assert_eq!(io.cause(Level::Primary, GROUP_D), 0);
        // Group C summarises into bit 10.
        io.write(reg(SEC, GROUP_C, MASK_CLEAR), 0);
        io.raise(Level::Secondary, GROUP_C, 1);
        assert_eq!(io.cause(Level::Primary, GROUP_D), 0x400);
    }

    #[test]
    fn secondary_c_splits_abort_by_direction() {
        assert_eq!(
            RaisedAbort::from_secondary(GROUP_C, 0x40),
            RaisedAbort {
                m2s: false,
                s2m: true
            }
        );
        assert_eq!(
            RaisedAbort::from_secondary(GROUP_C, 0x1),
            RaisedAbort {
                m2s: true,
                s2m: false
            }
        );
    }

    #[test]
    fn axi_error_controllers_are_plain_groups_and_gaps_are_not_iofic() {
        let mut io = UnitIofic::new();
        let base = AXI_ERROR_M2S_DESC_RD_IN_GEN + AXI_ERROR_STRIDE;
        assert!(io.write(base + CONTROL, 0x28).is_some());
        assert_eq!(io.read(base + CONTROL), Some(0x28));
        assert_eq!(io.read(AXI_ERROR_MSIX_IN_GEN + MASK), Some(u32::MAX));
        assert_eq!(io.read(base + GROUP_STRIDE), None, "past the single group");
        assert_eq!(
            io.read(0x2300),
            None,
            "the AXI timeout register is not an IOFIC"
        );
        assert_eq!(io.read(PRI + 0x04), None, "a hole in the group window");
    }
}
