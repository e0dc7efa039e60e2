//! Engine state change and read-back (`udma-notes.md` section 7).

use mmio::{Mmio, MmioExt};
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::Arch;
use crate::regs::queue::{Cfg, Dir};
use crate::regs::{ChangeStateCmd, EngineStateWord, SubUnitState, m2s, s2m, unit};

/// Software view of an engine direction's state (the driver's enum values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum UdmaState {
    /// Disabled (settable: `change_state` DIS).
    Disable = 0,
    /// Idle (only reported).
    Idle = 1,
    /// Running (settable: `change_state` NORMAL).
    Normal = 2,
    /// Aborted (settable: `change_state` ABORT).
    Abort = 3,
    /// Reset (refused by the setter).
    Reset = 4,
}

impl UdmaState {
    /// The one-hot command that requests this state, if software may request it.
    pub const fn command(self) -> Option<ChangeStateCmd> {
        match self {
            UdmaState::Disable => Some(ChangeStateCmd::new().with_disable(true)),
            UdmaState::Normal => Some(ChangeStateCmd::new().with_normal(true)),
            UdmaState::Abort => Some(ChangeStateCmd::new().with_abort(true)),
            UdmaState::Idle | UdmaState::Reset => None,
        }
    }

    /// Folds the sub-unit fields: any abort → ABORT, else any normal → NORMAL, else IDLE.
    /// The stream-interface field counts only when `stream_enabled`.
    pub const fn from_word(w: EngineStateWord, stream_enabled: bool) -> UdmaState {
        let fields = [
            w.comp_ctrl(),
            if stream_enabled {
                w.stream_if()
            } else {
                SubUnitState::Idle
            },
            w.data_ctrl(),
            w.desc_pref(),
        ];
        let (mut abort, mut normal) = (false, false);
        let mut rest: &[SubUnitState] = &fields;
        while let Some((f, tail)) = rest.split_first() {
            abort |= matches!(f, SubUnitState::Abort);
            normal |= matches!(f, SubUnitState::Normal);
            rest = tail;
        }
        if abort {
            UdmaState::Abort
        } else if normal {
            UdmaState::Normal
        } else {
            UdmaState::Idle
        }
    }
}

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Requests `state` for both directions: the same command to TX then RX `change_state`.
    /// IDLE and RESET cannot be requested (typed error, nothing written).
    pub fn set_state(&self, state: UdmaState) -> Result<(), UdmaError> {
        let cmd = state
            .command()
            .ok_or(UdmaError::StateNotSettable { state })?;
        self.regs()
            .window(unit::M2S_BASE)
            .write::<m2s::ChangeState>(cmd);
        self.regs()
            .window(unit::S2M_BASE)
            .write::<s2m::ChangeState>(cmd);
        Ok(())
    }

    /// `al_udma_state_set_wait` (seed 004 §2): [`set_state`](Self::set_state), then read
    /// both directions until they report it, at most `max_polls` rounds
    /// ([`UdmaError::StateWaitTimeout`] past them). DISABLE is never reported by the state
    /// read (`udma-notes.md` §7), so waiting for DISABLE waits for IDLE.
    ///
    /// On an arch whose NORMAL transition runs the TTT default configuration (MARIANA,
    /// [`Arch::TTT_DEFAULT_ON_NORMAL`]) NORMAL is refused here
    /// ([`UdmaError::TttSetupRequired`], nothing written): use
    /// [`state_set_wait_ttt`](Self::state_set_wait_ttt).
    pub fn state_set_wait(&self, state: UdmaState, max_polls: u32) -> Result<(), UdmaError> {
        if state == UdmaState::Normal && A::TTT_DEFAULT_ON_NORMAL {
            return Err(UdmaError::TttSetupRequired);
        }
        self.set_state(state)?;
        self.wait_state(state, max_polls)
    }

    /// Polls both directions until they report `state` (DISABLE: IDLE), at most `max_polls`
    /// rounds.
    pub(crate) fn wait_state(&self, state: UdmaState, max_polls: u32) -> Result<(), UdmaError> {
        let want = match state {
            UdmaState::Disable => UdmaState::Idle,
            s => s,
        };
        for _ in 0..max_polls {
            if self.state(Dir::Tx) == want && self.state(Dir::Rx) == want {
                return Ok(());
            }
        }
        Err(UdmaError::StateWaitTimeout {
            state,
            polls: max_polls,
        })
    }

    /// Reads direction `dir`'s state. TX: the four sub-unit fields. RX: first whether the
    /// stream is enabled — disabled only when `s2m.stream_cfg` has DISABLE, FLUSH and
    /// STOP_PREFETCH, unless an active configured queue (prefetch or scheduling on) says its
    /// stream is on — then the fields, ignoring the stream field when it is disabled.
    pub fn state(&self, dir: Dir) -> UdmaState {
        match dir {
            Dir::Tx => UdmaState::from_word(
                self.regs().window(unit::M2S_BASE).read::<m2s::State>(),
                true,
            ),
            Dir::Rx => {
                let rx = self.regs().window(unit::S2M_BASE);
                let engine_disabled = rx.read::<s2m::StreamCfgReg>().stream_disabled();
                let mut queue_says_enabled = false;
                for q in QueueId::all().take(usize::from(self.queue_count())) {
                    let cfg = self.read_queue::<Cfg>(Dir::Rx, q);
                    if (cfg.en_pref() || cfg.en_scheduling()) && cfg.en_stream() {
                        queue_says_enabled = true;
                    }
                }
                let stream_enabled = !engine_disabled || queue_says_enabled;
                UdmaState::from_word(rx.read::<s2m::State>(), stream_enabled)
            }
        }
    }
}
