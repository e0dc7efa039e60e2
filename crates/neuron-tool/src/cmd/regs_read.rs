//! `neuron-tool regs read` and `regs dump`: a live device's UDMA registers, read through
//! BAR_READ (the driver's read path) and decoded by field name.
//!
//! The registers are the declarations' ([`crate::unit_regs`]), the fields the typed words'
//! ([`crate::reg_fields`]), the engine's place in BAR0 the arch's
//! (`Scalars::udma_engine_offset`). Nothing is written: BAR_READ reads, and registers whose
//! read has a side effect are not read ([`ReadRule`]).

use std::io::Write;

use khal::Arch;
use ndl_std::{Device, Kernel};
use serde::Serialize;

use crate::bar_reader::BarReader;
use crate::cli::{BlockName, RegsDumpArgs, RegsReadArgs};
use crate::device_target::{DeviceFacts, Probe, Target, probe};
use crate::error::{Result, ToolError};
use crate::quote::quote_str;
use crate::reg_fields::Field;
use crate::unit_regs::{ReadRule, RegRow, RowDecode, unit_rows};

/// Longest `--register` name taken (the longest declared name is well under it).
pub const MAX_REGISTER_NAME: usize = 128;

/// One register as read.
#[derive(Clone, Debug, Serialize)]
pub struct RegValue {
    /// Full name.
    pub name: String,
    /// Offset in BAR0.
    pub bar0_offset: u64,
    /// Offset from the unit base.
    pub unit_offset: u64,
    /// The raw value; `None` when it was not read.
    pub value: Option<u32>,
    /// Its fields by name (cause words: the set bits by name).
    pub fields: Vec<Field>,
    /// Why it was not read, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
    /// The fields are the set bits of a cause-like word (each named, value 1).
    #[serde(skip)]
    pub bits: bool,
}

/// One engine's registers as read.
#[derive(Clone, Debug, Serialize)]
pub struct EngineRegs {
    /// The engine (the driver's global id).
    pub engine: u32,
    /// BAR0 offset of its UDMA unit.
    pub unit_base: u64,
    /// BAR_READ calls made.
    pub calls: u64,
    /// The registers, in block order.
    pub registers: Vec<RegValue>,
}

/// Why a register is left unread.
const CLEARS: &str = "not read: reading it clears it";
const CLEAR_ON_READ: &str = "not read: its group's control has CLEAR_ON_READ set";

/// Reads `rows` of the unit at BAR0 `unit_base` through `bar`.
pub fn read_rows<K: Kernel>(
    bar: &mut BarReader<'_, '_, K>,
    engine: u32,
    unit_base: u64,
    rows: &[RegRow],
) -> Result<EngineRegs> {
    let before = bar.calls();
    let at = |off: usize| unit_base + off as u64;
    // Controls of groups whose cause is asked for first: a clear-on-read cause stays unread.
    let mut controls: Vec<usize> = rows
        .iter()
        .filter_map(|r| match r.read {
            ReadRule::CauseOfGroup { control } => Some(control),
            _ => None,
        })
        .collect();
    controls.dedup();
    let control_offsets: Vec<u64> = controls.iter().map(|&c| at(c)).collect();
    let control_values = bar.read(&control_offsets)?;
    let clear_on_read = |c: usize| {
        controls
            .iter()
            .position(|&x| x == c)
            .and_then(|i| control_values.get(i))
            .is_some_and(|&v| iofic::Control::from_bits(v).clear_on_read())
    };
    let note = |r: &RegRow| match r.read {
        ReadRule::Plain => None,
        ReadRule::ClearsOnRead => Some(CLEARS),
        ReadRule::CauseOfGroup { control } => clear_on_read(control).then_some(CLEAR_ON_READ),
    };
    let wanted: Vec<u64> = rows
        .iter()
        .filter(|r| note(r).is_none())
        .map(|r| at(r.offset))
        .collect();
    let mut values = bar.read(&wanted)?.into_iter();
    let registers = rows
        .iter()
        .map(|r| {
            let note = note(r);
            let value = if note.is_none() { values.next() } else { None };
            let fields = match (value, r.decode) {
                (Some(v), RowDecode::Fields(d)) => d(v),
                (Some(v), RowDecode::Causes(set)) => set.fields(v),
                _ => Vec::new(),
            };
            RegValue {
                name: r.name.clone(),
                bar0_offset: at(r.offset),
                unit_offset: r.offset as u64,
                value,
                fields,
                note,
                bits: matches!(r.decode, RowDecode::Causes(_)),
            }
        })
        .collect();
    Ok(EngineRegs {
        engine,
        unit_base,
        calls: bar.calls() - before,
        registers,
    })
}

/// The BAR0 offset of engine `engine`'s UDMA unit on arch `A`, or why there is none.
pub fn unit_base<A: Arch>(engine: u32) -> Result<u64> {
    let engines = A::SCALARS.engine_ids().count();
    A::SCALARS.udma_engine_offset(engine).map_err(|_| {
        ToolError::BadArgument(format!(
            "--engine {engine}: {} has DMA engines 0..{} (core engines, then the host-transfer \
             engines)",
            A::CODE_NAME,
            engines.saturating_sub(1)
        ))
    })
}

/// One register line: BAR0 offset, unit offset, name, value, fields.
pub fn write_reg(out: &mut impl Write, r: &RegValue) -> std::io::Result<()> {
    write!(
        out,
        "  {:#010x}  +{:#07x}  {:<44}",
        r.bar0_offset, r.unit_offset, r.name
    )?;
    match (r.value, r.note) {
        (Some(v), _) => write!(out, "  {v:#010x}")?,
        (None, Some(why)) => write!(out, "  ({why})")?,
        (None, None) => write!(out, "  -")?,
    }
    for f in &r.fields {
        if r.bits {
            write!(out, " {}", f.name)?;
        } else {
            write!(out, " {}={}", f.name, f.value)?;
        }
    }
    writeln!(out)
}

/// The text form of one engine's registers.
fn write_engine(
    out: &mut impl Write,
    e: &EngineRegs,
    arch: &str,
    device: &str,
) -> std::io::Result<()> {
    let unread = e.registers.iter().filter(|r| r.value.is_none()).count();
    writeln!(
        out,
        "engine {} of {device} ({arch}), UDMA unit at BAR0 {:#x}: {} registers read with \
         BAR_READ in {} call(s){}",
        e.engine,
        e.unit_base,
        e.registers.len() - unread,
        e.calls,
        if unread > 0 {
            format!(", {unread} not read (reading would change them)")
        } else {
            String::new()
        }
    )?;
    for r in &e.registers {
        write_reg(out, r)?;
    }
    Ok(())
}

struct Read<'a, W> {
    args: &'a RegsReadArgs,
    out: &'a mut W,
}

impl<W: Write> Probe for Read<'_, W> {
    type Output = ();
    fn run<K: Kernel, A: Arch>(
        self,
        dev: &Device<'_, K>,
        facts: &DeviceFacts,
        name: &str,
    ) -> Result<()> {
        let a = self.args;
        let base = unit_base::<A>(a.engine)?;
        let block = match (a.block, a.queue) {
            (None, Some(_)) => Some(BlockName::Queue),
            (b, _) => b,
        };
        let mut rows = unit_rows::<A>(block, a.queue);
        if let Some(want) = &a.register {
            rows.retain(|r| r.name == *want || r.short == want.as_str());
            if rows.is_empty() {
                return Err(ToolError::BadArgument(format!(
                    "no register called {} in the chosen block(s) of engine {} (names as \
                     `neuron-tool regs --arch {}` lists them)",
                    quote_str(want),
                    a.engine,
                    A::CODE_NAME.to_lowercase()
                )));
            }
        }
        let mut bar = BarReader::new(dev, *facts, name);
        let regs = read_rows(&mut bar, a.engine, base, &rows)?;
        if a.json {
            let v = serde_json::json!({
                "device": name,
                "arch": A::CODE_NAME,
                "engines": [regs],
            });
            writeln!(self.out, "{v}")?;
        } else {
            write_engine(self.out, &regs, A::CODE_NAME, name)?;
        }
        Ok(())
    }
}

/// `regs read [--device NODE | --arch A] --engine E [--block B] [--queue Q]
/// [--register NAME] [--json]`.
pub fn read(args: &RegsReadArgs, out: &mut impl Write) -> Result<()> {
    read_on(
        &Target::from_args(args.device.as_deref(), args.arch),
        args,
        out,
    )
}

/// `regs read` on `target` (in place of what `args.device` and `args.arch` say).
pub fn read_on(target: &Target<'_>, args: &RegsReadArgs, out: &mut impl Write) -> Result<()> {
    if let Some(q) = args.queue {
        udma_desc::QueueId::new(q).map_err(|e| ToolError::BadArgument(format!("--queue: {e}")))?;
        if args.block.is_some_and(|b| b != BlockName::Queue) {
            return Err(ToolError::BadArgument(
                "--queue picks a queue block; it goes with --block queue (or no --block)".into(),
            ));
        }
    }
    if let Some(r) = &args.register {
        if r.len() > MAX_REGISTER_NAME {
            return Err(ToolError::BadArgument(format!(
                "--register {} is longer than any register name ({MAX_REGISTER_NAME} bytes at \
                 most)",
                quote_str(r)
            )));
        }
    }
    probe(target, Read { args, out })
}

struct Dump<'a, W> {
    json: bool,
    out: &'a mut W,
}

impl<W: Write> Probe for Dump<'_, W> {
    type Output = ();
    fn run<K: Kernel, A: Arch>(
        self,
        dev: &Device<'_, K>,
        facts: &DeviceFacts,
        name: &str,
    ) -> Result<()> {
        let rows = unit_rows::<A>(None, None);
        let mut bar = BarReader::new(dev, *facts, name);
        let engines: Vec<u32> = A::SCALARS.engine_ids().collect();
        if self.json {
            write!(
                self.out,
                "{{\"device\":{},\"arch\":\"{}\",\"engines\":[",
                serde_json::Value::from(name),
                A::CODE_NAME
            )?;
        }
        for (i, &engine) in engines.iter().enumerate() {
            let regs = read_rows(&mut bar, engine, unit_base::<A>(engine)?, &rows)?;
            if self.json {
                let sep = if i == 0 { "" } else { "," };
                write!(
                    self.out,
                    "{sep}{}",
                    serde_json::to_string(&regs).map_err(std::io::Error::from)?
                )?;
            } else {
                write_engine(self.out, &regs, A::CODE_NAME, name)?;
            }
        }
        if self.json {
            writeln!(self.out, "]}}")?;
        } else {
            writeln!(
                self.out,
                "{} engines, {} registers each, {} BAR_READ calls",
                engines.len(),
                rows.len(),
                bar.calls()
            )?;
        }
        Ok(())
    }
}

/// `regs dump [--device NODE | --arch A] [--json]`: every UDMA block of every engine.
pub fn dump(args: &RegsDumpArgs, out: &mut impl Write) -> Result<()> {
    dump_on(
        &Target::from_args(args.device.as_deref(), args.arch),
        args.json,
        out,
    )
}

/// `regs dump` on `target`.
pub fn dump_on(target: &Target<'_>, json: bool, out: &mut impl Write) -> Result<()> {
    probe(target, Dump { json, out })
}
