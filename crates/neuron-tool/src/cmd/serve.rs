//! `neuron-tool serve`: the built-in device model served as `DIR/neuron0..N-1` over FUSE,
//! in the foreground, until Ctrl-C or SIGTERM (then the mount is removed).
//!
//! Programs then use the model through real system calls, like the Neuron driver: e.g.
//! `neuron-tool copy --device DIR/neuron0` in another terminal.

use std::io::Write;

use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_fuse::{Backend, EmulatedBackend, Server, Termination};
use ndl_trace::RecordingBackend;

use crate::cli::ServeArgs;
use crate::error::{Result, ToolError};
use crate::memory_bound::{self, HostMemory};

/// Runs the server until SIGINT/SIGTERM. `--memory` is checked first
/// ([`memory_bound::check_serve`]): the arch's HBM channel, and what the machine can back.
pub fn run(a: &ServeArgs, out: &mut impl Write) -> Result<()> {
    let generation = a.arch.generation();
    let release = super::ioctl::release(a.driver.as_deref())?;
    memory_bound::check_serve(generation, a.memory, HostMemory::read())?;
    let fail = |why: String| ToolError::Device {
        device: a.mount.display().to_string(),
        why,
    };
    let devices = (0..a.devices)
        .map(|i| {
            let mut c = DeviceConfig::numbered(generation, i).with_isolate(a.isolate);
            c.memory.hbm_bytes_per_channel = a.memory;
            c.memory.host_bytes = a.memory;
            c
        })
        .collect();
    let kernel = EmulatedKernel::with_devices(devices)
        .and_then(|k| k.with_release(release))
        .map_err(|e| fail(e.to_string()))?;
    crate::serve_faults::arm_faults(&kernel, a.devices, &a.fault)?;
    // Before any thread starts: the workers inherit the blocked signals, so they arrive
    // at `wait` below instead of killing the process with the mount in place.
    let termination = Termination::block().map_err(|e| fail(format!("signal mask: {e}")))?;
    let backend = EmulatedBackend::new(kernel);
    match &a.record {
        None => serve(a, backend, &termination, out, |_| Ok(String::new())),
        Some(path) => {
            let cap = u32::try_from(a.record_cap.min(u64::from(ndl_trace::MAX_CAP)))
                .unwrap_or(ndl_trace::MAX_CAP);
            let recorder = RecordingBackend::create(
                backend,
                &a.mount,
                Some(generation.number()),
                release,
                cap,
                path,
            )
            .map_err(|e| fail(format!("--record {}: {e}", path.display())))?;
            serve(
                a,
                recorder,
                &termination,
                out,
                |r: &RecordingBackend<EmulatedBackend>| {
                    let events = r.finish().map_err(|e| e.to_string())?;
                    Ok(format!("recorded {events} events to {}", path.display()))
                },
            )
        }
    }
}

/// Serves `backend` until a signal; `finish` runs on the backend before the unmount and may
/// say something.
fn serve<B: Backend>(
    a: &ServeArgs,
    backend: B,
    termination: &Termination,
    out: &mut impl Write,
    finish: impl FnOnce(&B) -> std::result::Result<String, String>,
) -> Result<()> {
    let generation = a.arch.generation();
    let release = super::ioctl::release(a.driver.as_deref())?;
    let fail = |why: String| ToolError::Device {
        device: a.mount.display().to_string(),
        why,
    };
    let server = Server::start(&a.mount, backend).map_err(|e| fail(e.to_string()))?;
    writeln!(
        out,
        "serving {} {:?} device(s) as driver {release}{} at {}/neuron0..{} (Ctrl-C to stop)",
        a.devices,
        generation,
        if a.isolate {
            ", processes isolated,"
        } else {
            ""
        },
        a.mount.display(),
        a.devices.saturating_sub(1)
    )?;
    out.flush()?;
    let sig = termination
        .wait()
        .map_err(|e| fail(format!("sigwait: {e}")))?;
    let said = finish(server.backend()).map_err(&fail)?;
    server.stop().map_err(|e| fail(e.to_string()))?;
    if !said.is_empty() {
        writeln!(out, "{said}")?;
    }
    writeln!(out, "signal {sig}: unmounted {}", a.mount.display())?;
    Ok(())
}
