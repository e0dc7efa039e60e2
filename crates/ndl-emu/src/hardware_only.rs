//! The commands the model cannot serve because they need hardware it does not have
//! (device firmware, hardware counters), and the errno each answers instead: the one the
//! driver gives on a device without that feature, where the reference says it, and
//! otherwise the errno the driver uses for the nearest documented refusal (the reason says
//! which). Every other command is modelled; none answers ENOSYS.

use ndl_abi::{Command, POST_METRIC, READ_HW_COUNTERS, THROTTLING_NOTIFICATIONS};
use ndl_std::ENOTSUPP;
use ndl_std::Errno;

/// One command the model refuses, with its errno and why.
#[derive(Clone, Copy, Debug)]
pub struct HardwareOnly {
    /// The command.
    pub command: Command,
    /// What the model answers (after the lane and attach gates, like the handler would).
    pub errno: Errno,
    /// Why, and where the errno comes from.
    pub reason: &'static str,
}

/// The table.
pub const HARDWARE_ONLY: [HardwareOnly; 3] = [
    HardwareOnly {
        command: POST_METRIC.command(),
        errno: ENOTSUPP,
        reason: "posts to the device firmware, which the model lacks; the reference gives no \
                 errno for a device without firmware, ENOTSUPP is what the driver answers for \
                 firmware features it cannot use (THROTTLING_NOTIFICATIONS, POWER_PROFILE)",
    },
    HardwareOnly {
        command: READ_HW_COUNTERS.command(),
        errno: Errno::INVAL,
        reason: "reads hardware counters at kernel addresses the model has no counter block \
                 for; EINVAL is the driver's answer to an address outside its mappings \
                 (BAR_READ since 2.26.5.0)",
    },
    HardwareOnly {
        command: THROTTLING_NOTIFICATIONS.command(),
        errno: ENOTSUPP,
        reason: "sends firmware command 5; the model has no firmware, and the driver answers \
                 ENOTSUPP when the firmware API version is below 7 (ioctl-commands.tsv)",
    },
];

/// The model's refusal of request `code`, if it is one of [`HARDWARE_ONLY`].
pub fn refusal(code: u32) -> Option<Errno> {
    HARDWARE_ONLY
        .iter()
        .find(|h| h.command.code() == code)
        .map(|h| h.errno)
}
