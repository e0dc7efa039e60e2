//! `neuron-tool copy`: the main job.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use khal::{Arch, Generation};
use udma_desc::QueueId;

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::CopyArgs;
use crate::copy::{
    COPY_RING, CopyDevice, CopyOptions, CopySummary, ModelDevice, PlanError, run_copy,
};
use crate::error::{Result, ToolError};

/// Copies at least this large get a progress bar (on a terminal).
const PROGRESS_FROM: u64 = 64 << 20;

/// The options of `copy`, checked (queue range, size) before any device is opened.
pub fn options(args: &CopyArgs) -> Result<CopyOptions> {
    let queue = QueueId::new(args.queue).map_err(|e| ToolError::BadArgument(e.to_string()))?;
    // The plan refuses it too, but only once a device is open; say it first.
    if args.size == 0 {
        return Err(ToolError::BadArgument(PlanError::ZeroSize.to_string()));
    }
    Ok(CopyOptions {
        queue,
        size: args.size,
        barrier: args.barrier.barrier(),
        ring_size: COPY_RING,
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

/// `copy [--arch A] [--size N] [--queue Q] [--barrier B] [--device PATH] [--json]`.
///
/// Without `--device` the copy runs on the built-in device model of `--arch`.
pub fn run(args: &CopyArgs, out: &mut impl Write) -> Result<()> {
    let opts = options(args)?;
    if let Some(path) = &args.device {
        if !path.exists() {
            return Err(ToolError::DeviceMissing { path: path.clone() });
        }
        return Err(ToolError::NotAvailable(format!(
            "'{}' exists, but this build has no hardware copy path yet (the mapped-BAR backend is not wired); leave --device out to use the built-in device model",
            path.display()
        )));
    }
    run_on_device(
        &mut ModelDevice::new(),
        args.arch.generation(),
        &opts,
        args.json,
        out,
    )?;
    Ok(())
}
