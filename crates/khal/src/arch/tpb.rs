//! The tensor-engine performance-counter callbacks of the DHAL `ndhal_tpb` sub-table
//! (seed 003 §3: the version-common four the vc registrar installs, plus the per-arch
//! `pe_get_aggregated_wl_cycle_cnt`), where the reference gives their arithmetic
//! (`arch-callbacks.tsv`).
//!
//! | slot | here | source |
//! |---|---|---|
//! | `pe_get_row_grp_activity_counter_offset` (vc) | [`Scalars::row_group_counter_offset`] | pure formula |
//! | `pe_get_counter_val` (vc) | [`read_pe_counter`] | "reads high word at lsb+4 first, then low word; value = hi<<32 \| lo" |
//! | `pe_get_fast_wl_cycle_cnt` (vc) | [`Scalars::pe_fast_wl_cycle_cnt`] | sum over the column groups |
//! | `pe_get_aggregated_wl_cycle_cnt` (per arch) | [`Scalars::pe_aggregated_wl_cycle_cnt`] | V2 fast sum; V3/V4 normal + fast |
//! | `pe_format_activity_stats` (vc) | [`Scalars::pe_format_activity_stats`] | "CSV text: header then one line per row group"; the text itself is the project's choice |
//!
//! The counter reads are MMIO through [`mmio::Mmio`] on a BAR0 window; everything else is
//! arithmetic on the arch's scalars. The kernel's -EIO on a failed read has no counterpart:
//! an `Mmio` read cannot fail (a bus error reads all ones).

use mmio::Mmio;

use super::{ArchError, Scalars};

/// `pe_get_counter_val`: the 64-bit counter whose low word is at BAR0 `lsb`: high word
/// (`lsb + 4`) read first, then the low word; `hi << 32 | lo`. An offset that does not fit
/// the address space is [`ArchError::CounterOffsetOutOfRange`].
pub fn read_pe_counter<M: Mmio + ?Sized>(bar0: &M, lsb: u64) -> Result<u64, ArchError> {
    let lo_off =
        usize::try_from(lsb).map_err(|_| ArchError::CounterOffsetOutOfRange { offset: lsb })?;
    let hi_off = lo_off
        .checked_add(4)
        .ok_or(ArchError::CounterOffsetOutOfRange { offset: lsb })?;
    let hi = bar0.read32(hi_off);
    let lo = bar0.read32(lo_off);
    Ok((u64::from(hi) << 32) | u64::from(lo))
}

impl Scalars {
    fn check_row(&self, row: u32) -> Result<(), ArchError> {
        if row < self.pe_row_grp_count {
            Ok(())
        } else {
            Err(ArchError::RowGroupOutOfRange {
                row,
                limit: self.pe_row_grp_count,
            })
        }
    }

    pub(super) fn counter_base(offsets: &[u64], nc: u32, limit: u8) -> Result<u64, ArchError> {
        usize::try_from(nc)
            .ok()
            .and_then(|i| offsets.get(i))
            .copied()
            .ok_or(ArchError::NcOutOfRange {
                nc,
                limit: u32::from(limit),
            })
    }

    /// `pe_get_fast_wl_cycle_cnt`: the sum, over the `pe_col_grp_count` column groups, of
    /// the counter at the row-group offset of `pe_fast_wl_cntr_offsets[nc] + col *
    /// pe_perf_reg_grp_size` (wrapping 64-bit sum, as the C adds `u64`s).
    pub fn pe_fast_wl_cycle_cnt<M: Mmio + ?Sized>(
        &self,
        bar0: &M,
        nc: u32,
        row: u32,
    ) -> Result<u64, ArchError> {
        self.check_row(row)?;
        let base = Self::counter_base(self.pe_fast_wl_cntr_offsets, nc, self.nc_per_device)?;
        let mut sum: u64 = 0;
        for col in 0..self.pe_col_grp_count {
            let col_base = base
                .wrapping_add(u64::from(col).wrapping_mul(u64::from(self.pe_perf_reg_grp_size)));
            let v = read_pe_counter(bar0, self.row_group_counter_offset(col_base, row))?;
            sum = sum.wrapping_add(v);
        }
        Ok(sum)
    }

    /// `pe_get_aggregated_wl_cycle_cnt`: V2 the fast weight-load sum only; V3/V4
    /// ([`pe_aggregated_wl_adds_normal`](Scalars::pe_aggregated_wl_adds_normal)) the normal
    /// weight-load counter (at the row-group offset of `pe_wl_cntr_offsets[nc]`) plus that
    /// sum. The normal counter is read first.
    pub fn pe_aggregated_wl_cycle_cnt<M: Mmio + ?Sized>(
        &self,
        bar0: &M,
        nc: u32,
        row: u32,
    ) -> Result<u64, ArchError> {
        self.check_row(row)?;
        let normal = if self.pe_aggregated_wl_adds_normal {
            let base = Self::counter_base(self.pe_wl_cntr_offsets, nc, self.nc_per_device)?;
            read_pe_counter(bar0, self.row_group_counter_offset(base, row))?
        } else {
            0
        };
        Ok(normal.wrapping_add(self.pe_fast_wl_cycle_cnt(bar0, nc, row)?))
    }
}
