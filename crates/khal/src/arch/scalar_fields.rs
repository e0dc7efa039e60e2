//! A structured listing of [`Scalars`]: every field as a (name, value) pair, so that
//! tools print and tests compare by name instead of parsing `Debug` text.
//!
//! [`Scalars::fields`] destructures the struct without `..`: a field added to [`Scalars`]
//! and not listed here does not compile.

use core::fmt;

use super::{Scalars, VersionWindow};

/// One scalar's value, with how it prints (addresses, sizes and masks in hex).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarValue {
    /// A count, id or time, printed in decimal.
    Dec(u64),
    /// An address, size, stride or mask, printed in hex.
    Hex(u64),
    /// A flag.
    Bool(bool),
    /// An optional count (`-` when absent).
    OptDec(Option<u64>),
    /// A list of addresses.
    HexList(&'static [u64]),
    /// A list of 16-bit ids.
    DecList16(&'static [u16]),
    /// A list of 8-bit ids.
    DecList8(&'static [u8]),
    /// The five mailbox words.
    HexWords([u64; 5]),
    /// A version window.
    Window(VersionWindow),
    /// Neighbour engine pairs (`-` when absent).
    EnginePairs(Option<[[u16; 2]; 2]>),
}

/// One named scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScalarField {
    /// The [`Scalars`] field name.
    pub name: &'static str,
    /// Its value.
    pub value: ScalarValue,
}

fn list<T: fmt::Display + fmt::LowerHex>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
    hex: bool,
) -> fmt::Result {
    f.write_str("[")?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if hex {
            write!(f, "{x:#x}")?;
        } else {
            write!(f, "{x}")?;
        }
    }
    f.write_str("]")
}

impl fmt::Display for ScalarValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScalarValue::Dec(v) => write!(f, "{v}"),
            ScalarValue::Hex(v) => write!(f, "{v:#x}"),
            ScalarValue::Bool(b) => write!(f, "{b}"),
            ScalarValue::OptDec(Some(v)) => write!(f, "{v}"),
            ScalarValue::OptDec(None) | ScalarValue::EnginePairs(None) => f.write_str("-"),
            ScalarValue::HexList(l) => list(f, l, true),
            ScalarValue::DecList16(l) => list(f, l, false),
            ScalarValue::DecList8(l) => list(f, l, false),
            ScalarValue::HexWords(w) => list(f, &w, true),
            ScalarValue::Window(w) => write!(f, "{}..={}", w.min, w.max),
            ScalarValue::EnginePairs(Some([[a, b], [c, d]])) => {
                write!(f, "[[{a}, {b}], [{c}, {d}]]")
            }
        }
    }
}

impl Scalars {
    /// Number of fields of [`Scalars`].
    pub const FIELD_COUNT: usize = 70;

    /// Every field, in declaration order.
    #[allow(clippy::cast_lossless)]
    pub const fn fields(&self) -> [ScalarField; Self::FIELD_COUNT] {
        let Scalars {
            pci_host_base,
            mmap_p_offset,
            mmap_nc_event_offset,
            mmap_nc_sema_read_offset,
            mmap_nc_sema_set_offset,
            mmap_nc_sema_incr_offset,
            mmap_nc_sema_decr_offset,
            bar0_misc_ram_offset,
            port_1_base,
            mmap_nc_size,
            nc_per_device,
            dice_per_device,
            dev_nc_map,
            semaphore_count,
            event_count,
            ts_per_device,
            dma_eng_per_nc,
            seng_dma_eng_per_nd,
            h2d_dma_eng_per_nd,
            dram_channels,
            bar0_nc_stride,
            bar0_nc_base,
            reset_poll_interval_ms,
            initiate_max_wait_time_ms,
            retry_count,
            small_pool_supported,
            hbm_bases,
            hbm_active_size,
            bar4_hbm_stride,
            fw_carveout_per_hbm,
            root_info_attr_count,
            apb_bar,
            axi_bar,
            dram_bar,
            bar0_write_blocked_mailbox_words,
            compatible_version,
            logical_to_physical_nc_entries,
            num_beats,
            hal_data_fifo_depth,
            ndma_retry_memcpy,
            reserve_max_read_axi_id,
            ostand_data_wr_wide,
            descs_per_packet_at_init,
            dma_wait_per_desc_us,
            dma_wait_first_slack_us,
            dma_wait_following_mul,
            total_dma_engines,
            dma_queues_per_engine,
            h2t_engine_ids,
            nc_per_seng,
            nx_ring_engine_mask,
            udma_group_bases,
            udma_engines_per_group,
            udma_engine_stride,
            udma_h2t_bases,
            host_engines_stride,
            host_engines_local,
            top_sp_per_nc,
            nq_types,
            nq_per_type,
            npe_neighbor_eng_ids,
            pe_xbus_count,
            pe_row_grp_count,
            pe_col_grp_count,
            pe_perf_reg_grp_size,
            pe_mm_cntr_offsets,
            pe_wl_cntr_offsets,
            pe_fast_wl_cntr_offsets,
            pe_aggregated_wl_adds_normal,
            pe_idle_cntr_offsets,
        } = *self;
        [
            ScalarField {
                name: "pci_host_base",
                value: ScalarValue::Hex(pci_host_base),
            },
            ScalarField {
                name: "mmap_p_offset",
                value: ScalarValue::Hex(mmap_p_offset),
            },
            ScalarField {
                name: "mmap_nc_event_offset",
                value: ScalarValue::Hex(mmap_nc_event_offset),
            },
            ScalarField {
                name: "mmap_nc_sema_read_offset",
                value: ScalarValue::Hex(mmap_nc_sema_read_offset),
            },
            ScalarField {
                name: "mmap_nc_sema_set_offset",
                value: ScalarValue::Hex(mmap_nc_sema_set_offset),
            },
            ScalarField {
                name: "mmap_nc_sema_incr_offset",
                value: ScalarValue::Hex(mmap_nc_sema_incr_offset),
            },
            ScalarField {
                name: "mmap_nc_sema_decr_offset",
                value: ScalarValue::Hex(mmap_nc_sema_decr_offset),
            },
            ScalarField {
                name: "bar0_misc_ram_offset",
                value: ScalarValue::Hex(bar0_misc_ram_offset),
            },
            ScalarField {
                name: "port_1_base",
                value: ScalarValue::Hex(port_1_base),
            },
            ScalarField {
                name: "mmap_nc_size",
                value: ScalarValue::Hex(mmap_nc_size),
            },
            ScalarField {
                name: "nc_per_device",
                value: ScalarValue::Dec(nc_per_device as u64),
            },
            ScalarField {
                name: "dice_per_device",
                value: ScalarValue::Dec(dice_per_device as u64),
            },
            ScalarField {
                name: "dev_nc_map",
                value: ScalarValue::Hex(dev_nc_map as u64),
            },
            ScalarField {
                name: "semaphore_count",
                value: ScalarValue::Dec(semaphore_count as u64),
            },
            ScalarField {
                name: "event_count",
                value: ScalarValue::Dec(event_count as u64),
            },
            ScalarField {
                name: "ts_per_device",
                value: ScalarValue::Dec(ts_per_device as u64),
            },
            ScalarField {
                name: "dma_eng_per_nc",
                value: ScalarValue::Dec(dma_eng_per_nc as u64),
            },
            ScalarField {
                name: "seng_dma_eng_per_nd",
                value: ScalarValue::Dec(seng_dma_eng_per_nd as u64),
            },
            ScalarField {
                name: "h2d_dma_eng_per_nd",
                value: ScalarValue::Dec(h2d_dma_eng_per_nd as u64),
            },
            ScalarField {
                name: "dram_channels",
                value: ScalarValue::Dec(dram_channels as u64),
            },
            ScalarField {
                name: "bar0_nc_stride",
                value: ScalarValue::Hex(bar0_nc_stride),
            },
            ScalarField {
                name: "bar0_nc_base",
                value: ScalarValue::Hex(bar0_nc_base),
            },
            ScalarField {
                name: "reset_poll_interval_ms",
                value: ScalarValue::Dec(reset_poll_interval_ms as u64),
            },
            ScalarField {
                name: "initiate_max_wait_time_ms",
                value: ScalarValue::Dec(initiate_max_wait_time_ms as u64),
            },
            ScalarField {
                name: "retry_count",
                value: ScalarValue::Dec(retry_count as u64),
            },
            ScalarField {
                name: "small_pool_supported",
                value: ScalarValue::Bool(small_pool_supported),
            },
            ScalarField {
                name: "hbm_bases",
                value: ScalarValue::HexList(hbm_bases),
            },
            ScalarField {
                name: "hbm_active_size",
                value: ScalarValue::Hex(hbm_active_size),
            },
            ScalarField {
                name: "bar4_hbm_stride",
                value: ScalarValue::Hex(bar4_hbm_stride),
            },
            ScalarField {
                name: "fw_carveout_per_hbm",
                value: ScalarValue::Hex(fw_carveout_per_hbm),
            },
            ScalarField {
                name: "root_info_attr_count",
                value: ScalarValue::Dec(root_info_attr_count as u64),
            },
            ScalarField {
                name: "apb_bar",
                value: ScalarValue::Dec(apb_bar as u64),
            },
            ScalarField {
                name: "axi_bar",
                value: ScalarValue::OptDec(match axi_bar {
                    Some(x) => Some(x as u64),
                    None => None,
                }),
            },
            ScalarField {
                name: "dram_bar",
                value: ScalarValue::Dec(dram_bar as u64),
            },
            ScalarField {
                name: "bar0_write_blocked_mailbox_words",
                value: ScalarValue::HexWords(bar0_write_blocked_mailbox_words),
            },
            ScalarField {
                name: "compatible_version",
                value: ScalarValue::Window(compatible_version),
            },
            ScalarField {
                name: "logical_to_physical_nc_entries",
                value: ScalarValue::Dec(logical_to_physical_nc_entries as u64),
            },
            ScalarField {
                name: "num_beats",
                value: ScalarValue::Dec(num_beats as u64),
            },
            ScalarField {
                name: "hal_data_fifo_depth",
                value: ScalarValue::Dec(hal_data_fifo_depth as u64),
            },
            ScalarField {
                name: "ndma_retry_memcpy",
                value: ScalarValue::Bool(ndma_retry_memcpy),
            },
            ScalarField {
                name: "reserve_max_read_axi_id",
                value: ScalarValue::Bool(reserve_max_read_axi_id),
            },
            ScalarField {
                name: "ostand_data_wr_wide",
                value: ScalarValue::OptDec(match ostand_data_wr_wide {
                    Some(x) => Some(x as u64),
                    None => None,
                }),
            },
            ScalarField {
                name: "descs_per_packet_at_init",
                value: ScalarValue::Dec(descs_per_packet_at_init as u64),
            },
            ScalarField {
                name: "dma_wait_per_desc_us",
                value: ScalarValue::Dec(dma_wait_per_desc_us as u64),
            },
            ScalarField {
                name: "dma_wait_first_slack_us",
                value: ScalarValue::Dec(dma_wait_first_slack_us as u64),
            },
            ScalarField {
                name: "dma_wait_following_mul",
                value: ScalarValue::Dec(dma_wait_following_mul as u64),
            },
            ScalarField {
                name: "total_dma_engines",
                value: ScalarValue::Dec(total_dma_engines as u64),
            },
            ScalarField {
                name: "dma_queues_per_engine",
                value: ScalarValue::Dec(dma_queues_per_engine as u64),
            },
            ScalarField {
                name: "h2t_engine_ids",
                value: ScalarValue::DecList16(h2t_engine_ids),
            },
            ScalarField {
                name: "nc_per_seng",
                value: ScalarValue::Dec(nc_per_seng as u64),
            },
            ScalarField {
                name: "nx_ring_engine_mask",
                value: ScalarValue::Hex(nx_ring_engine_mask as u64),
            },
            ScalarField {
                name: "udma_group_bases",
                value: ScalarValue::HexList(udma_group_bases),
            },
            ScalarField {
                name: "udma_engines_per_group",
                value: ScalarValue::Dec(udma_engines_per_group as u64),
            },
            ScalarField {
                name: "udma_engine_stride",
                value: ScalarValue::Hex(udma_engine_stride),
            },
            ScalarField {
                name: "udma_h2t_bases",
                value: ScalarValue::HexList(udma_h2t_bases),
            },
            ScalarField {
                name: "host_engines_stride",
                value: ScalarValue::Hex(host_engines_stride as u64),
            },
            ScalarField {
                name: "host_engines_local",
                value: ScalarValue::DecList8(host_engines_local),
            },
            ScalarField {
                name: "top_sp_per_nc",
                value: ScalarValue::Dec(top_sp_per_nc as u64),
            },
            ScalarField {
                name: "nq_types",
                value: ScalarValue::Dec(nq_types as u64),
            },
            ScalarField {
                name: "nq_per_type",
                value: ScalarValue::Dec(nq_per_type as u64),
            },
            ScalarField {
                name: "npe_neighbor_eng_ids",
                value: ScalarValue::EnginePairs(npe_neighbor_eng_ids),
            },
            ScalarField {
                name: "pe_xbus_count",
                value: ScalarValue::Dec(pe_xbus_count as u64),
            },
            ScalarField {
                name: "pe_row_grp_count",
                value: ScalarValue::Dec(pe_row_grp_count as u64),
            },
            ScalarField {
                name: "pe_col_grp_count",
                value: ScalarValue::Dec(pe_col_grp_count as u64),
            },
            ScalarField {
                name: "pe_perf_reg_grp_size",
                value: ScalarValue::Hex(pe_perf_reg_grp_size as u64),
            },
            ScalarField {
                name: "pe_mm_cntr_offsets",
                value: ScalarValue::HexList(pe_mm_cntr_offsets),
            },
            ScalarField {
                name: "pe_wl_cntr_offsets",
                value: ScalarValue::HexList(pe_wl_cntr_offsets),
            },
            ScalarField {
                name: "pe_fast_wl_cntr_offsets",
                value: ScalarValue::HexList(pe_fast_wl_cntr_offsets),
            },
            ScalarField {
                name: "pe_aggregated_wl_adds_normal",
                value: ScalarValue::Bool(pe_aggregated_wl_adds_normal),
            },
            ScalarField {
                name: "pe_idle_cntr_offsets",
                value: ScalarValue::HexList(pe_idle_cntr_offsets),
            },
        ]
    }

    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<ScalarValue> {
        self.fields()
            .into_iter()
            .find(|f| f.name == name)
            .map(|f| f.value)
    }
}
