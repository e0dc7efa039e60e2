//! The userspace HAL's engine bring-up, `al_udma_init` (seed 004 §2, @0x45fd50), and the
//! profile switch between it and the kernel's ([`Udma::init`]).
//!
//! In the seed's order:
//! 1. `rev_id = al_udma_revision_get(regs_base)`: read `m2s_feature.dma_version` and take
//!    the whole word when it is 4 or more (the ancestor HAL's rule,
//!    [`revision_from_dma_version`]); anything but 4 is refused ([`UdmaError::UnsupportedDmaRevision`], naming the value and where it
//!    came from). A caller that knows its engine's revision states it instead
//!    ([`EngineParams::hw_revision`]): then nothing is read, and the same gate applies to the
//!    stated value. Which register holds the revision is the ancestor's fact, and that every
//!    shipped engine's word reads exactly 4 is an inference (the docs of
//!    [`revision_from_dma_version`]'s module, `udma::revision_get`, say why).
//! 2. `num_of_queues`: 0xFF means 16, more than 16 is refused ([`UdmaError::BadQueueCount`];
//!    this crate also refuses 0, which neither source does: a project rule, so that every
//!    handle has a queue).
//! 3. For each of the 16 queues, `al_udma_q_enable` on the M2S then the S2M queue: `cfg`
//!    (`+0x20`) = shadow | 0x30000. The seed does not give the shadow's value at this point;
//!    the kernel's is 0 (`udma-notes.md` quirk 6), so the word is `0x0003_0000`.
//! 4. `[m2s+0x310]` = the arch's userspace FIFO depth (2296 CAYMAN, 4088 MARIANA, 0x400
//!    otherwise) with packet limit 0x100 (the seed's "0x400/0x100"; for CAYMAN and MARIANA
//!    the seed states only the depth, the 0x100 is the kernel's value for every arch).
//! 5. `[m2s+pkt]` = 0xF4240: `gen.axi.cfg_1` (abs `0x3a300`, the seed's "pkt/clk").
//! 6. `packet_size_cfg_set`: the seed names it with no register or value. The ancestor HAL's
//!    writes `m2s.cfg_len` (max packet `[19:0]`, 64K-as-zero bit 24) with 0xFFFFF and
//!    64K-as-zero, i.e. `0x010F_FFFF` (al-hal `f`, "consistent with seed"): the kernel's word
//!    too, and the value the `udma-desc` encoding needs.
//! 7. `[s2m+0x38c]` = 0 (`s2m_comp.cfg_application_ack`).
//! 8. `al_udma_iofic_m2s_error_ints_unmask`, then `_s2m_` (the `iofic` policy layer; for
//!    revision 4 the seed's masks are the kernel's).
//! 9. With `iofic_mode`, `al_udma_iofic_config_ex`: its body is not in the seed, so the
//!    caller passes it ([`Udma::init_hal_with_iofic`]); a failure is returned as
//!    [`UdmaError::IoficConfigFailed`].
//!
//! [`revision_from_dma_version`]: super::revision_from_dma_version
//!
//! Nothing else: the kernel's other defaults (outstanding limits, stream, address
//! selectors, completion size, prefetch) are not in the seed and are not written.

use mmio::{Mmio, MmioExt};

use super::engine::{ArchEngineScalars, CFG_LEN};
use super::profile::{BringUpProfile, DATA_CFG_MAX_PKT_LIMIT, HAL_PKT_CLK, S2M_APP_ACK_TIMEOUT};
use super::revision_get::{self, RevisionSource};
use super::{EngineParams, Udma, UdmaError};
use crate::regs::{general, m2s, s2m, unit};
use crate::{Arch, Rev4, UdmaRevision};

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Engine init by `profile`: [`BringUpProfile::UserspaceHal`] runs
    /// [`init_hal`](Self::init_hal), [`BringUpProfile::Kernel`] runs [`init`](Self::init).
    pub fn init_with(
        regs: M,
        params: EngineParams,
        profile: BringUpProfile,
    ) -> Result<Self, UdmaError> {
        match profile {
            BringUpProfile::UserspaceHal => Self::init_hal(regs, params),
            BringUpProfile::Kernel => Self::init(regs, params),
        }
    }

    /// The userspace HAL's `al_udma_init` without `iofic_mode` (module docs, steps 1-8).
    /// `params.max_descs_per_packet` is not used (the seed's init programs no prefetch;
    /// [`set_max_descs_per_packet`](Self::set_max_descs_per_packet) does).
    /// `params.hw_revision`, when given, replaces the read of `m2s_feature.dma_version`
    /// (step 1).
    pub fn init_hal(regs: M, params: EngineParams) -> Result<Self, UdmaError> {
        Self::init_hal_inner(regs, params, None::<fn(&M) -> Result<(), i32>>)
    }

    /// `al_udma_init` with `iofic_mode` set: steps 1-8, then `config_ex` (the caller's
    /// `al_udma_iofic_config_ex`, given the unit window; its `Err(rc)` fails the init).
    pub fn init_hal_with_iofic(
        regs: M,
        params: EngineParams,
        config_ex: impl FnOnce(&M) -> Result<(), i32>,
    ) -> Result<Self, UdmaError> {
        Self::init_hal_inner(regs, params, Some(config_ex))
    }

    fn init_hal_inner(
        regs: M,
        params: EngineParams,
        config_ex: Option<impl FnOnce(&M) -> Result<(), i32>>,
    ) -> Result<Self, UdmaError> {
        // Step 1: the revision, read (or stated by the caller) before anything is written.
        Self::hal_revision(&regs, params.hw_revision)?;
        // Step 2 (and the arch's revision agreeing with the hardware's).
        let engine = Self::attach(regs, params.queue_count, Some(Rev4::NUMBER))?;
        let r = engine.regs();
        let (tx, rx, genb) = (
            r.window(unit::M2S_BASE),
            r.window(unit::S2M_BASE),
            r.window(unit::GEN_BASE),
        );

        // Step 3: al_udma_q_enable, M2S then S2M, every queue.
        super::engine::enable_every_queue(r);
        // Step 4: the per-arch data FIFO depth.
        tx.write::<m2s::DataCfgReg>(
            m2s::DataCfg::new()
                .with_data_fifo_depth(ArchEngineScalars::<A>::HAL_DATA_FIFO_DEPTH)
                .with_max_pkt_limit(DATA_CFG_MAX_PKT_LIMIT),
        );
        // Steps 5-7: the common writes.
        genb.write::<general::AxiCfg1>(BringUpProfile::UserspaceHal.axi_cfg_1());
        tx.write::<m2s::CfgLenReg>(CFG_LEN);
        rx.write::<s2m::CompCfgApplicationAck>(S2M_APP_ACK_TIMEOUT);
        // Step 8: error interrupts, M2S then S2M.
        super::unmask_error_interrupts::<A, _>(&genb);
        // Step 9: iofic_mode.
        if let Some(f) = config_ex {
            f(r).map_err(|rc| UdmaError::IoficConfigFailed { rc })?;
        }
        Ok(engine)
    }

    /// Step 1: `al_udma_revision_get` (or the caller's `given` revision), then the seed's gate
    /// `rev_id != 4` -> "unsupported DMA rev id: %d", -EINVAL.
    fn hal_revision(regs: &M, given: Option<u8>) -> Result<(), UdmaError> {
        let (value, source) = match given {
            Some(r) => (u32::from(r), RevisionSource::Given),
            None => {
                let word = regs.window(unit::M2S_BASE).read::<m2s::DmaVersion>();
                // Below 4 the word is refused as read (the ancestor's fallback register is
                // not read: `revision_get` module docs).
                let rev = revision_get::revision_from_dma_version(word).unwrap_or(word);
                (rev, RevisionSource::Register)
            }
        };
        if value == m2s::UDMA_REV_ID_4 {
            Ok(())
        } else {
            Err(UdmaError::UnsupportedDmaRevision { value, source })
        }
    }
}

const _: () = assert!(HAL_PKT_CLK == 1_000_000);
