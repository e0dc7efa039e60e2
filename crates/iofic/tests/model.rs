//! Property test: on a behavioural model of one group (tests/common: cause write-0-to-clear,
//! cause-set write-1-to-set, plain mask, mask-clear write-0-to-clear, plain abort mask),
//! random sequences of the library's primitives leave exactly the intended causes armed,
//! latched and aborting. The intent is tracked bit by bit as booleans, without any of the
//! register encodings.

mod common;

use common::{GroupState, Model};
use iofic::{Group, M2sCause};
use mmio::MmioExt;
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Op {
    Unmask(u32),
    Mask(u32),
    SetMask(u32),
    Clear(u32),
    Raise(u32),
    /// A hardware source fires (not a software access).
    Fire(u32),
    AbortExactly(u32),
    EnableAbort(u32),
    DisableAbort(u32),
}

/// Bit sets biased towards few bits, so operations overlap often.
fn bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        (0u32..32).prop_map(|b| 1 << b),
        (0u32..32, 0u32..32).prop_map(|(a, b)| (1 << a) | (1 << b)),
        (0u32..4).prop_map(|b| 0xf << (b * 8)),
        any::<u32>(),
        Just(0),
        Just(u32::MAX),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        bits().prop_map(Op::Unmask),
        bits().prop_map(Op::Mask),
        bits().prop_map(Op::SetMask),
        bits().prop_map(Op::Clear),
        bits().prop_map(Op::Raise),
        bits().prop_map(Op::Fire),
        bits().prop_map(Op::AbortExactly),
        bits().prop_map(Op::EnableAbort),
        bits().prop_map(Op::DisableAbort),
    ]
}

/// What the caller meant, one boolean per cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Intent {
    armed: [bool; 32],
    latched: [bool; 32],
    aborts: [bool; 32],
}

fn has(set: u32, i: usize) -> bool {
    (set >> i) & 1 == 1
}

impl Intent {
    fn from_hardware(g: &GroupState) -> Self {
        let mut me = Intent {
            armed: [false; 32],
            latched: [false; 32],
            aborts: [false; 32],
        };
        for i in 0..32 {
            me.armed[i] = !has(g.mask, i);
            me.latched[i] = has(g.cause, i);
            me.aborts[i] = !has(g.abort_mask, i);
        }
        me
    }

    fn apply(&mut self, op: Op) {
        for i in 0..32 {
            match op {
                Op::Unmask(b) if has(b, i) => self.armed[i] = true,
                Op::Mask(b) if has(b, i) => self.armed[i] = false,
                Op::SetMask(b) => self.armed[i] = !has(b, i),
                Op::Clear(b) if has(b, i) => self.latched[i] = false,
                Op::Raise(b) | Op::Fire(b) if has(b, i) => self.latched[i] = true,
                Op::AbortExactly(b) => self.aborts[i] = has(b, i),
                Op::EnableAbort(b) if has(b, i) => self.aborts[i] = true,
                Op::DisableAbort(b) if has(b, i) => self.aborts[i] = false,
                _ => {}
            }
        }
    }
}

const BASE: usize = 0x3a040;

fn check(model: &Model, intent: &Intent) -> Result<(), TestCaseError> {
    let g = model.group(BASE);
    for i in 0..32 {
        prop_assert_eq!(!has(g.mask, i), intent.armed[i], "armed bit {}", i);
        prop_assert_eq!(has(g.cause, i), intent.latched[i], "latched bit {}", i);
        prop_assert_eq!(
            !has(g.abort_mask, i),
            intent.aborts[i],
            "aborting bit {}",
            i
        );
        let raises = intent.latched[i] && intent.armed[i];
        prop_assert_eq!(has(g.pending(), i), raises, "pending bit {}", i);
        let aborts = intent.latched[i] && intent.aborts[i];
        prop_assert_eq!(has(g.aborting_now(), i), aborts, "abort bit {}", i);
    }
    Ok(())
}

proptest! {
    #[test]
    fn primitives_leave_exactly_the_intended_causes_armed(
        start_mask in any::<u32>(),
        start_cause in any::<u32>(),
        start_abort in any::<u32>(),
        ops in proptest::collection::vec(op(), 1..40),
    ) {
        let model = Model::default();
        let start = GroupState { cause: start_cause, mask: start_mask, abort_mask: start_abort, control: 0 };
        model.set_group(BASE, start);
        let mut intent = Intent::from_hardware(&start);
        let group = Group::new(model.window(BASE));
        for op in ops {
            match op {
                Op::Unmask(b) => group.unmask(b),
                Op::Mask(b) => { group.mask(b); }
                Op::SetMask(b) => group.set_mask(b),
                Op::Clear(b) => group.clear(b),
                Op::Raise(b) => group.raise(b),
                Op::Fire(b) => {
                    let mut g = model.group(BASE);
                    g.fire(b);
                    model.set_group(BASE, g);
                }
                Op::AbortExactly(b) => group.abort_exactly(b),
                Op::EnableAbort(b) => { group.enable_abort(b); }
                Op::DisableAbort(b) => { group.disable_abort(b); }
            }
            intent.apply(op);
            check(&model, &intent)?;
            // The library's own read-backs agree with the intent too.
            let hw = model.group(BASE);
            prop_assert_eq!(group.masked(), hw.mask);
            prop_assert_eq!(group.cause(), hw.cause);
            prop_assert_eq!(group.aborting(), !hw.abort_mask);
        }
        // Only this group was touched.
        prop_assert!(model.groups.borrow().keys().all(|&k| k == BASE));
    }

    #[test]
    fn typed_unmask_then_clear_touches_only_the_named_causes(
        start_mask in any::<u32>(),
        start_cause in any::<u32>(),
        which in proptest::sample::subsequence(
            M2sCause::NAMED.iter().map(|(_, f)| *f).collect::<Vec<_>>(), 0..8),
    ) {
        let model = Model::default();
        model.set_group(BASE, GroupState { cause: start_cause, mask: start_mask, ..GroupState::RESET });
        let set = which.iter().fold(M2sCause::empty(), |a, &b| a | b);
        let group = Group::new(model.window(BASE)).with_causes::<M2sCause>();
        group.unmask(set);
        group.clear(set);
        let g = model.group(BASE);
        prop_assert_eq!(g.mask, start_mask & !set.bits());
        prop_assert_eq!(g.cause, start_cause & !set.bits());
        prop_assert_eq!(g.abort_mask, GroupState::RESET.abort_mask);
    }
}
