//! The TTT registers: seed 004 §2 (`al_udma_ttt_en` @0x475d90, `al_udma_ttt_entry_set`
//! @0x475e70, `al_udma_ttt_default_config` @0x476040) gives their offsets in the handle's
//! `tgtid_regs` block (`udma+0x58`); the ancestor HAL gives the block and every field
//! (`reference/al-hal/facts.tsv` rows `d`).
//!
//! * **The block** is the unit's `gen_ex` ([`GenEx`], unit `+0x3C000`):
//!   the ancestor's handle keeps `gen_regs, gen_axi_regs, gen_int_regs, gen_ex_regs` in
//!   consecutive pointer slots, so with the seed's `gen_regs` at `+0x40` its `+0x58` is
//!   `gen_ex` (al-hal `d`, "consistent with seed"). The section-control registers sit from
//!   `gen_ex + 0x800`, right where the kernel's register structure ends
//!   ([`UNIT_SIZE`](super::unit::UNIT_SIZE)); [`TTT_END`] is where they end.
//! * **The name**: the ancestor calls it the *Transaction Type Table* (S2M write-transaction
//!   steering); the seed's page calls it a "Target Translation Table". Same registers; this
//!   crate says TTT.
//! * **The offsets** `+0x800`, `+0x820`, `+0x824`, `+0xC00` and the seven entry words are the
//!   seed's, exactly where the ancestor has them ("matches seed exactly"); the field meanings
//!   are the ancestor's only.
//!
//! The seed reads the entry as "`idx<<5 | mask`, `key`, `valid | flags<<1`, …". The bit
//! positions agree with the ancestor's; the meanings differ: the low 5 bits of word 0 are the
//! transaction type and bits 8:5 the queue ([`TttAddr`]), word 1 is the write command, word 2
//! the count command. The ancestor's names are used (its fields are the facts; the seed's are
//! a reading of the builder's shifts).
//!
//! None of these rows is in [`REGISTERS`](super::REGISTERS).

use bitfield_struct::bitfield;
use mmio::{Placed, Register};

use super::gen_ex::GenEx;

/// `cfg_v4_section_en` (al-hal `d`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TttSectionEn {
    /// Bit 0: the table is enabled (`al_udma_ttt_en`).
    pub table_en: bool,
    /// Bit 1: remap "drop" to alternative processing.
    pub drop_to_alternative: bool,
    /// Bit 2: allow section address round-up.
    pub round_up_en: bool,
    #[bits(29)]
    __: u32,
}

/// `init_trig` / `init_in_progress` (al-hal `d`): bit 0.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TttInit {
    /// `init_trig`: starts a self-clearing zero-fill of the table. `init_in_progress`: reads 1
    /// while it runs.
    pub bit0: bool,
    #[bits(31)]
    __: u32,
}

/// Entry word 0, `addr` (al-hal `d`): which (transaction type, queue) the entry is for.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TttAddr {
    /// Transaction type `[4:0]` (0 = buffer-1 data, the default entry's; the seed's "mask").
    #[bits(5)]
    pub tr_type: u8,
    /// Queue `[8:5]` (the seed's "idx").
    #[bits(4)]
    pub queue: u8,
    #[bits(23)]
    __: u32,
}

/// Entry word 1, `write_cmd` (al-hal `d`; the seed's "key").
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TttWriteCmd {
    /// `[1:0]`: 0 write to buffer 1, 1 buffer 2, 2 alternative processing, 3 drop.
    #[bits(2)]
    pub cmd: u8,
    #[bits(30)]
    __: u32,
}

/// Entry word 2, `count_cmd` (al-hal `d`; the seed's "valid | flags<<1").
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TttCountCmd {
    /// Bit 0: 0 override, 1 accumulate.
    pub accumulate: bool,
    /// `[2:1]`: the length field counted: 0 none, 1 buffer-1 length, 2 buffer-2 length.
    #[bits(2)]
    pub field: u8,
    #[bits(29)]
    __: u32,
}

/// Entry word 5, `axi_tgtid_values` (al-hal `d`).
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TttTgtidValues {
    /// Target id value `[15:0]`.
    pub tgtid: u16,
    /// Target id selector `[31:16]`: per bit, 1 keeps the original bit, 0 takes `tgtid`'s.
    pub tgtid_sel: u16,
}

/// Entry word 6, `axi_write_padding` (al-hal `d`); writing it commits the entry.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct TttWritePadding {
    /// `[1:0]` pad command: 0 none, 1 pad to 64 bytes.
    #[bits(2)]
    pub pad_cmd: u8,
    /// Bit 2: start-of-section write strobes.
    pub sos_wstrb: bool,
    /// Bit 3: end-of-section write strobes.
    pub eos_wstrb: bool,
    /// `[6:4]` end-of-section address round-up: 0..=5 = 8/16/32/64/128/256 bytes, 7 none.
    #[bits(3)]
    pub round_up: u8,
    /// Bit 7: spare.
    pub spare: bool,
    #[bits(24)]
    __: u32,
}

mmio::register! {
    /// The section-control registers in `gen_ex` (al-hal `d`, `udma_gen_section_ctrl_regs`):
    /// the TTT's enable, its init and its entry window.
    pub block TttBlock = "section_ctrl" @ 0x800 {
        /// `cfg_v4_section_en` (the seed's `+0x800`, `al_udma_ttt_en`: bit 0).
        pub CfgV4SectionEn: TttSectionEn = "cfg_v4_section_en" @ 0x000, source "al-hal d";
        /// `drop_addr_lsb`.
        pub DropAddrLsb: u32 = "drop_addr_lsb" @ 0x004, source "al-hal d";
        /// `drop_addr_msb`.
        pub DropAddrMsb: u32 = "drop_addr_msb" @ 0x008, source "al-hal d";
        /// `init_trig` (the seed's `+0x820` control).
        pub InitTrig: TttInit = "init_transaction_table.init_trig" @ 0x020, source "al-hal d";
        /// `init_in_progress` (the seed's `+0x824` "ready" bit: the table is ready when it
        /// reads 0).
        pub InitInProgress: TttInit =
            "init_transaction_table.init_in_progress" @ 0x024, source "al-hal d";
        /// Entry word 0 (the seed's `+0xC00`).
        pub EntryAddr: TttAddr = "transaction_type_table.addr" @ 0x400, source "al-hal d";
        /// Entry word 1.
        pub EntryWriteCmd: TttWriteCmd =
            "transaction_type_table.write_cmd" @ 0x404, source "al-hal d";
        /// Entry word 2.
        pub EntryCountCmd: TttCountCmd =
            "transaction_type_table.count_cmd" @ 0x408, source "al-hal d";
        /// Entry word 3: AXI address MSBs.
        pub EntryAxiMsbAddr: u32 =
            "transaction_type_table.axi_msb_addr" @ 0x40c, source "al-hal d";
        /// Entry word 4: per bit, 1 keeps the original address bit, 0 takes `axi_msb_addr`'s.
        pub EntryAxiMsbAddrSel: u32 =
            "transaction_type_table.axi_msb_addr_sel" @ 0x410, source "al-hal d";
        /// Entry word 5.
        pub EntryAxiTgtidValues: TttTgtidValues =
            "transaction_type_table.axi_tgtid_values" @ 0x414, source "al-hal d";
        /// Entry word 6: writing it commits words 0..=6 into the table.
        pub EntryAxiWritePadding: TttWritePadding =
            "transaction_type_table.axi_write_padding" @ 0x418, source "al-hal d";
    }
}

/// `cfg_v4_section_en`, offset in `gen_ex` (the seed's `tgtid_regs + 0x800`).
pub const TTT_CTRL: usize = TttBlock::BASE + <CfgV4SectionEn as Register>::OFFSET;
/// Its table-enable bit (bit 0).
pub const TTT_EN: u32 = 0x1;
/// `init_trig`, offset in `gen_ex` (the seed's `+0x820`).
pub const TTT_INIT_TRIG: usize = TttBlock::BASE + <InitTrig as Register>::OFFSET;
/// `init_in_progress`, offset in `gen_ex` (the seed's `+0x824`).
pub const TTT_INIT_IN_PROGRESS: usize = TttBlock::BASE + <InitInProgress as Register>::OFFSET;
/// Bit 0 of `init_trig` and of `init_in_progress`.
pub const TTT_INIT_BIT: u32 = 0x1;
/// First entry word, offset in `gen_ex` (the seed's `+0xC00`).
pub const TTT_ENTRY: usize = TttBlock::BASE + <EntryAddr as Register>::OFFSET;
/// Words per entry.
pub const TTT_ENTRY_WORDS: usize = 7;
/// Offset in `gen_ex` of the last entry word, whose write commits the entry.
pub const TTT_ENTRY_COMMIT: usize = TTT_ENTRY + 4 * (TTT_ENTRY_WORDS - 1);
/// End (exclusive) of the TTT registers, offset in `gen_ex`.
pub const TTT_END: usize = TTT_ENTRY_COMMIT + 4;
/// The unit offsets the TTT registers span, past the kernel's structure: `0x3c800..0x3cc1c`.
pub const TTT_IN_UNIT: core::ops::Range<usize> = GenEx::BASE + TTT_CTRL..GenEx::BASE + TTT_END;

const _: () = {
    // The seed's offsets in its tgtid block.
    assert!(TTT_CTRL == 0x800 && TTT_INIT_TRIG == 0x820 && TTT_INIT_IN_PROGRESS == 0x824);
    assert!(TTT_ENTRY == 0xc00 && TTT_ENTRY_COMMIT == 0xc18);
    // The registers start where the kernel's unit structure ends.
    assert!(TTT_IN_UNIT.start == super::unit::UNIT_SIZE && TTT_IN_UNIT.end == 0x3_cc1c);
    // The entry registers' offsets are the seven words in order.
    assert!(<EntryAxiWritePadding as Register>::OFFSET + TttBlock::BASE == TTT_ENTRY_COMMIT);
};
