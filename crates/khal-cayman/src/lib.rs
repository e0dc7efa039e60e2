//! V3 (CAYMAN: trn2) for `khal`: the zero-sized [`Cayman`] arch type and its constants.
//!
//! V3 is also the base of V4: `khal-mariana` takes [`SCALARS`] and the trait items of
//! [`Cayman`] and changes only what V4 changes.
//!
//! ```
//! use khal::{Arch, Generation};
//! use khal_cayman::Cayman;
//! assert_eq!(Cayman::GENERATION, Generation::V3);
//! assert_eq!(Cayman::SCALARS.hbm_active_size, 24 << 30);
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

use khal::caps::{PacketCaps, RingIdErrorMasking, Supported, Unsupported};
use khal::{
    Arch, ArchError, Generation, NcLocation, NcMapTable, Platform, Product, RegistrarError,
    RegistrarInput, Registration, Rev4, Scalars, VersionWindow, nc_map_entry, register_common,
};

/// V3: trn2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cayman;

impl PacketCaps for Cayman {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    type NotificationMasks = Unsupported;
    type StrongOrdering = Supported;
}

/// The V3 product masks ring-id errors on NeuronCore engines.
impl RingIdErrorMasking for Cayman {}

/// trn2.
pub const PRODUCTS: [Product; 1] = [Product {
    pci_device_id: khal::pci_id::TRN2,
    product: "trn2",
    nd_type_suffix: "v3",
    nc_type_suffix: "v3",
    instance_suffix: "Trn2",
    device_name: "Trainium2",
}];

/// The V3 scalars (also V4's base).
pub const SCALARS: Scalars = Scalars {
    pci_host_base: 0x4000_0000_0000,
    mmap_p_offset: 0xd000_0000,
    mmap_nc_event_offset: 0x270_0000,
    mmap_nc_sema_read_offset: 0x270_1000,
    mmap_nc_sema_set_offset: 0x270_1400,
    mmap_nc_sema_incr_offset: 0x270_1800,
    mmap_nc_sema_decr_offset: 0x270_1c00,
    bar0_misc_ram_offset: 0x6c8_4000,
    port_1_base: 0x0,
    mmap_nc_size: 0x8_0400_0000,
    nc_per_device: 8,
    dice_per_device: 2,
    dev_nc_map: 0xff,
    semaphore_count: 256,
    event_count: 256,
    ts_per_device: 16,
    dma_eng_per_nc: 16,
    seng_dma_eng_per_nd: 128,
    h2d_dma_eng_per_nd: 4,
    dram_channels: 4,
    bar0_nc_stride: 0x400_0000,
    bar0_nc_base: 0xd000_0000,
    reset_poll_interval_ms: 100,
    initiate_max_wait_time_ms: 480_000,
    retry_count: 5,
    small_pool_supported: true,
    hbm_bases: &[0x0, 0x40_0000_0000, 0x8000_0000_0000, 0x8040_0000_0000],
    hbm_active_size: 0x6_0000_0000,
    bar4_hbm_stride: 0x10_0000_0000,
    fw_carveout_per_hbm: 0x100_0000,
    root_info_attr_count: 2,
    apb_bar: 0,
    axi_bar: None,
    dram_bar: 4,
    bar0_write_blocked_mailbox_words: [0x1f4, 0x1f0, 0x1fc, 0x1f8, 0x800],
    compatible_version: VersionWindow { min: 10, max: 11 },
    logical_to_physical_nc_entries: 128,
    num_beats: 2296,
    // seed 004 §2 `al_udma_init`: "CAYMAN: [m2s+0x310]=2296"
    hal_data_fifo_depth: 2296,
    ndma_retry_memcpy: false,
    reserve_max_read_axi_id: false,
    ostand_data_wr_wide: None,
    descs_per_packet_at_init: 65,
    dma_wait_per_desc_us: 2,
    dma_wait_first_slack_us: 1,
    dma_wait_following_mul: 400,
    total_dma_engines: 132,
    dma_queues_per_engine: 16,
    h2t_engine_ids: &[128, 129, 130, 131],
    nc_per_seng: 2,
    // q14 of engines with eng % 16 in {0, 1, 2, 3, 4, 7, 8}.
    nx_ring_engine_mask: 0x019f,
    udma_group_bases: &[0x8200_0000, 0x9400_0000, 0xa200_0000, 0xb400_0000],
    udma_engines_per_group: 32,
    udma_engine_stride: 0x10_0000,
    udma_h2t_bases: &[0x680_0000, 0x690_0000, 0x4680_0000, 0x4690_0000],
    host_engines_stride: 32,
    host_engines_local: &[4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31],
    top_sp_per_nc: 2,
    nq_types: 5,
    nq_per_type: 16,
    npe_neighbor_eng_ids: Some([[36, 68], [4, 100]]),
    pe_xbus_count: 9,
    pe_row_grp_count: 4,
    pe_col_grp_count: 4,
    pe_perf_reg_grp_size: 0x30,
    pe_mm_cntr_offsets: &[
        0x614_11c0,
        0x62c_11c0,
        0x654_11c0,
        0x66c_11c0,
        0x4614_11c0,
        0x462c_11c0,
        0x4654_11c0,
        0x466c_11c0,
    ],
    pe_wl_cntr_offsets: &[
        0x614_1288,
        0x62c_1288,
        0x654_1288,
        0x66c_1288,
        0x4614_1288,
        0x462c_1288,
        0x4654_1288,
        0x466c_1288,
    ],
    pe_fast_wl_cntr_offsets: &[
        0x614_1108,
        0x62c_1108,
        0x654_1108,
        0x66c_1108,
        0x4614_1108,
        0x462c_1108,
        0x4654_1108,
        0x466c_1108,
    ],
    pe_aggregated_wl_adds_normal: true,
    pe_idle_cntr_offsets: &[
        0x614_11d0,
        0x62c_11d0,
        0x654_11d0,
        0x66c_11d0,
        0x4614_11d0,
        0x462c_11d0,
        0x4654_11d0,
        0x466c_11d0,
    ],
};

impl Arch for Cayman {
    const GENERATION: Generation = Generation::V3;
    const PRODUCTS: &'static [Product] = &PRODUCTS;
    type Revision = Rev4;
    const SCALARS: Scalars = SCALARS;

    fn register(input: &RegistrarInput<'_>) -> Result<Registration, RegistrarError> {
        register_v3::<Self>(input)
    }

    /// V3's seng-swap table (patterns A/B/C/D), with the die flip (`arch-README.md`).
    fn logical_to_physical_nc(
        mapping_type: u32,
        entry: u16,
        _platform: Option<Platform>,
        die_flipped: bool,
    ) -> Result<NcLocation, ArchError> {
        nc_map_entry(NcMapTable::V3, mapping_type, entry, die_flipped)
    }
}

/// Instance names the V3 registrar classes as ultraservers.
pub const ULTRASERVER_INSTANCES: [&str; 4] = [
    "trn2p.48xlarge",
    "trn2eu.48xlarge",
    "trn2u.48xlarge",
    "trn2u-ac.24xlarge",
];
/// Instance names the V3 registrar classes as PDS.
pub const PDS_INSTANCES: [&str; 1] = ["trn2es.48xlarge"];

/// V3 platform detection: `force_userver` wins; an unreadable name is `Invalid`; then the
/// ultraserver and PDS name lists; anything else is `Std`.
pub fn detect_platform_v3(input: &RegistrarInput<'_>) -> Platform {
    if input.force_userver {
        return Platform::Ultraserver;
    }
    match input.instance_name {
        None => Platform::Invalid,
        Some(n) if ULTRASERVER_INSTANCES.contains(&n) => Platform::Ultraserver,
        Some(n) if PDS_INSTANCES.contains(&n) => Platform::Pds,
        Some(_) => Platform::Std,
    }
}

/// The V3 registrar layer, generic so that V4 can run it over its own data: the common
/// layer (product, core map) plus V3 platform detection.
pub fn register_v3<A: Arch>(input: &RegistrarInput<'_>) -> Result<Registration, RegistrarError> {
    let r = register_common::<A>(input)?;
    Ok(Registration {
        platform: Some(detect_platform_v3(input)),
        ..r
    })
}
