//! The S2M "no descriptor" policy (seed 004 §2 `al_udma_s2m_no_desc_cfg_set` @0x4752f0):
//! what the RX engine does with a packet when its queue has no descriptor.
//!
//! Register and bits: S2M `+0x344`, timeout `[23:0]`, drop bit 27, "mask" bit 28 (the seed);
//! the ancestor HAL names the same word `s2m_wr.data_cfg_2` and matches every one of those
//! bits (`reference/al-hal/facts.tsv` rows `g`, "matches seed exactly"). The ancestor alone
//! gives the **unit of the timeout: south-bridge (SB) clock cycles**, and the meaning of
//! bit 28: the no-descriptor hint-interrupt enable ([`NoDescCfg`]).
//!
//! The two sources' **procedures differ**, so both are kept, each named after its source and
//! pinned by its own test:
//!
//! | step | seed ([`Udma::set_s2m_no_desc`]) | ancestor ([`Udma::set_s2m_no_desc_ancestor`]) |
//! |---|---|---|
//! | timeout 0 | warns when *not* dropping (waits forever); refused here, typed, with an explicit opt-in ([`Udma::set_s2m_no_desc_wait_forever`]) | refused when dropping (-EINVAL), nothing written |
//! | bits 27/28 | cleared, then drop (and bit 28 from `mask`) set | drop set or cleared; bit 28 set or cleared |
//! | bit 29 (wait for prefetch) | kept | cleared when dropping |
//! | timeout field | OR-ed into the word read back (`| (timeout & 0x00FFFFFF)`) | replaced |
//! | then | — | revision 4 with drop: gen `dma_misc.bw_bug_fixes` bit 0 cleared |
//!
//! In the seed's expression (`r = (r & ~0x18000000) | (drop_en ? 0x08000000 : 0) | (timeout &
//! 0x00FFFFFF)`) bit 28 is only cleared; it is set here from the `mask` argument the function
//! takes (with `mask` false the write is the seed's exactly). Because the seed ORs the
//! timeout, a second seed-shaped call cannot lower a timeout: program it once, from the reset
//! value, or use the ancestor's procedure, which replaces it.

use mmio::{Mmio, MmioExt, Placed};

use super::{Udma, UdmaError};
use crate::regs::dma_misc::{BwBugFixesReg, DmaMisc};
use crate::regs::s2m::{NoDescCfg, NoDescCfgReg};
use crate::regs::unit;
use crate::{Arch, Rev4, UdmaRevision};

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// The seed's procedure. Sets the no-descriptor policy: drop after `timeout` SB clock
    /// cycles (`drop_en`), or wait `timeout`, with the "mask" bit 28. A `timeout` wider than 24 bits, and a zero `timeout` without
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

    /// The ancestor HAL's procedure (al-hal `g`, `al_udma_s2m_no_desc_cfg_set(drop,
    /// gen_interrupt, timeout)`): drop with a zero timeout is refused
    /// ([`UdmaError::NoDescDropWithoutTimeout`]), as is a timeout wider than 24 bits, before
    /// any access. Then one read-modify-write of S2M `+0x344`: drop sets bit 27 and clears
    /// bit 29 (wait for prefetch), no drop clears bit 27; bit 28 (hint interrupt) follows
    /// `hint_interrupt`; the timer field `[23:0]` is replaced by `timeout` (SB clock cycles; 0
    /// without drop waits forever). Last, on a revision-4 engine with drop: gen
    /// `dma_misc.bw_bug_fixes` bit 0 cleared (read-modify-write). An ancestor-only procedure
    /// (the seed shows none of bits 29, the replace or the last step).
    pub fn set_s2m_no_desc_ancestor(
        &self,
        drop: bool,
        hint_interrupt: bool,
        timeout: u32,
    ) -> Result<(), UdmaError> {
        if timeout & !NoDescCfg::TIMEOUT_MASK != 0 {
            return Err(UdmaError::NoDescTimeoutTooWide { timeout });
        }
        if drop && timeout == 0 {
            return Err(UdmaError::NoDescDropWithoutTimeout);
        }
        let rx = self.regs().window(unit::S2M_BASE);
        let mut v = rx.read::<NoDescCfgReg>().with_drop_en(drop);
        if drop {
            v.set_wait_for_prefetch(false);
        }
        rx.write::<NoDescCfgReg>(v.with_mask(hint_interrupt).with_timeout(timeout));
        if drop && self.revision() >= Rev4::NUMBER {
            let misc = self.regs().window(DmaMisc::BASE);
            let fixes = misc.read::<BwBugFixesReg>();
            misc.write::<BwBugFixesReg>(fixes.with_rx_data_build_fsm_fix(false));
        }
        Ok(())
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
