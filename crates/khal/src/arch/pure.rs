//! The pure per-arch computations of `arch-callbacks.tsv`, written once over [`Scalars`].
//!
//! In the vendor driver each is a function pointer per arch; here each is one formula whose
//! per-arch inputs are data, so V4 inherits V3's behaviour by inheriting V3's data, and the
//! [`Arch`](super::Arch) trait exposes them as default associated functions.

use heapless::Vec;

use super::{ArchError, Scalars};
use crate::regs::queue::{CrbpHigh, CrbpLow, DrbpHigh, DrbpLow, DrtpInc, locate_queue};

/// Wait times of a DMA completion, in microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WaitTimes {
    /// Time before the first poll.
    pub first_us: u64,
    /// Time for the following polls.
    pub following_us: u64,
}

/// Bytes of one UDMA unit's BAR0 window (stride of the V2 engine table).
pub const UDMA_UNIT_WINDOW: u64 = 0x4_0000;

/// Offsets inside a queue block that user space may never write (ring base lo/hi, tail
/// increment, completion ring base lo/hi).
pub const WRITE_BLOCKED_QUEUE_REGS: [u64; 5] = [0x28, 0x2c, 0x38, 0x44, 0x48];

/// Bytes per event word of a core's semaphore block (events are 32-bit registers).
const EVENT_BYTES: u64 = 4;
/// The queue reserved for NX cores on the engines `nx_ring_engine_mask` selects
/// (`ndmar_is_nx_ring`).
const NX_RING_QUEUE: u32 = 14;
/// `nx_ring_engine_mask` has one bit per `eng % 16`.
const NX_RING_MASK_BITS: u32 = u16::BITS;

// The blocked offsets are the ring-pointer registers of `regs::queue` (ring base lo/hi,
// tail increment, completion ring base lo/hi), in that order.
const _: () = {
    use mmio::Register;
    let [a, b, c, d, e] = WRITE_BLOCKED_QUEUE_REGS;
    assert!(a == DrbpLow::OFFSET as u64 && b == DrbpHigh::OFFSET as u64);
    assert!(c == DrtpInc::OFFSET as u64);
    assert!(d == CrbpLow::OFFSET as u64 && e == CrbpHigh::OFFSET as u64);
};

impl Scalars {
    const fn check_nc(&self, nc: u32) -> Result<(), ArchError> {
        if nc < self.nc_per_device as u32 {
            Ok(())
        } else {
            Err(ArchError::NcOutOfRange {
                nc,
                limit: self.nc_per_device as u32,
            })
        }
    }

    /// Notification queue id: `type * 16 + index` (`ts_nq_get_nqid`, `nnq_get_nqid`).
    pub const fn nq_id(&self, index: u32, nq_type: u32) -> Result<u32, ArchError> {
        if index >= self.nq_per_type as u32 || nq_type >= self.nq_types as u32 {
            return Err(ArchError::NqOutOfRange { index, nq_type });
        }
        Ok(nq_type * self.nq_per_type as u32 + index)
    }

    /// BAR0 offset of core `nc`'s semaphore base (`nc_get_semaphore_base`, minus the mapping).
    pub const fn semaphore_base(&self, nc: u32) -> Result<u64, ArchError> {
        if let Err(e) = self.check_nc(nc) {
            return Err(e);
        }
        Ok(self.bar0_nc_base + self.bar0_nc_stride * nc as u64)
    }

    /// BAR0 offset of event `event` of core `nc` (`nc_get_event_addr`).
    pub const fn event_offset(&self, nc: u32, event: u32) -> Result<u64, ArchError> {
        let base = match self.semaphore_base(nc) {
            Ok(b) => b,
            Err(e) => return Err(e),
        };
        if event >= self.event_count as u32 {
            return Err(ArchError::EventOutOfRange {
                event,
                limit: self.event_count as u32,
            });
        }
        Ok(base + self.mmap_nc_event_offset + EVENT_BYTES * event as u64)
    }

    /// The H2T engine of core `nc` (`ndmar_get_h2t_eng_id`; range-checked, unlike the vendor's).
    pub fn h2t_engine_id(&self, nc: u32) -> Result<u16, ArchError> {
        self.check_nc(nc)?;
        let seng = nc / u32::from(self.nc_per_seng.max(1));
        usize::try_from(seng)
            .ok()
            .and_then(|i| self.h2t_engine_ids.get(i))
            .copied()
            .ok_or(ArchError::NcOutOfRange {
                nc,
                limit: u32::from(self.nc_per_device),
            })
    }

    /// The H2T queue driver transfers of core `nc` use (`ndmar_get_h2t_def_qid`).
    pub const fn h2t_default_queue(&self, nc: u32) -> Result<u32, ArchError> {
        if let Err(e) = self.check_nc(nc) {
            return Err(e);
        }
        let per = if self.nc_per_seng == 0 {
            1
        } else {
            self.nc_per_seng as u32
        };
        Ok(nc % per)
    }

    /// Whether core `nc` (re)initialises its shared H2T engine after a reset of `nc_map`
    /// (`nr_init_h2t_eng`): always with one core per engine; otherwise only the first core of
    /// the pair, and only for a whole-device reset or when every core of the pair is reset.
    pub const fn inits_h2t_engine(&self, nc: u32, nc_map: u32) -> Result<bool, ArchError> {
        if let Err(e) = self.check_nc(nc) {
            return Err(e);
        }
        let per = self.nc_per_seng as u32;
        if per <= 1 {
            return Ok(true);
        }
        if nc % per != 0 {
            return Ok(false);
        }
        if nc_map == u32::MAX {
            return Ok(true);
        }
        // Checked shifts: `per` and `nc` come from the table and the caller; a pair that
        // does not fit the 32-bit map cannot be wholly reset by it.
        let ones = match 1u32.checked_shl(per) {
            Some(b) => b - 1,
            None => u32::MAX,
        };
        match ones.checked_shl(nc) {
            Some(group) if group >> nc == ones => Ok(nc_map & group == group),
            _ => Ok(false),
        }
    }

    /// Whether queue `q` of engine `eng` is reserved for NX cores (`ndmar_is_nx_ring`).
    pub const fn is_nx_ring(&self, eng: u32, q: u32) -> bool {
        q == NX_RING_QUEUE && (self.nx_ring_engine_mask >> (eng % NX_RING_MASK_BITS)) & 1 == 1
    }

    /// Completion wait times for `count` descriptors (`ndma_get_wait_for_completion_time`):
    /// the estimate is computed in 32 bits, then widened, exactly as the vendor does; counts
    /// below 2 (where the vendor wraps) are an error.
    pub const fn wait_for_completion(
        &self,
        count: u32,
        is_async: bool,
    ) -> Result<WaitTimes, ArchError> {
        if count < 2 {
            return Err(ArchError::WaitCountTooSmall { count });
        }
        let est = self.dma_wait_per_desc_us.wrapping_mul(count - 1) as u64;
        let first = if is_async {
            1
        } else {
            est.wrapping_sub(self.dma_wait_first_slack_us as u64)
        };
        let following = (self.dma_wait_following_mul as u64)
            .wrapping_mul(est)
            .wrapping_sub(first)
            .wrapping_mul(100);
        Ok(WaitTimes {
            first_us: first,
            following_us: following,
        })
    }

    /// Engines with host connectivity for HBM channel `hbm`
    /// (`ndma_get_engines_with_host_connectivity`).
    pub fn host_engines(&self, hbm: u32) -> Result<Vec<u16, 16>, ArchError> {
        if hbm >= u32::from(self.dram_channels) {
            return Err(ArchError::HbmOutOfRange {
                hbm,
                limit: u32::from(self.dram_channels),
            });
        }
        let base = u32::from(self.host_engines_stride) * hbm;
        let mut out = Vec::new();
        for &l in self.host_engines_local {
            // Only an inconsistent table gets here: the id it yields is not an engine.
            let engine = base.saturating_add(u32::from(l));
            let id = u16::try_from(engine).map_err(|_| ArchError::EngineOutOfRange { engine })?;
            out.push(id)
                .map_err(|_| ArchError::EngineOutOfRange { engine })?;
        }
        Ok(out)
    }

    /// Default cores for HBM channel `hbm` (`ncdev_get_default_tpbs_for_hbm`): the cores
    /// `hbm * k .. hbm * k + k` with `k = nc_per_device / dram_channels`.
    pub fn default_tpbs_for_hbm(&self, hbm: u32) -> Result<Vec<u8, 2>, ArchError> {
        let limit = u32::from(self.dram_channels);
        if hbm >= limit {
            return Err(ArchError::HbmOutOfRange { hbm, limit });
        }
        let k = self.nc_per_device / self.dram_channels.max(1);
        let first = u8::try_from(hbm)
            .ok()
            .and_then(|h| h.checked_mul(k))
            .ok_or(ArchError::HbmOutOfRange { hbm, limit })?;
        let mut out = Vec::new();
        for i in 0..k {
            // Only an inconsistent table gets here (more than 2 cores per channel, or a core
            // number past 255): name the core that does not fit.
            let nc = first.checked_add(i);
            let err = ArchError::NcOutOfRange {
                nc: nc.map_or(u32::from(u8::MAX) + 1, u32::from),
                limit: u32::from(self.nc_per_device),
            };
            out.push(nc.ok_or(err)?).map_err(|_| err)?;
        }
        Ok(out)
    }

    /// Row-group activity counter offset (`pe_get_row_grp_activity_counter_offset`, the
    /// version-common callback): `base + row * xbus_count * perf_reg_grp_size`, in wrapping
    /// 64-bit arithmetic as the vendor's C computes it (so no caller input can panic).
    pub const fn row_group_counter_offset(&self, base: u64, row: u32) -> u64 {
        let stride = (self.pe_xbus_count as u64).wrapping_mul(self.pe_perf_reg_grp_size as u64);
        base.wrapping_add((row as u64).wrapping_mul(stride))
    }

    /// BAR4 offset of device range `addr..addr+size` (`mmap_get_bar4_offset`): inside HBM
    /// window k (`B_k <= addr` and `addr + size < B_k + hbm_active_size`, strict as the vendor)
    /// it is `addr - B_k + k * bar4_hbm_stride`.
    pub fn bar4_offset(&self, addr: u64, size: u64) -> Result<u64, ArchError> {
        let end = addr
            .checked_add(size)
            .ok_or(ArchError::NotInHbmWindow { addr, size })?;
        for (k, &base) in (0u64..).zip(self.hbm_bases) {
            if addr >= base && end < base.saturating_add(self.hbm_active_size) {
                return Ok(addr - base + k * self.bar4_hbm_stride);
            }
        }
        Err(ArchError::NotInHbmWindow { addr, size })
    }

    /// BAR0 offset of DMA engine `engine`'s UDMA unit (`address-map.tsv` `BAR0_UDMA`): core
    /// engines by group, then the H2T engines.
    pub fn udma_engine_offset(&self, engine: u32) -> Result<u64, ArchError> {
        let err = ArchError::EngineOutOfRange { engine };
        if engine < u32::from(self.seng_dma_eng_per_nd) {
            let per = u32::from(self.udma_engines_per_group.max(1));
            let group = usize::try_from(engine / per).map_err(|_| err)?;
            let base = self.udma_group_bases.get(group).ok_or(err)?;
            return Ok(base + self.udma_engine_stride * u64::from(engine % per));
        }
        let pos = self
            .h2t_engine_ids
            .iter()
            .position(|&id| u32::from(id) == engine)
            .ok_or(err)?;
        self.udma_h2t_bases.get(pos).copied().ok_or(err)
    }

    /// Every DMA engine id of the device (core engines, then H2T engines).
    pub fn engine_ids(&self) -> impl Iterator<Item = u32> + '_ {
        (0..u32::from(self.seng_dma_eng_per_nd))
            .chain(self.h2t_engine_ids.iter().map(|&i| u32::from(i)))
    }

    /// Whether user space may not write BAR0 offset `off` (`ndma_is_bar0_write_blocked`):
    /// the ring-pointer registers of every queue of every engine, and five mailbox words.
    pub fn is_bar0_write_blocked(&self, off: u64) -> bool {
        if self
            .bar0_write_blocked_mailbox_words
            .iter()
            .any(|w| self.bar0_misc_ram_offset + w == off)
        {
            return true;
        }
        self.engine_ids().any(|e| {
            let Ok(base) = self.udma_engine_offset(e) else {
                return false;
            };
            let Some(rel) = off.checked_sub(base) else {
                return false;
            };
            // Which queue block (either direction) the offset is in: the queue block arrays
            // of `regs::queue`.
            usize::try_from(rel)
                .ok()
                .and_then(locate_queue)
                .is_some_and(|(_, _, reg)| {
                    u64::try_from(reg).is_ok_and(|r| WRITE_BLOCKED_QUEUE_REGS.contains(&r))
                })
        })
    }
}
