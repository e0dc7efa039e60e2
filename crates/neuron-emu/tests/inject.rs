//! Injected faults (`neuron_emu::Injection`): each fires once, at the next TX doorbell that
//! posts descriptors on its queue, and is then found the way the model finds every fault —
//! the engine walk, the IOFIC cause, the abort. The register-write log counts every write.

mod common;

use common::Rig;
use iofic::M2sCause;
use khal::Arch;
use khal::udma::UdmaState;
use neuron_emu::{Armed, Fault, Injection, Level, RegionKind, WriteWindow, for_each_arch};
use udma_desc::{Direction as Dir, RingId};

const ENGINE: usize = 4;
const QUEUE: u8 = 3;

fn arm(rig: &Rig<impl Arch>, injection: Injection) {
    rig.dev
        .inject(Armed {
            engine: ENGINE,
            queue: usize::from(QUEUE),
            injection,
        })
        .unwrap();
}

/// The bus error: the first posted descriptor reads past HBM channel 0, M2S DATA_AXI_RESP
/// latches in secondary group A and TX aborts (bring-up made every TX error abort).
fn bus_error_aborts_on_data_axi_resp<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(ENGINE, QUEUE, 32);
    arm(&rig, Injection::BusError);
    let (_, dst, _) = rig.copy_one(&mut pair, 4096, 1);
    pair.copy_start(&udma, 1, 1).unwrap();
    assert!(rig.dev.armed_injections().is_empty(), "fired once");
    let report = rig.dev.run_until_idle();
    assert_eq!((report.packets, report.faults), (0, 1));
    let end = rig.dev.with_memory(|m| {
        let id = m.find(RegionKind::Device { channel: 0 }).unwrap();
        m.region(id).unwrap().end()
    });
    let f = rig.dev.take_faults();
    assert_eq!(
        f[0].fault,
        Fault::TxDataBus {
            addr: end,
            len: 4096
        }
    );
    let cause = rig.dev.iofic_cause(ENGINE, Level::Secondary, 0).unwrap();
    assert_eq!(cause, M2sCause::DATA_AXI_RESP.bits());
    assert_eq!(udma.state(Dir::Tx), UdmaState::Abort);
    assert_eq!(rig.dev.read_mem_vec(dst, 4096).unwrap(), vec![0; 4096]);
}
for_each_arch!(bus_error_aborts_on_data_axi_resp);

/// The ring-id mismatch: the first posted descriptor carries the previous lap's ring id (0
/// on the first lap), M2S PREFETCH_RING_ID.
fn ring_id_mismatch_is_prefetch_ring_id<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(ENGINE, QUEUE, 32);
    arm(&rig, Injection::RingId);
    rig.copy_one(&mut pair, 256, 2);
    pair.copy_start(&udma, 1, 1).unwrap();
    assert_eq!(rig.dev.run_until_idle().faults, 1);
    assert_eq!(
        rig.dev.take_faults()[0].fault,
        Fault::TxRingId {
            slot: 0,
            expected: RingId::INITIAL,
            found: RingId::new(0).unwrap()
        }
    );
    let cause = rig.dev.iofic_cause(ENGINE, Level::Secondary, 0).unwrap();
    assert_eq!(cause, M2sCause::PREFETCH_RING_ID.bits());
}
for_each_arch!(ring_id_mismatch_is_prefetch_ring_id);

/// The stall: nothing moves, nothing latches, the heads stay; the next doorbell (a count of
/// 0 is enough) releases the queue and the copy completes.
fn stall_holds_the_queue_until_the_next_doorbell<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(ENGINE, QUEUE, 32);
    arm(&rig, Injection::Stall);
    let (_, dst, data) = rig.copy_one(&mut pair, 512, 3);
    pair.copy_start(&udma, 1, 1).unwrap();
    assert_eq!(rig.dev.run_until_idle(), Default::default());
    let head = rig.dev.queue_head(ENGINE, Dir::Tx, 3).unwrap();
    assert_eq!(head.index, 0);
    for group in 0..3 {
        assert_eq!(
            rig.dev.iofic_cause(ENGINE, Level::Secondary, group),
            Some(0)
        );
    }
    assert_eq!(udma.state(Dir::Tx), UdmaState::Normal);
    udma_desc::Doorbell::ring_tx(&udma, udma_desc::QueueId::new(3).unwrap(), 0);
    rig.run_clean(1);
    assert_eq!(rig.dev.read_mem_vec(dst, 512).unwrap(), data);
}
for_each_arch!(stall_holds_the_queue_until_the_next_doorbell);

/// Another queue's doorbell does not fire an injection, and an RX doorbell does not either.
#[test]
fn only_the_armed_queues_tx_doorbell_fires() {
    let (rig, udma, mut pair) = Rig::<khal_cayman::Cayman>::with_queue(ENGINE, 2, 32);
    arm(&rig, Injection::BusError);
    rig.copy_one(&mut pair, 64, 4);
    pair.copy_start(&udma, 1, 1).unwrap();
    rig.run_clean(1);
    assert_eq!(
        rig.dev.armed_injections().len(),
        1,
        "queue 2 is not queue 3"
    );
}

/// Every register write counts, through BAR0 and through a target-id block; reads do not.
#[test]
fn the_write_log_counts_writes_not_reads() {
    use mmio::Mmio;
    let rig = Rig::<khal_mariana::Mariana>::new();
    let base = rig.dev.unit_base(ENGINE).unwrap();
    let before = rig.dev.register_writes();
    for off in (0..0x3c800).step_by(0x400) {
        rig.dev.read32(base + off);
    }
    assert_eq!(rig.dev.register_writes(), before);
    rig.dev.write32(base + 0x204, 1);
    rig.dev.tgtid_block(ENGINE).unwrap().write32(0x800, 1);
    assert_eq!(rig.dev.register_writes(), before + 2);
    let last: Vec<_> = rig
        .dev
        .recent_register_writes()
        .into_iter()
        .rev()
        .take(2)
        .collect();
    assert_eq!(last[1].offset, base + 0x204);
    assert_eq!(last[0].window, WriteWindow::Tgtid { unit: ENGINE });
    // The TTT served in the unit's own window (khal::regs::ttt::TTT_IN_UNIT) is BAR0 too.
    let ttt = base + khal::regs::ttt::TTT_IN_UNIT.start;
    rig.dev.write32(ttt, 1);
    assert_eq!(rig.dev.register_writes(), before + 3);
    let newest = rig.dev.recent_register_writes().pop().unwrap();
    assert_eq!((newest.offset, newest.window), (ttt, WriteWindow::Bar0));
}
