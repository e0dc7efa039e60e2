//! The clocks events are stamped with: `CLOCK_MONOTONIC` for event times and durations (what
//! both recorders on one machine share), `CLOCK_REALTIME` once in the header to place the
//! trace in the day.

use rustix::time::{ClockId, clock_gettime};

fn ns(t: rustix::time::Timespec) -> u64 {
    let secs = u64::try_from(t.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(t.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// `CLOCK_MONOTONIC` in nanoseconds.
pub fn monotonic_ns() -> u64 {
    ns(clock_gettime(ClockId::Monotonic))
}

/// `CLOCK_REALTIME` in nanoseconds since the Unix epoch.
pub fn wall_ns() -> u64 {
    ns(clock_gettime(ClockId::Realtime))
}
