//! `neuron-tool compat --runtime-version V [--device NODE | --driver R] [--arch A]`: whether a
//! runtime of compatibility version V can run there, in one sentence, and why not.
//!
//! A driver accepts the runtimes whose compatibility version lies in the window
//! COMPATIBLE_VERSION reports for the device's arch (`abi/compat.tsv`). The window comes from
//! the driver itself with `--device` (through `ndl-std`), from `ndl-abi`'s tables of release
//! R with `--driver`, and from the built-in model otherwise (whose emulated kernel answers as
//! the default release, 2.26.5.0). "Cannot run" is an error: one sentence on stderr and a
//! non-zero exit, so scripts can branch on it.

use std::io::Write;

use ndl_abi::{CompatWindow, DriverArch, Release};
use ndl_emu::EmulatedKernel;
use ndl_std::{Errno, Kernel, Ndl};

use crate::cli::{ArchName, CompatArgs};
use crate::cmd::copy::locate;
use crate::cmd::ioctl::release;
use crate::error::{Result, ToolError};

impl ArchName {
    /// The arch as the driver's DHALs and `compat.tsv` name it (V2 SUNDA, V3 CAYMAN,
    /// V4 MARIANA).
    pub const fn driver_arch(self) -> DriverArch {
        match self {
            ArchName::Sunda => DriverArch::V2,
            ArchName::Cayman => DriverArch::V3,
            ArchName::Mariana => DriverArch::V4,
        }
    }
}

/// The runtime version as typed: a non-negative decimal that fits 32 bits.
fn version(text: &str) -> Result<u32> {
    text.trim().parse().map_err(|_| {
        ToolError::BadArgument(format!(
            "--runtime-version '{text}' is not a compatibility version (a whole number, \
             e.g. 10)"
        ))
    })
}

/// Where the answer comes from, for the sentence.
fn place(args: &CompatArgs, driver: Option<Release>) -> String {
    let arch = args.arch.generation().code_name().to_lowercase();
    let v = args.arch.driver_arch().as_str().to_uppercase();
    match (&args.device, driver) {
        (Some(path), _) => path.display().to_string(),
        (None, Some(r)) => format!("driver {r} with a {arch} ({v}) device"),
        (None, None) => format!(
            "the built-in device model ({arch}, answering as driver {})",
            Release::DEFAULT
        ),
    }
}

/// The one sentence: `Ok` when `v` is inside `min..=max`, else the error saying which side.
fn answer(v: u32, (min, max): (u32, u32), place: &str) -> Result<String> {
    let head = format!("a runtime of compatibility version {v}");
    if (min..=max).contains(&v) {
        return Ok(format!(
            "{head} can run on {place}: the driver accepts versions {min}..{max}"
        ));
    }
    let why = if v < min {
        format!("{v} is older than its oldest, {min}")
    } else {
        format!("{v} is newer than its newest, {max}")
    };
    Err(ToolError::Incompatible(format!(
        "{head} cannot run on {place}: the driver accepts versions {min}..{max} and {why}"
    )))
}

/// COMPATIBLE_VERSION through `ndl-std`'s misc gateway: `(min, max)`.
fn ask<K: Kernel>(ndl: &Ndl<K>, name: &str) -> Result<(u32, u32)> {
    ndl.misc().compatible_version().map_err(|e| match e {
        ndl_std::Error::Open { path, errno }
            if [Errno::NOENT, Errno::NODEV, Errno::NXIO].contains(&errno) =>
        {
            ToolError::NoDevice {
                path,
                why: format!("open failed: {errno}"),
            }
        }
        other => {
            let hint = match other.errno() {
                Some(Errno::NOTTY) => "; it is not a Neuron device node",
                _ => "",
            };
            ToolError::Device {
                device: name.into(),
                why: format!("asking for the compatible versions: {other}{hint}"),
            }
        }
    })
}

/// `compat --runtime-version V [--device NODE | --driver R] [--arch A]`.
pub fn run(args: &CompatArgs, out: &mut impl Write) -> Result<()> {
    let v = version(&args.runtime_version)?;
    let driver = args
        .driver
        .as_deref()
        .map(|r| release(Some(r)))
        .transpose()?;
    let place = place(args, driver);
    let window = match (&args.device, driver) {
        (Some(path), _) => {
            let (root, index) = locate(path)?;
            let ndl = Ndl::new().with_root(root).with_misc_device(index);
            ask(&ndl, &place)?
        }
        (None, Some(r)) => {
            let arch = args.arch.driver_arch();
            let w: CompatWindow = r.abi().compat(arch).ok_or_else(|| {
                ToolError::Incompatible(format!(
                    "a runtime of compatibility version {v} cannot run on {place}: driver {r} \
                     does not support {} devices (compat.tsv has no window for it)",
                    arch.as_str().to_uppercase()
                ))
            })?;
            (w.min, w.max)
        }
        (None, None) => {
            let kernel =
                EmulatedKernel::new(args.arch.generation(), 1).map_err(|e| ToolError::Device {
                    device: "the built-in device model".into(),
                    why: e.to_string(),
                })?;
            ask(&Ndl::with_kernel(kernel), &place)?
        }
    };
    writeln!(out, "{}", answer(v, window, &place)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_names_the_window_and_the_side_it_misses() {
        let w = (10, 11);
        assert!(answer(10, w, "x").unwrap().contains("can run on x"));
        let old = answer(9, w, "x").unwrap_err().to_string();
        assert!(old.contains("cannot run") && old.contains("older than its oldest, 10"));
        let new = answer(12, w, "x").unwrap_err().to_string();
        assert!(new.contains("newer than its newest, 11"), "{new}");
        assert!(version("-1").is_err() && version("ten").is_err());
        assert_eq!(version(" 7 ").unwrap(), 7);
    }
}
