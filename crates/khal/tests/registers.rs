//! The register map against `udma-registers.tsv` and `udma-bitfields.tsv`.

mod common;

use std::collections::BTreeSet;

use common::{UDMA_BITFIELDS, UDMA_REGISTERS, hex, rows};
use khal::regs::queue::{self, CompCfg, QSwCtrl, QueueCfg, RingLen, RingPtr, TailInc};
use khal::regs::{EngineStateWord, general, m2s, s2m};
use khal::regs::{QueueReg, REGISTERS, Source, queue::Dir};
use udma_desc::QueueId;

/// The blocks whose every row the one register list holds.
const LISTED_BLOCKS: [&str; 7] = ["m2s", "s2m", "q_rings", "m2s_q", "s2m_q", "gen", "gen_ex"];

#[test]
fn the_register_list_is_the_reference_table_plus_the_seed_rows() {
    let table: BTreeSet<(String, String, usize, Option<usize>)> = rows(UDMA_REGISTERS)
        .filter(|r| LISTED_BLOCKS.contains(&r[0]))
        .map(|r| {
            let abs = (r[3] != "-").then(|| usize::try_from(hex(r[3])).unwrap());
            (
                r[0].to_string(),
                r[1].to_string(),
                usize::try_from(hex(r[2])).unwrap(),
                abs,
            )
        })
        .collect();
    let listed: BTreeSet<_> = REGISTERS
        .iter()
        .filter(|r| r.source == Source::Reference)
        .map(|r| (r.block.to_string(), r.name.to_string(), r.offset, r.abs()))
        .collect();
    assert_eq!(listed.len(), REGISTERS.len() - 1, "no row listed twice");
    assert_eq!(listed, table);
    // The seed-only rows: S2M +0x344 (seed 004 §2 al_udma_s2m_no_desc_cfg_set), in no row.
    let seed: Vec<_> = REGISTERS
        .iter()
        .filter(|r| r.source == Source::Seed004)
        .map(|r| (r.block, r.offset, r.abs()))
        .collect();
    assert_eq!(seed, [("s2m", 0x344, Some(0x20344))]);
    assert!(!table.iter().any(|(b, _, o, _)| b == "s2m" && *o == 0x344));
}

#[test]
fn the_crate_table_copy_is_byte_identical_to_the_reference() {
    // The repository's reference/ (driver 2.26.5.0) sits two levels up in a checkout, and a
    // checkout is where tests run (a packaged crate is built, not tested): a missing file is
    // a failure, not a skip.
    let reference =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reference/udma-registers.tsv");
    let r = std::fs::read_to_string(&reference)
        .unwrap_or_else(|e| panic!("{}: {e}", reference.display()));
    assert_eq!(
        UDMA_REGISTERS, r,
        "tables/udma-registers.tsv differs from reference/"
    );
}

#[test]
fn queue_regs_are_entries_of_the_register_list() {
    for dir in [Dir::Tx, Dir::Rx] {
        for reg in QueueReg::ALL {
            let Some((off, name)) = reg.marker_offset_and_name(dir) else {
                continue;
            };
            let block = if dir == Dir::Tx { "m2s_q" } else { "s2m_q" };
            assert!(
                REGISTERS
                    .iter()
                    .any(|r| (r.block == block || r.block == "q_rings")
                        && r.name == name
                        && r.offset == off),
                "{dir:?} {reg:?}"
            );
        }
    }
}

#[test]
fn queue_blocks_sit_where_the_table_says_for_every_queue() {
    for r in rows(UDMA_REGISTERS) {
        let (dir, base) = match r[0] {
            "m2s_q" => (Dir::Tx, 0x1000),
            "s2m_q" => (Dir::Rx, 0x21000),
            _ => continue,
        };
        assert_eq!(
            r[6],
            format!("16 queues; abs = {base:#x} + q*0x1000 + offset")
        );
        let off = usize::try_from(hex(r[2])).unwrap();
        let reg = QueueReg::ALL
            .into_iter()
            .find(|&g| g.offset(dir) == Some(off))
            .unwrap_or_else(|| panic!("{:?} {} has no QueueReg", dir, r[1]));
        for q in QueueId::all() {
            assert_eq!(
                reg.abs(dir, q),
                Some(usize::try_from(hex(r[3])).unwrap() + q.index() * 0x1000)
            );
        }
    }
    // The table's per-queue offset set: 16 TX + 14 RX rows, 18 distinct (offset, meaning)s.
    let tx: Vec<_> = QueueReg::ALL
        .iter()
        .filter_map(|&g| g.offset(Dir::Tx))
        .collect();
    let rx: Vec<_> = QueueReg::ALL
        .iter()
        .filter_map(|&g| g.offset(Dir::Rx))
        .collect();
    assert_eq!((tx.len(), rx.len()), (16, 14));
    let distinct: BTreeSet<_> = tx
        .iter()
        .map(|o| (0, *o))
        .chain(rx.iter().map(|o| {
            // RX-only offsets count separately; the shared ring registers once.
            (u8::from(!tx.contains(o)), *o)
        }))
        .collect();
    assert_eq!(distinct.len(), 18);
    // The tail-pointer increment is a shared ring register (the table lists rdrtp_inc).
    assert_eq!(QueueReg::DrtpInc.offset(Dir::Rx), Some(0x38));
    assert_eq!(QueueReg::DescPrefCfg.offset(Dir::Rx), None);
    assert_eq!(QueueReg::RlimitMask.offset(Dir::Rx), None);
}

/// (register, field) of the bitfield table -> the mask of our typed field, found by clearing
/// the field in an all-ones word through its typed setter.
fn typed_field(reg: &str, field: &str) -> Option<u32> {
    macro_rules! f {
        ($t:ty, $with:ident) => {
            f!($t, $with, 0)
        };
        ($t:ty, $with:ident, $zero:expr) => {
            Some(!u32::from(<$t>::from_bits(u32::MAX).$with($zero)))
        };
    }
    match (reg, field) {
        ("m2s_q.cfg" | "s2m_q.cfg", "EN_PREF") => f!(QueueCfg, with_en_pref, false),
        ("m2s_q.cfg" | "s2m_q.cfg", "EN_SCHEDULING" | "EN_STREAM") => {
            f!(QueueCfg, with_en_scheduling, false)
        }
        ("m2s_q.tdrl", "OFFSET") => f!(RingLen, with_descs, 0),
        ("m2s_q.tdrhp" | "m2s_q.tdrtp" | "m2s_q.tcrhp" | "s2m_q.rdrhp/rdrtp/rcrhp", "OFFSET") => {
            f!(RingPtr, with_offset, 0)
        }
        ("m2s_q.tdrhp" | "m2s_q.tdrtp" | "m2s_q.tcrhp" | "s2m_q.rdrhp/rdrtp/rcrhp", "RING_ID") => {
            f!(RingPtr, with_ring_id, 0)
        }
        ("m2s_q.tdrtp_inc", "VAL") => f!(TailInc, with_val, 0),
        ("m2s_q/s2m_q.comp_cfg", "DMA_RING_DISABLE") => {
            f!(CompCfg, with_en_comp_ring_update, false)
        }
        ("m2s_q.comp_cfg", "EN_COMP_RING_UPDATE") => f!(CompCfg, with_en_comp_ring_update, false),
        ("m2s_q.comp_cfg", "DIS_COMP_COAL") => f!(CompCfg, with_dis_comp_coal, false),
        ("m2s_q.q_sw_ctrl" | "s2m_q.q_sw_ctrl", "RST_Q") => f!(QSwCtrl, with_rst_q, false),
        ("m2s_q.rlimit.mask", "INTERNAL_PAUSE_DMB") => {
            f!(queue::TxRlimitMask, with_internal_pause_dmb, false)
        }
        ("m2s.state", "COMP_CTRL") => f!(
            EngineStateWord,
            with_comp_ctrl,
            khal::regs::SubUnitState::Idle
        ),
        ("m2s.state", "STREAM_IF") => f!(
            EngineStateWord,
            with_stream_if,
            khal::regs::SubUnitState::Idle
        ),
        ("m2s.state", "DATA_RD_CTRL") => f!(
            EngineStateWord,
            with_data_ctrl,
            khal::regs::SubUnitState::Idle
        ),
        ("m2s.state", "DESC_PREF") => f!(
            EngineStateWord,
            with_desc_pref,
            khal::regs::SubUnitState::Idle
        ),
        ("m2s.change_state", "NORMAL") => f!(m2s::ChangeStateCmd, with_normal, false),
        ("m2s.change_state", "DIS") => f!(m2s::ChangeStateCmd, with_disable, false),
        ("m2s.change_state", "ABORT") => f!(m2s::ChangeStateCmd, with_abort, false),
        ("m2s.err_log_mask", "PREF_RING_ID") => f!(m2s::ErrLogMask, with_pref_ring_id, false),
        ("s2m.err_log_mask", "PREF_RING_ID") => f!(s2m::ErrLogMask, with_pref_ring_id, false),
        ("m2s.cfg_len", "MAX_PKT_SIZE") => f!(m2s::CfgLen, with_max_pkt_size, 0),
        ("m2s.cfg_len", "ENCODE_64K") => f!(m2s::CfgLen, with_encode_64k, false),
        ("m2s.stream_cfg", "RD_MODE") => f!(m2s::StreamCfg, with_rd_mode, false),
        ("m2s.stream_cfg", "RD_TH") => f!(m2s::StreamCfg, with_rd_th, 0),
        ("m2s.stream_cfg", "DISABLE") => f!(m2s::StreamCfg, with_disable, false),
        ("s2m.stream_cfg", "DISABLE") => f!(s2m::StreamCfg, with_disable, false),
        ("s2m.stream_cfg", "FLUSH") => f!(s2m::StreamCfg, with_flush, false),
        ("s2m.stream_cfg", "STOP_PREFETCH") => f!(s2m::StreamCfg, with_stop_prefetch, false),
        ("m2s_rd.desc_pref_cfg_2", "PERF_FORCE_RR") => {
            f!(m2s::DescPrefCfg2, with_perf_force_rr, false)
        }
        ("m2s_rd.desc_pref_cfg_3", "MIN_BURST_ABOVE_THR") => {
            f!(m2s::DescPrefCfg3, with_min_burst_above_thr, 0)
        }
        ("m2s_rd.desc_pref_cfg_3", "PREF_THR") => f!(m2s::DescPrefCfg3, with_pref_thr, 0),
        ("m2s_rd.data_cfg", "DATA_FIFO_DEPTH") => f!(m2s::DataCfg, with_data_fifo_depth, 0),
        ("axi_m2s.desc_rd_cfg_3" | "axi_s2m.desc_rd_cfg_3", "ALWAYS_BREAK_ON_MAX_BOUNDARY") => {
            f!(
                m2s::DescRdBurstCfg,
                with_always_break_on_max_boundary,
                false
            )
        }
        ("axi_m2s.data_rd_cfg", "ALWAYS_BREAK_ON_MAX_BOUNDARY") => {
            f!(m2s::DataRdCfg, with_always_break_on_max_boundary, false)
        }
        ("axi_m2s.ostand_cfg", "MAX_DATA_RD") => f!(m2s::OstandCfg, with_max_data_rd, 0),
        ("axi_m2s.ostand_cfg", "MAX_DESC_RD") => f!(m2s::OstandCfg, with_max_desc_rd, 0),
        ("axi_m2s.ostand_cfg", "MAX_COMP_REQ") => f!(m2s::OstandCfg, with_max_comp_req, 0),
        ("axi_s2m.ostand_cfg_rd", "MAX_DESC_RD_OSTAND") => {
            f!(s2m::OstandCfgRd, with_max_desc_rd_ostand, 0)
        }
        ("axi_s2m.ostand_cfg_wr_2", "MAX_DATA_WR_OSTAND") => {
            f!(s2m::OstandCfgWr2, with_max_data_wr_ostand, 0)
        }
        ("s2m_comp.cfg_1c", "Q_PROMOTION") => f!(s2m::CompCfg1c, with_q_promotion, false),
        ("gen.spare_reg.zeroes0", "DISABLE_COMP_HEAD_REPORT") => {
            f!(general::SpareZeroes0, with_disable_comp_head_report, false)
        }
        _ => None,
    }
}

#[test]
fn every_register_field_with_a_mask_matches_its_typed_field() {
    let mut checked = 0;
    for r in rows(UDMA_BITFIELDS) {
        let (reg, field, lsb, width, mask) = (r[0], r[1], r[2], r[3], r[4]);
        if width == "-"
            || reg.contains("desc") && !reg.contains('.')
            || reg.starts_with("tx_")
            || reg.starts_with("rx_")
            || reg.starts_with("cdesc")
            || reg.starts_with("iofic")
            || reg.starts_with("ext_")
            || reg.starts_with("udma_")
            || reg.contains("tcrhp_internal")
            || reg.ends_with("tdrbp_low")
            || reg.ends_with("tcrbp_low")
        {
            continue;
        }
        let m = typed_field(reg, field).unwrap_or_else(|| panic!("no typed field {reg} {field}"));
        assert_eq!(u64::from(m), hex(mask), "{reg} {field}");
        assert_eq!(m.trailing_zeros().to_string(), lsb, "{reg} {field}");
        assert_eq!(m.count_ones().to_string(), width, "{reg} {field}");
        checked += 1;
    }
    assert!(checked >= 38, "checked {checked}");
}

#[test]
fn reset_and_programmed_values_match_the_table() {
    let value = |reg: &str, field: &str| {
        rows(UDMA_BITFIELDS)
            .find(|r| r[0] == reg && r[1] == field)
            .map(|r| u32::try_from(hex(r[6])).unwrap())
            .unwrap()
    };
    assert_eq!(
        u32::from(QueueCfg::RESET),
        value("m2s_q.cfg", "RESET_VALUE")
    );
    assert_eq!(
        u32::from(QueueCfg::RESET),
        value("s2m_q.cfg", "RESET_VALUE")
    );
    assert_eq!(
        u32::from(QueueCfg::RESET.enabled()),
        value("m2s_q.cfg", "ENABLED_VALUE")
    );
    assert_eq!(
        u32::from(queue::TxRlimitMask::RESET),
        value("m2s_q.rlimit.mask", "RESET_VALUE")
    );
    assert_eq!(
        u32::from(queue::TxRlimitMask::RESET.with_internal_pause_dmb(false)),
        value("m2s_q.rlimit.mask", "INIT_VALUE")
    );
    assert_eq!(
        m2s::CfgLen::new()
            .with_max_pkt_size(0xf_ffff)
            .max_pkt_size(),
        value("m2s.cfg_len", "MAX_PKT_SIZE")
    );
}
