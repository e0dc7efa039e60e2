//! `neuron-tool copy`: the main job. It parses, calls `ndl-copy`'s copy orchestration and
//! prints; the copy itself (queue, memory, descriptors, doorbells, completion, teardown,
//! verification) is the library's.
//!
//! * By default the copy takes the **driver-style path** (`ndl_copy::driver`): only
//!   the driver's DMA ioctls, which is what runs on real hardware (`--device /dev/neuronN`)
//!   and on the built-in model (`ndl-emu`'s emulated kernel) alike. `--delivery` picks how
//!   descriptors reach the rings (an mmap of the process's ring memory, or
//!   DMA_COPY_DESCRIPTORS).
//! * `--register-level` takes the opt-in that programs the engine registers itself through
//!   a mapped BAR0, on the built-in model only (run privileged): the driver refuses it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use khal::Generation;
use ndl_abi::{DEVICE_INFO, DMA_QUEUE_INIT, RESOURCE_MMAP_INFO};
use ndl_copy::register_level::{self, RegisterOptions};
use ndl_copy::{self as copy, CopyError, CopyOptions, CopyReport, Delivery, QueueChoice};
use ndl_emu::{DeviceConfig, EmulatedKernel, HOST_PHYS_BASE};
use ndl_std::{DeviceHandle, Errno, Kernel, Ndl};
use neuron_emu::MemoryConfig;
use udma_desc::QueueId;

use crate::arch_select::Supported;
use crate::cli::{BarrierName, CopyArgs, DeliveryName};
use crate::error::{Result, ToolError};
use crate::memory_bound::{self, HostMemory};
use crate::pattern::Pattern;
use crate::quote::{quote_path, quote_str};
use crate::summary::CopySummary;

/// What summaries and errors call the built-in target.
pub const MODEL_NAME: &str = "the built-in device model";

/// Memory the model gets beyond the copy's buffers: rings, the completion page, rounding.
const MODEL_SLACK: u64 = 1 << 20;

/// The copy a command line asks for, checked before any device is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Driver-style options.
    pub options: CopyOptions,
    /// Bytes to copy.
    pub size: u64,
    /// The register-level opt-in.
    pub register_level: bool,
}

fn barrier_name(b: BarrierName) -> &'static str {
    match b {
        BarrierName::None => "none",
        BarrierName::Dmb => "dmb",
        BarrierName::WriteBarrier => "write-barrier",
        BarrierName::Sow => "sow",
    }
}

/// Checks the arguments (queue, ring size, size) and turns them into the library's options.
pub fn plan(args: &CopyArgs) -> Result<Plan> {
    let queue = QueueId::new(args.queue).map_err(|e| ToolError::BadArgument(e.to_string()))?;
    udma_desc::Ring::new(udma_desc::Direction::Tx, args.ring_size)
        .map_err(|e| ToolError::BadArgument(format!("--ring-size: {e}")))?;
    if args.size == 0 {
        return Err(ToolError::BadArgument(
            "copy size 0: nothing to copy".into(),
        ));
    }
    let options = CopyOptions {
        queue: match args.engine {
            Some(engine) => QueueChoice::CoreEngine { engine, queue },
            None => QueueChoice::H2tService { nc: args.nc },
        },
        delivery: match args.delivery {
            Some(DeliveryName::Mmap) => Delivery::Mmap,
            Some(DeliveryName::CopyDescriptors) => Delivery::CopyDescriptors,
            None => Delivery::Auto,
        },
        ring_entries: args.ring_size,
        barrier: args.barrier.barrier(),
        ..CopyOptions::default()
    };
    Ok(Plan {
        options,
        size: args.size,
        register_level: args.register_level,
    })
}

/// The emulated kernel the built-in target runs on: one device of generation `g` at
/// `/dev/neuron0`, executing each doorbell as it is written, with host memory and HBM
/// channels sized for a copy of `size` bytes with rings of `ring_size` descriptors.
/// `privileged` serves the register windows the register-level path maps. A size above one
/// HBM channel of the arch, or whose bytes the copy writes exceed what the machine has
/// available, is refused before anything is allocated ([`memory_bound::check_copy`]).
pub fn model_kernel(
    g: Generation,
    size: u64,
    ring_size: u32,
    privileged: bool,
) -> Result<EmulatedKernel> {
    let ring_bytes = u64::from(ring_size) * udma_desc::DESC_BYTES as u64;
    // The copy writes its source and destination chunks and both rings into the model
    // (the_model_holds_the_two_chunks_and_the_rings_only); the register-level path also
    // holds the whole source in the tool.
    let copies = if privileged { 3 } else { 2 };
    let written = size
        .saturating_mul(copies)
        .saturating_add(2 * ring_bytes + MODEL_SLACK);
    memory_bound::check_copy(g, size, written, HostMemory::read())?;
    let config = DeviceConfig {
        memory: MemoryConfig {
            hbm_bytes_per_channel: size.saturating_add(MODEL_SLACK),
            host_bytes: size.saturating_add(2 * ring_bytes + MODEL_SLACK),
            host_phys_base: HOST_PHYS_BASE,
        },
        ..DeviceConfig::numbered(g, 0)
    }
    .with_privileged(privileged);
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
                    "device index {} in {} is too large",
                    quote_str(d),
                    quote_path(path)
                ))
            })?;
            let root = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            Ok((root.to_path_buf(), index))
        }
        None if path.exists() => Err(ToolError::BadArgument(format!(
            "{} is neither a Neuron device node (neuronN) nor a directory holding them",
            quote_path(path)
        ))),
        None => Err(ToolError::NoDevice {
            path: path.to_path_buf(),
            why: "no such file or directory".into(),
        }),
    }
}

/// A library failure as one sentence naming the device, with a hint where the cause is
/// known.
fn device_error(name: &str, g: Option<Generation>, e: CopyError) -> ToolError {
    let hint = match &e {
        CopyError::Ndl(ndl_std::Error::Ioctl { errno, .. }) if *errno == Errno::NOTTY => {
            "; it is not a Neuron device node"
        }
        CopyError::Ndl(ndl_std::Error::Ioctl { cmd, .. }) if *cmd == RESOURCE_MMAP_INFO.name() => {
            "; this driver maps no UDMA registers to user space (leave --register-level out)"
        }
        CopyError::Timeout { .. } | CopyError::EngineAborted { .. } => {
            "; `neuron-tool queue inspect` on the engine and queue (while a copy is stuck on \
             it) says why"
        }
        _ => "",
    };
    match e {
        CopyError::Mismatch { offset, .. } => ToolError::VerifyFailed {
            first: offset,
            mismatches: 1,
        },
        CopyError::Desc(udma_desc::Error::StrongOrderUnsupported) => {
            let arch = g.map_or("this arch", Generation::code_name);
            ToolError::BadArgument(format!(
                "{arch} has no strong-ordered write (SOW); use --barrier none, dmb or \
                 write-barrier"
            ))
        }
        CopyError::Ndl(ndl_std::Error::Ioctl { cmd, .. }) if cmd == DEVICE_INFO.name() => {
            ToolError::Device {
                device: name.into(),
                why: format!("reading the device info: {e}{hint}"),
            }
        }
        other => ToolError::Device {
            device: name.into(),
            why: format!("{other}{hint}"),
        },
    }
}

/// A refused DMA_QUEUE_INIT as one sentence naming the queue, its rings and the driver's
/// rules (`reference/dma-path.md` steps 1, 2 and 4), where the bare errno would leave one
/// guessing which queue and which limit; `None` for any other failure.
fn queue_init_refused(name: &str, options: &CopyOptions, e: &CopyError) -> Option<ToolError> {
    let CopyError::Ndl(ndl_std::Error::Ioctl { cmd, errno }) = e else {
        return None;
    };
    if *cmd != DMA_QUEUE_INIT.name() {
        return None;
    }
    let which = match options.queue {
        QueueChoice::CoreEngine { engine, queue } => {
            format!("engine {engine} queue {}", queue.get())
        }
        QueueChoice::H2tService { nc } => format!("the H2T service queue of core {nc}"),
    };
    Some(ToolError::Device {
        device: name.into(),
        why: format!(
            "DMA_QUEUE_INIT refused {which} with rings of {} descriptors ({errno}); the driver \
             takes {}..={} descriptors per ring, a multiple of {} in 256-byte aligned memory \
             (else EINVAL or EPERM), refuses with EALREADY a queue it uses for its own host \
             copies, and with EACCES a process not attached to the device",
            options.ring_entries,
            udma_desc::RING_MIN_SIZE,
            udma_desc::RING_MAX_SIZE,
            udma_desc::RING_SIZE_MULTIPLE
        ),
    })
}

/// Opens device `index` of `ndl`, runs the planned copy through the library, and returns
/// the summary: the one path of the built-in model and of hardware.
pub fn copy_on<K: Kernel>(
    ndl: &Ndl<K>,
    index: u32,
    name: &str,
    plan: &Plan,
    args: &CopyArgs,
) -> Result<CopySummary> {
    let dev: DeviceHandle<'_, K> = ndl.open_device(index).map_err(|e| match e {
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
    let g = copy::generation(&dev).map_err(|e| device_error(name, None, e))?;
    let source = Pattern::new(plan.size);
    // The register-level path takes one slice; the driver path streams the pattern.
    let whole = if plan.register_level {
        Some(source.to_vec().ok_or_else(|| {
            ToolError::BadArgument(format!("a copy of {} bytes does not fit memory", plan.size))
        })?)
    } else {
        None
    };
    let started = Instant::now();
    let report: CopyReport = if let Some(data) = &whole {
        let options = RegisterOptions {
            queue: u8::try_from(args.queue).unwrap_or(0),
            ring_size: plan.options.ring_entries,
            ..RegisterOptions::default()
        };
        register_level::copy::<Supported, K>(&dev, data, &options, ndl_emu::resource::BAR0.into())
    } else {
        copy::copy_source::<Supported, K, Pattern>(&dev, &source, &plan.options)
    }
    .map_err(|e| {
        queue_init_refused(name, &plan.options, &e)
            .unwrap_or_else(|| device_error(name, Some(g), e))
    })?;
    let seconds = started.elapsed().as_secs_f64();
    Ok(CopySummary {
        arch: report.generation.code_name(),
        device: name.into(),
        path: if plan.register_level {
            "register-level"
        } else {
            "driver"
        },
        delivery: report.delivery.name(),
        delivery_fallback: report.mmap_refused.map(|errno| {
            format!(
                "the node cannot be mmap'd ({errno}), so descriptors went through \
                 DMA_COPY_DESCRIPTORS and the completion word through MEM_BUF_COPY"
            )
        }),
        engine: report.engine,
        queue: report.queue,
        barrier: barrier_name(args.barrier),
        bytes: report.bytes,
        descriptors: report.descriptors,
        batches: report.batches,
        seconds,
        bytes_per_second: if seconds > 0.0 {
            report.bytes as f64 / seconds
        } else {
            0.0
        },
        verified: true,
    })
}

/// `copy [--arch A] [--size N] [--engine E --queue Q | --nc C] [--delivery D]
/// [--barrier B] [--ring-size R] [--register-level] [--device PATH] [--json]`.
pub fn run(args: &CopyArgs, out: &mut impl Write) -> Result<()> {
    let plan = plan(args)?;
    let summary = match &args.device {
        Some(_) if plan.register_level => {
            return Err(ToolError::BadArgument(
                "--register-level programs DMA queue registers, which the driver refuses \
                 (no mmap reaches them, BAR_WRITE blocks them); it runs on the built-in \
                 model only"
                    .into(),
            ));
        }
        Some(path) => {
            let (root, index) = locate(path)?;
            let ndl = Ndl::new().with_root(root);
            let name = ndl.device_path(index).display().to_string();
            copy_on(&ndl, index, &name, &plan, args)?
        }
        None => {
            let kernel = model_kernel(
                args.arch.generation(),
                plan.size,
                plan.options.ring_entries,
                plan.register_level,
            )?;
            copy_on(&Ndl::with_kernel(kernel), 0, MODEL_NAME, &plan, args)?
        }
    };
    if args.json {
        writeln!(out, "{}", summary.to_json())?;
    } else {
        writeln!(out, "{summary}")?;
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
            ("/dev/neuron", "no Neuron device at '/dev/neuron'"),
            ("/dev/neuronx1", "no Neuron device at '/dev/neuronx1'"),
            ("/dev/neuron99999999999", "device index '99999999999'"),
            ("/dev/null", "is neither a Neuron device node"),
        ] {
            let e = locate(Path::new(path)).unwrap_err().to_string();
            assert!(e.contains(want), "{path}: {e}");
        }
    }

    #[test]
    fn the_model_is_sized_for_the_copy_and_refuses_what_cannot_fit() {
        let k = model_kernel(Generation::V4, 40 << 20, 64, false).unwrap();
        assert_eq!(k.generation(0), Some(Generation::V4));
        let model = k.device(0).unwrap();
        let host = model.with_memory(|m| {
            let id = m.find(neuron_emu::RegionKind::Host).unwrap();
            m.region(id).unwrap().size()
        });
        assert!(host >= 40 << 20, "{host}");
        let e = model_kernel(Generation::V2, 17 << 30, 64, false).unwrap_err();
        assert!(
            e.to_string()
                .contains("does not fit one HBM channel of SUNDA"),
            "{e}"
        );
    }

    /// Issue 13 item 6: a driver-path copy of N bytes leaves the model holding the source
    /// and destination chunks and the rings, nothing of the copy's size besides.
    #[test]
    fn the_model_holds_the_two_chunks_and_the_rings_only() {
        let size: u64 = 4 << 20;
        let ring_entries = 256;
        let k = model_kernel(Generation::V3, size, ring_entries, false).unwrap();
        let model = k.device(0).unwrap();
        let ndl = Ndl::with_kernel(k);
        let dev = ndl.open_device(0).unwrap();
        let options = CopyOptions {
            ring_entries,
            ..CopyOptions::default()
        };
        let report =
            copy::copy_source::<Supported, _, Pattern>(&dev, &Pattern::new(size), &options)
                .unwrap();
        assert_eq!(report.bytes, size);
        let held: u64 = model.with_memory(|m| m.regions().iter().map(|r| r.written_bytes()).sum());
        // TX and RX rings (256 x 16 bytes, a page each) and the completion page.
        let page = 4096;
        let ring_pages = 2 * (u64::from(ring_entries) * 16).div_ceil(page) * page;
        assert!(
            (2 * size..=2 * size + ring_pages + page).contains(&held),
            "the model holds {held} bytes for a copy of {size}"
        );
    }

    #[test]
    fn the_barrier_names_are_the_cli_spellings() {
        for (b, name) in [
            (BarrierName::None, "none"),
            (BarrierName::Dmb, "dmb"),
            (BarrierName::WriteBarrier, "write-barrier"),
            (BarrierName::Sow, "sow"),
        ] {
            assert_eq!(barrier_name(b), name);
        }
    }
}
