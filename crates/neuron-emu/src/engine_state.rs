//! The engine state machine of one direction (M2S or S2M), driven by `change_state`.

use khal::regs::{ChangeStateCmd, EngineStateWord, SubUnitState};

/// State of one direction of a UDMA unit.
///
/// Power-on is [`Disabled`](Self::Disabled): an engine moves nothing until software writes
/// NORMAL to `change_state`. An error whose abort-mask bit is 0 moves it to
/// [`Aborted`](Self::Aborted); only a new `change_state` leaves that state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineState {
    /// Stopped (reset state, or `change_state` DIS). The `state` register reads all fields
    /// idle (0), which software reports as IDLE.
    Disabled,
    /// Running (`change_state` NORMAL). Every `state` field reads 1.
    Normal,
    /// Stopped by an error or by `change_state` ABORT. Every `state` field reads 2.
    Aborted,
}

impl EngineState {
    /// The `state` register: the same 2-bit value in all four sub-unit fields (completion
    /// control, stream interface, data read/write control, descriptor prefetch).
    pub fn register(self) -> u32 {
        let field = match self {
            Self::Disabled => SubUnitState::Idle,
            Self::Normal => SubUnitState::Normal,
            Self::Aborted => SubUnitState::Abort,
        };
        EngineStateWord::new()
            .with_comp_ctrl(field)
            .with_stream_if(field)
            .with_data_ctrl(field)
            .with_desc_pref(field)
            .into_bits()
    }

    /// The state after a `change_state` write of `value` (one-hot NORMAL 1, DIS 2, ABORT 4;
    /// if several bits are set, ABORT wins over DIS, DIS over NORMAL; 0 changes nothing).
    pub fn after_command(self, value: u32) -> Self {
        let cmd = ChangeStateCmd::from_bits(value);
        if cmd.abort() {
            Self::Aborted
        } else if cmd.disable() {
            Self::Disabled
        } else if cmd.normal() {
            Self::Normal
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_has_four_identical_fields() {
        assert_eq!(EngineState::Disabled.register(), 0);
        assert_eq!(EngineState::Normal.register(), 0x1111);
        assert_eq!(EngineState::Aborted.register(), 0x2222);
    }

    #[test]
    fn commands_are_one_hot_with_abort_first() {
        let s = EngineState::Disabled;
        assert_eq!(s.after_command(1), EngineState::Normal);
        assert_eq!(s.after_command(2), EngineState::Disabled);
        assert_eq!(s.after_command(4), EngineState::Aborted);
        assert_eq!(s.after_command(7), EngineState::Aborted);
        assert_eq!(s.after_command(3), EngineState::Disabled);
        assert_eq!(EngineState::Aborted.after_command(0), EngineState::Aborted);
        assert_eq!(EngineState::Aborted.after_command(1), EngineState::Normal);
    }
}
