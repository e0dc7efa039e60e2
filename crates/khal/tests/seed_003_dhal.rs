//! Seed 003 (DHAL core, aws-neuronx-dkms 2.27.4.0) and the 2.26.5.0 reference
//! (`arch-callbacks.tsv`, `arch-README.md`): the version-common perf-counter callbacks, the
//! V4-on-V3 layering, pod-election cleanup, and 2.26.5.0's V4 changes. Each test is named
//! after the seed section (or reference row) and function it pins.

mod common;

use khal::{Arch, ArchError, DhalCallbacks, NcLocation, Platform, RegistrarInput, read_pe_counter};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;
use mmio::{Access, FakeRegs};

const CALLBACKS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/arch-callbacks.tsv"
));

#[test]
fn s1_callback_tally_seed_56_reference_59_and_vc_sets_4() {
    // Seed 003 §1: "The honest count is 56 callbacks, of which vc sets 4" (2.27.4.0);
    // arch-README.md: "59 callback slots, not 56" (2.26.5.0), one row each in the table.
    let rows: Vec<Vec<&str>> = common::rows(CALLBACKS).collect();
    assert_eq!(rows.len(), DhalCallbacks::REFERENCE_2_26_5_0);
    let vc = rows.iter().filter(|r| r[2] == "yes").count();
    assert_eq!(vc, DhalCallbacks::VC);
    assert_eq!(DhalCallbacks::SEED_2_27_4_0, 56);
    assert_eq!(DhalCallbacks::REFERENCE_2_26_5_0, 59);
    assert_eq!(DhalCallbacks::VC, 4);
}

#[test]
fn s3_vc_pe_get_row_grp_activity_counter_offset_per_arch_constants() {
    // arch-callbacks.tsv: V2 base + 0x140*row; V3 (V4) base + 0x1b0*row.
    assert_eq!(
        Sunda::SCALARS.row_group_counter_offset(0x1000, 3),
        0x1000 + 3 * 0x140
    );
    assert_eq!(
        Cayman::SCALARS.row_group_counter_offset(0x1000, 3),
        0x1000 + 3 * 0x1b0
    );
    assert_eq!(
        Mariana::SCALARS.row_group_counter_offset(0x1000, 3),
        0x1000 + 3 * 0x1b0
    );
}

#[test]
fn s3_vc_pe_get_counter_val_reads_high_word_first() {
    // "reads high word at lsb+4 first, then low word; value = hi<<32 | lo".
    let bar0: FakeRegs<4, 4> = FakeRegs::new();
    bar0.preset(0x104, 0x0000_0012);
    bar0.preset(0x100, 0x3456_789a);
    assert_eq!(read_pe_counter(&bar0, 0x100), Ok(0x12_3456_789a));
    assert_eq!(
        bar0.trace().as_slice(),
        [
            Access::Read {
                offset: 0x104,
                value: 0x12
            },
            Access::Read {
                offset: 0x100,
                value: 0x3456_789a
            }
        ]
    );
}

/// Presets the low word of four column-group counters of core `nc`, row `row`, to
/// 1, 2, 3, 4 and (V3/V4) the normal weight-load counter to 100; returns the BAR0 fake.
fn perf_bar0<A: Arch>(nc: usize, row: u32) -> FakeRegs<16, 64> {
    let s = &A::SCALARS;
    let bar0 = FakeRegs::new();
    for col in 0..4u64 {
        let base = s.pe_fast_wl_cntr_offsets[nc] + col * u64::from(s.pe_perf_reg_grp_size);
        let off = s.row_group_counter_offset(base, row);
        bar0.preset(
            usize::try_from(off).unwrap(),
            u32::try_from(col + 1).unwrap(),
        );
    }
    // V2's weight-load counter (set but unused there) is the address of fast column group 1.
    if s.pe_aggregated_wl_adds_normal {
        let wl = s.row_group_counter_offset(s.pe_wl_cntr_offsets[nc], row);
        bar0.preset(usize::try_from(wl).unwrap(), 100);
    }
    bar0
}

#[test]
fn s3_vc_pe_get_fast_wl_cycle_cnt_sums_the_four_column_groups() {
    // "sums the counter at row offset of pe_fast_wl_cntr_offsets[nc] + col*pe_perf_reg_grp_size
    // over the 4 column groups".
    let bar0 = perf_bar0::<Cayman>(5, 2);
    assert_eq!(Cayman::SCALARS.pe_fast_wl_cycle_cnt(&bar0, 5, 2), Ok(10));
    assert_eq!(
        bar0.trace().len(),
        8,
        "four 64-bit counters, two reads each"
    );
    let bar0 = perf_bar0::<Sunda>(1, 3);
    assert_eq!(Sunda::SCALARS.pe_fast_wl_cycle_cnt(&bar0, 1, 3), Ok(10));
    assert_eq!(
        Sunda::SCALARS.pe_fast_wl_cycle_cnt(&bar0, 2, 0),
        Err(ArchError::NcOutOfRange { nc: 2, limit: 2 })
    );
    assert_eq!(
        Sunda::SCALARS.pe_fast_wl_cycle_cnt(&bar0, 0, 4),
        Err(ArchError::RowGroupOutOfRange { row: 4, limit: 4 })
    );
}

#[test]
fn s3_pe_get_aggregated_wl_cycle_cnt_v2_fast_only_v3_v4_add_normal() {
    // "v2: fast-WL sum only (normal WL counters already include fast WL); v3: normal WL
    // counter + fast-WL sum"; V4 inherits V3.
    let bar0 = perf_bar0::<Sunda>(0, 1);
    assert_eq!(
        Sunda::SCALARS.pe_aggregated_wl_cycle_cnt(&bar0, 0, 1),
        Ok(10)
    );
    let bar0 = perf_bar0::<Cayman>(7, 0);
    assert_eq!(
        Cayman::SCALARS.pe_aggregated_wl_cycle_cnt(&bar0, 7, 0),
        Ok(110)
    );
    let bar0 = perf_bar0::<Mariana>(3, 3);
    assert_eq!(
        Mariana::SCALARS.pe_aggregated_wl_cycle_cnt(&bar0, 3, 3),
        Ok(110)
    );
}

#[test]
fn s4_ext_cleanup_v3_stops_pod_election_on_ultraserver_only() {
    // Seed 003 §4: V3 sets ndhal_ext_cleanup_v3, V4 inherits it; arch-callbacks.tsv: "v3:
    // stops pod election only when platform is ULTRASERVER".
    let with = |id, name| RegistrarInput {
        instance_name: Some(name),
        ..RegistrarInput::new(id)
    };
    let v3_userver = Cayman::register(&with(0x7364, "trn2u.48xlarge")).unwrap();
    assert_eq!(v3_userver.platform, Some(Platform::Ultraserver));
    assert!(v3_userver.needs_pod_election_stop());
    let v3_pds = Cayman::register(&with(0x7364, "trn2es.48xlarge")).unwrap();
    assert!(!v3_pds.needs_pod_election_stop());
    let v3_std = Cayman::register(&with(0x7364, "trn2.48xlarge")).unwrap();
    assert!(!v3_std.needs_pod_election_stop());
    assert!(
        !Sunda::register(&RegistrarInput::new(0x7164))
            .unwrap()
            .needs_pod_election_stop()
    );
}

#[test]
fn ref_2_26_5_0_v4_trn3p_48xlarge_is_ultraserver() {
    // arch-scalars.tsv platform_type V4: "ULTRASERVER=1 for names starting with trn3p.48xlarge
    // (new in 2.26.5.0)"; the inherited V3 cleanup then stops pod election.
    let r = Mariana::register(&RegistrarInput {
        instance_name: Some("trn3p.48xlarge"),
        ..RegistrarInput::new(0x7564)
    })
    .unwrap();
    assert_eq!(r.platform, Some(Platform::Ultraserver));
    assert!(r.needs_pod_election_stop());
    let std = Mariana::register(&RegistrarInput {
        instance_name: Some("trn3.48xlarge"),
        ..RegistrarInput::new(0x7564)
    })
    .unwrap();
    assert_eq!(std.platform, Some(Platform::Std));
}

fn loc(device: u8, core: u8) -> NcLocation {
    NcLocation { device, core }
}

#[test]
fn ref_2_26_5_0_logical_to_physical_nc_map_v3_and_v4_pds() {
    // arch-README.md: V3 patterns A (0,2,8,10), B (1,3,9,11), C (4,6,12,14), D (5,7,13,15);
    // die flip reads entry i XOR 6. V4 PDS: A for even devices, B for odd, no die flip.
    let v3 = |e, flip| Cayman::logical_to_physical_nc(0, e, Some(Platform::Std), flip);
    assert_eq!(v3(0, false), Ok(loc(0, 4))); // A[0]
    assert_eq!(v3(8 + 2, false), Ok(loc(1, 0))); // B[2]
    assert_eq!(v3(4 * 8 + 4, false), Ok(loc(4, 6))); // C[4]
    assert_eq!(v3(13 * 8 + 7, false), Ok(loc(13, 3))); // D[7]
    assert_eq!(v3(0, true), Ok(loc(0, 0))); // entry 6: A[6]
    let pds = |e, flip| Mariana::logical_to_physical_nc(0, e, Some(Platform::Pds), flip);
    assert_eq!(pds(4 * 8 + 4, false), Ok(loc(4, 2))); // A[4], where V3 has C
    assert_eq!(pds(5 * 8, true), Ok(loc(5, 2))); // B[0], no die flip
    // V4 on STD and ULTRASERVER: V3's function and table, die flip included.
    for e in 0..128 {
        for flip in [false, true] {
            for p in [Platform::Std, Platform::Ultraserver] {
                assert_eq!(
                    Mariana::logical_to_physical_nc(0, e, Some(p), flip),
                    v3(e, flip)
                );
            }
        }
    }
    // V4 PDS differs from V3 exactly on devices 4-7 and 12-15.
    for e in 0..128u16 {
        let d = e / 8;
        let same = pds(e, false) == v3(e, false);
        assert_eq!(
            same,
            !(4..8).contains(&d) && !(12..16).contains(&d),
            "entry {e}"
        );
    }
    assert_eq!(
        Cayman::logical_to_physical_nc(1, 0, None, false),
        Err(ArchError::NcMapTypeUnsupported { mapping_type: 1 })
    );
    assert_eq!(
        Cayman::logical_to_physical_nc(0, 128, None, false),
        Err(ArchError::NcMapEntryOutOfRange { entry: 128 })
    );
    assert_eq!(
        Sunda::logical_to_physical_nc(0, 0, None, false),
        Err(ArchError::NcMapUnsupported)
    );
}

#[test]
fn ref_2_26_5_0_dma_eng_per_nd_split_into_seng_and_h2d() {
    // arch-scalars.tsv: seng_dma_eng_per_nd 32 / 128, h2d_dma_eng_per_nd 2 / 4, V4 inherits.
    assert_eq!(
        (
            Sunda::SCALARS.seng_dma_eng_per_nd,
            Sunda::SCALARS.h2d_dma_eng_per_nd
        ),
        (32, 2)
    );
    assert_eq!(
        (
            Cayman::SCALARS.seng_dma_eng_per_nd,
            Cayman::SCALARS.h2d_dma_eng_per_nd
        ),
        (128, 4)
    );
    assert_eq!(
        (
            Mariana::SCALARS.seng_dma_eng_per_nd,
            Mariana::SCALARS.h2d_dma_eng_per_nd
        ),
        (128, 4)
    );
}

#[test]
fn s3_vc_pe_format_activity_stats_header_then_a_line_per_row_group() {
    // arch-callbacks.tsv tpb pe_format_activity_stats: "CSV text: header then one line per
    // row group (4) with matmul, weight-load and idle cycle counts; returns non-zero when the
    // text was truncated". The header text and the column counters are the project's choice.
    let row = common::rows(CALLBACKS)
        .find(|r| r[0] == "tpb" && r[1] == "pe_format_activity_stats")
        .unwrap();
    assert!(
        row.last()
            .unwrap()
            .starts_with("CSV text: header then one line per row group (4)")
    );
    let s = &Cayman::SCALARS;
    assert_eq!(s.pe_row_grp_count, 4);
    let bar0 = perf_bar0::<Cayman>(7, 2); // row 2: weight load 100 + 1 + 2 + 3 + 4
    let at = |base: u64, row: u32| usize::try_from(s.row_group_counter_offset(base, row)).unwrap();
    bar0.preset(at(s.pe_mm_cntr_offsets[7], 2), 55);
    bar0.preset(at(s.pe_idle_cntr_offsets[7], 2), 9);
    bar0.preset(at(s.pe_idle_cntr_offsets[7], 2) + 4, 1); // high word: 2^32 + 9
    let mut buf = [0u8; 256];
    let out = s.pe_format_activity_stats(&bar0, 7, &mut buf).unwrap();
    let text = core::str::from_utf8(&buf[..out.len]).unwrap();
    assert_eq!(
        text,
        format!(
            "{}0,0,0,0\n1,0,0,0\n2,55,110,4294967305\n3,0,0,0\n",
            khal::ACTIVITY_STATS_HEADER
        )
    );
    assert!(!out.truncated);
    let mut small = [0u8; 20];
    let out = s.pe_format_activity_stats(&bar0, 7, &mut small).unwrap();
    assert_eq!((out.len, out.truncated), (20, true));
    assert_eq!(&small[..], &khal::ACTIVITY_STATS_HEADER.as_bytes()[..20]);
    assert_eq!(
        s.pe_format_activity_stats(&bar0, 8, &mut buf),
        Err(ArchError::NcOutOfRange { nc: 8, limit: 8 })
    );
}
