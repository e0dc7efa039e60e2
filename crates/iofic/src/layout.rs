//! Where the IOFIC registers are: the group window, the levels inside `gen`, and the
//! single-group AXI-error controllers.
//!
//! Every number here is a fact from `reference/iofic.tsv` (sections `group_field`, `layout`,
//! `axi_error_iofic`, `level`) and `reference/udma-notes.md` sections 0 and 9; each is asserted
//! at compile time below, and `tests/layout.rs` re-checks them against the parsed table.
//!
//! Offsets come in three frames, named by suffix:
//! * group-relative (`CAUSE`, `MASK`, ...): from the start of one group's 0x40-byte window;
//! * `_IN_GEN`: from the start of the UDMA `gen` block (which is at [`GEN_BASE_IN_UNIT`]);
//! * `_IN_UNIT`: from the UDMA unit base (what the kernel trace in `iofic.tsv` shows).
//!
//! The device model (`neuron-emu`) decodes accesses with [`GroupReg::from_offset`] and
//! [`locate`] instead of re-deriving these numbers.

/// Latched causes (`int_cause_grp`). Write-0-to-clear: a 0 bit clears that cause, a 1 keeps it.
pub const CAUSE: usize = 0x00;
/// Cause-set (`int_cause_set_grp`): a 1 bit raises that cause (software interrupt); 0 is ignored.
pub const CAUSE_SET: usize = 0x08;
/// Mask (`int_mask_grp`): 1 = masked. A plain read/write register.
pub const MASK: usize = 0x10;
/// Mask-clear (`int_mask_clear_grp`): write-0-to-clear view of [`MASK`]; a 0 bit unmasks,
/// a 1 bit leaves the mask bit alone. Atomic, so no read-modify-write is needed.
pub const MASK_CLEAR: usize = 0x18;
/// Status (`int_status_grp`): current interrupt status (read only for software).
pub const STATUS: usize = 0x20;
/// Control (`int_control_grp`): group flags, see [`crate::Control`].
pub const CONTROL: usize = 0x28;
/// Abort mask (`int_abort_msk_grp`): 1 = this cause does NOT abort the engine. Plain register,
/// always overwritten whole.
pub const ABORT_MASK: usize = 0x30;

/// Bytes per group window; group `g` of a level starts at `g * GROUP_STRIDE`.
pub const GROUP_STRIDE: usize = 0x40;
/// Bytes of one level's window (the primary controller has room for 16 groups).
pub const LEVEL_WINDOW_SIZE: usize = 0x400;
/// Most groups a level window can hold (`LEVEL_WINDOW_SIZE / GROUP_STRIDE`): the bound
/// [`crate::Level::new`] checks a requested group count against.
pub const MAX_GROUPS: usize = LEVEL_WINDOW_SIZE / GROUP_STRIDE;

/// Group A (index 0) of a level.
pub const GROUP_A: usize = 0;
/// Group B (index 1) of a level.
pub const GROUP_B: usize = 1;
/// Group C (index 2) of a level.
pub const GROUP_C: usize = 2;
/// Group D (index 3) of a level.
pub const GROUP_D: usize = 3;

/// Groups of the primary level in use (A..D).
pub const PRIMARY_GROUPS: usize = 4;
/// Groups of the secondary level in use from UDMA revision 4 (A..C; C holds AXI FIFO parity).
pub const SECONDARY_GROUPS_REV4: usize = 3;
/// Groups of the secondary level in use before UDMA revision 4 (A..B).
pub const SECONDARY_GROUPS_OLD: usize = 2;

/// The UDMA `gen` block, from the unit base. The primary level is its first register.
pub const GEN_BASE_IN_UNIT: usize = 0x38000;
/// Primary level (groups A..D) from the `gen` block: it starts the block.
pub const PRIMARY_BASE_IN_GEN: usize = 0x0;
/// Secondary level (groups A..C) from the `gen` block.
pub const SECONDARY_BASE_IN_GEN: usize = 0x2000;
/// Primary level from the unit base.
pub const PRIMARY_BASE_IN_UNIT: usize = GEN_BASE_IN_UNIT + PRIMARY_BASE_IN_GEN;
/// Secondary level from the unit base.
pub const SECONDARY_BASE_IN_UNIT: usize = GEN_BASE_IN_UNIT + SECONDARY_BASE_IN_GEN;

/// Distance between the single-group AXI-error controllers.
pub const AXI_ERROR_STRIDE: usize = 0x100;
/// TX descriptor-read AXI-error controller, from `gen`.
pub const AXI_ERROR_M2S_DESC_RD_IN_GEN: usize = 0x2d00;
/// TX data-read AXI-error controller, from `gen`.
pub const AXI_ERROR_M2S_DATA_RD_IN_GEN: usize = 0x2e00;
/// TX completion-write AXI-error controller, from `gen`.
pub const AXI_ERROR_M2S_CMPL_WR_IN_GEN: usize = 0x2f00;
/// RX descriptor-read AXI-error controller, from `gen`.
pub const AXI_ERROR_S2M_DESC_RD_IN_GEN: usize = 0x3000;
/// RX data-write AXI-error controller, from `gen`.
pub const AXI_ERROR_S2M_DATA_WR_IN_GEN: usize = 0x3100;
/// RX completion-write AXI-error controller, from `gen`.
pub const AXI_ERROR_S2M_CMPL_WR_IN_GEN: usize = 0x3200;
/// MSI-X AXI-error controller, from `gen`. The kernel never programs it.
pub const AXI_ERROR_MSIX_IN_GEN: usize = 0x3300;
/// The six AXI-error controllers the abort programming touches, in programming order.
pub const AXI_ERROR_IN_GEN: [usize; 6] = [
    AXI_ERROR_M2S_DESC_RD_IN_GEN,
    AXI_ERROR_M2S_DATA_RD_IN_GEN,
    AXI_ERROR_M2S_CMPL_WR_IN_GEN,
    AXI_ERROR_S2M_DESC_RD_IN_GEN,
    AXI_ERROR_S2M_DATA_WR_IN_GEN,
    AXI_ERROR_S2M_CMPL_WR_IN_GEN,
];

/// Byte offset of group `index` inside a level window (no range check; see [`MAX_GROUPS`]).
pub const fn group_base(index: usize) -> usize {
    index.wrapping_mul(GROUP_STRIDE)
}

/// One register of a group window. Lets the device model and traces name an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupReg {
    /// [`CAUSE`].
    Cause,
    /// [`CAUSE_SET`].
    CauseSet,
    /// [`MASK`].
    Mask,
    /// [`MASK_CLEAR`].
    MaskClear,
    /// [`STATUS`].
    Status,
    /// [`CONTROL`].
    Control,
    /// [`ABORT_MASK`].
    AbortMask,
}

impl GroupReg {
    /// Every register of the window, in offset order.
    pub const ALL: [GroupReg; 7] = [
        GroupReg::Cause,
        GroupReg::CauseSet,
        GroupReg::Mask,
        GroupReg::MaskClear,
        GroupReg::Status,
        GroupReg::Control,
        GroupReg::AbortMask,
    ];

    /// Offset inside the group window.
    pub const fn offset(self) -> usize {
        match self {
            GroupReg::Cause => CAUSE,
            GroupReg::CauseSet => CAUSE_SET,
            GroupReg::Mask => MASK,
            GroupReg::MaskClear => MASK_CLEAR,
            GroupReg::Status => STATUS,
            GroupReg::Control => CONTROL,
            GroupReg::AbortMask => ABORT_MASK,
        }
    }

    /// The register at a group-relative offset, or `None` for a hole or a misaligned offset.
    pub const fn from_offset(offset: usize) -> Option<GroupReg> {
        match offset {
            CAUSE => Some(GroupReg::Cause),
            CAUSE_SET => Some(GroupReg::CauseSet),
            MASK => Some(GroupReg::Mask),
            MASK_CLEAR => Some(GroupReg::MaskClear),
            STATUS => Some(GroupReg::Status),
            CONTROL => Some(GroupReg::Control),
            ABORT_MASK => Some(GroupReg::AbortMask),
            _ => None,
        }
    }

    /// Name as in the reference tables (`int_cause_grp`, ...): the typed register's
    /// ([`crate::regs`]).
    pub const fn name(self) -> &'static str {
        use crate::regs::{
            IntAbortMask, IntCause, IntCauseSet, IntControl, IntMask, IntMaskClear, IntStatus,
        };
        use mmio::Register;
        match self {
            GroupReg::Cause => IntCause::NAME,
            GroupReg::CauseSet => IntCauseSet::NAME,
            GroupReg::Mask => IntMask::NAME,
            GroupReg::MaskClear => IntMaskClear::NAME,
            GroupReg::Status => IntStatus::NAME,
            GroupReg::Control => IntControl::NAME,
            GroupReg::AbortMask => IntAbortMask::NAME,
        }
    }
}

/// Splits an offset inside a level window into (group index, register).
///
/// `None` when the offset is past [`LEVEL_WINDOW_SIZE`] or not a register of the group window.
///
/// ```
/// use iofic::layout::{locate, GroupReg};
/// assert_eq!(locate(0xd8), Some((3, GroupReg::MaskClear))); // primary D mask-clear
/// assert_eq!(locate(0x04), None);
/// ```
pub const fn locate(offset_in_level: usize) -> Option<(usize, GroupReg)> {
    if offset_in_level >= LEVEL_WINDOW_SIZE {
        return None;
    }
    match GroupReg::from_offset(offset_in_level % GROUP_STRIDE) {
        Some(reg) => Some((offset_in_level / GROUP_STRIDE, reg)),
        None => None,
    }
}

// Compile-time checks against the reference (iofic.tsv `group_field`, `layout`,
// `axi_error_iofic`; udma-registers.tsv `gen` rows).
const _: () = {
    assert!(CAUSE == 0x00 && CAUSE_SET == 0x08 && MASK == 0x10 && MASK_CLEAR == 0x18);
    assert!(STATUS == 0x20 && CONTROL == 0x28 && ABORT_MASK == 0x30);
    assert!(
        ABORT_MASK + 4 <= GROUP_STRIDE,
        "the window holds every register"
    );
    assert!(GROUP_STRIDE == 0x40 && LEVEL_WINDOW_SIZE == 0x400 && MAX_GROUPS == 16);
    assert!(PRIMARY_GROUPS == 4 && SECONDARY_GROUPS_REV4 == 3 && SECONDARY_GROUPS_OLD == 2);
    assert!(PRIMARY_GROUPS <= MAX_GROUPS && SECONDARY_GROUPS_REV4 <= MAX_GROUPS);
    assert!(PRIMARY_BASE_IN_UNIT == 0x38000 && SECONDARY_BASE_IN_UNIT == 0x3a000);
    assert!(PRIMARY_BASE_IN_GEN + LEVEL_WINDOW_SIZE <= SECONDARY_BASE_IN_GEN);
    assert!(AXI_ERROR_M2S_DESC_RD_IN_GEN + GEN_BASE_IN_UNIT == 0x3ad00);
    assert!(AXI_ERROR_MSIX_IN_GEN + GEN_BASE_IN_UNIT == 0x3b300);
    assert!(SECONDARY_BASE_IN_GEN + LEVEL_WINDOW_SIZE <= AXI_ERROR_M2S_DESC_RD_IN_GEN);
    // The AXI-error controllers are evenly spaced, and each single group fits its slot.
    let [a, b, c, d, e, f] = AXI_ERROR_IN_GEN;
    assert!(b == a + AXI_ERROR_STRIDE && c == b + AXI_ERROR_STRIDE);
    assert!(d == c + AXI_ERROR_STRIDE && e == d + AXI_ERROR_STRIDE);
    assert!(f == e + AXI_ERROR_STRIDE);
    assert!(AXI_ERROR_MSIX_IN_GEN == AXI_ERROR_S2M_CMPL_WR_IN_GEN + AXI_ERROR_STRIDE);
    assert!(GROUP_STRIDE <= AXI_ERROR_STRIDE);
    // Kernel trace spot checks (iofic.tsv `unmask_write.*`): secondary A control, primary D
    // mask-clear, secondary C abort mask.
    assert!(SECONDARY_BASE_IN_UNIT + group_base(GROUP_A) + CONTROL == 0x3a028);
    assert!(PRIMARY_BASE_IN_UNIT + group_base(GROUP_D) + MASK_CLEAR == 0x380d8);
    assert!(SECONDARY_BASE_IN_UNIT + group_base(GROUP_C) + ABORT_MASK == 0x3a0b0);
};
