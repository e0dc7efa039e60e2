//! RX (S2M) queue completion configuration: coalescing and its timer, header split, the
//! completion read-back `al_udma_s2m_q_comp_get`, and the completion-descriptor write burst.
//!
//! Seed 004 §2 names these setters ("the M2S/S2M completion-coalescing, header-split,
//! burst-config ... setters", and `s2m_q_comp_get` called from `perf_params_print`) without
//! their registers; the kernel reference has only RX `comp_cfg` (`+0x54`) bits 0 and 1. The
//! registers, fields and procedures here are the ancestor HAL's (`reference/al-hal/facts.tsv`
//! rows `e`, **ancestor only**: the fork may have changed them), in
//! [`regs::s2m_comp`](crate::regs::s2m_comp).
//!
//! * `s2m_q_compl_coal_config(enable, timer)`: read-modify-write of `comp_cfg` bit 1 (set to
//!   disable), then `comp_cfg_2` = the timer, in SB clock cycles.
//! * `s2m_q_compl_hdr_split_config(enable, force, size)`: read-modify-write of `pkt_cfg`
//!   clearing size, force and enable, then (enabled) setting size, enable and force.
//! * `s2m_q_comp_get`: reads `comp_cfg` bits 0/1, `comp_cfg_2`, `pkt_cfg` and `qos_cfg`.
//! * `s2m_compl_desc_burst_config(bytes)`: 64, 128 or 256 bytes (else refused), as 16-byte
//!   beats into both the min `[23:16]` and max `[7:0]` fields of `axi_s2m.desc_wr_cfg_1`
//!   (one masked write).

use mmio::{Mmio, MmioExt, Register};
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::Arch;
use crate::regs::queue::{Dir, RxCompCfg, queue_base};
use crate::regs::s2m::AxiDescWrCfg1;
use crate::regs::s2m_comp::{
    CompCfg2, DescWrBurst, PktCfg, QosCfg, RxCompCfgBits, RxPktCfg, RxQosCfg,
};
use crate::regs::unit;

/// Bytes per AXI beat of a completion-descriptor write (al-hal `e`: "converts to 16-byte
/// beats").
pub const COMP_DESC_BEAT_BYTES: u32 = 16;

/// One RX queue's completion settings, as `al_udma_s2m_q_comp_get` reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S2mQueueComp {
    /// `comp_cfg` bit 0: completion entries are written to the completion ring.
    pub ring_update: bool,
    /// `comp_cfg` bit 1 clear: completions are coalesced.
    pub coalescing: bool,
    /// `comp_cfg_2`: the coalescing timer, SB clock cycles.
    pub coal_timer: u32,
    /// `pkt_cfg` bit 17: header split enabled.
    pub hdr_split: bool,
    /// `pkt_cfg` bit 16: header split forced.
    pub force_hdr_split: bool,
    /// `pkt_cfg` `[15:0]`: header size in bytes.
    pub hdr_size: u16,
    /// `qos_cfg` `[7:0]`.
    pub q_qos: u8,
}

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Offset from the unit base of RX register `R` of queue `q`.
    fn rx_q<R: Register>(q: QueueId) -> usize {
        queue_base(Dir::Rx, q) + R::OFFSET
    }

    /// `al_udma_s2m_q_compl_coal_config`: coalescing of RX queue `q` on or off, and its timer
    /// (SB clock cycles). A queue beyond the configured count is refused before any access.
    pub fn s2m_q_compl_coal_config(
        &self,
        q: QueueId,
        enable: bool,
        timer: u32,
    ) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        let dis = RxCompCfgBits::new().with_dis_comp_coal(true).into_bits();
        self.regs().modify32(Self::rx_q::<RxCompCfg>(q), |v| {
            if enable { v & !dis } else { v | dis }
        });
        self.regs().write32(Self::rx_q::<CompCfg2>(q), timer);
        Ok(())
    }

    /// `al_udma_s2m_q_compl_hdr_split_config`: header split of RX queue `q` (`size` bytes of
    /// header; `force` forces the split). Disabled clears all three fields.
    pub fn s2m_q_compl_hdr_split_config(
        &self,
        q: QueueId,
        enable: bool,
        force: bool,
        size: u16,
    ) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        let fields = PktCfg::new()
            .with_hdr_size(u16::MAX)
            .with_force_hdr_split(true)
            .with_en_hdr_split(true)
            .into_bits();
        let set = if enable {
            PktCfg::new()
                .with_hdr_size(size)
                .with_en_hdr_split(true)
                .with_force_hdr_split(force)
                .into_bits()
        } else {
            0
        };
        self.regs()
            .modify32(Self::rx_q::<RxPktCfg>(q), |v| (v & !fields) | set);
        Ok(())
    }

    /// `al_udma_s2m_q_comp_get`: RX queue `q`'s completion settings.
    pub fn s2m_q_comp_get(&self, q: QueueId) -> Result<S2mQueueComp, UdmaError> {
        self.check_queue(q)?;
        let r = self.regs();
        let comp = RxCompCfgBits::from_bits(r.read32(Self::rx_q::<RxCompCfg>(q)));
        let pkt = PktCfg::from_bits(r.read32(Self::rx_q::<RxPktCfg>(q)));
        let qos = QosCfg::from_bits(r.read32(Self::rx_q::<RxQosCfg>(q)));
        Ok(S2mQueueComp {
            ring_update: comp.en_comp_ring_update(),
            coalescing: !comp.dis_comp_coal(),
            coal_timer: r.read32(Self::rx_q::<CompCfg2>(q)),
            hdr_split: pkt.en_hdr_split(),
            force_hdr_split: pkt.force_hdr_split(),
            hdr_size: pkt.hdr_size(),
            q_qos: qos.q_qos(),
        })
    }

    /// `al_udma_s2m_compl_desc_burst_config`: the completion-descriptor write burst, 64, 128
    /// or 256 bytes ([`UdmaError::BadCompDescBurst`] otherwise, nothing written).
    pub fn s2m_compl_desc_burst_config(&self, bytes: u32) -> Result<(), UdmaError> {
        let beats = match bytes {
            64 | 128 | 256 => bytes / COMP_DESC_BEAT_BYTES,
            _ => return Err(UdmaError::BadCompDescBurst { bytes }),
        };
        let beats = u8::try_from(beats).map_err(|_| UdmaError::BadCompDescBurst { bytes })?;
        let mask = DescWrBurst::new()
            .with_max_axi_beats(u8::MAX)
            .with_min_axi_beats(u8::MAX)
            .into_bits();
        let set = DescWrBurst::new()
            .with_max_axi_beats(beats)
            .with_min_axi_beats(beats)
            .into_bits();
        let off = unit::S2M_BASE + <AxiDescWrCfg1 as Register>::OFFSET;
        self.regs().modify32(off, |v| (v & !mask) | set);
        Ok(())
    }
}
