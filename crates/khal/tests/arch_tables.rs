//! Every per-arch constant against the reference tables (`arch-ids.tsv`,
//! `arch-scalars.tsv`, `address-map.tsv`) and the pure functions against the formulas and
//! worked values of `arch-callbacks.tsv` / `arch-README.md`.

use khal::{Arch, ArchError, Generation, ScalarValue, Scalars, WaitTimes};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;

const IDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/arch-ids.tsv"
));
const SCALARS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/arch-scalars.tsv"
));
const ADDRESS_MAP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/address-map.tsv"
));

fn rows(t: &str) -> impl Iterator<Item = Vec<&str>> {
    t.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').collect())
}

/// The leading number of a cell ("0x3 (emu: ...)" -> 3), if it starts with one.
fn num(cell: &str) -> Option<u64> {
    let tok = cell.split([' ', ',']).next()?;
    if let Some(h) = tok.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else {
        tok.parse().ok()
    }
}

fn products<A: Arch>() -> Vec<(u16, &'static str, &'static str, &'static str, &'static str)> {
    A::PRODUCTS
        .iter()
        .map(|p| {
            (
                p.pci_device_id,
                p.nd_type_suffix,
                p.nc_type_suffix,
                p.instance_suffix,
                p.device_name,
            )
        })
        .collect()
}

#[test]
fn ids_generations_and_products_match_arch_ids_tsv() {
    let mut seen = 0;
    for r in rows(IDS) {
        let id = u16::from_str_radix(r[0].trim_start_matches("0x"), 16).unwrap();
        let g = Generation::from_pci_device_id(id).unwrap();
        assert_eq!(g.number().to_string(), r[4]);
        assert_eq!(format!("V{}", g.number()), r[5]);
        assert_eq!(g.code_name(), r[7]);
        let row = (id, r[9], r[10], r[11], r[12]);
        let all = [
            products::<Sunda>(),
            products::<Cayman>(),
            products::<Mariana>(),
        ];
        let owner = match g {
            Generation::V2 => &all[0],
            Generation::V3 => &all[1],
            Generation::V4 => &all[2],
        };
        assert!(owner.contains(&row), "{row:?}");
        seen += 1;
    }
    assert_eq!(seen, 5);
    assert_eq!(
        Sunda::PRODUCTS.len() + Cayman::PRODUCTS.len() + Mariana::PRODUCTS.len(),
        5
    );
    assert!(Generation::from_pci_device_id(0x7664).is_err());
}

/// Field name in the scalars table -> our value, through `Scalars::field` (the structured
/// listing): a reference name that differs from ours is mapped here, nothing else is.
fn scalar(s: &Scalars, field: &str) -> Option<u64> {
    let ours = match field {
        "reset_poll_interval" => "reset_poll_interval_ms",
        "initiate_max_wait_time" => "initiate_max_wait_time_ms",
        "root_info_node_attrs_info_tbl_cnt" => "root_info_attr_count",
        "total DMA engines per device" => "total_dma_engines",
        "DMA queues per engine" => "dma_queues_per_engine",
        "NC per SENG" => "nc_per_seng",
        "TOP_SP per NC" => "top_sp_per_nc",
        "FW carve-out per HBM channel" => "fw_carveout_per_hbm",
        "DMA wait estimate per descriptor" => "dma_wait_per_desc_us",
        "descriptors per packet at engine init" => {
            return Some(u64::from(s.descs_per_packet_at_init) - 1);
        }
        other => other,
    };
    match s.field(ours)? {
        ScalarValue::Dec(v) | ScalarValue::Hex(v) => Some(v),
        _ => None,
    }
}

#[test]
fn numeric_scalars_match_arch_scalars_tsv() {
    let mut checked = 0;
    for r in rows(SCALARS) {
        let field = r[1];
        for (col, s) in [
            (2, &Sunda::SCALARS),
            (3, &Cayman::SCALARS),
            (4, &Mariana::SCALARS),
        ] {
            let cell = if r[col].starts_with("inherits v3") {
                r[3]
            } else {
                r[col]
            };
            let (Some(ours), Some(theirs)) = (scalar(s, field), num(cell)) else {
                continue;
            };
            assert_eq!(ours, theirs, "{field} column {col}: {cell}");
            checked += 1;
        }
    }
    assert!(checked >= 100, "checked {checked}");
    // Non-numeric cells, by hand.
    assert_eq!(Sunda::SCALARS.axi_bar, None);
    assert_eq!(
        (
            Sunda::SCALARS.ndma_retry_memcpy,
            Cayman::SCALARS.ndma_retry_memcpy
        ),
        (true, false)
    );
    assert_eq!(
        Cayman::SCALARS.npe_neighbor_eng_ids,
        Some([[36, 68], [4, 100]])
    );
    assert_eq!((Sunda::SCALARS.nq_types, Cayman::SCALARS.nq_types), (6, 5));
    for (s, lo, hi) in [(&Sunda::SCALARS, 5, 7), (&Cayman::SCALARS, 10, 11)] {
        assert_eq!(
            (s.compatible_version.min, s.compatible_version.max),
            (lo, hi)
        );
    }
    let pe = rows(SCALARS)
        .find(|r| r[1] == "pe_mm_cntr_offsets[nc]")
        .unwrap();
    for (cell, s) in [(pe[2], &Sunda::SCALARS), (pe[3], &Cayman::SCALARS)] {
        let v: Vec<u64> = cell.split(", ").filter_map(num).collect();
        assert_eq!(v, s.pe_mm_cntr_offsets);
    }
}

#[test]
fn hbm_and_udma_layout_match_address_map_tsv() {
    let get = |arch: &str, name: &str| {
        rows(ADDRESS_MAP)
            .find(|r| r[0] == arch && r[1] == name)
            .and_then(|r| num(r[2]))
            .unwrap()
    };
    assert_eq!(
        Cayman::SCALARS.hbm_active_size,
        get("v3", "V3_HBM_ACTIVE_SIZE")
    );
    assert_eq!(
        Mariana::SCALARS.hbm_active_size,
        get("v4", "V4_HBM_ACTIVE_SIZE")
    );
    assert_eq!(Sunda::SCALARS.hbm_active_size, get("v2", "V2_HBM_0_SIZE"));
    assert_eq!(Sunda::SCALARS.total_dma_engines, 0x22);
    // Every V2 core engine's UDMA block: APB address - 0xfffc0000000 (BAR0 is a linear image
    // of device space from there).
    for nc in 0..2u32 {
        for e in 0..16u32 {
            let apb = get("v2", &format!("V2_APB_SENG_{nc}_UDMA_{e}_BASE"));
            assert_eq!(
                Sunda::udma_engine_offset(16 * nc + e),
                Ok(apb - 0xfff_c000_0000)
            );
        }
    }
    assert_eq!(Sunda::udma_engine_offset(33), Ok(0x30d0_0000));
    assert_eq!(
        Sunda::udma_engine_offset(34),
        Err(ArchError::EngineOutOfRange { engine: 34 })
    );
    // V3: [0x82000000,0x94000000,0xa2000000,0xb4000000][e/32] + 0x100000*(e%32).
    assert_eq!(Cayman::udma_engine_offset(0), Ok(0x8200_0000));
    assert_eq!(Cayman::udma_engine_offset(33), Ok(0x9410_0000));
    assert_eq!(
        Cayman::udma_engine_offset(127),
        Ok(0xb400_0000 + 31 * 0x10_0000)
    );
    assert_eq!(Cayman::udma_engine_offset(130), Ok(0x4680_0000));
    assert!(Cayman::udma_engine_offset(128 + 4).is_err());
}

#[test]
fn pure_callbacks_match_their_formulas() {
    // ndmar_get_h2t_eng_id / def_qid
    assert_eq!([0, 1].map(Sunda::h2t_engine_id), [Ok(32), Ok(33)]);
    assert_eq!(
        (0..8)
            .map(|n| Cayman::h2t_engine_id(n).unwrap())
            .collect::<Vec<_>>(),
        [128, 128, 129, 129, 130, 130, 131, 131]
    );
    assert_eq!(
        Cayman::h2t_engine_id(8),
        Err(ArchError::NcOutOfRange { nc: 8, limit: 8 })
    );
    assert_eq!([0, 1].map(|n| Sunda::h2t_default_queue(n).unwrap()), [0, 0]);
    assert_eq!(
        [4, 5].map(|n| Cayman::h2t_default_queue(n).unwrap()),
        [0, 1]
    );
    // nr_init_h2t_eng
    assert_eq!(Sunda::inits_h2t_engine(1, 0x1), Ok(true));
    assert_eq!(Cayman::inits_h2t_engine(3, u32::MAX), Ok(false));
    assert_eq!(Cayman::inits_h2t_engine(2, u32::MAX), Ok(true));
    assert_eq!(Cayman::inits_h2t_engine(2, 0x0c), Ok(true));
    assert_eq!(Cayman::inits_h2t_engine(2, 0x04), Ok(false));
    // A core past the table is an error, not a shift overflow.
    assert_eq!(
        Cayman::inits_h2t_engine(40, 0),
        Err(ArchError::NcOutOfRange { nc: 40, limit: 8 })
    );
    // ndmar_is_nx_ring over all inputs
    for eng in 0..64 {
        for q in 0..16 {
            assert_eq!(Sunda::is_nx_ring(eng, q), q == 14 && eng % 16 < 11);
            assert_eq!(
                Cayman::is_nx_ring(eng, q),
                q == 14 && [0, 1, 2, 3, 4, 7, 8].contains(&(eng % 16))
            );
        }
    }
    // nq ids, semaphores, events
    assert_eq!(Sunda::nq_id(3, 5), Ok(83));
    assert!(Cayman::nq_id(0, 5).is_err());
    assert_eq!(Cayman::semaphore_base(2), Ok(0xd800_0000));
    assert_eq!(Sunda::event_offset(1, 3), Ok(0x400_0000 + 0x270_0000 + 12));
    assert_eq!(
        Sunda::event_offset(0, 256),
        Err(ArchError::EventOutOfRange {
            event: 256,
            limit: 256
        })
    );
    // wait times (32-bit estimate)
    assert_eq!(
        Sunda::wait_for_completion(2, false),
        Ok(WaitTimes {
            first_us: 1,
            following_us: (400 - 1) * 100
        })
    );
    assert_eq!(
        Cayman::wait_for_completion(11, true),
        Ok(WaitTimes {
            first_us: 1,
            following_us: (400 * 20 - 1) * 100
        })
    );
    assert_eq!(
        Cayman::wait_for_completion(1, false),
        Err(ArchError::WaitCountTooSmall { count: 1 })
    );
    // host-connected engines, default TPBs
    assert_eq!(
        Sunda::SCALARS.host_engines(1).unwrap().as_slice(),
        (16..32).collect::<Vec<u16>>()
    );
    assert_eq!(Cayman::SCALARS.host_engines(2).unwrap()[0], 68);
    assert_eq!(
        Cayman::SCALARS.default_tpbs_for_hbm(3).unwrap().as_slice(),
        [6, 7]
    );
    assert_eq!(
        Sunda::SCALARS.default_tpbs_for_hbm(1).unwrap().as_slice(),
        [1]
    );
    // row-group counters
    assert_eq!(
        Sunda::SCALARS.row_group_counter_offset(0x100, 2),
        0x100 + 2 * 0x140
    );
    assert_eq!(Cayman::SCALARS.row_group_counter_offset(0, 3), 3 * 0x1b0);
    // Any caller input: wraps like the vendor's u64 C arithmetic instead of panicking.
    assert_eq!(
        Sunda::SCALARS.row_group_counter_offset(u64::MAX, 1),
        0x140 - 1
    );
    // BAR4: HBM1 on V2; strict end
    assert_eq!(Sunda::bar4_offset(0x10_0000_0010, 0x10), Ok(0x4_0000_0010));
    assert!(
        Sunda::bar4_offset(0x3_ffff_f000, 0x1000).is_err(),
        "ending at the window end"
    );
    assert_eq!(
        Cayman::bar4_offset(0x8000_0000_0000, 1),
        Ok(2 * 0x10_0000_0000)
    );
    // write-blocked: ring registers of an engine, mailbox words
    assert!(Sunda::is_bar0_write_blocked(
        0x3000_0000 + 0x21000 + 15 * 0x1000 + 0x38
    ));
    assert!(!Sunda::is_bar0_write_blocked(0x3000_0000 + 0x21000 + 0x20));
    assert!(Sunda::is_bar0_write_blocked(0x30fa_0800));
    assert!(Cayman::is_bar0_write_blocked(0x4690_0000 + 0x1000 + 0x44));
    assert!(Cayman::is_bar0_write_blocked(0x6c8_41f4));
    // Just past the 16th queue block of each direction: not a queue register.
    assert!(!Sunda::is_bar0_write_blocked(
        0x3000_0000 + 0x1000 + 16 * 0x1000 + 0x38
    ));
    assert!(!Sunda::is_bar0_write_blocked(
        0x3000_0000 + 0x21000 + 16 * 0x1000 + 0x28
    ));
    assert!(!Cayman::is_bar0_write_blocked(0x30fa_0800));
}
