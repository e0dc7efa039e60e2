//! `neuron-tool serve`: the built-in device model served as `DIR/neuron0..N-1` over FUSE,
//! in the foreground, until Ctrl-C or SIGTERM (then the mount is removed).
//!
//! Programs then use the model through real system calls, like the Neuron driver: e.g.
//! `neuron-tool copy --device DIR/neuron0` in another terminal.

use std::io::Write;

use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_fuse::{EmulatedBackend, Server, Termination};

use crate::cli::ServeArgs;
use crate::error::{Result, ToolError};
use crate::memory_bound::{self, HostMemory};

/// Runs the server until SIGINT/SIGTERM. `--memory` is checked first
/// ([`memory_bound::check_serve`]): the arch's HBM channel, and what the machine can back.
pub fn run(a: &ServeArgs, out: &mut impl Write) -> Result<()> {
    let generation = a.arch.generation();
    memory_bound::check_serve(generation, a.memory, HostMemory::read())?;
    let fail = |why: String| ToolError::Device {
        device: a.mount.display().to_string(),
        why,
    };
    let devices = (0..a.devices)
        .map(|i| {
            let mut c = DeviceConfig::numbered(generation, i);
            c.memory.hbm_bytes_per_channel = a.memory;
            c.memory.host_bytes = a.memory;
            c
        })
        .collect();
    let kernel = EmulatedKernel::with_devices(devices).map_err(|e| fail(e.to_string()))?;
    // Before any thread starts: the workers inherit the blocked signals, so they arrive
    // at `wait` below instead of killing the process with the mount in place.
    let termination = Termination::block().map_err(|e| fail(format!("signal mask: {e}")))?;
    let server =
        Server::start(&a.mount, EmulatedBackend::new(kernel)).map_err(|e| fail(e.to_string()))?;
    writeln!(
        out,
        "serving {} {:?} device(s) at {}/neuron0..{} (Ctrl-C to stop)",
        a.devices,
        generation,
        a.mount.display(),
        a.devices.saturating_sub(1)
    )?;
    out.flush()?;
    let sig = termination
        .wait()
        .map_err(|e| fail(format!("sigwait: {e}")))?;
    server.stop().map_err(|e| fail(e.to_string()))?;
    writeln!(out, "signal {sig}: unmounted {}", a.mount.display())?;
    Ok(())
}
