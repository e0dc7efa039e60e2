//! The group registers as typed [`mmio::Register`]s, for code that holds a window positioned
//! at one group (`group_window.read::<IntControl>()`).

use mmio::Register;

use crate::Control;
use crate::layout::{ABORT_MASK, CAUSE, CAUSE_SET, CONTROL, MASK, MASK_CLEAR, STATUS};

macro_rules! group_register {
    ($(#[$meta:meta])* $name:ident, $offset:expr, $refname:literal, $value:ty) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name;

        impl Register for $name {
            const OFFSET: usize = $offset;
            const NAME: &'static str = $refname;
            type Value = $value;
        }
    };
}

group_register!(
    /// Latched causes (raw register value; 0 bits written clear).
    IntCause, CAUSE, "int_cause_grp", u32
);
group_register!(
    /// Cause-set: 1 bits written raise causes.
    IntCauseSet, CAUSE_SET, "int_cause_set_grp", u32
);
group_register!(
    /// Mask, 1 = masked.
    IntMask, MASK, "int_mask_grp", u32
);
group_register!(
    /// Mask-clear: 0 bits written unmask.
    IntMaskClear, MASK_CLEAR, "int_mask_clear_grp", u32
);
group_register!(
    /// Status.
    IntStatus, STATUS, "int_status_grp", u32
);
group_register!(
    /// Control flags.
    IntControl, CONTROL, "int_control_grp", Control
);
group_register!(
    /// Abort mask, 1 = does not abort (raw register value).
    IntAbortMask, ABORT_MASK, "int_abort_msk_grp", u32
);
