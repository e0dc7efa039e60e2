//! `pe_format_activity_stats` (seed 003 §3: one of the four `ndhal_tpb` callbacks the
//! version-common registrar installs), as far as the reference describes it
//! (`arch-callbacks.tsv` row `tpb pe_format_activity_stats`: "CSV text: header then one line
//! per row group (4) with matmul, weight-load and idle cycle counts; returns non-zero when
//! the text was truncated").
//!
//! What no source gives, and is therefore **the project's choice** (labelled, not the
//! vendor's bytes): the header's text and the column names, the number format (decimal), the
//! line ending (`\n`), and which counter each column reads. The counters are the arch's
//! scalars at the row group's offset ([`Scalars::row_group_counter_offset`]): matmul
//! `pe_mm_cntr_offsets[nc]`, weight load [`Scalars::pe_aggregated_wl_cycle_cnt`], idle
//! `pe_idle_cntr_offsets[nc]` (an **inference** from the scalars' names: the reference
//! pairs them with no callback).

use core::fmt::{self, Write};

use mmio::Mmio;

use super::{ArchError, Scalars, read_pe_counter};

/// The header line (the project's choice; the reference says only "header").
pub const ACTIVITY_STATS_HEADER: &str = "row_group,matmul_cycles,weight_load_cycles,idle_cycles\n";

/// Writes into a byte buffer, keeping what fits and remembering whether anything did not.
struct Bounded<'a> {
    buf: &'a mut [u8],
    len: usize,
    truncated: bool,
}

impl Write for Bounded<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = self.buf.len().saturating_sub(self.len);
        let n = s.len().min(room);
        if let (Some(dst), Some(src)) = (
            self.buf.get_mut(self.len..self.len + n),
            s.as_bytes().get(..n),
        ) {
            dst.copy_from_slice(src);
            self.len += n;
        }
        if n < s.len() {
            self.truncated = true;
        }
        Ok(())
    }
}

/// What [`Scalars::pe_format_activity_stats`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActivityStats {
    /// Bytes written into the buffer.
    pub len: usize,
    /// The text did not fit (the callback's non-zero return).
    pub truncated: bool,
}

impl Scalars {
    /// `pe_format_activity_stats` for core `nc`: the header, then one CSV line per row group
    /// (`pe_row_grp_count`, 4 on every arch) with its matmul, weight-load and idle cycle
    /// counts, into `buf`. Text that does not fit is cut and reported as truncated. A core
    /// index past the arch's cores is refused before any read.
    ///
    /// ```
    /// use mmio::FakeRegs;
    /// let bar0: FakeRegs<64, 64> = FakeRegs::new();
    /// let mut buf = [0u8; 256];
    /// let out = khal_cayman::SCALARS.pe_format_activity_stats(&bar0, 0, &mut buf)?;
    /// let text = core::str::from_utf8(&buf[..out.len]).unwrap();
    /// assert!(text.starts_with(khal::ACTIVITY_STATS_HEADER) && text.ends_with("3,0,0,0\n"));
    /// assert!(!out.truncated);
    /// # Ok::<(), khal::ArchError>(())
    /// ```
    pub fn pe_format_activity_stats<M: Mmio + ?Sized>(
        &self,
        bar0: &M,
        nc: u32,
        buf: &mut [u8],
    ) -> Result<ActivityStats, ArchError> {
        let mm = Self::counter_base(self.pe_mm_cntr_offsets, nc, self.nc_per_device)?;
        let idle = Self::counter_base(self.pe_idle_cntr_offsets, nc, self.nc_per_device)?;
        let mut w = Bounded {
            buf,
            len: 0,
            truncated: false,
        };
        let _ = w.write_str(ACTIVITY_STATS_HEADER);
        for row in 0..self.pe_row_grp_count {
            let m = read_pe_counter(bar0, self.row_group_counter_offset(mm, row))?;
            let wl = self.pe_aggregated_wl_cycle_cnt(bar0, nc, row)?;
            let i = read_pe_counter(bar0, self.row_group_counter_offset(idle, row))?;
            let _ = writeln!(w, "{row},{m},{wl},{i}");
        }
        Ok(ActivityStats {
            len: w.len,
            truncated: w.truncated,
        })
    }
}
