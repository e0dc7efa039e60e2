//! V2 (SUNDA: trn1, inf2) for `khal`: the zero-sized [`Sunda`] arch type and its constants.
//!
//! Every number comes from `reference/arch-scalars.tsv`, `arch-ids.tsv`,
//! `arch-callbacks.tsv` (formulas turned into data) and `address-map.tsv`; the crate's tests
//! re-read those tables and compare.
//!
//! V2 has no strong-ordered RX writes and no descriptor notification masks
//! ([`Unsupported`] both), so it is neither [`StrongOrder`](khal::caps::StrongOrder) nor
//! [`NotificationMask`](khal::caps::NotificationMask): APIs that need them do not compile
//! for `Sunda`. Its IOFIC policy values are its UDMA revision's ([`Rev4`]). Of the product's post-init engine steps it takes the AXI-error one
//! ([`AxiErrorAborts`]), not V3/V4's ring-id error masking
//! ([`RingIdErrorMasking`](khal::caps::RingIdErrorMasking)).
//!
//! ```
//! use khal::{Arch, Generation};
//! use khal_sunda::Sunda;
//! assert_eq!(Sunda::GENERATION, Generation::V2);
//! assert_eq!(Sunda::SCALARS.num_beats, 1024);
//! ```
#![no_std]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::cast_possible_truncation
    )
)]

use khal::caps::{AxiErrorAborts, PacketCaps, Unsupported};
use khal::{Arch, Generation, Product, Rev4, Scalars, VersionWindow};

/// V2: trn1 and inf2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sunda;

impl PacketCaps for Sunda {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x80;
    type NotificationMasks = Unsupported;
    type StrongOrdering = Unsupported;
}

/// The V2 product arms AXI error detection and AXI-error aborts after engine init.
impl AxiErrorAborts for Sunda {}

/// trn1 and inf2 (inf2 reports device-type suffix "v3" although it is V2).
pub const PRODUCTS: [Product; 2] = [
    Product {
        pci_device_id: khal::pci_id::TRN1,
        product: "trn1",
        nd_type_suffix: "v2",
        nc_type_suffix: "v2",
        instance_suffix: "Trn1",
        device_name: "Trainium1",
    },
    Product {
        pci_device_id: khal::pci_id::INF2,
        product: "inf2",
        nd_type_suffix: "v3",
        nc_type_suffix: "v2",
        instance_suffix: "Inf2",
        device_name: "Inferentia2",
    },
];

/// The V2 scalars.
pub const SCALARS: Scalars = Scalars {
    pci_host_base: 0x1000_0000_0000,
    mmap_p_offset: 0x0,
    mmap_nc_event_offset: 0x270_0000,
    mmap_nc_sema_read_offset: 0x270_1000,
    mmap_nc_sema_set_offset: 0x270_1400,
    mmap_nc_sema_incr_offset: 0x270_1800,
    mmap_nc_sema_decr_offset: 0x270_1c00,
    bar0_misc_ram_offset: 0x30fa_0000,
    port_1_base: 0x0,
    mmap_nc_size: 0x400_0000,
    nc_per_device: 2,
    dice_per_device: 1,
    dev_nc_map: 0x3,
    semaphore_count: 256,
    event_count: 256,
    ts_per_device: 6,
    dma_eng_per_nc: 16,
    seng_dma_eng_per_nd: 32,
    h2d_dma_eng_per_nd: 2,
    dram_channels: 2,
    bar0_nc_stride: 0x400_0000,
    bar0_nc_base: 0x0,
    reset_poll_interval_ms: 100,
    initiate_max_wait_time_ms: 120_000,
    retry_count: 5,
    small_pool_supported: true,
    hbm_bases: &[0x0, 0x10_0000_0000],
    hbm_active_size: 0x4_0000_0000,
    bar4_hbm_stride: 0x4_0000_0000,
    fw_carveout_per_hbm: 0x100_0000,
    root_info_attr_count: 2,
    apb_bar: 0,
    axi_bar: None,
    dram_bar: 4,
    bar0_write_blocked_mailbox_words: [0x1f4, 0x1f0, 0x1fc, 0x1f8, 0x800],
    compatible_version: VersionWindow { min: 5, max: 7 },
    logical_to_physical_nc_entries: 0,
    num_beats: 1024,
    // seed 004 §2 `al_udma_init`: "else: 0x400/0x100"
    hal_data_fifo_depth: 0x400,
    ndma_retry_memcpy: true,
    reserve_max_read_axi_id: true,
    ostand_data_wr_wide: None,
    descs_per_packet_at_init: 65,
    dma_wait_per_desc_us: 4,
    dma_wait_first_slack_us: 3,
    dma_wait_following_mul: 100,
    total_dma_engines: 34,
    dma_queues_per_engine: 16,
    h2t_engine_ids: &[32, 33],
    nc_per_seng: 1,
    // q14 of engines with eng % 16 < 11 (5 TPB engines + 6 TOP_SPs).
    nx_ring_engine_mask: 0x07ff,
    udma_group_bases: &[0x3000_0000, 0x3070_0000],
    udma_engines_per_group: 16,
    udma_engine_stride: 0x4_0000,
    udma_h2t_bases: &[0x3060_0000, 0x30d0_0000],
    host_engines_stride: 16,
    host_engines_local: &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    top_sp_per_nc: 3,
    nq_types: 6,
    nq_per_type: 16,
    npe_neighbor_eng_ids: None,
    pe_xbus_count: 5,
    pe_row_grp_count: 4,
    pe_col_grp_count: 4,
    pe_perf_reg_grp_size: 0x40,
    pe_mm_cntr_offsets: &[0x305b_1200, 0x30cb_1200],
    pe_wl_cntr_offsets: &[0x305b_1148, 0x30cb_1148],
    pe_fast_wl_cntr_offsets: &[0x305b_1108, 0x30cb_1108],
    pe_aggregated_wl_adds_normal: false,
    pe_idle_cntr_offsets: &[0x305b_1210, 0x30cb_1210],
};

impl Arch for Sunda {
    const GENERATION: Generation = Generation::V2;
    const PRODUCTS: &'static [Product] = &PRODUCTS;
    type Revision = Rev4;
    const SCALARS: Scalars = SCALARS;
}
