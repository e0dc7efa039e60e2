//! Engine state and state-change words (same layout in both directions).

use bitfield_struct::bitfield;

/// One sub-unit's 2-bit state field in `m2s.state` / `s2m.state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SubUnitState {
    /// Nothing pending.
    Idle = 0,
    /// Running.
    Normal = 1,
    /// Stopped on an error.
    Abort = 2,
    /// Reserved encoding (reported, never produced by a healthy engine).
    Reserved = 3,
}

impl SubUnitState {
    /// Field encoding (for `bitfield-struct`).
    pub const fn into_bits(self) -> u8 {
        self as u8
    }
    /// Decodes the two low bits.
    pub const fn from_bits(v: u8) -> Self {
        match v & 0x3 {
            0 => Self::Idle,
            1 => Self::Normal,
            2 => Self::Abort,
            _ => Self::Reserved,
        }
    }
}

/// `state` (+0x200 in each direction): read-only, one 2-bit field per sub-unit.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct EngineStateWord {
    /// Completion controller.
    #[bits(2)]
    pub comp_ctrl: SubUnitState,
    #[bits(2)]
    __: u8,
    /// Stream interface (ignored for RX when the stream is disabled).
    #[bits(2)]
    pub stream_if: SubUnitState,
    #[bits(2)]
    __: u8,
    /// Data read (TX) / data write (RX) controller.
    #[bits(2)]
    pub data_ctrl: SubUnitState,
    #[bits(2)]
    __: u8,
    /// Descriptor prefetch.
    #[bits(2)]
    pub desc_pref: SubUnitState,
    #[bits(18)]
    __: u32,
}

/// `change_state` (+0x204 in each direction): a one-hot command.
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct ChangeStateCmd {
    /// Request normal operation.
    pub normal: bool,
    /// Request stop (disable).
    pub disable: bool,
    /// Request abort of all internal engines.
    pub abort: bool,
    #[bits(29)]
    __: u32,
}
