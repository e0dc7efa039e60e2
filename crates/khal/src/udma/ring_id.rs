//! Ring-id error masking on V3/V4 NeuronCore engines (`udma-notes.md` section 10).
//!
//! A descriptor whose ring id does not match the expected one raises the prefetch ring-id
//! cause in both directions. The V3/V4 product masks it on the engines that belong to a
//! NeuronCore: in the unit's secondary IOFIC (interrupt and abort), in an external top-level
//! interrupt controller, and in the engines' error logs. The IOFIC half is the `iofic`
//! crate's ([`iofic::udma::mask_ring_id_errors`],
//! [`iofic::udma::mask_ring_id_errors_external`]); the error-log half is this crate's M2S and
//! S2M `err_log_mask` registers.

use mmio::{Mmio, MmioExt};

use super::Udma;
use crate::caps::RingIdErrorMasking;
use crate::regs::{m2s, s2m, unit};

// The error-log bits are the same cause bits `iofic` names for these steps.
const _: () = assert!(
    m2s::ErrLogMask::new().with_pref_ring_id(true).into_bits() == iofic::udma::M2S_ERR_LOG_RING_ID
);
const _: () = assert!(
    s2m::ErrLogMask::new().with_pref_ring_id(true).into_bits() == iofic::udma::S2M_ERR_LOG_RING_ID
);

impl<A: RingIdErrorMasking, M: Mmio> Udma<A, M> {
    /// Masks ring-id errors inside the unit: section 10 steps 1, 2, 5 and 6, in that order.
    ///
    /// * (1) secondary A mask |= bit 17 (read-modify-write), and that mask value written to
    ///   secondary A's abort mask;
    /// * (2) the same for secondary B with bit 11;
    /// * (5) TX `err_log_mask` |= bit 17 (read-modify-write);
    /// * (6) RX `err_log_mask` |= bit 11 (read-modify-write).
    ///
    /// Steps 3 and 4 belong to a controller outside the unit whose location the reference
    /// does not give; use [`Self::mask_ring_id_errors_with_external`] when the caller has a
    /// window on it. The product runs this for NeuronCore engines only
    /// (ids below `SCALARS.seng_dma_eng_per_nd`, i.e. not the H2T engines); the handle does not
    /// know its engine id, so that choice is the caller's.
    ///
    /// Only V3 and V4 implement [`RingIdErrorMasking`]; on V2 this does not compile.
    ///
    /// ```
    /// use khal::udma::Udma;
    /// use mmio::FakeRegs;
    /// let regs: FakeRegs<16, 16> = FakeRegs::new();
    /// let engine = Udma::<khal_cayman::Cayman, _>::attach(&regs, 0xff, None)?;
    /// engine.mask_ring_id_errors();
    /// assert_eq!(regs.peek(0x0020c), 1 << 17); // TX err_log_mask
    /// assert_eq!(regs.peek(0x2020c), 1 << 11); // RX err_log_mask
    /// # Ok::<(), khal::udma::UdmaError>(())
    /// ```
    pub fn mask_ring_id_errors(&self) {
        self.mask_ring_id(None::<&M>);
    }

    /// Masks ring-id errors inside the unit and in the external top-level interrupt
    /// controller: section 10 steps 1 to 6, in order. `external` is a window at that
    /// controller's base (its group 2 mask at `+0x90` gets bit 11, its group 3 mask at
    /// `+0xd0` bit 2, both read-modify-write; its abort masks are not touched).
    pub fn mask_ring_id_errors_with_external<E: Mmio + ?Sized>(&self, external: &E) {
        self.mask_ring_id(Some(external));
    }

    fn mask_ring_id<E: Mmio + ?Sized>(&self, external: Option<&E>) {
        let r = self.regs();
        iofic::udma::mask_ring_id_errors(&r.window(unit::GEN_BASE));
        if let Some(ext) = external {
            iofic::udma::mask_ring_id_errors_external(ext);
        }
        let tx = r.window(unit::M2S_BASE);
        let v = tx.read::<m2s::ErrLogMaskReg>();
        tx.write::<m2s::ErrLogMaskReg>(v.with_pref_ring_id(true));
        let rx = r.window(unit::S2M_BASE);
        let v = rx.read::<s2m::ErrLogMaskReg>();
        rx.write::<s2m::ErrLogMaskReg>(v.with_pref_ring_id(true));
    }
}
