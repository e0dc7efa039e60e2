//! `serve --fault KIND@ENGINE:QUEUE`: faults armed on every served device's model before
//! the nodes appear, so a runtime (or `copy --engine E --queue Q`) using that queue through
//! the node runs into them, and `queue inspect --device DIR/neuronN` shows them as on a
//! device (`neuron_emu::Device::inject`: each fires once, at the queue's next TX doorbell).

use clap::ValueEnum;
use ndl_emu::EmulatedKernel;
use neuron_emu::{Armed, Injection};

use crate::cli::{FaultName, ServeFault, fault_name};
use crate::error::{Result, ToolError};
use crate::queue_demo::injection;

/// `serve --fault` values a command line may hold.
pub const MAX_FAULTS: usize = 64;

/// The `--fault` spelling of `kind` (`timeout` for the model's stall).
fn kind_name(kind: Injection) -> &'static str {
    FaultName::value_variants()
        .iter()
        .find(|f| injection(**f) == Some(kind))
        .map_or(kind.name(), |f| fault_name(*f))
}

/// Arms each of `faults` on each of the `devices` devices of `kernel`.
///
/// ```
/// use neuron_tool::cli::parse_fault_arg;
/// use neuron_tool::serve_faults::arm_faults;
/// let kernel = ndl_emu::EmulatedKernel::new(khal::Generation::V3, 2)?;
/// arm_faults(&kernel, 2, &[parse_fault_arg("ring-id@4:3")?])?;
/// assert_eq!(kernel.device(1).unwrap().armed_injections().len(), 1);
/// assert!(arm_faults(&kernel, 2, &[parse_fault_arg("timeout@4:16")?]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn arm_faults(kernel: &EmulatedKernel, devices: u32, faults: &[ServeFault]) -> Result<()> {
    if faults.len() > MAX_FAULTS {
        return Err(ToolError::BadArgument(format!(
            "{} --fault values given; at most {MAX_FAULTS}",
            faults.len()
        )));
    }
    for dev in (0..devices).filter_map(|i| kernel.device(i)) {
        for f in faults {
            let armed = Armed {
                engine: usize::try_from(f.engine).unwrap_or(usize::MAX),
                queue: usize::try_from(f.queue).unwrap_or(usize::MAX),
                injection: f.kind,
            };
            dev.inject(armed).map_err(|e| {
                ToolError::BadArgument(format!(
                    "--fault {}@{}:{}: {e}",
                    kind_name(f.kind),
                    f.engine,
                    f.queue
                ))
            })?;
        }
    }
    Ok(())
}
