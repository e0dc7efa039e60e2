//! The group registers as typed [`mmio::Register`]s of one block kind, [`GroupRegs`] (one
//! group's 0x40-byte window; `reference/iofic.tsv` `group_field`, `udma-registers.tsv` block
//! `iofic`), for code that holds a window positioned at one group
//! (`group_window.read::<IntControl>()`). The offsets are [`crate::layout`]'s.

use crate::Control;
use crate::layout::{ABORT_MASK, CAUSE, CAUSE_SET, CONTROL, MASK, MASK_CLEAR, STATUS};

mmio::register! {
    /// One interrupt group's window: the kind every group of every level, and every
    /// single-group AXI-error controller, is.
    pub block GroupRegs = "iofic" {
        /// Latched causes (raw register value; 0 bits written clear).
        pub IntCause: u32 = "int_cause_grp" @ CAUSE;
        /// Cause-set: 1 bits written raise causes.
        pub IntCauseSet: u32 = "int_cause_set_grp" @ CAUSE_SET;
        /// Mask, 1 = masked.
        pub IntMask: u32 = "int_mask_grp" @ MASK;
        /// Mask-clear: 0 bits written unmask.
        pub IntMaskClear: u32 = "int_mask_clear_grp" @ MASK_CLEAR;
        /// Status.
        pub IntStatus: u32 = "int_status_grp" @ STATUS;
        /// Control flags.
        pub IntControl: Control = "int_control_grp" @ CONTROL;
        /// Abort mask, 1 = does not abort (raw register value).
        pub IntAbortMask: u32 = "int_abort_msk_grp" @ ABORT_MASK;
    }
}
