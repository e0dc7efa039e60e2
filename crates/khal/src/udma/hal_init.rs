//! The userspace HAL's engine bring-up, `al_udma_init` (seed 004 §2, @0x45fd50), and the
//! profile switch between it and the kernel's ([`Udma::init`]).
//!
//! In the seed's order:
//! 1. `rev_id = al_udma_revision_get(regs_base)`: read `m2s_feature.dma_version`; anything
//!    but 4 is refused ([`UdmaError::UnsupportedDmaRevision`], naming the value read).
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
//! 6. `packet_size_cfg_set`: the seed names it with no register or value. Its name matches
//!    the reference's "maximum packet length" register `m2s.cfg_len`; this writes the
//!    kernel's value there (max packet 0xfffff, 64K-as-zero), the value the `udma-desc`
//!    encoding needs.
//! 7. `[s2m+0x38c]` = 0 (`s2m_comp.cfg_application_ack`).
//! 8. `al_udma_iofic_m2s_error_ints_unmask`, then `_s2m_` (the `iofic` policy layer; for
//!    revision 4 the seed's masks are the kernel's).
//! 9. With `iofic_mode`, `al_udma_iofic_config_ex`: its body is not in the seed, so the
//!    caller passes it ([`Udma::init_hal_with_iofic`]); a failure is returned as
//!    [`UdmaError::IoficConfigFailed`].
//!
//! Nothing else: the kernel's other defaults (outstanding limits, stream, address
//! selectors, completion size, prefetch) are not in the seed and are not written.

use mmio::{Mmio, MmioExt};

use super::engine::{ArchEngineScalars, CFG_LEN};
use super::profile::{BringUpProfile, DATA_CFG_MAX_PKT_LIMIT, HAL_PKT_CLK, S2M_APP_ACK_TIMEOUT};
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
    /// `params.max_descs_per_packet` and `params.hw_revision` are not used: the seed's init
    /// programs no prefetch ([`set_max_descs_per_packet`](Self::set_max_descs_per_packet)
    /// does) and reads the revision itself.
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
        // Step 1: the revision, read before anything is written.
        let word = regs.window(unit::M2S_BASE).read::<m2s::DmaVersion>();
        // The whole word is the revision (see `m2s::UDMA_REV_ID_4` for what is unknown).
        if word != m2s::UDMA_REV_ID_4 {
            return Err(UdmaError::UnsupportedDmaRevision { value: word });
        }
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
}

const _: () = assert!(HAL_PKT_CLK == 1_000_000);
