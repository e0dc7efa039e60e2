//! The per-queue register blocks: 16 per direction, `0x1000` bytes each, the first one
//! `0x1000` into the direction block (TX queue q at `0x1000 + q*0x1000`, RX queue q at
//! `0x21000 + q*0x1000` from the unit base): the block arrays [`TxQueue`] and [`RxQueue`],
//! the one statement of the queue geometry that khal's engine code, the pure callbacks and
//! the device model all use.
//!
//! The ring registers `+0x20..=+0x4c` (cfg, status, descriptor ring base/length/head/tail
//! increment/tail, current pointer, completion ring base/head) sit at the same offsets in both
//! directions — the reference's `q_rings` overlay, block [`QueueRings`] — and are declared
//! once, with the names the TX (`m2s_q`) and RX (`s2m_q`) rows give them; both queue blocks
//! include it. Registers that differ: `comp_cfg` (TX `+0xa0`, RX `+0x54`) and `q_sw_ctrl`
//! (TX `+0xb0`, RX `+0x64`). TX alone has `desc_pref_cfg` (`+0x00`) and `rlimit.mask`
//! (`+0x74`); the table lists no RX sibling for them, so none is declared.

use bitfield_struct::bitfield;
use mmio::Placed;
use udma_desc::{QUEUES_PER_ENGINE, QueueId};

use super::m2s::M2s;
use super::s2m::S2m;

/// Queue cfg (`+0x20`): prefetch and scheduling enables.
///
/// On RX bit 17 doubles as the stream-enable bit (same bit as scheduling), see
/// [`en_stream`](Self::en_stream).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct QueueCfg {
    #[bits(16)]
    __: u16,
    /// Descriptor prefetch enabled.
    pub en_pref: bool,
    /// Queue takes part in scheduling (RX: also "accepts stream packets").
    pub en_scheduling: bool,
    #[bits(6)]
    __: u8,
    /// Bits 24-25, set in the hardware reset value `0x0300_0000`; unnamed by the reference,
    /// kept as they are.
    #[bits(2)]
    pub reset_bits: u8,
    #[bits(6)]
    __: u8,
}

impl QueueCfg {
    /// The hardware reset value the driver caches instead of reading the register.
    pub const RESET: Self = Self::from_bits(0x0300_0000);
    /// RX reading of bit 17: the queue accepts packets from the stream.
    pub const fn en_stream(self) -> bool {
        self.en_scheduling()
    }
    /// This value with both prefetch and scheduling enabled.
    pub const fn enabled(self) -> Self {
        self.with_en_pref(true).with_en_scheduling(true)
    }
    /// This value with prefetch and scheduling disabled (a paused queue).
    pub const fn paused(self) -> Self {
        self.with_en_pref(false).with_en_scheduling(false)
    }
}

/// Descriptor ring length (`+0x30`), in descriptors.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct RingLen {
    /// Ring length in descriptors.
    #[bits(24)]
    pub descs: u32,
    #[bits(8)]
    __: u8,
}

/// A ring pointer with its ring id: head (`+0x34`), tail (`+0x3c`), completion head (`+0x4c`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct RingPtr {
    /// Index in descriptors.
    #[bits(24)]
    pub offset: u32,
    #[bits(6)]
    __: u8,
    /// Ring id (phase) expected at this index.
    #[bits(2)]
    pub ring_id: u8,
}

/// Tail-pointer increment (`+0x38`): the doorbell; writing N hands N descriptors over.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TailInc {
    /// How many descriptors the tail advances by.
    #[bits(24)]
    pub val: u32,
    #[bits(8)]
    __: u8,
}

impl TailInc {
    /// The largest count the 24-bit `val` field holds; a larger one would reach the
    /// reserved bits 31:24.
    pub const MAX_COUNT: u32 = (1 << Self::VAL_BITS) - 1;
}

/// Queue completion behaviour (`comp_cfg`: TX `+0xa0`, RX `+0x54`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct CompCfg {
    /// Write completion entries to the completion ring.
    pub en_comp_ring_update: bool,
    /// Turn off completion coalescing.
    pub dis_comp_coal: bool,
    #[bits(30)]
    __: u32,
}

/// Queue software control (`q_sw_ctrl`: TX `+0xb0`, RX `+0x64`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct QSwCtrl {
    #[bits(8)]
    __: u8,
    /// Reset the queue's head and tail pointers.
    pub rst_q: bool,
    #[bits(23)]
    __: u32,
}

impl TxRlimitMask {
    /// Hardware reset value (cached by the driver).
    pub const RESET: Self = Self::from_bits(0x7);
}

mmio::register! {
    /// The ring registers of a queue block, at the same offsets in both directions (the
    /// table's `q_rings` overlay; `aliases` are the `m2s_q` / `s2m_q` row names).
    pub block QueueRings = "q_rings" {
        /// Queue cfg: prefetch and scheduling enables.
        pub Cfg: QueueCfg = "cfg" @ 0x0020;
        /// Ring status.
        pub Status: u32 = "status" @ 0x0024;
        /// Descriptor ring base, low 32 bits (low 6 bits zero; written unshifted).
        pub DrbpLow: u32 = "drbp_low" @ 0x0028,
            aliases { "m2s_q" => "tdrbp_low", "s2m_q" => "rdrbp_low" };
        /// Descriptor ring base, high 32 bits.
        pub DrbpHigh: u32 = "drbp_high" @ 0x002c,
            aliases { "m2s_q" => "tdrbp_high", "s2m_q" => "rdrbp_high" };
        /// Descriptor ring length in descriptors.
        pub Drl: RingLen = "drl" @ 0x0030, aliases { "m2s_q" => "tdrl", "s2m_q" => "rdrl" };
        /// Ring head plus ring id.
        pub Drhp: RingPtr = "drhp" @ 0x0034, aliases { "m2s_q" => "tdrhp", "s2m_q" => "rdrhp" };
        /// Tail-pointer increment (the doorbell).
        pub DrtpInc: TailInc = "drtp_inc" @ 0x0038,
            aliases { "m2s_q" => "tdrtp_inc", "s2m_q" => "rdrtp_inc" };
        /// Ring tail plus ring id.
        pub Drtp: RingPtr = "drtp" @ 0x003c, aliases { "m2s_q" => "tdrtp", "s2m_q" => "rdrtp" };
        /// Current descriptor pointer.
        pub Dcp: u32 = "dcp" @ 0x0040, aliases { "m2s_q" => "tdcp", "s2m_q" => "rdcp" };
        /// Completion ring base, low 32 bits.
        pub CrbpLow: u32 = "crbp_low" @ 0x0044,
            aliases { "m2s_q" => "tcrbp_low", "s2m_q" => "rcrbp_low" };
        /// Completion ring base, high 32 bits.
        pub CrbpHigh: u32 = "crbp_high" @ 0x0048,
            aliases { "m2s_q" => "tcrbp_high", "s2m_q" => "rcrbp_high" };
        /// Completion ring head plus ring id.
        pub Crhp: RingPtr = "crhp" @ 0x004c, aliases { "m2s_q" => "tcrhp", "s2m_q" => "rcrhp" };
    }

    /// TX queue `q`'s block: 16, `0x1000` apart, from `0x1000` into the M2S block.
    pub block TxQueue = "m2s_q"
        @ (M2s::BASE + 0x1000) [(QUEUES_PER_ENGINE as usize) x 0x1000]: QueueRings
    {
        /// TX only: per-queue descriptor prefetch setup.
        pub TxDescPrefCfg: u32 = "desc_pref_cfg" @ 0x0000;
        /// TX only: per-queue rate-limiter mask; bit 2 gates the DMB pause.
        pub TxRlimitMaskReg:
            /// TX per-queue rate-limiter mask (`+0x74`).
            struct TxRlimitMask {
                /// The other limiter types (set at reset; left set).
                #[bits(2)]
                pub other: u8,
                /// Gates the DMB pause; queue init clears it so DMB descriptors really pause
                /// the queue.
                pub internal_pause_dmb: bool,
                #[bits(29)]
                __: u32,
            } = "rlimit.mask" @ 0x0074;
        /// TX completion behaviour.
        pub TxCompCfg: CompCfg = "comp_cfg" @ 0x00a0;
        /// TX queue software control (queue reset).
        pub TxQSwCtrl: QSwCtrl = "q_sw_ctrl" @ 0x00b0;
    }

    /// RX queue `q`'s block: 16, `0x1000` apart, from `0x1000` into the S2M block.
    pub block RxQueue = "s2m_q"
        @ (S2m::BASE + 0x1000) [(QUEUES_PER_ENGINE as usize) x 0x1000]: QueueRings
    {
        /// RX completion behaviour (different offset from TX).
        pub RxCompCfg: CompCfg = "comp_cfg" @ 0x0054;
        /// RX queue software control (different offset from TX).
        pub RxQSwCtrl: QSwCtrl = "q_sw_ctrl" @ 0x0064;
    }
}

const _: () = assert!(
    TxQueue::COUNT == QUEUES_PER_ENGINE as usize && RxQueue::COUNT == TxQueue::COUNT,
    "a queue block per QueueId"
);

/// A queue direction: `udma_desc`'s [`Direction`] (TX = M2S, RX = S2M), the one direction
/// type of the workspace. `Dir` is the same type under the name this crate's APIs use.
pub use udma_desc::Direction;
/// The same type as [`Direction`].
pub type Dir = Direction;

/// Offset from the unit base of queue `q`'s block of direction `dir` ([`TxQueue`] /
/// [`RxQueue`] block `q`).
pub const fn queue_base(dir: Dir, q: QueueId) -> usize {
    // Every QueueId has a block (asserted above).
    match dir {
        Dir::Tx => mmio::block_base_or_unmapped::<TxQueue>(q.index()),
        Dir::Rx => mmio::block_base_or_unmapped::<RxQueue>(q.index()),
    }
}

/// `(direction, queue, offset inside the queue block)` of an offset from the unit base that
/// falls in a queue block; `None` elsewhere.
pub const fn locate_queue(offset: usize) -> Option<(Dir, usize, usize)> {
    if let Some((q, rel)) = TxQueue::locate(offset) {
        return Some((Dir::Tx, q, rel));
    }
    match RxQueue::locate(offset) {
        Some((q, rel)) => Some((Dir::Rx, q, rel)),
        None => None,
    }
}

/// The [`TxQueue`] and [`RxQueue`] arrays as `(start, bytes, stride)` from the unit base, for
/// range checks over every queue block of a unit (TX first).
pub const QUEUE_ARRAYS: [(usize, usize, usize); 2] = [
    (
        TxQueue::BASE,
        TxQueue::COUNT * TxQueue::STRIDE,
        TxQueue::STRIDE,
    ),
    (
        RxQueue::BASE,
        RxQueue::COUNT * RxQueue::STRIDE,
        RxQueue::STRIDE,
    ),
];
