//! `neuron-tool copy`: the main job.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use khal::regs::queue::Dir;
use khal::udma::RingConfig;
use khal::{Arch, Generation};
use ndl_emu::{DeviceConfig, EmulatedKernel, HOST_PHYS_BASE};
use ndl_std::{Errno, Kernel, Ndl};
use neuron_emu::MemoryConfig;
use udma_desc::QueueId;

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::CopyArgs;
use crate::copy::{CopyDevice, CopyOptions, CopySummary, NdlDevice, PlanError, run_copy};
use crate::error::{Result, ToolError};

/// Copies at least this large get a progress bar (on a terminal).
const PROGRESS_FROM: u64 = 64 << 20;

/// The options of `copy`, checked (queue range, size, ring size) before any device is opened.
pub fn options(args: &CopyArgs) -> Result<CopyOptions> {
    let queue = QueueId::new(args.queue).map_err(|e| ToolError::BadArgument(e.to_string()))?;
    // khal's rule for a ring (power of two, 32..=2^23 descriptors), said before the device
    // is opened.
    RingConfig {
        bus_addr: 0,
        size: args.ring_size,
    }
    .validate(Dir::Tx)
    .map_err(|e| ToolError::BadArgument(format!("--ring-size: {e}")))?;
    // The plan refuses it too, but only once a device is open; say it first.
    if args.size == 0 {
        return Err(ToolError::BadArgument(PlanError::ZeroSize.to_string()));
    }
    Ok(CopyOptions {
        queue,
        size: args.size,
        barrier: args.barrier.barrier(),
        ring_size: args.ring_size,
    })
}

/// Runs the copy on `dev`, whose chip generation is `g`, and prints the summary (or JSON).
/// A progress bar is shown for long copies when stdout is a terminal and JSON is off.
pub fn run_on_device<D: CopyDevice>(
    dev: &mut D,
    g: Generation,
    opts: &CopyOptions,
    json: bool,
    out: &mut impl Write,
) -> Result<CopySummary> {
    struct Job<'a, D> {
        dev: &'a mut D,
        opts: &'a CopyOptions,
        bar: Option<&'a ProgressBar>,
    }
    impl<D: CopyDevice> ArchVisitor for Job<'_, D> {
        type Output = Result<CopySummary>;
        fn visit<A: Arch>(self) -> Self::Output {
            let bar = self.bar;
            run_copy::<A, D>(self.dev, self.opts, &mut |done| {
                if let Some(b) = bar {
                    b.set_position(done);
                }
            })
        }
    }
    let bar = (!json && opts.size >= PROGRESS_FROM && std::io::stdout().is_terminal()).then(|| {
        let b = ProgressBar::new(opts.size);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
        {
            b.set_style(style);
        }
        b
    });
    let summary = dispatch(
        g,
        Job {
            dev,
            opts,
            bar: bar.as_ref(),
        },
    )?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let summary = summary?;
    if json {
        writeln!(out, "{}", summary.to_json())?;
    } else {
        writeln!(out, "{summary}")?;
    }
    Ok(summary)
}

/// What summaries and errors call the built-in target.
pub const MODEL_NAME: &str = "the built-in device model";

/// Memory the model gets beyond the copy's buffers: rings and allocation alignment.
const MODEL_SLACK: u64 = 1 << 20;

/// The emulated kernel the built-in target runs on: one device of generation `g` at
/// `/dev/neuron0`, executing each doorbell as it is written, with host memory and HBM
/// channels sized for a copy of `size` bytes (host to HBM channel 0) with rings of
/// `ring_size` descriptors.
pub fn model_kernel(g: Generation, size: u64, ring_size: u32) -> Result<EmulatedKernel> {
    struct HbmChannel;
    impl ArchVisitor for HbmChannel {
        type Output = (u64, &'static str);
        fn visit<A: Arch>(self) -> Self::Output {
            (A::SCALARS.hbm_active_size, A::CODE_NAME)
        }
    }
    let (max, arch) = dispatch(g, HbmChannel)?;
    if size > max {
        return Err(ToolError::BadArgument(format!(
            "a copy of {size} bytes does not fit one HBM channel of {arch} ({max} bytes)"
        )));
    }
    let ring_bytes = u64::from(ring_size) * udma_desc::DESC_BYTES as u64;
    let config = DeviceConfig {
        memory: MemoryConfig {
            hbm_bytes_per_channel: size.saturating_add(MODEL_SLACK),
            host_bytes: size.saturating_add(2 * ring_bytes + MODEL_SLACK),
            host_phys_base: HOST_PHYS_BASE,
        },
        ..DeviceConfig::numbered(g, 0)
    };
    EmulatedKernel::with_devices(vec![config]).map_err(|e| ToolError::Device {
        device: MODEL_NAME.into(),
        why: e.to_string(),
    })
}

/// Where `--device PATH` points: the node root and the device index. `/dev/neuronN` is
/// device N under `/dev`; a directory is device 0 under it.
pub fn locate(path: &Path) -> Result<(PathBuf, u32)> {
    if path.is_dir() {
        return Ok((path.to_path_buf(), 0));
    }
    let digits = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("neuron"))
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    match digits {
        Some(d) => {
            let index = d.parse::<u32>().map_err(|_| {
                ToolError::BadArgument(format!(
                    "device index '{d}' in '{}' is too large",
                    path.display()
                ))
            })?;
            let root = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            Ok((root.to_path_buf(), index))
        }
        None if path.exists() => Err(ToolError::BadArgument(format!(
            "'{}' is neither a Neuron device node (neuronN) nor a directory holding them",
            path.display()
        ))),
        None => Err(ToolError::NoDevice {
            path: path.to_path_buf(),
            why: "no such file or directory".into(),
        }),
    }
}

/// Opens device `index` of `ndl`, learns its arch, and runs the copy on it: the one path of
/// the built-in model and of hardware.
pub fn copy_on<K: Kernel>(
    ndl: &Ndl<K>,
    index: u32,
    name: &str,
    opts: &CopyOptions,
    json: bool,
    out: &mut impl Write,
) -> Result<CopySummary> {
    let mut dev = NdlDevice::open(ndl, index, name).map_err(|e| match e {
        ndl_std::Error::Open { path, errno }
            if [Errno::NOENT, Errno::NODEV, Errno::NXIO].contains(&errno) =>
        {
            ToolError::NoDevice {
                path,
                why: format!("open failed: {errno}"),
            }
        }
        ndl_std::Error::DeviceIndex { .. } => ToolError::BadArgument(e.to_string()),
        other => ToolError::Device {
            device: name.into(),
            why: other.to_string(),
        },
    })?;
    let g = dev.generation().map_err(|e| ToolError::Device {
        device: name.into(),
        why: e.to_string(),
    })?;
    run_on_device(&mut dev, g, opts, json, out)
}

/// `copy [--arch A] [--size N] [--queue Q] [--barrier B] [--device PATH] [--json]`.
///
/// Without `--device` the copy runs on the built-in device model of `--arch`
/// (`ndl-std`'s emulated kernel); with it, on that device through the real driver. Both go
/// through [`copy_on`].
pub fn run(args: &CopyArgs, out: &mut impl Write) -> Result<()> {
    let opts = options(args)?;
    match &args.device {
        Some(path) => {
            let (root, index) = locate(path)?;
            let ndl = Ndl::new().with_root(root);
            let name = ndl.device_path(index).display().to_string();
            copy_on(&ndl, index, &name, &opts, args.json, out)?;
        }
        None => {
            let kernel = model_kernel(args.arch.generation(), opts.size, opts.ring_size)?;
            copy_on(
                &Ndl::with_kernel(kernel),
                0,
                MODEL_NAME,
                &opts,
                args.json,
                out,
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_path_is_its_directory_and_number() {
        assert_eq!(
            locate(Path::new("/dev/neuron3")).unwrap(),
            (PathBuf::from("/dev"), 3)
        );
        assert_eq!(
            locate(Path::new("neuron12")).unwrap(),
            (PathBuf::from("."), 12)
        );
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(locate(dir.path()).unwrap(), (dir.path().to_path_buf(), 0));
    }

    #[test]
    fn other_paths_are_refused_in_words() {
        for (path, want) in [
            ("/dev/neuron", "no Neuron device at /dev/neuron"),
            ("/dev/neuronx1", "no Neuron device at /dev/neuronx1"),
            ("/dev/neuron99999999999", "device index '99999999999'"),
            ("/dev/null", "is neither a Neuron device node"),
        ] {
            let e = locate(Path::new(path)).unwrap_err().to_string();
            assert!(e.contains(want), "{path}: {e}");
        }
    }

    #[test]
    fn the_model_is_sized_for_the_copy_and_refuses_what_cannot_fit() {
        let k = model_kernel(Generation::V4, 40 << 20, 64).unwrap();
        assert_eq!(k.generation(0), Some(Generation::V4));
        let model = k.device(0).unwrap();
        let host = model.with_memory(|m| {
            let id = m.find(neuron_emu::RegionKind::Host).unwrap();
            m.region(id).unwrap().size()
        });
        assert!(host >= 40 << 20, "{host}");
        let e = model_kernel(Generation::V2, 17 << 30, 64).unwrap_err();
        assert!(
            e.to_string()
                .contains("does not fit one HBM channel of SUNDA"),
            "{e}"
        );
    }
}
