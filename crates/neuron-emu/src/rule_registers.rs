//! The registers an engine walk's rules come from, and the rules they give: one mapping,
//! used by the model for every packet and by tools that read a live engine's registers
//! (`neuron-tool queue inspect` reads them through BAR_READ), so both walk a ring under the
//! same rules.

use khal::regs::{m2s, s2m};
use mmio::{Placed, Register};

use crate::engine_walk::WalkRules;

/// Most descriptors per packet the prefetcher accepts when the limit is not programmed.
/// The model's choice: the reference gives only the allowed range (`udma-notes.md`: "max
/// descriptors per packet (allowed range) | 8..128") and no source says what the hardware
/// does with 0, so the model takes the top of that range.
pub const HW_MAX_DESCS_PER_PACKET: u32 = 128;

/// The raw words of the registers [`WalkRules`] are read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleRegisters {
    /// `m2s.cfg_len`: MAX_PKT_SIZE and ENCODE_64K.
    pub cfg_len: u32,
    /// `m2s_rd.desc_pref_cfg_2`: MAX_DESC_PER_PKT.
    pub desc_pref_cfg_2: u32,
    /// `m2s.err_log_mask`: PREF_RING_ID set = TX ring ids are not checked.
    pub m2s_err_log_mask: u32,
    /// `s2m.err_log_mask`: PREF_RING_ID set = RX ring ids are not checked.
    pub s2m_err_log_mask: u32,
}

impl RuleRegisters {
    /// Unit offsets of the four registers, in field order.
    pub const OFFSETS: [usize; 4] = [
        m2s::CfgLenReg::ABS,
        m2s::DescPrefCfg2Reg::ABS,
        m2s::ErrLogMaskReg::ABS,
        s2m::ErrLogMaskReg::ABS,
    ];

    /// The words in [`OFFSETS`](Self::OFFSETS) order.
    pub const fn from_words(words: [u32; 4]) -> Self {
        let [cfg_len, desc_pref_cfg_2, m2s_err_log_mask, s2m_err_log_mask] = words;
        Self {
            cfg_len,
            desc_pref_cfg_2,
            m2s_err_log_mask,
            s2m_err_log_mask,
        }
    }

    /// The rules these registers make the engine apply.
    ///
    /// ```
    /// use neuron_emu::RuleRegisters;
    /// // ENCODE_64K | MAX_PKT_SIZE 0xfffff, 65 descriptors per packet, ring ids checked.
    /// let r = RuleRegisters::from_words([0x010f_ffff, 65, 0, 0]).rules();
    /// assert!(r.encode_64k && r.check_tx_ring_id && r.check_rx_ring_id);
    /// assert_eq!((r.max_packet_bytes, r.max_descs_per_packet), (0xf_ffff, 65));
    /// ```
    pub fn rules(&self) -> WalkRules {
        let cfg_len = m2s::CfgLen::from(self.cfg_len);
        let limit = <<m2s::DescPrefCfg2Reg as Register>::Value>::from(self.desc_pref_cfg_2);
        let max_descs_per_packet = match limit.max_desc_per_pkt() {
            0 => HW_MAX_DESCS_PER_PACKET,
            n => u32::from(n),
        };
        let tx_mask = <<m2s::ErrLogMaskReg as Register>::Value>::from(self.m2s_err_log_mask);
        let rx_mask = <<s2m::ErrLogMaskReg as Register>::Value>::from(self.s2m_err_log_mask);
        WalkRules {
            encode_64k: cfg_len.encode_64k(),
            max_packet_bytes: u64::from(cfg_len.max_pkt_size()),
            max_descs_per_packet,
            check_tx_ring_id: !tx_mask.pref_ring_id(),
            check_rx_ring_id: !rx_mask.pref_ring_id(),
        }
    }
}

// The offsets are the M2S/S2M blocks' own: a rename in khal fails here.
const _: () = assert!(m2s::M2s::BASE == 0 && s2m::S2m::BASE == 0x20000);
