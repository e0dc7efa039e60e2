//! V4 = V3 + exactly the documented overrides: every other item equals V3's.

use khal::caps::{IoficCaps, PacketCaps};
use khal::{Arch, Generation, Platform, RegistrarError, RegistrarInput, Scalars};
use khal_cayman::Cayman;
use khal_mariana::Mariana;

/// (field name, differs(v4, v3), put V3's value back).
type Override = (
    &'static str,
    &'static dyn Fn(&Scalars, &Scalars) -> bool,
    &'static dyn Fn(&mut Scalars),
);

#[test]
fn scalars_differ_from_v3_in_exactly_the_override_fields() {
    // Start from V4's value and put V3's value back into each listed override field: the
    // result must be V3's struct exactly, so no other field differs.
    let mut v4: Scalars = Mariana::SCALARS;
    let v3: Scalars = Cayman::SCALARS;
    let overrides: [Override; 4] = [
        (
            "hbm_active_size",
            &|a, b| a.hbm_active_size != b.hbm_active_size,
            &|s| s.hbm_active_size = Cayman::SCALARS.hbm_active_size,
        ),
        (
            "npe_neighbor_eng_ids",
            &|a, b| a.npe_neighbor_eng_ids != b.npe_neighbor_eng_ids,
            &|s| s.npe_neighbor_eng_ids = Cayman::SCALARS.npe_neighbor_eng_ids,
        ),
        (
            "hal_data_fifo_depth",
            &|a, b| a.hal_data_fifo_depth != b.hal_data_fifo_depth,
            &|s| s.hal_data_fifo_depth = Cayman::SCALARS.hal_data_fifo_depth,
        ),
        (
            "ostand_data_wr_wide",
            &|a, b| a.ostand_data_wr_wide != b.ostand_data_wr_wide,
            &|s| s.ostand_data_wr_wide = Cayman::SCALARS.ostand_data_wr_wide,
        ),
    ];
    for (name, differs, restore) in overrides {
        assert!(
            differs(&v4, &v3),
            "{name} is listed as an override but equals V3's"
        );
        restore(&mut v4);
    }
    assert_eq!(v4, v3, "a field outside the override list differs from V3");
    // The override values themselves.
    assert_eq!(Mariana::SCALARS.hbm_active_size, 0x9_0000_0000);
    assert_eq!(
        Mariana::SCALARS.npe_neighbor_eng_ids,
        Some([[40, 72], [8, 104]])
    );
    assert_eq!(Mariana::SCALARS.ostand_data_wr_wide, Some(256));
    // Seed 004 §2 al_udma_init: "CAYMAN: [m2s+0x310]=2296 ; MARIANA: [m2s+0x310]=4088".
    assert_eq!(
        (
            Cayman::SCALARS.hal_data_fifo_depth,
            Mariana::SCALARS.hal_data_fifo_depth
        ),
        (2296, 4088)
    );
    // The kernel keeps V3's 2296 on V4 (arch-scalars.tsv num_beats): not an override.
    assert_eq!(Mariana::SCALARS.num_beats, 2296);
}

#[test]
fn trait_items_differ_from_v3_in_exactly_the_override_items() {
    // Overridden: identity, notification mask.
    assert_eq!(
        (Cayman::GENERATION, Mariana::GENERATION),
        (Generation::V3, Generation::V4)
    );
    assert_ne!(Mariana::PRODUCTS, Cayman::PRODUCTS);
    assert_eq!(
        (
            Mariana::HAS_NOTIFICATION_MASK,
            Cayman::HAS_NOTIFICATION_MASK
        ),
        (true, false)
    );
    // Inherited, and keyed on the UDMA revision (seed 004 §4 "(v4)" values: 1280 and
    // 0xFFFFEF07), which both have: 4.
    assert_eq!(iofic::<Mariana>(), iofic::<Cayman>());
    assert_eq!(
        (iofic::<Cayman>()[0], iofic::<Cayman>()[3]),
        (1280, 0xFFFF_EF07)
    );
    assert_eq!(
        (
            Mariana::TTT_DEFAULT_ON_NORMAL,
            Cayman::TTT_DEFAULT_ON_NORMAL
        ),
        (true, false)
    );
    // Inherited: everything else.
    assert_eq!(
        Mariana::MAX_TX_DESCS_PER_PACKET,
        Cayman::MAX_TX_DESCS_PER_PACKET
    );
    assert_eq!(Mariana::HAS_STRONG_ORDER, Cayman::HAS_STRONG_ORDER);
    assert_eq!(Mariana::UDMA_REVISION, Cayman::UDMA_REVISION);
}

/// Every IOFIC policy value of an arch: its UDMA revision's (`M2S_PRIMARY_D_UNMASK`,
/// `S2M_PRIMARY_D_UNMASK`, `M2S_ERROR_MASK`, `S2M_ERROR_MASK`, the two parity masks).
fn iofic<A: Arch>() -> [u32; 6] {
    type R<A> = <A as Arch>::Revision;
    [
        <R<A> as IoficCaps>::M2S_PRIMARY_D_UNMASK,
        <R<A> as IoficCaps>::S2M_PRIMARY_D_UNMASK,
        <R<A> as IoficCaps>::M2S_ERROR_MASK,
        <R<A> as IoficCaps>::S2M_ERROR_MASK,
        <R<A> as IoficCaps>::M2S_PARITY_MASK,
        <R<A> as IoficCaps>::S2M_PARITY_MASK,
    ]
}

#[test]
fn pure_functions_equal_v3_except_through_the_hbm_size() {
    for nc in 0..9 {
        assert_eq!(Mariana::h2t_engine_id(nc), Cayman::h2t_engine_id(nc));
        assert_eq!(
            Mariana::h2t_default_queue(nc),
            Cayman::h2t_default_queue(nc)
        );
        assert_eq!(Mariana::semaphore_base(nc), Cayman::semaphore_base(nc));
        for map in [0, 0x3, 0xc, 0xff, u32::MAX, 0x5] {
            assert_eq!(
                Mariana::inits_h2t_engine(nc, map),
                Cayman::inits_h2t_engine(nc, map)
            );
        }
    }
    for e in 0..140 {
        assert_eq!(
            Mariana::udma_engine_offset(e),
            Cayman::udma_engine_offset(e)
        );
        for q in 0..16 {
            assert_eq!(Mariana::is_nx_ring(e, q), Cayman::is_nx_ring(e, q));
        }
    }
    for c in [2, 3, 100, 1 << 20] {
        assert_eq!(
            Mariana::wait_for_completion(c, false),
            Cayman::wait_for_completion(c, false)
        );
    }
    // The one behavioural difference: the BAR4 window is 36 GiB instead of 24 GiB.
    let in_v4_only = (0x8040_0000_0000 + 0x6_0000_0000, 0x1000);
    assert!(Cayman::bar4_offset(in_v4_only.0, in_v4_only.1).is_err());
    assert_eq!(
        Mariana::bar4_offset(in_v4_only.0, in_v4_only.1),
        Ok(3 * 0x10_0000_0000 + 0x6_0000_0000)
    );
    assert_eq!(
        Mariana::bar4_offset(0x40_0000_1000, 8),
        Cayman::bar4_offset(0x40_0000_1000, 8)
    );
}

#[test]
fn v4_registrar_runs_the_v3_layer_and_keeps_its_error() {
    // The V3 layer's core-map check fails: V4 must fail too (the vendor V4 path overwrote
    // the V3 return code with its own success).
    let bad = RegistrarInput {
        dev_nc_map: Some(0x100),
        ..RegistrarInput::new(0x7564)
    };
    assert_eq!(
        Mariana::register(&bad),
        Err(RegistrarError::BadNcMap {
            nc_map: 0x100,
            nc_per_device: 8
        })
    );
    // V4's platform rules replace V3's: force_userver is ignored, PDS by prefix.
    let forced = RegistrarInput {
        force_userver: true,
        instance_name: Some("trn3-dev0.48xlarge"),
        ..RegistrarInput::new(0x7565)
    };
    let r = Mariana::register(&forced).unwrap();
    assert_eq!(r.platform, Some(Platform::Pds));
    assert_eq!(r.product.device_name, "Trainium3");
    assert!(!r.needs_pod_election_stop());
    let v3 = Cayman::register(&RegistrarInput {
        force_userver: true,
        ..RegistrarInput::new(0x7364)
    });
    assert_eq!(v3.unwrap().platform, Some(Platform::Ultraserver));
    // A V3 id is not a V4 product and vice versa.
    assert!(Mariana::register(&RegistrarInput::new(0x7364)).is_err());
    assert!(Cayman::register(&RegistrarInput::new(0x7564)).is_err());
    assert_eq!(
        khal_sunda::Sunda::register(&RegistrarInput::new(0x7264))
            .unwrap()
            .platform,
        None
    );
}

#[test]
fn v4_has_v3s_markers_and_engine_defaults() {
    // The markers V4 restates (not overrides): these bounds only compile if Mariana has
    // them. That V4 lacks V2's `AxiErrorAborts` is a compile-fail case in khal's tests/ui.
    fn v3_markers<A: khal::caps::StrongOrder + khal::caps::RingIdErrorMasking>() -> Generation {
        A::GENERATION
    }
    fn v4_marker<A: khal::caps::NotificationMask>() -> bool {
        A::HAS_NOTIFICATION_MASK
    }
    assert_eq!(v3_markers::<Cayman>(), Generation::V3);
    assert_eq!(v3_markers::<Mariana>(), Generation::V4);
    assert!(v4_marker::<Mariana>());
    // Engine-init defaults follow the inherited packet limit.
    assert_eq!(
        khal::udma::EngineParams::for_arch::<Mariana>(),
        khal::udma::EngineParams::for_arch::<Cayman>()
    );
}
