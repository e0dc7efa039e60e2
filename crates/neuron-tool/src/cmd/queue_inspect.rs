//! `neuron-tool queue inspect`: a DMA queue of a live device (or of the built-in model after
//! a demonstration copy, optionally into a fault), decoded as mesa's crashdec decodes a GPU
//! hang: engine state, both rings' pointers, every descriptor of the rings walked by the
//! model's engine walk (the one decoder), the unit's interrupt causes by name, and one
//! sentence on what is wrong ([`crate::queue_verdict`]).
//!
//! Everything is read through the driver's read paths ([`crate::queue_view`]); nothing is
//! written. The command exits non-zero when something is wrong.

use std::io::Write;

use khal::Arch;
use ndl_std::{Device, Kernel};
use udma_desc::Direction;

use crate::cli::QueueInspectArgs;
use crate::cmd::regs_read::{unit_base, write_reg};
use crate::cmd::ring::{Compact, Mark};
use crate::device_target::{DeviceFacts, Probe, Target, model_kernel, probe};
use crate::error::{Result, ToolError};
use crate::queue_demo::{Demonstration, with_demo};
use crate::queue_json::to_json;
use crate::queue_verdict::{Verdict, verdict};
use crate::queue_view::{QueueView, RingView, read_queue};

/// Most `--slots`.
pub const MAX_SLOTS: u32 = 1 << 16;

/// The engine state DMA_ENG_GET_STATE reports, by name (`dma-path.md` step 4: 1 IDLE,
/// 2 NORMAL, 3 ABORT; the getter never reports 0 DISABLE or 4 RESET).
pub fn engine_state_name(state: u32) -> String {
    match state {
        0 => "DISABLE".into(),
        1 => "IDLE".into(),
        2 => "NORMAL".into(),
        3 => "ABORT".into(),
        4 => "RESET".into(),
        n => format!("unknown ({n})"),
    }
}

/// The first slot listed and how many, for a ring of `len` with its head at `head`: from
/// two before the head, at most `slots`.
fn window(len: u32, head: u32, slots: u32) -> (u32, u32) {
    let n = slots.min(len);
    if n == len {
        return (0, len);
    }
    ((head + len - 2.min(len)) % len, n)
}

/// The header of a ring: pointers from DMA_QUEUE_GET_STATE and the registers.
fn write_ring_head(out: &mut impl Write, r: &RingView) -> std::io::Result<()> {
    let s = &r.state;
    let name = match r.dir {
        Direction::Tx => "TX ring (M2S)",
        Direction::Rx => "RX ring (S2M)",
    };
    writeln!(
        out,
        "\n{name}: base {:#x}, {} descriptors; head {} (ring id {}), tail {} (ring id {}): \
         {} posted and not taken; completion base {:#x}, completion head {}",
        s.base_addr,
        s.length,
        r.head.index,
        r.head.ring_id,
        r.tail.index,
        r.tail.ring_id,
        r.posted,
        s.completion_base_addr,
        s.completion_head
    )
}

/// A ring: its header, the listed slots with head (H), tail (T) and completion head (C)
/// marked and what the engine does at each, and how the walk ends.
fn write_ring(out: &mut impl Write, r: &RingView, slots: u32) -> std::io::Result<()> {
    write_ring_head(out, r)?;
    if let Some(why) = &r.note {
        return writeln!(out, "  ({why})");
    }
    let len = r.state.length;
    let (first, n) = window(len, r.head.index, slots);
    writeln!(out, "  slot  ptr  engine    descriptor")?;
    for i in 0..n {
        let slot = (first + i) % len;
        let ptr: String = [
            (r.head.index == slot, 'H'),
            (r.tail.index == slot, 'T'),
            (r.state.completion_head == slot, 'C'),
        ]
        .iter()
        .map(|&(on, c)| if on { c } else { '.' })
        .collect();
        let mark = r.walk.as_ref().and_then(|w| w.marks.get(slot as usize));
        let m = match mark {
            Some(Mark::Taken { order }) => format!("take {order}"),
            Some(Mark::Waiting) => "WAIT".into(),
            Some(Mark::Fault) => "FAULT".into(),
            Some(Mark::Stop { .. }) => "STOP".into(),
            Some(Mark::NotReached) | None => "-".into(),
        };
        let d = r.descs.get(slot as usize).copied().unwrap_or_default();
        writeln!(out, "  {slot:>4}  {ptr}  {m:<8}  {}", Compact(d, r.dir))?;
    }
    if n < len {
        writeln!(out, "  ({} of {len} slots listed; --slots for more)", n)?;
    }
    if let Some(w) = &r.walk {
        writeln!(
            out,
            "  in flight: slots {}..{} ({} posted); the walk from the head: {}",
            r.head.index, r.tail.index, r.posted, w.outcome
        )?;
    }
    Ok(())
}

/// Where the queue is: the arch, the device, and what the demonstration did on it.
struct Place<'a> {
    arch: &'a str,
    device: &'a str,
    said: Option<&'a str>,
}

/// The whole report.
fn write_view(
    out: &mut impl Write,
    v: &QueueView,
    at: &Place<'_>,
    slots: u32,
    verdict: &Verdict,
) -> std::io::Result<()> {
    writeln!(
        out,
        "queue {} of engine {} on {} ({})",
        v.queue, v.engine, at.device, at.arch
    )?;
    if let Some(said) = at.said {
        writeln!(out, "demonstration: {said}")?;
    }
    writeln!(
        out,
        "engine state (DMA_ENG_GET_STATE): TX {}, RX {}",
        engine_state_name(v.engine_state.tx_state),
        engine_state_name(v.engine_state.rx_state)
    )?;
    let r = &v.rules;
    writeln!(
        out,
        "walk rules (BAR_READ): ring ids checked TX {} RX {}, at most {} descriptors and {} \
         bytes per packet",
        r.check_tx_ring_id, r.check_rx_ring_id, r.max_descs_per_packet, r.max_packet_bytes
    )?;
    match &v.rings {
        Some(rings) => {
            for ring in rings {
                write_ring(out, ring, slots)?;
            }
        }
        None => writeln!(
            out,
            "\nno ring state: {}",
            v.refused.as_deref().unwrap_or("-")
        )?,
    }
    writeln!(out, "\nregisters (BAR_READ):")?;
    for reg in &v.registers.registers {
        let cause = reg.name.ends_with(".int_cause_grp");
        if !cause || reg.value.is_some_and(|x| x != 0) {
            write_reg(out, reg)?;
        }
    }
    writeln!(out, "  (interrupt cause registers not listed are 0)")?;
    writeln!(out, "\n{}", verdict.sentence)
}

struct Inspect<'a, W> {
    args: &'a QueueInspectArgs,
    demo: Option<Demonstration>,
    out: &'a mut W,
}

impl<W: Write> Probe for Inspect<'_, W> {
    type Output = ();
    fn run<K: Kernel, A: Arch>(
        self,
        dev: &Device<'_, K>,
        facts: &DeviceFacts,
        name: &str,
    ) -> Result<()> {
        let a = self.args;
        let view = read_queue::<K, A>(dev, facts, name, a.engine, a.queue)?;
        let refusal = self.demo.as_ref().and_then(|d| d.refusal.as_deref());
        let said = self.demo.as_ref().map(|d| d.said.as_str());
        let v = verdict(&view, refusal);
        if a.json {
            let json = to_json(&view, said, A::CODE_NAME, name, &v);
            writeln!(self.out, "{json}")?;
        } else {
            let at = Place {
                arch: A::CODE_NAME,
                device: name,
                said,
            };
            write_view(self.out, &view, &at, a.slots, &v)?;
        }
        match v.wrong {
            true => Err(ToolError::QueueWrong(format!(
                "queue {} of engine {}: {}",
                a.queue, a.engine, v.sentence
            ))),
            false => Ok(()),
        }
    }
}

/// `queue inspect [--device NODE | --arch A] --engine E --queue Q [--fault F] [--slots N]
/// [--json]`.
pub fn run(args: &QueueInspectArgs, out: &mut impl Write) -> Result<()> {
    if args.slots == 0 || args.slots > MAX_SLOTS {
        return Err(ToolError::BadArgument(format!(
            "--slots {} is outside 1..={MAX_SLOTS}",
            args.slots
        )));
    }
    udma_desc::QueueId::new(args.queue)
        .map_err(|e| ToolError::BadArgument(format!("--queue: {e}")))?;
    match &args.device {
        Some(path) => {
            if args.fault.is_some() {
                return Err(ToolError::BadArgument(
                    "--fault arms the built-in model's demonstration; a served node takes \
                     faults from `serve --fault`"
                        .into(),
                ));
            }
            inspect_on(&Target::Node(path), args, None, out)
        }
        None => {
            let kernel = model_kernel(args.arch.generation())?;
            crate::arch_select::dispatch(args.arch.generation(), Demo { args, kernel, out })?
        }
    }
}

/// Inspects the queue `args` names on `target` (in place of `args.device`), after `demo`
/// when one ran; fails with the verdict when something is wrong.
pub fn inspect_on(
    target: &Target<'_>,
    args: &QueueInspectArgs,
    demo: Option<Demonstration>,
    out: &mut impl Write,
) -> Result<()> {
    probe(target, Inspect { args, demo, out })
}

/// The demonstration on the built-in model, then the inspection.
struct Demo<'a, W> {
    args: &'a QueueInspectArgs,
    kernel: ndl_emu::EmulatedKernel,
    out: &'a mut W,
}

impl<W: Write> khal::ArchVisitor for Demo<'_, W> {
    type Output = Result<()>;
    fn visit<A: Arch>(self) -> Result<()> {
        let a = self.args;
        // Checked before the demonstration asks the driver for anything.
        unit_base::<A>(a.engine)?;
        let target = Target::Emulated(self.kernel.clone());
        let out = self.out;
        with_demo::<A, _>(&self.kernel, a.engine, a.queue, a.fault, |demo| {
            inspect_on(&target, a, Some(demo), out)
        })
    }
}
