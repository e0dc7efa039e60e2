//! How much memory a command may ask of the built-in model, checked before the model
//! allocates: an allocation the host cannot back would otherwise end the process.
//!
//! Two bounds, each for a reason:
//!
//! * **The arch.** An HBM channel of the chip holds `Scalars::hbm_active_size` bytes (16, 24
//!   and 36 GiB on V2, V3 and V4, the drivers' `v{2,3,4}/address_map.h`); the model maps
//!   each channel at most that large, so asking for more is a mistake on any machine.
//! * **The machine**, from `/proc/meminfo`. A copy writes its whole source and destination
//!   into the model, so both must fit `MemAvailable` ("an estimate of how much memory is
//!   available for starting new applications, without swapping", proc(5)). A served model
//!   commits only what clients write, so one of its regions needs only to be backable at
//!   all: at most `MemTotal + SwapTotal`, the bound above which Linux's default heuristic
//!   overcommit refuses an allocation outright (`vm.overcommit_memory` 0, `mm/util.c`).
//!
//! Where `/proc/meminfo` cannot be read (not Linux), only the arch bound applies.

use std::io::Read;

use khal::{Arch, Generation};

use crate::arch_select::{ArchVisitor, dispatch};
use crate::error::{Result, ToolError};

/// The figures of `/proc/meminfo` the bounds use, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostMemory {
    /// `MemTotal`: usable RAM.
    pub total: u64,
    /// `MemAvailable`: what a new program can use without swapping.
    pub available: u64,
    /// `SwapTotal` (0 when the line is missing).
    pub swap_total: u64,
}

impl HostMemory {
    /// Parses `/proc/meminfo` text (`Name:   N kB` lines); `None` without `MemTotal` or
    /// `MemAvailable`, or on a value that does not fit in bytes.
    ///
    /// ```
    /// use neuron_tool::memory_bound::HostMemory;
    /// let m = HostMemory::parse("MemTotal: 4 kB\nMemFree: 1 kB\nMemAvailable: 2 kB\n").unwrap();
    /// assert_eq!((m.total, m.available, m.swap_total), (4096, 2048, 0));
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        let field = |name: &str| -> Option<u64> {
            let line = text
                .lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))?;
            let kib = line.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()?;
            kib.checked_mul(1024)
        };
        Some(Self {
            total: field("MemTotal")?,
            available: field("MemAvailable")?,
            swap_total: field("SwapTotal").unwrap_or(0),
        })
    }

    /// This machine's figures; `None` where `/proc/meminfo` cannot be read or parsed.
    pub fn read() -> Option<Self> {
        // A few KiB in practice; bounded like any input.
        let mut text = String::new();
        std::fs::File::open("/proc/meminfo")
            .ok()?
            .take(1 << 16)
            .read_to_string(&mut text)
            .ok()?;
        Self::parse(&text)
    }

    /// The largest allocation the machine can back at all: RAM and swap.
    pub fn backable(&self) -> u64 {
        self.total.saturating_add(self.swap_total)
    }
}

/// Bytes one HBM channel of generation `g` holds, and the arch's code name.
pub fn hbm_channel(g: Generation) -> Result<(u64, &'static str)> {
    struct HbmChannel;
    impl ArchVisitor for HbmChannel {
        type Output = (u64, &'static str);
        fn visit<A: Arch>(self) -> Self::Output {
            (A::SCALARS.hbm_active_size, A::CODE_NAME)
        }
    }
    dispatch(g, HbmChannel)
}

/// Checks a copy of `size` bytes on a model of generation `g` whose copy writes `written`
/// bytes into host memory (its source and destination chunks, rings; the tool's own copy
/// of the source on the register-level path), against `host` (`None`: not known).
pub fn check_copy(g: Generation, size: u64, written: u64, host: Option<HostMemory>) -> Result<()> {
    let (max, arch) = hbm_channel(g)?;
    if size > max {
        return Err(ToolError::BadArgument(format!(
            "a copy of {size} bytes does not fit one HBM channel of {arch} ({max} bytes)"
        )));
    }
    match host {
        Some(m) if written > m.available => Err(ToolError::BadArgument(format!(
            "a copy of {size} bytes writes {written} bytes into the built-in model (source, \
             destination and rings), more than the {} bytes this machine has available \
             (MemAvailable, /proc/meminfo)",
            m.available
        ))),
        _ => Ok(()),
    }
}

/// Checks `serve --memory memory` for generation `g` against `host` (`None`: not known).
pub fn check_serve(g: Generation, memory: u64, host: Option<HostMemory>) -> Result<()> {
    let (max, arch) = hbm_channel(g)?;
    if memory > max {
        return Err(ToolError::BadArgument(format!(
            "--memory {memory} bytes is more than an HBM channel of {arch} holds ({max} bytes)"
        )));
    }
    match host {
        Some(m) if memory > m.backable() => Err(ToolError::BadArgument(format!(
            "--memory {memory} bytes is more than this machine's RAM and swap ({} bytes, \
             /proc/meminfo), so no region of the model that large can be allocated",
            m.backable()
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    /// A machine of `total` bytes RAM, `available` of them free, no swap.
    fn machine(total: u64, available: u64) -> Option<HostMemory> {
        Some(HostMemory {
            total,
            available,
            swap_total: 0,
        })
    }

    #[test]
    fn meminfo_is_read_in_kib() {
        let text = "MemTotal:       24683584 kB\nMemFree:        21218800 kB\n\
                    MemAvailable:   23404308 kB\nSwapCached: 0 kB\nSwapTotal:       1024 kB\n";
        let m = HostMemory::parse(text).unwrap();
        assert_eq!(m.total, 24_683_584 * 1024);
        assert_eq!(m.available, 23_404_308 * 1024);
        assert_eq!(m.backable(), (24_683_584 + 1024) * 1024);
        assert_eq!(HostMemory::parse("MemTotal: 1 kB\n"), None);
        assert_eq!(
            HostMemory::parse("MemTotal: x kB\nMemAvailable: 1 kB"),
            None
        );
        assert_eq!(
            HostMemory::parse("MemTotal: 18446744073709551615 kB\nMemAvailable: 1 kB"),
            None
        );
        // This machine's own file parses.
        if std::path::Path::new("/proc/meminfo").exists() {
            let m = HostMemory::read().unwrap();
            assert!(
                m.available <= m.total + m.swap_total && m.total > 0,
                "{m:?}"
            );
        }
    }

    #[test]
    fn a_serve_channel_is_bounded_by_the_arch_then_by_the_machine() {
        // khal: hbm_active_size 16 / 24 / 36 GiB (v2/v3/v4 address_map.h).
        for (g, max) in [
            (Generation::V2, 16 * GIB),
            (Generation::V3, 24 * GIB),
            (Generation::V4, 36 * GIB),
        ] {
            let big = machine(1024 * GIB, 1024 * GIB);
            check_serve(g, max, big).unwrap();
            let e = check_serve(g, max + 1, big).unwrap_err().to_string();
            assert!(e.contains("more than an HBM channel of"), "{e}");
        }
        let e = check_serve(Generation::V3, 1000 * GIB, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--memory 1073741824000 bytes is more than an HBM channel of CAYMAN holds \
             (25769803776 bytes)"
        );
        // Lazily committed: only RAM + swap bounds it, not what is free now.
        check_serve(Generation::V3, 8 * GIB, machine(8 * GIB, GIB)).unwrap();
        let e = check_serve(Generation::V3, 8 * GIB + 1, machine(8 * GIB, 8 * GIB))
            .unwrap_err()
            .to_string();
        assert!(e.contains("RAM and swap (8589934592 bytes"), "{e}");
    }

    #[test]
    fn a_copy_must_fit_a_channel_and_what_is_available() {
        check_copy(
            Generation::V3,
            20 * GIB,
            40 * GIB,
            machine(64 * GIB, 48 * GIB),
        )
        .unwrap();
        let e = check_copy(
            Generation::V3,
            20 * GIB,
            40 * GIB,
            machine(24 * GIB, 23 * GIB),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("writes 42949672960 bytes") && e.contains("24696061952 bytes this machine"),
            "{e}"
        );
        let e = check_copy(Generation::V2, 17 * GIB, 0, None).unwrap_err();
        assert!(e.to_string().contains("HBM channel of SUNDA"), "{e}");
        check_copy(Generation::V2, 16 * GIB, 32 * GIB, None).unwrap();
    }
}
