//! Where the read-only debugging commands (`regs read`, `regs dump`, `queue inspect`) look: a
//! device node (`--device`, a real `/dev/neuronN` or a FUSE-served one) or the built-in
//! model, reached the same way: through `ndl-std`'s wrappers over a [`Kernel`] (the real
//! system calls, or the emulated kernel in this process).
//!
//! Each command is written once as a [`Probe`], generic over the kernel and the arch; the
//! arch comes from DEVICE_INFO (`architecture`) through the tool's one dispatch point, and
//! so do the BAR0 mapping's kernel address and length that BAR_READ checks addresses
//! against (`reference/bar-README.md`). The per-device gateway is used: the fd opened
//! read-only, on the device lane, as the NDL does (seed 000 §2).

use std::path::Path;

use khal::{Arch, ArchVisitor, Generation};
use ndl_emu::EmulatedKernel;
use ndl_std::{Device, Errno, Kernel, Ndl};

use crate::arch_select::dispatch;
use crate::cli::ArchName;
use crate::cmd::copy::{MODEL_NAME, locate};
use crate::error::{Result, ToolError};

/// What DEVICE_INFO says about a device, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceFacts {
    /// The chip generation (`architecture`).
    pub generation: Generation,
    /// The kernel address of the BAR0 mapping (`bar_address[0]`): BAR_READ addresses are it
    /// plus a register offset.
    pub bar0_kva: u64,
    /// Bytes of the BAR0 mapping (`bar_size[0]`): offsets at or past it are refused.
    pub bar0_size: u64,
}

/// A read-only command over one device, for any kernel and arch.
pub trait Probe {
    /// What it produces.
    type Output;
    /// Runs on `dev` (device `name`) of arch `A`.
    fn run<K: Kernel, A: Arch>(
        self,
        dev: &Device<'_, K>,
        facts: &DeviceFacts,
        name: &str,
    ) -> Result<Self::Output>;
}

/// Where `--device` (or its absence and `--arch`) points.
#[derive(Clone, Debug)]
pub enum Target<'p> {
    /// A node path (`/dev/neuronN`, a served `DIR/neuronN`, or a directory holding neuron0).
    Node(&'p Path),
    /// The built-in model of a generation, one device.
    Model(Generation),
    /// Device 0 of an emulated kernel built elsewhere (a model a test or a demonstration
    /// prepared and still holds, to look at it afterwards).
    Emulated(EmulatedKernel),
}

impl<'p> Target<'p> {
    /// `--device PATH` if given, else the built-in model of `--arch`.
    pub fn from_args(device: Option<&'p Path>, arch: ArchName) -> Self {
        match device {
            Some(p) => Self::Node(p),
            None => Self::Model(arch.generation()),
        }
    }
}

/// The built-in model: an emulated kernel with one device of generation `g` (the defaults
/// of [`ndl_emu::DeviceConfig::numbered`]), every engine brought up as the driver does.
pub fn model_kernel(g: Generation) -> Result<EmulatedKernel> {
    EmulatedKernel::new(g, 1).map_err(|e| ToolError::Device {
        device: MODEL_NAME.into(),
        why: e.to_string(),
    })
}

/// Runs `probe` on the target.
pub fn probe<P: Probe>(target: &Target<'_>, probe: P) -> Result<P::Output> {
    match target {
        Target::Node(path) => {
            let (root, index) = locate(path)?;
            let ndl = Ndl::new().with_root(root);
            let name = ndl.device_path(index).display().to_string();
            probe_on(&ndl, index, &name, probe)
        }
        Target::Model(g) => probe_on(&Ndl::with_kernel(model_kernel(*g)?), 0, MODEL_NAME, probe),
        Target::Emulated(k) => probe_on(&Ndl::with_kernel(k.clone()), 0, MODEL_NAME, probe),
    }
}

/// Runs `probe` on device `index` of `ndl`, called `name` in messages.
pub fn probe_on<K: Kernel, P: Probe>(
    ndl: &Ndl<K>,
    index: u32,
    name: &str,
    probe: P,
) -> Result<P::Output> {
    let dev = ndl.device(index).map_err(|e| device_error(name, e))?;
    let facts = device_facts(&dev, name)?;
    struct Visit<'d, 'a, K: Kernel, P> {
        dev: &'d Device<'a, K>,
        facts: DeviceFacts,
        name: &'d str,
        probe: P,
    }
    impl<K: Kernel, P: Probe> ArchVisitor for Visit<'_, '_, K, P> {
        type Output = Result<P::Output>;
        fn visit<A: Arch>(self) -> Self::Output {
            self.probe.run::<K, A>(self.dev, &self.facts, self.name)
        }
    }
    dispatch(
        facts.generation,
        Visit {
            dev: &dev,
            facts,
            name,
            probe,
        },
    )?
}

/// DEVICE_INFO, checked: a known architecture and a BAR0 mapping.
pub fn device_facts<K: Kernel>(dev: &Device<'_, K>, name: &str) -> Result<DeviceFacts> {
    let info = dev.device_info().map_err(|e| device_error(name, e))?;
    let generation = u8::try_from(info.architecture)
        .ok()
        .and_then(|a| Generation::from_number(a).ok())
        .ok_or_else(|| ToolError::Device {
            device: name.into(),
            why: format!(
                "DEVICE_INFO reports architecture {}, which this build does not know",
                info.architecture
            ),
        })?;
    let (bar0_kva, bar0_size) = (info.bar_address[0], info.bar_size[0]);
    if bar0_size == 0 || bar0_kva.checked_add(bar0_size).is_none() {
        return Err(ToolError::Device {
            device: name.into(),
            why: format!(
                "DEVICE_INFO reports no usable BAR0 mapping (address {bar0_kva:#x}, {bar0_size} \
                 bytes)"
            ),
        });
    }
    Ok(DeviceFacts {
        generation,
        bar0_kva,
        bar0_size,
    })
}

/// A failed driver call as one sentence naming the device, with the reason where the errno
/// says more than its name.
pub fn device_error(name: &str, e: ndl_std::Error) -> ToolError {
    let hint = match &e {
        ndl_std::Error::Open { errno, .. }
            if [Errno::NOENT, Errno::NODEV, Errno::NXIO].contains(errno) =>
        {
            return ToolError::NoDevice {
                path: name.into(),
                why: format!("open failed: {errno}"),
            };
        }
        ndl_std::Error::Ioctl { errno, .. } if *errno == Errno::NOTTY => {
            "; it is not a Neuron device node"
        }
        _ => "",
    };
    ToolError::Device {
        device: name.into(),
        why: format!("{e}{hint}"),
    }
}
