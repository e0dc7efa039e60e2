//! One interrupt group: the primitives, each one or two register accesses.

use core::marker::PhantomData;

use mmio::{Mmio, MmioExt, Register};

use crate::regs::{
    IntAbortMask, IntCause, IntCauseSet, IntControl, IntMask, IntMaskClear, IntStatus,
};
use crate::{CauseBits, Control};

/// Turns "bits you mean" into the value for an active-low register, and back.
///
/// Three group registers take a value where a **0** bit is the action:
/// * mask-clear (+0x18): 0 unmasks, 1 leaves the mask bit alone;
/// * cause (+0x00): 0 clears the latched cause, 1 keeps it (write-0-to-clear);
/// * abort mask (+0x30): a mask over the abort path, so 0 = this cause aborts the engine.
///
/// The first two are write-0 views so that one write can act on some bits without a
/// read-modify-write race on the others. Callers of this crate always pass the bits they
/// want acted on; this function, and only this one, complements them for those registers.
/// It is its own inverse, so it also decodes an abort-mask read.
#[inline(always)]
const fn active_low(bits: u32) -> u32 {
    !bits
}

/// One group of an interrupt controller, over a window whose offset 0 is the group's cause
/// register (see [`crate::layout`]).
///
/// `C` is the cause type the group speaks ([`crate::M2sCause`], ... or plain `u32`). Every
/// argument is "the bits you mean": a set bit is a cause to unmask, clear, raise, or make
/// abort. No method reads a register it does not need, so the access traces are exactly the
/// ones documented on each method.
///
/// ```
/// use iofic::{Group, M2sCause};
/// use mmio::{FakeRegs, MmioExt};
///
/// let regs: FakeRegs<8, 8> = FakeRegs::new();
/// let tx: Group<_, M2sCause> = Group::new(regs.window(0x3a000)).with_causes();
/// tx.unmask(M2sCause::PREFETCH_RING_ID);
/// // Unmask writes the complement to mask-clear (+0x18): 0 bits unmask, 1 bits are left alone.
/// assert_eq!(regs.writes(), [(0x3a018, !0x0002_0000)]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Group<M, C = u32> {
    regs: M,
    causes: PhantomData<C>,
}

impl<M: Mmio> Group<M> {
    /// A group over `regs`, positioned at the group's first register (its cause register).
    pub const fn new(regs: M) -> Self {
        Self {
            regs,
            causes: PhantomData,
        }
    }
}

impl<M: Mmio, C: CauseBits> Group<M, C> {
    /// The same group, speaking cause type `D`.
    pub fn with_causes<D: CauseBits>(self) -> Group<M, D> {
        Group {
            regs: self.regs,
            causes: PhantomData,
        }
    }

    /// The group's register window.
    pub fn regs(&self) -> &M {
        &self.regs
    }

    /// Writes the control register (one write to +0x28).
    pub fn configure(&self, control: Control) {
        self.regs.write::<IntControl>(control);
    }

    /// Reads the control register (one read of +0x28).
    pub fn control(&self) -> Control {
        self.regs.read::<IntControl>()
    }

    /// Unmasks `causes`, leaving every other mask bit as it is (one write to mask-clear,
    /// +0x18, of the complement).
    ///
    /// ```
    /// use iofic::Group;
    /// use mmio::FakeRegs;
    /// let regs: FakeRegs<4, 4> = FakeRegs::new();
    /// Group::new(&regs).unmask(0x0000_0500);
    /// assert_eq!(regs.writes(), [(0x18, 0xffff_faff)]);
    /// ```
    pub fn unmask(&self, causes: C) {
        self.regs.write::<IntMaskClear>(active_low(causes.into()));
    }

    /// Masks `causes` on top of the current mask: reads the mask (+0x10) and writes it back
    /// with `causes` set. Returns the mask written (the set of masked causes).
    pub fn mask(&self, causes: C) -> C {
        let add: u32 = causes.into();
        C::from(self.regs.modify32(IntMask::OFFSET, |masked| masked | add))
    }

    /// Replaces the whole mask: exactly `masked` become masked (one write to +0x10).
    pub fn set_mask(&self, masked: C) {
        self.regs.write::<IntMask>(masked.into());
    }

    /// The currently masked causes (one read of +0x10).
    pub fn masked(&self) -> C {
        C::from(self.regs.read::<IntMask>())
    }

    /// The latched causes (one read of +0x00).
    pub fn cause(&self) -> C {
        C::from(self.regs.read::<IntCause>())
    }

    /// Clears the latched `causes`, keeping the others (one write to +0x00 of the
    /// complement: the cause register is write-0-to-clear).
    ///
    /// ```
    /// use iofic::{Group, S2mCause};
    /// use mmio::FakeRegs;
    /// let regs: FakeRegs<4, 4> = FakeRegs::new();
    /// let rx = Group::new(&regs).with_causes::<S2mCause>();
    /// rx.clear(S2mCause::DATA_AXI_TO);
    /// assert_eq!(regs.writes(), [(0x00, 0xffff_fffb)]);
    /// ```
    pub fn clear(&self, causes: C) {
        self.regs.write::<IntCause>(active_low(causes.into()));
    }

    /// Raises `causes` by software (one write to cause-set, +0x08; 1 bits set, 0 ignored).
    pub fn raise(&self, causes: C) {
        self.regs.write::<IntCauseSet>(causes.into());
    }

    /// The status register (one read of +0x20).
    pub fn status(&self) -> C {
        C::from(self.regs.read::<IntStatus>())
    }

    /// Makes exactly `causes` abort the engine and no other cause: the abort mask (+0x30) is
    /// a plain register, so one write of the complement replaces it whole. This is the
    /// "abort-mask clear" step of the kernel's policy.
    ///
    /// ```
    /// use iofic::Group;
    /// use mmio::FakeRegs;
    /// let regs: FakeRegs<4, 4> = FakeRegs::new();
    /// Group::new(&regs).abort_exactly(0x0fff_ffff);
    /// assert_eq!(regs.writes(), [(0x30, 0xf000_0000)]);
    /// ```
    pub fn abort_exactly(&self, causes: C) {
        self.regs.write::<IntAbortMask>(active_low(causes.into()));
    }

    /// The causes that currently abort the engine (one read of +0x30, decoded).
    pub fn aborting(&self) -> C {
        C::from(active_low(self.regs.read::<IntAbortMask>()))
    }

    /// Adds `causes` to those that abort (read +0x30, write it back with their bits cleared).
    /// Returns the causes that abort afterwards.
    pub fn enable_abort(&self, causes: C) -> C {
        let add: u32 = causes.into();
        let now = active_low(self.regs.read::<IntAbortMask>()) | add;
        self.regs.write::<IntAbortMask>(active_low(now));
        C::from(now)
    }

    /// Stops `causes` from aborting (read +0x30, write it back with their bits set: the
    /// "abort-mask set"). Returns the causes that abort afterwards.
    pub fn disable_abort(&self, causes: C) -> C {
        let remove: u32 = causes.into();
        // In register terms this is a plain OR: a 1 in the abort mask means "does not abort".
        let written = self.regs.modify32(IntAbortMask::OFFSET, |raw| raw | remove);
        C::from(active_low(written))
    }
}
