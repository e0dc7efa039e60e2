//! V4 (MARIANA: trn3) for `khal`: [`Mariana`] = V3 ([`khal_cayman::Cayman`]) plus overrides.
//!
//! This crate holds only what V4 changes; every other item is taken from `khal-cayman` by
//! name (`..khal_cayman::SCALARS`, `<Cayman as …>::ITEM`), never copied.
//!
//! ## The override list
//!
//! From the kernel driver 2.26.5.0 (`arch-callbacks.tsv`, `arch-scalars.tsv`: 59 callback
//! slots, of which V4 replaces 3, or 4 on a PDS platform, plus 4 data members and the sysfs
//! strings) and from the
//! userspace HAL issues:
//!
//! | item | V3 | V4 | why |
//! |---|---|---|---|
//! | `GENERATION`, `PRODUCTS` (ids 0x7564/0x7565, sysfs "v4"/"v4"/"Trn3"/"Trainium3") | V3, trn2 | V4, trn3 | identity |
//! | `SCALARS.hbm_active_size` | 24 GiB | 36 GiB | the one value `v4/address_map.h` changes; it is what two of the kernel's three overridden callbacks (`mpset_set_dram_and_mpset_info`, `mmap_get_bar4_offset`) and two overridden tables (`dm_mmap_special`, `ncdev_mem_regions`) embed, so here they are one data override |
//! | `SCALARS.npe_neighbor_eng_ids` | {{36,68},{4,100}} | {{40,72},{8,104}} | data member override |
//! | `SCALARS.hal_data_fifo_depth` | 2296 | 4088 | userspace HAL `al_udma_init` `[m2s+0x310]` (seed 004 §2); the kernel keeps 2296 (`num_beats`) |
//! | `SCALARS.ostand_data_wr_wide` | none | 256 | the V4-only `axi_s2m.ostand_cfg_wr_2` write at engine init (common UDMA code outside the kernel HAL) |
//! | `TTT_DEFAULT_ON_NORMAL` (+ `TargetTranslationTable`) | no | yes | userspace: `al_udma_state_set_wait` runs `al_udma_ttt_default_config` on NORMAL, MARIANA only (seed 004 §2) |
//! | `PacketCaps::NotificationMasks` (hence `HAS_NOTIFICATION_MASK` and `NotificationMask`) | `Unsupported` | `Supported` | userspace: notification masks are V4-only |
//! | `Arch::register` (platform detection) | ultraserver/PDS lists, `force_userver` | PDS list + 14-char prefix; `trn3p.48xlarge*` is ULTRASERVER (2.26.5.0) | the kernel V4 registrar re-detects `platform_type`; here it composes V3's layer with `?` |
//! | `Arch::logical_to_physical_nc` | V3 table, die flip | PDS: own table (A even, B odd), no die flip; else V3's | `ncdev_logical_to_physical_nc_map_v4` (2.26.5.0) |
//!
//! Kernel items V4 changes that this crate does not model: the `get_device_id` routing-id
//! skip on `trn3pd98.3xlarge` (firmware polling, not a constant); the clock-divider value
//! (no value in the reference).
//! V4 takes V3's strong-ordering capability by name (`<Cayman as PacketCaps>::StrongOrdering`,
//! so [`StrongOrder`](khal::caps::StrongOrder) follows), and its IOFIC policy values with
//! V3's UDMA revision type. The product marker it shares with V3, [`RingIdErrorMasking`], is
//! restated as an empty `impl` (a marker cannot be inherited from another type); it is not an
//! override, and the override test checks that V4 has exactly V3's markers plus
//! `NotificationMask`.
//! The V4 override test (`tests/overrides.rs`) enumerates exactly the rows above and checks
//! that every other item equals V3's.
//!
//! ```
//! use khal::Arch;
//! use khal_cayman::Cayman;
//! use khal_mariana::Mariana;
//! assert_eq!(Mariana::SCALARS.hbm_active_size, 36 << 30);
//! assert_eq!(Mariana::SCALARS.num_beats, Cayman::SCALARS.num_beats); // inherited
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

use khal::caps::{PacketCaps, RingIdErrorMasking, Supported, TargetTranslationTable};
use khal::{
    Arch, ArchError, Generation, NcLocation, Platform, Product, RegistrarError, RegistrarInput,
    Registration, Scalars, nc_map_entry, v4_table,
};
use khal_cayman::Cayman;

/// V4: trn3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mariana;

impl PacketCaps for Mariana {
    const MAX_TX_DESCS_PER_PACKET: u32 = <Cayman as PacketCaps>::MAX_TX_DESCS_PER_PACKET;
    /// Override: descriptor notification masks exist from V4 on.
    type NotificationMasks = Supported;
    type StrongOrdering = <Cayman as PacketCaps>::StrongOrdering;
}

/// Inherited from V3 (the product runs V3's ring-id masking on V4).
impl RingIdErrorMasking for Mariana {}
/// Override: the userspace HAL runs the TTT default configuration on NORMAL (seed 004 §2,
/// "MARIANA-only").
impl TargetTranslationTable for Mariana {}

/// The marker above and `Arch::TTT_DEFAULT_ON_NORMAL` state one fact (seed 004 §2: the TTT
/// default configuration runs on NORMAL, "MARIANA-only"): both must hold, checked here at
/// compile time rather than at the first use of a TTT method.
const _: () = {
    const fn has_ttt_marker<A: TargetTranslationTable>() -> bool
    where
        <A as Arch>::Revision: khal::TttRevision,
    {
        true
    }
    assert!(has_ttt_marker::<Mariana>() && <Mariana as Arch>::TTT_DEFAULT_ON_NORMAL);
};

/// trn3 (two PCI ids, treated alike everywhere).
pub const PRODUCTS: [Product; 2] = [
    Product {
        pci_device_id: khal::pci_id::TRN3,
        product: "trn3",
        nd_type_suffix: "v4",
        nc_type_suffix: "v4",
        instance_suffix: "Trn3",
        device_name: "Trainium3",
    },
    Product {
        pci_device_id: khal::pci_id::TRN3_B,
        product: "trn3",
        nd_type_suffix: "v4",
        nc_type_suffix: "v4",
        instance_suffix: "Trn3",
        device_name: "Trainium3",
    },
];

/// The V4 scalars: V3's with the overrides of the table in the crate docs.
pub const SCALARS: Scalars = Scalars {
    hbm_active_size: 0x9_0000_0000,
    npe_neighbor_eng_ids: Some([[40, 72], [8, 104]]),
    ostand_data_wr_wide: Some(256),
    // Seed 004 §2 `al_udma_init`: "MARIANA: [m2s+0x310]=4088" (V3: 2296).
    hal_data_fifo_depth: 4088,
    ..khal_cayman::SCALARS
};

impl Arch for Mariana {
    const GENERATION: Generation = Generation::V4;
    const PRODUCTS: &'static [Product] = &PRODUCTS;
    type Revision = <Cayman as Arch>::Revision;
    const SCALARS: Scalars = SCALARS;
    /// Override: seed 004 §2 `al_udma_ttt_default_config` runs on MARIANA's NORMAL transition.
    const TTT_DEFAULT_ON_NORMAL: bool = true;

    /// Override: V3's registrar (run over V4's data; its error is returned, not swallowed),
    /// then V4's own platform rules.
    fn register(input: &RegistrarInput<'_>) -> Result<Registration, RegistrarError> {
        let v3 = khal_cayman::register_v3::<Self>(input)?;
        Ok(Registration {
            platform: Some(detect_platform_v4(input)),
            ..v3
        })
    }

    /// Override (2.26.5.0): on a PDS platform V4's own table (A even, B odd, no die flip);
    /// on every other platform V3's, die flip included.
    fn logical_to_physical_nc(
        mapping_type: u32,
        entry: u16,
        platform: Option<Platform>,
        die_flipped: bool,
    ) -> Result<NcLocation, ArchError> {
        nc_map_entry(v4_table(platform), mapping_type, entry, die_flipped)
    }
}

/// Instance names the V4 registrar classes as PDS.
pub const PDS_INSTANCES: [&str; 1] = ["trn3s.48xlarge"];
/// Instance-name prefix (the vendor compares 14 characters) also classed as PDS.
pub const PDS_PREFIX: &str = "trn3-dev0.48xl";
/// Instance-name prefix classed as ULTRASERVER (new in 2.26.5.0; the V4 registrar then
/// starts pod election, and the inherited V3 cleanup hook stops it).
pub const ULTRASERVER_PREFIX: &str = "trn3p.48xlarge";

/// V4 platform detection (2.26.5.0): unreadable name is `Invalid`; the PDS list or prefix is
/// `Pds`; a name starting with `trn3p.48xlarge` is `Ultraserver`; everything else `Std`.
/// `force_userver` is ignored.
pub fn detect_platform_v4(input: &RegistrarInput<'_>) -> Platform {
    match input.instance_name {
        None => Platform::Invalid,
        Some(n) if PDS_INSTANCES.contains(&n) || n.starts_with(PDS_PREFIX) => Platform::Pds,
        Some(n) if n.starts_with(ULTRASERVER_PREFIX) => Platform::Ultraserver,
        Some(_) => Platform::Std,
    }
}
