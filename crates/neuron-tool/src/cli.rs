//! Command-line grammar (clap). Spellings are part of the interface: scripts rely on them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::quote::quote_str;

mod trace;
pub use trace::{
    TraceCommand, TraceDecodeArgs, TraceExportArgs, TraceFilterArgs, TraceReplayArgs,
    TraceStatsArgs,
};

/// Drive an AWS Neuron device (or the built-in device model): verified DMA copies, descriptor
/// and ring decoding, the ioctl catalog, register maps and per-arch facts.
#[derive(Debug, Parser)]
#[command(name = "neuron-tool", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Copy bytes with the DMA engine and verify every destination byte (the main job).
    Copy(CopyArgs),
    /// Build or decode single descriptors.
    #[command(subcommand)]
    Desc(DescCommand),
    /// Decode raw descriptor ring dumps.
    #[command(subcommand)]
    Ring(RingCommand),
    /// The ioctl catalog of the Neuron char device, per driver release.
    #[command(subcommand)]
    Ioctl(IoctlCommand),
    /// Say whether a runtime of a compatibility version can run on a device, a driver
    /// release or the built-in model, and why not.
    Compat(CompatArgs),
    /// Print the UDMA register map with offsets; `regs read` and `regs dump` read a device's
    /// registers through BAR_READ and decode them by field.
    Regs(RegsArgs),
    /// Inspect a DMA queue of a device: state, both rings decoded, interrupt causes, and
    /// what is wrong.
    #[command(subcommand)]
    Queue(QueueCommand),
    /// Identify a chip generation from its PCI device id (or --arch); print capabilities and
    /// scalars.
    Arch(ArchArgs),
    /// Micro-benchmarks.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Serve the built-in device model as DIR/neuron0..N-1 over FUSE (foreground, needs
    /// root; Ctrl-C or SIGTERM unmounts), so programs reach it through real system calls.
    Serve(ServeArgs),
    /// Decode, summarise, export or replay a trace of the runtime/driver conversation
    /// (recorded by `serve --record` or the LD_PRELOAD library libneuron_trace.so).
    #[command(subcommand)]
    Trace(TraceCommand),
}

/// Chip generation, by project code name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ArchName {
    /// V2: trn1, inf2.
    Sunda,
    /// V3: trn2.
    Cayman,
    /// V4: trn3.
    Mariana,
}

/// Ordering barrier of a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BarrierName {
    /// No ordering bits.
    None,
    /// Data memory barrier on the TX descriptor.
    Dmb,
    /// Write barrier in the TX meta word.
    WriteBarrier,
    /// Strong-ordered write on the RX descriptor (not on sunda).
    Sow,
}

/// How descriptors reach the rings of a driver-style copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeliveryName {
    /// Stored through an mmap of the process's own ring memory.
    Mmap,
    /// Handed to the driver's DMA_COPY_DESCRIPTORS ioctl (nothing mapped).
    CopyDescriptors,
}

/// `neuron-tool copy`.
#[derive(Debug, Args)]
pub struct CopyArgs {
    /// Chip generation of the built-in model (ignored with --device: the device says).
    #[arg(long, value_enum, default_value_t = ArchName::Cayman)]
    pub arch: ArchName,
    /// Bytes to copy (e.g. 4096, 64KiB, 1MiB). On the built-in model at most one HBM
    /// channel of the arch, and twice the size (source and destination) must fit the
    /// memory /proc/meminfo calls available.
    #[arg(long, default_value = "1MiB", value_parser = parse_size_arg)]
    pub size: u64,
    /// Use queue --queue of this DMA engine (the driver's global id) instead of an H2T
    /// service queue allocated from the driver.
    #[arg(long)]
    pub engine: Option<u32>,
    /// DMA queue (0..15) of --engine.
    #[arg(long, default_value_t = 0)]
    pub queue: u32,
    /// The core whose H2T engine serves the copy (without --engine).
    #[arg(long, default_value_t = 0)]
    pub nc: u32,
    /// How descriptors reach the rings. Without it: an mmap of the ring memory where the
    /// node can be mapped, else DMA_COPY_DESCRIPTORS (a FUSE-served node refuses shared
    /// mappings); the summary says when it fell back. Given, it is used or the copy fails.
    #[arg(long, value_enum)]
    pub delivery: Option<DeliveryName>,
    /// Ordering barrier on the last data descriptor pair of each batch (the driver's own
    /// copies put the write barrier there).
    #[arg(long, value_enum, default_value_t = BarrierName::None)]
    pub barrier: BarrierName,
    /// Descriptors per ring (a power of two, 32 or more). Smaller rings make the copy wait
    /// for the engine and wrap the rings more often.
    #[arg(long, default_value_t = COPY_RING)]
    pub ring_size: u32,
    /// Drive the engine registers directly through a mapped BAR0 (the device model only:
    /// the driver refuses user access to DMA queue registers).
    #[arg(long)]
    pub register_level: bool,
    /// A real device node (e.g. /dev/neuron0) or a directory holding neuronN nodes;
    /// without it the built-in device model is used.
    #[arg(long)]
    pub device: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Default descriptors per ring of `copy`.
pub const COPY_RING: u32 = 4096;

/// `neuron-tool desc ...`.
#[derive(Debug, Subcommand)]
pub enum DescCommand {
    /// Build one copy pair; prints `tx=<32 hex> rx=<32 hex>` (bytes in memory order).
    Build(DescBuildArgs),
    /// Decode 16 descriptor bytes (32 hex digits, memory order) and print every field.
    Decode(DescDecodeArgs),
}

/// `neuron-tool desc build`.
#[derive(Debug, Args)]
pub struct DescBuildArgs {
    /// Read `tx_ring rx_ring src dst size barrier int` lines from stdin (at most 2048
    /// bytes each, POSIX LINE_MAX); print `ok <txhex> <rxhex>` or `err <reason>` per line,
    /// in input order. Exits non-zero when any line was refused (stderr counts them and
    /// names the first); a longer line ends the batch there.
    #[arg(long, conflicts_with_all = ["tx_ring", "rx_ring", "src", "dst", "size"])]
    pub batch: bool,
    /// Ring id (phase, 0..3) of the TX slot.
    #[arg(long, required_unless_present = "batch")]
    pub tx_ring: Option<u32>,
    /// Ring id (phase, 0..3) of the RX slot.
    #[arg(long, required_unless_present = "batch")]
    pub rx_ring: Option<u32>,
    /// Source DMA address (hex with 0x, or decimal).
    #[arg(long, required_unless_present = "batch", value_parser = parse_addr_arg)]
    pub src: Option<u64>,
    /// Destination DMA address.
    #[arg(long, required_unless_present = "batch", value_parser = parse_addr_arg)]
    pub dst: Option<u64>,
    /// Bytes, 1..=65536.
    #[arg(long, required_unless_present = "batch", value_parser = parse_size_arg)]
    pub size: Option<u64>,
    /// Barrier: none|dmb|write-barrier|sow (or 0..3).
    #[arg(long, default_value = "none", value_parser = parse_barrier_arg)]
    pub barrier: BarrierName,
    /// Ask for a destination (RX) completion interrupt.
    #[arg(long)]
    pub int: bool,
    /// Chip generation whose rules apply (SOW is refused on sunda).
    #[arg(long, value_enum, default_value_t = ArchName::Cayman)]
    pub arch: ArchName,
}

/// `neuron-tool desc decode`.
#[derive(Debug, Args)]
pub struct DescDecodeArgs {
    /// 32 hex digits: the 16 bytes in memory order.
    pub hex: String,
    /// Decode as an RX (S2M) descriptor instead of TX.
    #[arg(long)]
    pub rx: bool,
}

/// `neuron-tool ring ...`.
#[derive(Debug, Subcommand)]
pub enum RingCommand {
    /// Decode a raw ring dump (16 bytes per descriptor).
    ///
    /// Exits 0 when the engine takes every posted descriptor or waits for more; non-zero,
    /// after the decode, when it would fault, and at once for a file that is no ring dump
    /// (empty, not whole 16-byte descriptors, hex text, larger than the largest ring of
    /// 2^24 - 16 descriptors) or a --head or --posted outside the ring.
    Decode(RingDecodeArgs),
}

/// `neuron-tool ring decode` (its exit rule is in [`RingCommand::Decode`]'s help).
#[derive(Debug, Args)]
pub struct RingDecodeArgs {
    /// The dump file (read up to the largest ring, 268,435,200 bytes).
    pub file: PathBuf,
    /// Chip generation (decides packet limits).
    #[arg(long, value_enum)]
    pub arch: ArchName,
    /// Decode as an RX ring.
    #[arg(long)]
    pub rx: bool,
    /// The ring id (phase, 0..3) the engine expects at its head slot (1 after a queue reset).
    #[arg(long, default_value_t = 1)]
    pub phase: u32,
    /// The slot the engine's head is at (its phase flips +1 mod 4 when it wraps past the end).
    #[arg(long, default_value_t = 0)]
    pub head: u32,
    /// Descriptors posted by doorbells from the head, at most the ring's size (default: the
    /// ones whose ring id says they were written for this lap).
    #[arg(long)]
    pub posted: Option<u64>,
}

/// `neuron-tool ioctl ...`.
#[derive(Debug, Subcommand)]
pub enum IoctlCommand {
    /// One line per command: `NAME 0xXXXXXXXX DIR NR SIZE LANE`.
    List {
        /// The driver release whose catalog to list (2.24.7.0 .. 2.30.2.0; default
        /// 2.26.5.0, the release the built-in model follows).
        #[arg(long)]
        driver: Option<String>,
    },
    /// Decode a request number: name(s), direction, nr, size, lane.
    Decode {
        /// The request number, e.g. 0xC0084E69.
        #[arg(value_parser = parse_u32_arg)]
        request: u32,
        /// Decode against this driver release (default 2.26.5.0).
        #[arg(long)]
        driver: Option<String>,
    },
    /// What changed from driver release R1 to R2: commands added, removed and changed
    /// (request, argument, lane, match), structs added, removed and changed (sizes, field
    /// offsets, renames).
    Diff {
        /// The older release, e.g. 2.26.5.0.
        from: String,
        /// The newer release, e.g. 2.27.4.0.
        to: String,
    },
}

/// `neuron-tool compat`.
#[derive(Debug, Args)]
pub struct CompatArgs {
    /// The runtime's compatibility version (what COMPATIBLE_VERSION's window is about).
    #[arg(long)]
    pub runtime_version: String,
    /// Ask the driver of this device node (or of the neuron0 in this directory).
    #[arg(long, conflicts_with = "driver")]
    pub device: Option<PathBuf>,
    /// Answer from this driver release's window (`compat.tsv`), for --arch.
    #[arg(long)]
    pub driver: Option<String>,
    /// Chip generation, for --driver and the built-in model (a device reports its own).
    #[arg(long, value_enum, default_value_t = ArchName::Cayman)]
    pub arch: ArchName,
}

/// Register blocks of `neuron-tool regs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BlockName {
    /// TX engine registers.
    M2s,
    /// RX engine registers.
    S2m,
    /// General block.
    Gen,
    /// Per-queue registers.
    Queue,
    /// Interrupt-controller group window.
    Iofic,
}

/// `neuron-tool regs`: the map (`--arch`), or a device's registers (`read`, `dump`).
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct RegsArgs {
    /// Read registers instead of printing the map.
    #[command(subcommand)]
    pub action: Option<RegsCommand>,
    /// Chip generation whose map to print.
    #[arg(long, value_enum, required = true)]
    pub arch: Option<ArchName>,
    /// Only this block.
    #[arg(long, value_enum)]
    pub block: Option<BlockName>,
}

/// `neuron-tool regs read|dump`.
#[derive(Debug, Subcommand)]
pub enum RegsCommand {
    /// Read one engine's registers through BAR_READ (the driver's read path, at most 100
    /// per call) and print each as BAR0 offset, unit offset, name, raw value and fields.
    /// Nothing is written; registers whose read would change them are not read.
    Read(RegsReadArgs),
    /// Read every UDMA block of every engine (as `read` does for one).
    Dump(RegsDumpArgs),
}

/// `neuron-tool regs read`.
#[derive(Debug, Args)]
pub struct RegsReadArgs {
    /// A device node (e.g. /dev/neuron0, or a served DIR/neuron0); without it the built-in
    /// device model.
    #[arg(long)]
    pub device: Option<PathBuf>,
    /// Chip generation of the built-in model; refused with --device (a device reports its
    /// own in DEVICE_INFO).
    #[arg(long, value_enum, default_value_t = ArchName::Cayman, conflicts_with = "device")]
    pub arch: ArchName,
    /// The DMA engine (the driver's global id).
    #[arg(long)]
    pub engine: u32,
    /// Only this block.
    #[arg(long, value_enum)]
    pub block: Option<BlockName>,
    /// Only this queue's blocks (0..15; implies --block queue).
    #[arg(long)]
    pub queue: Option<u32>,
    /// Only registers of this name (`m2s.state`, `tdrhp`, `m2s_q[3].tdrhp`, ...).
    #[arg(long)]
    pub register: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `neuron-tool regs dump`.
#[derive(Debug, Args)]
pub struct RegsDumpArgs {
    /// A device node; without it the built-in device model.
    #[arg(long)]
    pub device: Option<PathBuf>,
    /// Chip generation of the built-in model; refused with --device (a device reports its
    /// own in DEVICE_INFO).
    #[arg(long, value_enum, default_value_t = ArchName::Cayman, conflicts_with = "device")]
    pub arch: ArchName,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `neuron-tool queue ...`.
#[derive(Debug, Subcommand)]
pub enum QueueCommand {
    /// A DMA queue as the driver lets any process on the device lane see it:
    /// DMA_QUEUE_GET_STATE, both rings read back with DMA_DESCRIPTOR_COPYOUT and decoded by
    /// the engine walk, the unit's interrupt causes (BAR_READ), and one sentence on what is
    /// wrong. Nothing is written. Exits non-zero when something is wrong.
    Inspect(QueueInspectArgs),
}

/// A fault the demonstration copy of `queue inspect` on the built-in model runs into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FaultName {
    /// A descriptor whose source lies outside memory: a bus error (DMA abort).
    BusError,
    /// A descriptor with the previous lap's ring id (phase).
    RingId,
    /// A queue init asking for more descriptors than the driver allows.
    QueueInitLimit,
    /// A completion that never comes: the engine takes none of the descriptors.
    Timeout,
}

/// `neuron-tool queue inspect`.
#[derive(Debug, Args)]
pub struct QueueInspectArgs {
    /// A device node (e.g. /dev/neuron0, or a served DIR/neuron0). Without it, the built-in
    /// model: a demonstration copy runs on the queue first (with --fault, into that fault).
    #[arg(long)]
    pub device: Option<PathBuf>,
    /// Chip generation of the built-in model; refused with --device (a device reports its
    /// own in DEVICE_INFO).
    #[arg(long, value_enum, default_value_t = ArchName::Cayman, conflicts_with = "device")]
    pub arch: ArchName,
    /// The DMA engine (the driver's global id).
    #[arg(long)]
    pub engine: u32,
    /// The queue of the engine (0..15).
    #[arg(long)]
    pub queue: u32,
    /// Built-in model only: the fault the demonstration copy runs into.
    #[arg(long, value_enum)]
    pub fault: Option<FaultName>,
    /// Descriptors listed from each ring, from just before its head (1..=65536; the walk
    /// reads the whole ring).
    #[arg(long, default_value_t = DEFAULT_SLOTS)]
    pub slots: u32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Default of `queue inspect --slots`.
pub const DEFAULT_SLOTS: u32 = 16;

/// The spelling of `fault` on the command line.
pub fn fault_name(fault: FaultName) -> &'static str {
    match fault {
        FaultName::BusError => "bus-error",
        FaultName::RingId => "ring-id",
        FaultName::QueueInitLimit => "queue-init-limit",
        FaultName::Timeout => "timeout",
    }
}

/// `neuron-tool arch`.
#[derive(Debug, Args)]
pub struct ArchArgs {
    /// PCI device id, e.g. 0x7364.
    #[arg(long, value_parser = parse_u32_arg, required_unless_present = "arch")]
    pub device_id: Option<u32>,
    /// Or the generation by code name.
    #[arg(long, value_enum, conflicts_with = "device_id")]
    pub arch: Option<ArchName>,
}

/// `neuron-tool bench ...`.
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Build N copy pairs into a 4096-entry ring pair, one per call and in batches; print ns per pair.
    Build {
        /// Chip generation.
        #[arg(long, value_enum)]
        arch: ArchName,
        /// How many pairs.
        #[arg(long, default_value_t = 1_000_000)]
        pairs: u64,
    },
}

pub(crate) fn parse_size_arg(s: &str) -> Result<u64, String> {
    crate::size::parse_size(s)
}

/// Parses a number given as `0x` hex or decimal: digits only, no sign.
///
/// ```
/// use neuron_tool::cli::parse_u64;
/// assert_eq!(parse_u64("0xC0084E69"), Ok(0xC008_4E69));
/// assert_eq!(parse_u64(" 4096 "), Ok(4096));
/// // A sign is no digit (the ioctl_decode fuzz target found "+6" read as 6).
/// assert!(parse_u64("+6").is_err() && parse_u64("0x+6").is_err() && parse_u64("0x").is_err());
/// assert!(parse_u64("0x10000000000000000").unwrap_err().contains("does not fit in 64 bits"));
/// ```
pub fn parse_u64(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (t, 10),
    };
    // `from_str_radix` alone would also take a leading `+`.
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!(
            "{} is not a number (use 0x-prefixed hex or decimal)",
            quote_str(s)
        ));
    }
    u64::from_str_radix(digits, radix)
        .map_err(|_| format!("{} does not fit in 64 bits", quote_str(s)))
}

fn parse_addr_arg(s: &str) -> Result<u64, String> {
    parse_u64(s)
}

pub(crate) fn parse_u32_arg(s: &str) -> Result<u32, String> {
    let v = parse_u64(s)?;
    u32::try_from(v).map_err(|_| format!("{} does not fit in 32 bits", quote_str(s)))
}

/// Barrier by name or by the numeric code of the batch format (0 none, 1 dmb,
/// 2 write-barrier, 3 sow).
pub fn parse_barrier_arg(s: &str) -> Result<BarrierName, String> {
    match s.trim() {
        "0" | "none" => Ok(BarrierName::None),
        "1" | "dmb" => Ok(BarrierName::Dmb),
        "2" | "write-barrier" => Ok(BarrierName::WriteBarrier),
        "3" | "sow" => Ok(BarrierName::Sow),
        other => Err(format!(
            "unknown barrier {} (use none, dmb, write-barrier, sow or 0..3)",
            quote_str(other)
        )),
    }
}

/// `neuron-tool serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// An existing directory to mount on; it then holds neuron0 .. neuron{N-1}.
    #[arg(long)]
    pub mount: PathBuf,
    /// Chip generation of the served devices.
    #[arg(long, value_enum, default_value_t = ArchName::Cayman)]
    pub arch: ArchName,
    /// Number of devices.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub devices: u32,
    /// Memory of each device model: bytes per HBM channel, and of host memory (e.g. 256MiB;
    /// a copy needs its size twice over). At most the arch's HBM channel (16, 24 or 36
    /// GiB) and the machine's RAM + swap (/proc/meminfo); the model commits only what
    /// clients write.
    #[arg(long, default_value = "256MiB", value_parser = parse_size_arg)]
    pub memory: u64,
    /// Answer as this driver release (2.24.7.0 .. 2.30.2.0; default 2.26.5.0): requests
    /// it lacks are unknown (EINVAL, as that driver answers), COMPATIBLE_VERSION reports its
    /// window (`compat.tsv`), and from 2.27.4.0 its new commands are served.
    #[arg(long)]
    pub driver: Option<String>,
    /// Strict isolation (the emulator's own mode, not the driver's): every memory handle,
    /// cookie and queue is checked against the calling process, and another process's
    /// answers as an unknown one does. By default any process may use any handle, as on the
    /// real driver (see the README's security section).
    #[arg(long)]
    pub isolate: bool,
    /// Record everything the server answers (open, ioctl, close) to this trace file.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Bytes kept of each user buffer in the trace (the whole length is recorded).
    #[arg(long, default_value = "4KiB", value_parser = parse_size_arg, requires = "record")]
    pub record_cap: u64,
    /// Arm a fault on every served device: KIND@ENGINE:QUEUE, KIND one of bus-error,
    /// ring-id, timeout. It fires at the next doorbell that posts TX descriptors on that
    /// queue (e.g. a `copy --engine ENGINE --queue QUEUE`). Repeatable (at most 64).
    #[arg(long, value_parser = parse_fault_arg)]
    pub fault: Vec<ServeFault>,
}

/// One `serve --fault` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeFault {
    /// What fires.
    pub kind: neuron_emu::Injection,
    /// The engine.
    pub engine: u32,
    /// The queue.
    pub queue: u32,
}

/// `KIND@ENGINE:QUEUE` (KIND: `bus-error`, `ring-id`, `timeout`: the device faults of
/// [`FaultName`]).
///
/// ```
/// use neuron_tool::cli::parse_fault_arg;
/// let f = parse_fault_arg("timeout@4:3").unwrap();
/// assert_eq!((f.engine, f.queue), (4, 3));
/// assert!(parse_fault_arg("queue-init-limit@4:3").unwrap_err().contains("a client"));
/// assert!(parse_fault_arg("bus-error@4").is_err());
/// ```
pub fn parse_fault_arg(s: &str) -> Result<ServeFault, String> {
    let shape = || {
        format!(
            "{} is not KIND@ENGINE:QUEUE (KIND: bus-error, ring-id, timeout)",
            quote_str(s)
        )
    };
    let (kind, at) = s.split_once('@').ok_or_else(shape)?;
    let (engine, queue) = at.split_once(':').ok_or_else(shape)?;
    let fault = FaultName::from_str(kind, false).map_err(|_| shape())?;
    let kind = crate::queue_demo::injection(fault).ok_or_else(|| {
        "queue-init-limit is a request the driver refuses, not a device fault: a client \
         provokes it (queue inspect --fault queue-init-limit on the built-in model)"
            .to_string()
    })?;
    let num = |t: &str| parse_u32_arg(t).map_err(|_| shape());
    Ok(ServeFault {
        kind,
        engine: num(engine)?,
        queue: num(queue)?,
    })
}
