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

/// Rounds of state reads in the ancestor HAL's `al_udma_state_set_wait` (al-hal `h`: "about
/// 1000 polls", then -ETIMEDOUT).
pub const STATE_WAIT_POLLS: u32 = 1000;
/// Microseconds between two of its state reads (al-hal `h`: "1 us between polls").
pub const STATE_WAIT_POLL_INTERVAL_US: u32 = 1;

/// Which state the wait of `al_udma_state_set_wait` takes as the end of a transition.
///
/// The seed names the function without its protocol. The ancestor HAL (al-hal `h`, "ancestor
/// only") waits for **IDLE** after NORMAL and after DISABLE, and for the requested state
/// otherwise (its README's reading: an engine with no work in flight reports no sub-unit as
/// normal). The reference's state read (`udma-notes.md` §7) reports NORMAL whenever a
/// sub-unit does, never DISABLE; the device model reports NORMAL after a NORMAL command. Which
/// one real hardware does right after the command is stated by no source for Neuron engines,
/// so the default accepts either (an **inference** made safe: a wait that is right under both
/// readings); ABORT is only ever accepted when it is what was asked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WaitFor {
    /// The ancestor's rule: IDLE after NORMAL or DISABLE, the requested state otherwise.
    Ancestor,
    /// The requested state as the state read reports it: DISABLE as IDLE (never reported).
    Requested,
    /// Either of the two (the project's default).
    #[default]
    Either,
}

impl WaitFor {
    /// Whether `seen` ends a wait for `asked` under this rule.
    pub const fn accepts(self, asked: UdmaState, seen: UdmaState) -> bool {
        let ancestor = match asked {
            UdmaState::Normal | UdmaState::Disable => UdmaState::Idle,
            s => s,
        };
        let requested = match asked {
            UdmaState::Disable => UdmaState::Idle,
            s => s,
        };
        let (a, r, seen) = (ancestor as u8, requested as u8, seen as u8);
        match self {
            WaitFor::Ancestor => seen == a,
            WaitFor::Requested => seen == r,
            WaitFor::Either => seen == a || seen == r,
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

    /// `al_udma_state_set_wait` (seed 004 §2): [`set_state`](Self::set_state), then read both
    /// directions until each reports what `state` should lead to, by [`WaitFor::Either`], at
    /// most `max_polls` rounds ([`UdmaError::StateWaitTimeout`] past them), with no pause
    /// between rounds. See [`state_set_wait_with`](Self::state_set_wait_with).
    ///
    /// On an arch whose NORMAL transition runs the TTT default configuration (MARIANA,
    /// [`Arch::TTT_DEFAULT_ON_NORMAL`]) a NORMAL that was observed is followed by it, on the
    /// unit's `gen_ex` block ([`Udma::gen_ex`]): nothing of it is the caller's to supply.
    pub fn state_set_wait(&self, state: UdmaState, max_polls: u32) -> Result<(), UdmaError> {
        self.state_set_wait_with(state, WaitFor::Either, max_polls, || {})
    }

    /// [`state_set_wait`](Self::state_set_wait) with the wait rule and the pause between
    /// polls chosen. The ancestor HAL's protocol (al-hal `h`) is `WaitFor::Ancestor`,
    /// [`STATE_WAIT_POLLS`] rounds and a pause of [`STATE_WAIT_POLL_INTERVAL_US`] (a
    /// `no_std` crate has no clock: `pause` is the caller's delay).
    pub fn state_set_wait_with<P: FnMut()>(
        &self,
        state: UdmaState,
        wait: WaitFor,
        max_polls: u32,
        pause: P,
    ) -> Result<(), UdmaError> {
        self.state_set_wait_in(state, &self.gen_ex(), wait, max_polls, pause)
    }

    /// The transition, the wait, then (NORMAL on a TTT arch) the TTT default configuration
    /// on `gen_ex`.
    pub(crate) fn state_set_wait_in<W: Mmio + ?Sized, P: FnMut()>(
        &self,
        state: UdmaState,
        gen_ex: &W,
        wait: WaitFor,
        max_polls: u32,
        mut pause: P,
    ) -> Result<(), UdmaError> {
        self.set_state(state)?;
        self.wait_state(state, wait, max_polls, &mut pause)?;
        if state == UdmaState::Normal && A::TTT_DEFAULT_ON_NORMAL {
            self.ttt_default_config_any(gen_ex, max_polls, &mut pause)?;
        }
        Ok(())
    }

    /// Polls both directions until both are accepted by `wait` for `state`, at most
    /// `max_polls` rounds, pausing after each round that is not.
    fn wait_state<P: FnMut()>(
        &self,
        state: UdmaState,
        wait: WaitFor,
        max_polls: u32,
        pause: &mut P,
    ) -> Result<(), UdmaError> {
        for _ in 0..max_polls {
            if wait.accepts(state, self.state(Dir::Tx)) && wait.accepts(state, self.state(Dir::Rx))
            {
                return Ok(());
            }
            pause();
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
