//! `al_udma_iofic_unmask_ext_app` on this engine (seed 004 §2 names it; the bit and the
//! procedure are the ancestor HAL's, al-hal `e`, through [`iofic::unmask_ext_app`]).

use mmio::{Mmio, MmioExt};

use super::Udma;
use crate::Arch;
use crate::regs::unit;

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Clears (when `clear`) then unmasks the external-application interrupt in primary
    /// group D of this unit: bit 13 on revision 4, bit 11 below ([`iofic::ext_app_bit`]).
    pub fn unmask_ext_app(&self, clear: bool) -> Result<(), iofic::Error> {
        iofic::unmask_ext_app(&self.regs().window(unit::GEN_BASE), A::UDMA_REVISION, clear)
    }
}
