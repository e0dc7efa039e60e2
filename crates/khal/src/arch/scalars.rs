//! The per-arch data of `arch-scalars.tsv` and `address-map.tsv`, as one `const` struct.
//!
//! One struct (rather than dozens of associated consts) so that V4 can be written as
//! `Scalars { hbm_active_size: …, ..CAYMAN_SCALARS }`: the override list is the struct
//! literal, and everything else is V3's by construction.

/// Runtime ABI window reported to user space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VersionWindow {
    /// Oldest compatible runtime version.
    pub min: u32,
    /// Newest compatible runtime version.
    pub max: u32,
}

// The struct and its listing (`Scalars::fields`, `FIELD_COUNT`) from this one field list;
// after each type, how the field prints.
scalars! {
    /// Per-arch scalars (see `arch-scalars.tsv`; units in the field docs).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Scalars {
        // --- address_map ---
        /// Bits OR-ed into host physical addresses so device DMA targets host memory.
        pub pci_host_base: u64 => Hex,
        /// Set but never read by the driver (dead); kept for completeness.
        pub mmap_p_offset: u64 => Hex,
        /// Offset of the event array inside a NeuronCore register window.
        pub mmap_nc_event_offset: u64 => Hex,
        /// Semaphore read window inside an NC window (4 bytes per semaphore).
        pub mmap_nc_sema_read_offset: u64 => Hex,
        /// Semaphore set window.
        pub mmap_nc_sema_set_offset: u64 => Hex,
        /// Semaphore increment window.
        pub mmap_nc_sema_incr_offset: u64 => Hex,
        /// Semaphore decrement window.
        pub mmap_nc_sema_decr_offset: u64 => Hex,
        /// BAR0 offset of the firmware mailbox (misc RAM).
        pub bar0_misc_ram_offset: u64 => Hex,
        /// Bits OR-ed into DMA ring addresses.
        pub port_1_base: u64 => Hex,
        /// Size of one NC mappable region (set, never read by the driver).
        pub mmap_nc_size: u64 => Hex,
        /// NeuronCores per device.
        pub nc_per_device: u8 => Dec,
        /// Dies per device.
        pub dice_per_device: u8 => Dec,
        /// Bitmap of usable cores (hardware default).
        pub dev_nc_map: u32 => Hex,
        /// Semaphores per NC.
        pub semaphore_count: u16 => Dec,
        /// Events per NC.
        pub event_count: u16 => Dec,
        /// TOP_SP instances per device.
        pub ts_per_device: u8 => Dec,
        /// DMA engines per NC.
        pub dma_eng_per_nc: u8 => Dec,
        /// Core-owned (SENG) DMA engines per device, H2T engines excluded
        /// (`seng_dma_eng_per_nd`, the 2.26.5.0 name of the former `dma_eng_per_nd`).
        pub seng_dma_eng_per_nd: u16 => Dec,
        /// Host-facing (H2T) DMA engines per device (`h2d_dma_eng_per_nd`, new in 2.26.5.0: V2 2,
        /// V3/V4 4; set by the kernel's registrars, read by no kernel code).
        pub h2d_dma_eng_per_nd: u8 => Dec,
        /// HBM channels.
        pub dram_channels: u8 => Dec,
        /// BAR0 stride of the NC windows (also the NC window size).
        pub bar0_nc_stride: u64 => Hex,
        /// BAR0 offset of NC 0's window (semaphore base of NC 0).
        pub bar0_nc_base: u64 => Hex,
        // --- reset ---
        /// Milliseconds between polls for the firmware reset acknowledgement.
        pub reset_poll_interval_ms: u32 => Dec,
        /// Overall deadline (ms) for the firmware to acknowledge a reset request.
        pub initiate_max_wait_time_ms: u32 => Dec,
        /// Polls in wait-for-reset-completion (hardware value).
        pub retry_count: u32 => Dec,
        // --- mpset / hbm ---
        /// A small-allocation pool may be created per channel.
        pub small_pool_supported: bool => Bool,
        /// Device address of each HBM channel.
        pub hbm_bases: &'static [u64] => HexList,
        /// Usable bytes per HBM stack (V2 16 GiB, V3 24 GiB, V4 36 GiB).
        pub hbm_active_size: u64 => Hex,
        /// BAR4 offset step between HBM channel windows.
        pub bar4_hbm_stride: u64 => Hex,
        /// Bytes reserved for firmware at the start of each channel.
        pub fw_carveout_per_hbm: u64 => Hex,
        // --- sysfs / pci / cdev ---
        /// Root info attributes.
        pub root_info_attr_count: u8 => Dec,
        /// BAR index of the register (APB) space.
        pub apb_bar: u8 => Dec,
        /// BAR index of an AXI window (`None`: unused).
        pub axi_bar: Option<u8> => OptDec,
        /// BAR index of device DRAM.
        pub dram_bar: u8 => Dec,
        /// Mailbox-relative words user space may not write (added to `bar0_misc_ram_offset`).
        pub bar0_write_blocked_mailbox_words: [u64; 5] => HexWords,
        /// Runtime ABI window.
        pub compatible_version: VersionWindow => Window,
        /// Entries of the logical-to-physical NC map (0: not supported).
        pub logical_to_physical_nc_entries: u16 => Dec,
        // --- udma / ndma ---
        /// M2S read data FIFO depth in 256-bit beats (`m2s_rd.data_cfg`) as the **kernel**
        /// programs it (`arch-scalars.tsv` `num_beats`: V2 1024, V3 and V4 2296).
        pub num_beats: u16 => Dec,
        /// M2S read data FIFO depth as the **userspace HAL** programs it (seed 004 §2
        /// `al_udma_init`: `[m2s+0x310]` = 2296 on CAYMAN, 4088 on MARIANA, 0x400 otherwise).
        /// V4 differs from the kernel's value here: an override in `khal-mariana`.
        pub hal_data_fifo_depth: u16 => Dec,
        /// Retry a memcpy that timed out inside a core-reset window (V2 hardware issue).
        pub ndma_retry_memcpy: bool => Bool,
        /// Engine init reserves the max read AXI id (smaller outstanding limits).
        pub reserve_max_read_axi_id: bool => Bool,
        /// Wide outstanding-data-write limit programmed at engine init (`None`: the register is
        /// not touched; V4 only).
        pub ostand_data_wr_wide: Option<u16> => OptDec,
        /// Max descriptors per packet the kernel product passes to engine init (64 + 1
        /// metadata, on every generation). [`EngineParams::for_arch`] defaults to the arch's
        /// packet limit instead (V2: 128); this value reproduces the kernel's sequence through
        /// `with_max_descs_per_packet`.
        ///
        /// [`EngineParams::for_arch`]: crate::udma::EngineParams::for_arch
        pub descs_per_packet_at_init: u8 => Dec,
        /// Microseconds per descriptor in the DMA completion wait estimate.
        pub dma_wait_per_desc_us: u32 => Dec,
        /// Subtracted from the estimate for the first synchronous wait.
        pub dma_wait_first_slack_us: u32 => Dec,
        /// Multiplier of the estimate for the following waits (before ×100).
        pub dma_wait_following_mul: u32 => Dec,
        /// Total DMA engines per device (core engines + H2T).
        pub total_dma_engines: u16 => Dec,
        /// DMA queues per engine.
        pub dma_queues_per_engine: u8 => Dec,
        /// Top-level engine used for host transfers, per SENG (index = nc / nc_per_seng).
        pub h2t_engine_ids: &'static [u16] => DecList16,
        /// Cores sharing one H2T engine.
        pub nc_per_seng: u8 => Dec,
        /// Per-`eng % 16` bitmap of engines whose queue 14 is reserved for NX cores.
        pub nx_ring_engine_mask: u16 => Hex,
        /// BAR0 offsets of the UDMA blocks of engine groups (see `udma_engines_per_group`).
        pub udma_group_bases: &'static [u64] => HexList,
        /// Engines per entry of `udma_group_bases`.
        pub udma_engines_per_group: u16 => Dec,
        /// BAR0 stride between engines of one group.
        pub udma_engine_stride: u64 => Hex,
        /// BAR0 offsets of the UDMA blocks of the H2T engines, in `h2t_engine_ids` order.
        pub udma_h2t_bases: &'static [u64] => HexList,
        /// DMA engines with host connectivity for HBM channel `h`: `h * stride + local[i]`.
        pub host_engines_stride: u16 => Hex,
        /// Local engine indices (inside a channel's group) with host connectivity.
        pub host_engines_local: &'static [u8] => DecList8,
        /// Cores whose engines a reset/notification charges to one TOP_SP.
        pub top_sp_per_nc: u8 => Dec,
        /// Notification queue types.
        pub nq_types: u8 => Dec,
        /// Notification queues per type.
        pub nq_per_type: u8 => Dec,
        /// DMA engine ids used to talk to the left/right neighbour device (`None` on V2).
        pub npe_neighbor_eng_ids: Option<[[u16; 2]; 2]> => EnginePairs,
        // --- tpb ---
        /// Counter groups per row group (stride multiplier in row-group offsets).
        pub pe_xbus_count: u32 => Dec,
        /// PE-array row groups reported.
        pub pe_row_grp_count: u32 => Dec,
        /// PE-array column groups summed for fast weight-load.
        pub pe_col_grp_count: u32 => Dec,
        /// Bytes per perf-counter group.
        pub pe_perf_reg_grp_size: u32 => Hex,
        /// BAR0 offset of each core's matmul-active counter.
        pub pe_mm_cntr_offsets: &'static [u64] => HexList,
        /// BAR0 offset of each core's weight-load-active counter.
        pub pe_wl_cntr_offsets: &'static [u64] => HexList,
        /// BAR0 offset of each core's fast weight-load counter.
        pub pe_fast_wl_cntr_offsets: &'static [u64] => HexList,
        /// Whether `pe_get_aggregated_wl_cycle_cnt` adds the normal weight-load counter to the
        /// fast weight-load sum (`arch-callbacks.tsv`: V2 "fast-WL sum only (normal WL counters
        /// already include fast WL)", V3 "normal WL counter + fast-WL sum"; V4 inherits V3).
        pub pe_aggregated_wl_adds_normal: bool => Bool,
        /// BAR0 offset of each core's idle counter.
        pub pe_idle_cntr_offsets: &'static [u64] => HexList,
    }
}
