//! A behavioural model of one AWS Neuron device: UDMA units that execute descriptor rings from
//! memory, and the IOFIC interrupt controllers that latch their causes.
//!
//! Software drives the model exactly as it drives silicon: register reads and writes through
//! [`mmio::Mmio`] (so `khal` bring-up runs unchanged), descriptors as bytes in the model's
//! memory, doorbells as tail-pointer-increment writes. The model never sees the builders'
//! Rust values; it decodes the bytes it fetches with `udma-desc`'s typed views, and every
//! register offset and bit comes from `khal`, `iofic` and `udma-desc`.
//!
//! * [`AddressSpace`] — device (HBM) and host regions addressed by 64-bit DMA addresses, with
//!   an aligned allocator; an out-of-range or straddling access is a [`BusError`].
//! * [`Device`] — the UDMA units (placement from an `Arch`: [`Device::for_arch`]) and memory
//!   behind one lock; implements [`mmio::Mmio`] on BAR0 offsets with `&self`.
//! * [`DeviceDescStore`] — a `udma_desc::DescStore` over model memory, so ring builders write
//!   the bytes the engine fetches.
//! * Execution: [`Device::step`] / [`Device::run_until_idle`] (deterministic, the default
//!   [`ExecMode::Manual`]), [`ExecMode::OnDoorbell`] (the doorbell write runs the device), or a
//!   [`BackgroundEngine`] thread ([`Device::start_background`]).
//! * [`engine_walk`] — the rules by which an engine takes descriptors from its rings, over
//!   model memory or a plain dump.
//! * `scenario` (feature `test-utils`) — a byte-coded script format used by the fuzz targets
//!   in `fuzz/` and the tests.
//!
//! ```
//! use khal::udma::{EngineParams, RingConfig, Udma, UdmaState};
//! use neuron_emu::{Device, DeviceDescStore, MemoryConfig, RegionKind};
//! use udma_desc::{CopyRequest, DescRing, Direction, QueueId, RingPair};
//! type A = khal_cayman::Cayman;
//!
//! let dev = Device::for_arch::<A>(&MemoryConfig::default())?;
//! let host = dev.with_memory(|m| m.find(RegionKind::Host)).unwrap();
//! let hbm = dev.with_memory(|m| m.find(RegionKind::Device { channel: 0 })).unwrap();
//!
//! // Bring-up with khal, through the model's register window of engine 0: engine init also
//! // unmasks and arms the error interrupts and programs the arch's descriptors-per-packet limit.
//! let regs = mmio::Window::new(dev.clone(), dev.unit_base(0).unwrap());
//! let udma = Udma::<A, _>::init(regs, EngineParams::for_arch::<A>())?;
//! udma.set_state(UdmaState::Normal)?;
//! let (tx, rx) = (dev.alloc(host, 512, 256)?, dev.alloc(host, 512, 256)?);
//! let q = QueueId::new(0).expect("queue 0 exists");
//! udma.init_queue(q, RingConfig { bus_addr: tx, size: 32 }, RingConfig { bus_addr: rx, size: 32 })?;
//!
//! // Descriptors with udma-desc, written straight into model memory.
//! let mut pair = RingPair::new(
//!     q,
//!     DescRing::new(Direction::Tx, DeviceDescStore::new(dev.clone(), tx, 32))?,
//!     DescRing::new(Direction::Rx, DeviceDescStore::new(dev.clone(), rx, 32))?,
//! );
//! let (src, dst) = (dev.alloc(host, 4096, 64)?, dev.alloc(hbm, 4096, 64)?);
//! dev.write_mem(src, &[0xab; 4096])?;
//! pair.copy_prepare_one::<A>(&CopyRequest::new(src, dst, 4096))?;
//! pair.copy_start(&udma, 1, 1)?; // RX then TX doorbell, through khal
//! assert_eq!(dev.run_until_idle().bytes, 4096);
//! assert_eq!(dev.read_mem_vec(dst, 4096)?, vec![0xab; 4096]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Data path
//!
//! What a queue pair does when it runs (one packet per [`Device::step`]). Framing, phase,
//! CME, limits and pairing are the [`engine_walk`], the one walk a ring-dump decode uses too:
//!
//! * **Framing.** TX descriptors are read from the M2S head while they are posted. The first
//!   must carry FIRST (else M2S PREFETCH_FIRST); a FIRST before the packet's LAST is
//!   PREFETCH_LAST (the previous packet never ended) unless it is chained in by CONCAT, on
//!   the previous descriptor or on itself (seed 004 §1 `build_cme_packet` sets CONCAT on the
//!   data descriptors after a CME meta descriptor). LAST ends the packet. A packet whose LAST
//!   is not posted yet waits for the next doorbell. More data descriptors than the prefetch
//!   limit (`m2s_rd.desc_pref_cfg_2`; 128 while unprogrammed, the model's choice) is PREFETCH_MAX_DESC (the limit
//!   counts data descriptors, as `build_packet`'s cap counts `num_blocks`, seed 004 §1; whether
//!   the prefetcher also counts a META descriptor no source states); more bytes than
//!   `m2s.cfg_len` MAX_PKT_SIZE is PKT_LEN.
//! * **Meta descriptors.** A TX descriptor with META (a CME meta descriptor) is consumed and
//!   counted ([`QueueStats::meta_descriptors`]) but moves no data and takes no RX descriptor.
//! * **Phase.** Every data descriptor's ring id (bits 25:24) must equal the phase the queue
//!   expects at that slot (1 on the first lap after a queue reset, +1 mod 4 per wrap), else
//!   PREFETCH_RING_ID. META descriptors are not checked: a CME meta descriptor holds its CME
//!   index in those bits. A direction whose `err_log_mask` has the ring-id bit set does not
//!   check the phase at all (the vendor masks ring-id errors where it turns phase checking off).
//! * **Pairing.** The M2S stream of queue q feeds S2M queue q of the same unit. A packet with
//!   `k` data descriptors takes the next `k` RX descriptors (the project's builders emit TX and
//!   RX data descriptors one to one) and waits until they are posted. Its bytes stream into
//!   those RX buffers in order, each filled up to its length. Buffers that hold fewer bytes than
//!   the packet are S2M PKT_LEN ("RX shorter than TX").
//! * **Length.** A length field of 0 means 65,536 bytes when `m2s.cfg_len` ENCODE_64K is set
//!   (engine init sets it), else 0 bytes; the same rule applies to RX descriptors.
//! * **Atomic packets.** Descriptors, source ranges and destination ranges are all checked
//!   before the first byte moves. A faulting packet consumes no descriptor and writes nothing;
//!   the heads stay on it so software can inspect the ring and retry.
//! * **Data movement.** One slice copy per overlap of a TX and an RX range, between region
//!   buffers (`copy_within` inside one region); no per-byte work. Region buffers start on a
//!   4 KiB host page, as the DMA addresses they back do. A run of one-descriptor packets
//!   ([`engine_walk::single`]) into a region that holds neither ring nor their source is
//!   moved with that region borrowed once, and packets whose ranges follow on from each other
//!   are moved by one copy; the bytes land exactly as packet by packet, since nothing in such
//!   a run writes a ring or a source.
//! * **Ordering.** Packets run one at a time, in ring order per queue and round-robin across
//!   queue pairs and units, and each packet's bytes move in descriptor order before the next
//!   packet starts. That sequential execution is what DMB (TX bit 30: wait for earlier
//!   transfers), the write barrier (`meta_ctrl` bit 26: order this write after earlier ones)
//!   and strong-order writes (RX bit 29) ask of hardware, so each is satisfied by construction;
//!   the model counts them in [`QueueStats::ordering_points`].
//! * **Completion.** A TX descriptor with INT_EN latches primary group C bit q (TX completion
//!   queues); an RX descriptor with INT_EN latches primary group B bit q (RX completions).
//!   The V4 notification mask is not modelled: no source gives its bits (it sits in the TX
//!   meta word, seed 004 §1). No completion ring is written (the copy path has none).
//! * **Errors.** Each [`Fault`] latches its cause in secondary group A (M2S) or B (S2M) unless
//!   the direction's `err_log_mask` hides it; if the group's abort-mask bit is 0 the direction
//!   moves to [`EngineState::Aborted`] (state fields read 2) and stops; either way the faulting
//!   queue is blocked until its next doorbell (a count of 0 is enough), a `change_state` NORMAL
//!   or a queue reset. Recovery after an abort: fix the ring, clear the cause, write NORMAL.
//!
//! # Registers
//!
//! Queue registers: `cfg` (runs only with EN_PREF and EN_SCHEDULING), ring base low/high
//! (low 6 bits dropped), length, head/tail/current pointers (read only, index plus ring id in
//! bits 31:30), tail increment (the doorbell; reads 0), `q_sw_ctrl` RST_Q (head and tail to
//! slot 0, ring id 1). Engine: `change_state` one-hot (ABORT over DIS over NORMAL) and `state`
//! with the same 2-bit value in all four fields (0 disabled/idle, 1 normal, 2 abort); power-on
//! is disabled. `m2s.stream_cfg` DISABLE and an `s2m.stream_cfg` with DISABLE, FLUSH and
//! STOP_PREFETCH stall the stream. `m2s_feature.dma_version` is read only and reads the
//! device's UDMA revision word ([`DeviceConfig::dma_version`]: 4 on every arch, what seed 004 §2
//! `al_udma_init` requires; [`DeviceConfig::with_dma_version`] presets another). The S2M no-descriptor policy (S2M `+0x344`): a packet whose RX
//! descriptors are not posted waits forever when drop is off and the timeout is 0 (the reset
//! value), else it is dropped ([`Step::Dropped`], [`QueueStats::dropped_packets`]) after
//! waiting `timeout` scheduler passes (a model choice: the ancestor HAL's unit is
//! south-bridge clock cycles, which the model has no clock for). The number of queues
//! software configured is held by no register: the model runs any queue whose `cfg` enables
//! it. The TTT (the ancestor HAL's Transaction Type Table, revision 4 and later) sits in
//! `gen_ex` from `+0x800`, unit `0x3c800..0x3cc1c`, served there and through a separate window
//! on `gen_ex`, [`Device::tgtid_block`]. IOFIC: see
//! [`IoficGroupModel`] and [`UnitIofic`]. Every other
//! register of the `0x3c800`-byte unit window is plain storage with its reset value (`cfg`
//! 0x03000000, TX `rlimit.mask` 7, spare ones registers all ones, `m2s.cfg_len` 0x000fffff);
//! offsets outside every unit window, or not 4-byte aligned, read [`mmio::BUS_ERROR_READ`] and
//! drop writes.

#![forbid(unsafe_code)]

mod address_space;
mod allocator;
mod arch_layout;
mod commit;
mod desc_store;
mod device;
mod engine_state;
pub mod engine_walk;
mod error;
mod fault;
mod inject;
mod iofic_model;
mod model;
mod offset_hasher;
mod page_aligned;
#[cfg(feature = "test-utils")]
#[doc(hidden)]
pub mod per_arch_tests;
mod queue;
mod rule_registers;
#[cfg(feature = "test-utils")]
pub mod scenario;
mod single_run;
mod transfer;
mod ttt_model;
mod ttt_window;
mod unit;
mod write_log;

pub use address_space::{AddressSpace, Region, RegionId, RegionKind, RegionSpec};
pub use arch_layout::{MemoryConfig, regions, rules_after_init, unit_bases};
pub use desc_store::DeviceDescStore;
pub use device::{BackgroundEngine, Device, DeviceConfig, ExecMode, TgtidBlock};
pub use engine_state::EngineState;
pub use engine_walk::{RingPos, WalkRules};
pub use error::{AllocError, BusError, MapError, RulesError};
pub use fault::Fault;
pub use inject::{Armed, InjectError, Injection};
pub use iofic_model::{GROUP_A, GROUP_B, GROUP_C, GROUP_D, IoficGroupModel, Level, UnitIofic};
pub use model::{FaultRecord, RunReport, Step};
pub use queue::{QueueBlock, QueueStats};
pub use rule_registers::{HW_MAX_DESCS_PER_PACKET, RuleRegisters};
pub use transfer::WaitReason;
pub use ttt_model::TttEntryWords;
pub use udma_desc::Direction;
pub use unit::QUEUES;
pub use write_log::{RegisterWrite, WRITE_LOG_CAPACITY, WriteWindow};
