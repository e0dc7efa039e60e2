//! Prefetch and burst setup (engine init step 7; also callable on its own).

use mmio::{Mmio, MmioExt};

use super::{Udma, UdmaError};
use crate::Arch;
use crate::regs::{m2s, s2m, unit};

/// Smallest accepted max-descriptors-per-packet.
pub const MIN_DESCS_PER_PACKET: u8 = 8;
/// Largest accepted max-descriptors-per-packet (the threshold field is 8 bits).
pub const MAX_DESCS_PER_PACKET: u8 = 128;
/// Min prefetch burst above the threshold.
const MIN_BURST_ABOVE_THR: u8 = 8;
/// Min prefetch burst below the threshold.
const MIN_BURST_BELOW_THR: u8 = 1;
/// Descriptors per AXI descriptor-read burst.
const DESCS_PER_BURST: u8 = 8;

/// `value` as the engine's 8-bit max-descriptors argument, when it is in 8..=128. The check
/// is on the full value (the driver narrows it to 8 bits first, so 264 would pass there as 8).
/// `const` so that an arch's packet limit is checked when the arch's engine code is compiled.
pub(crate) const fn max_descs_in_range(value: u32) -> Option<u8> {
    let [n, 0, 0, 0] = value.to_le_bytes() else {
        return None;
    };
    if n < MIN_DESCS_PER_PACKET || n > MAX_DESCS_PER_PACKET {
        return None;
    }
    Some(n)
}

/// [`max_descs_in_range`] with the typed error.
pub(crate) fn check_max_descs(value: u32) -> Result<u8, UdmaError> {
    max_descs_in_range(value).ok_or(UdmaError::BadMaxDescsPerPacket { value })
}

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Programs the prefetcher for packets of up to `n` descriptors (8..=128): TX
    /// `desc_pref_cfg_2` (n, forced round-robin), TX and RX `desc_pref_cfg_3` (threshold n,
    /// bursts 8/1), TX and RX AXI descriptor-read bursts (8, break at boundary).
    pub fn set_max_descs_per_packet(&self, n: u8) -> Result<(), UdmaError> {
        let n = check_max_descs(u32::from(n))?;
        let tx = self.regs().window(unit::M2S_BASE);
        let rx = self.regs().window(unit::S2M_BASE);
        tx.write::<m2s::DescPrefCfg2Reg>(
            m2s::DescPrefCfg2::new()
                .with_max_desc_per_pkt(n)
                .with_perf_force_rr(true),
        );
        let cfg3 = m2s::DescPrefCfg3::new()
            .with_pref_thr(n)
            .with_min_burst_above_thr(MIN_BURST_ABOVE_THR)
            .with_min_burst_below_thr(MIN_BURST_BELOW_THR);
        tx.write::<m2s::DescPrefCfg3Reg>(cfg3);
        rx.write::<s2m::DescPrefCfg3Reg>(cfg3);
        let burst = m2s::DescRdBurstCfg::new()
            .with_descs_per_burst(DESCS_PER_BURST)
            .with_always_break_on_max_boundary(true);
        tx.write::<m2s::AxiDescRdCfg3>(burst);
        rx.write::<s2m::AxiDescRdCfg3>(burst);
        Ok(())
    }
}
