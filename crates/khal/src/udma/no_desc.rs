//! The S2M "no descriptor" policy (seed 004 §2 `al_udma_s2m_no_desc_cfg_set` @0x4752f0):
//! what the RX engine does with a packet when its queue has no descriptor.
//!
//! The seed's read-modify-write of S2M `+0x344`, kept exactly:
//! `r = (r & ~0x18000000) | (drop_en ? 0x08000000 : 0) | (timeout & 0x00FFFFFF)`.
//! Two details follow the seed as written: the timeout is OR-ed in (bits 23:0 are not
//! cleared first, so a second call cannot lower a timeout: program it once, from the reset
//! value), and bit 28 — which the seed
//! labels "mask" and clears — is set here from the `mask` argument the function takes (the
//! seed's expression shows only the drop bit being set; with `mask` false the write is the
//! seed's exactly).
//!
//! A zero timeout without drop makes the engine wait forever (the seed logs a warning and
//! goes on); here it is a typed refusal, and waiting forever is its own explicit call.

use mmio::{Mmio, MmioExt};

use super::{Udma, UdmaError};
use crate::Arch;
use crate::regs::s2m::{NoDescCfg, NoDescCfgReg};
use crate::regs::unit;

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Sets the no-descriptor policy: drop after `timeout` (`drop_en`), or wait `timeout`,
    /// with the "mask" bit 28. A `timeout` wider than 24 bits, and a zero `timeout` without
    /// `drop_en` (wait forever: use [`set_s2m_no_desc_wait_forever`]), are refused before any
    /// access.
    ///
    /// As in the seed, the timeout is OR-ed into the bits read back (`| (timeout &
    /// 0x00FFFFFF)` after clearing only `0x18000000`): a second call cannot lower a timeout
    /// programmed before, only add bits to it.
    ///
    /// [`set_s2m_no_desc_wait_forever`]: Self::set_s2m_no_desc_wait_forever
    pub fn set_s2m_no_desc(
        &self,
        drop_en: bool,
        mask: bool,
        timeout: u32,
    ) -> Result<(), UdmaError> {
        if timeout & !NoDescCfg::TIMEOUT_MASK != 0 {
            return Err(UdmaError::NoDescTimeoutTooWide { timeout });
        }
        if !drop_en && timeout == 0 {
            return Err(UdmaError::NoDescWaitForever);
        }
        self.write_no_desc(drop_en, mask, timeout);
        Ok(())
    }

    /// Explicit opt-in to the seed's "wait forever" ("setting timeout to 0 will cause the
    /// udma to wait forever"): no drop, and the timeout field `[23:0]` actually 0. Unlike the
    /// seed-shaped [`set_s2m_no_desc`](Self::set_s2m_no_desc), this clears bits 23:0 before
    /// the write, so a timeout programmed before does not survive.
    pub fn set_s2m_no_desc_wait_forever(&self, mask: bool) {
        let rx = self.regs().window(unit::S2M_BASE);
        let r = rx.read::<NoDescCfgReg>().into_bits() & !NoDescCfg::TIMEOUT_MASK;
        rx.write::<NoDescCfgReg>(Self::no_desc_word(r, false, mask, 0));
    }

    /// Reads the policy word back.
    pub fn s2m_no_desc(&self) -> NoDescCfg {
        self.regs().window(unit::S2M_BASE).read::<NoDescCfgReg>()
    }

    fn write_no_desc(&self, drop_en: bool, mask: bool, timeout: u32) {
        let rx = self.regs().window(unit::S2M_BASE);
        let r = rx.read::<NoDescCfgReg>().into_bits();
        rx.write::<NoDescCfgReg>(Self::no_desc_word(r, drop_en, mask, timeout));
    }

    /// The seed's expression on the word read back `r`: clear bits 27/28, set drop/mask, OR
    /// the timeout in.
    fn no_desc_word(r: u32, drop_en: bool, mask: bool, timeout: u32) -> NoDescCfg {
        let policy = NoDescCfg::new()
            .with_drop_en(drop_en)
            .with_mask(mask)
            .into_bits();
        NoDescCfg::from_bits(
            (r & !NoDescCfg::POLICY_BITS) | policy | (timeout & NoDescCfg::TIMEOUT_MASK),
        )
    }
}
