//! The per-queue register blocks: 16 per direction, `0x1000` bytes each, the first one
//! `0x1000` into the direction block (TX queue q at `0x1000 + q*0x1000`, RX queue q at
//! `0x21000 + q*0x1000` from the unit base).
//!
//! The ring registers `+0x20..=+0x4c` (cfg, status, descriptor ring base/length/head/tail
//! increment/tail, current pointer, completion ring base/head) sit at the same offsets in both
//! directions — the reference's `q_rings` overlay — and are declared once here and checked
//! against the TX (`m2s_q`), RX (`s2m_q`) and overlay rows. Registers that differ:
//! `comp_cfg` (TX `+0xa0`, RX `+0x54`) and `q_sw_ctrl` (TX `+0xb0`, RX `+0x64`). TX alone has
//! `desc_pref_cfg` (`+0x00`) and `rlimit.mask` (`+0x74`); the table lists no RX sibling for
//! them, so none is declared.

use bitfield_struct::bitfield;

use super::unit::{M2S_BASE, S2M_BASE};

/// Offset of queue 0's block inside a direction block.
pub const QUEUE_BLOCK: usize = 0x1000;
/// Stride between queue blocks.
pub const QUEUE_STRIDE: usize = 0x1000;

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

/// TX per-queue rate-limiter mask (`+0x74`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TxRlimitMask {
    /// The other limiter types (set at reset; left set).
    #[bits(2)]
    pub other: u8,
    /// Gates the DMB pause; queue init clears it so DMB descriptors really pause the queue.
    pub internal_pause_dmb: bool,
    #[bits(29)]
    __: u32,
}

impl TxRlimitMask {
    /// Hardware reset value (cached by the driver).
    pub const RESET: Self = Self::from_bits(0x7);
}

register! { "q_rings";
    /// Queue cfg: prefetch and scheduling enables.
    pub Cfg: QueueCfg = "cfg" @ 0x0020;
    /// Ring status.
    pub Status: u32 = "status" @ 0x0024;
    /// Descriptor ring base, low 32 bits (low 6 bits zero; written unshifted).
    pub DrbpLow: u32 = "drbp_low" @ 0x0028;
    /// Descriptor ring base, high 32 bits.
    pub DrbpHigh: u32 = "drbp_high" @ 0x002c;
    /// Descriptor ring length in descriptors.
    pub Drl: RingLen = "drl" @ 0x0030;
    /// Ring head plus ring id.
    pub Drhp: RingPtr = "drhp" @ 0x0034;
    /// Tail-pointer increment (the doorbell).
    pub DrtpInc: TailInc = "drtp_inc" @ 0x0038;
    /// Ring tail plus ring id.
    pub Drtp: RingPtr = "drtp" @ 0x003c;
    /// Current descriptor pointer.
    pub Dcp: u32 = "dcp" @ 0x0040;
    /// Completion ring base, low 32 bits.
    pub CrbpLow: u32 = "crbp_low" @ 0x0044;
    /// Completion ring base, high 32 bits.
    pub CrbpHigh: u32 = "crbp_high" @ 0x0048;
    /// Completion ring head plus ring id.
    pub Crhp: RingPtr = "crhp" @ 0x004c;
}

register! { "m2s_q";
    /// TX only: per-queue descriptor prefetch setup.
    pub TxDescPrefCfg: u32 = "desc_pref_cfg" @ 0x0000;
    /// TX only: per-queue rate-limiter mask; bit 2 gates the DMB pause.
    pub TxRlimitMaskReg: TxRlimitMask = "rlimit.mask" @ 0x0074;
    /// TX completion behaviour.
    pub TxCompCfg: CompCfg = "comp_cfg" @ 0x00a0;
    /// TX queue software control (queue reset).
    pub TxQSwCtrl: QSwCtrl = "q_sw_ctrl" @ 0x00b0;
}

register! { "s2m_q";
    /// RX completion behaviour (different offset from TX).
    pub RxCompCfg: CompCfg = "comp_cfg" @ 0x0054;
    /// RX queue software control (different offset from TX).
    pub RxQSwCtrl: QSwCtrl = "q_sw_ctrl" @ 0x0064;
}

// The shared ring registers, checked against the direction-specific rows (names and the
// absolute offsets of queue 0) as well as the overlay.
const _: () = {
    use crate::table::{abs_is, offset_is};
    const TX0: usize = M2S_BASE + QUEUE_BLOCK;
    const RX0: usize = S2M_BASE + QUEUE_BLOCK;
    const ROWS: [(&str, &str, usize); 12] = [
        ("tdrbp_low", "rdrbp_low", 0x28),
        ("tdrbp_high", "rdrbp_high", 0x2c),
        ("tdrl", "rdrl", 0x30),
        ("tdrhp", "rdrhp", 0x34),
        ("tdrtp_inc", "rdrtp_inc", 0x38),
        ("tdrtp", "rdrtp", 0x3c),
        ("tdcp", "rdcp", 0x40),
        ("tcrbp_low", "rcrbp_low", 0x44),
        ("tcrbp_high", "rcrbp_high", 0x48),
        ("tcrhp", "rcrhp", 0x4c),
        ("cfg", "cfg", 0x20),
        ("status", "status", 0x24),
    ];
    let mut rows: &[(&str, &str, usize)] = &ROWS;
    while let Some(((tx, rx, off), rest)) = rows.split_first() {
        assert!(offset_is("m2s_q", tx, *off) && abs_is("m2s_q", tx, TX0 + *off));
        assert!(offset_is("s2m_q", rx, *off) && abs_is("s2m_q", rx, RX0 + *off));
        rows = rest;
    }
    use mmio::Register as R;
    assert!(Cfg::OFFSET == 0x20 && Status::OFFSET == 0x24 && DrbpLow::OFFSET == 0x28);
    assert!(DrtpInc::OFFSET == 0x38 && Crhp::OFFSET == 0x4c);
    assert!(<TxCompCfg as R>::OFFSET == 0xa0 && abs_is("m2s_q", "comp_cfg", TX0 + 0xa0));
    assert!(abs_is("m2s_q", "q_sw_ctrl", TX0 + <TxQSwCtrl as R>::OFFSET));
    assert!(abs_is(
        "m2s_q",
        "desc_pref_cfg",
        TX0 + <TxDescPrefCfg as R>::OFFSET
    ));
    assert!(abs_is(
        "m2s_q",
        "rlimit.mask",
        TX0 + <TxRlimitMaskReg as R>::OFFSET
    ));
    assert!(abs_is("s2m_q", "comp_cfg", RX0 + <RxCompCfg as R>::OFFSET));
    assert!(abs_is("s2m_q", "q_sw_ctrl", RX0 + <RxQSwCtrl as R>::OFFSET));
};

/// A queue direction: `udma_desc`'s [`Direction`] (TX = M2S, RX = S2M), the one direction
/// type of the workspace. `Dir` is the same type under the name this crate's APIs use.
pub use udma_desc::Direction;
/// The same type as [`Direction`].
pub type Dir = Direction;

// Both directions are `Direction::BOTH`; the offset of a queue block is
// `UdmaLayout::queue_base` (`A::UDMA.queue_base` for an arch `A`).
