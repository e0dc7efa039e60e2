//! Fault injection on the model for V2, V3 and V4: each fault raises its documented cause in
//! the secondary IOFIC, moves the engine to abort as the bring-up's abort masks say, and leaves
//! every byte of memory untouched (packets are checked whole before any byte moves).

mod common;

use neuron_emu::for_each_arch;

use common::{Engine, Pair, Rig};
use iofic::{M2sCause, S2mCause};
use khal::Arch;
use khal::regs::queue::Dir;
use khal::regs::{m2s, unit};
use khal::udma::UdmaState;
use mmio::{Mmio, MmioExt};
use neuron_emu::{Direction, Fault, GROUP_A, GROUP_B, GROUP_D, Level};
use udma_desc::{CopyBlock, CopyRequest, Descriptor, PacketOptions, RingId, RxLenCtrl};

const SUMMARY_M2S: u32 = 0x100; // primary D bit 8
const SUMMARY_S2M: u32 = 0x200; // primary D bit 9

fn patch_tx(pair: &mut Pair, slot: u32, f: impl FnOnce(&mut Descriptor)) {
    let mut d = pair.tx().load(slot).unwrap();
    f(&mut d);
    udma_desc::DescStore::store(pair.tx_mut().store_mut(), slot, d).unwrap();
}

fn patch_rx(pair: &mut Pair, slot: u32, f: impl FnOnce(&mut Descriptor)) {
    let mut d = pair.rx().load(slot).unwrap();
    f(&mut d);
    udma_desc::DescStore::store(pair.rx_mut().store_mut(), slot, d).unwrap();
}

/// Rings, runs, and checks: exactly `fault`, its cause bit, the abort, no byte changed.
fn expect_fault<A: Arch>(
    rig: &Rig<A>,
    udma: &Engine<A>,
    pair: &Pair,
    engine: usize,
    (tx, rx): (u32, u32),
    fault: Fault,
) {
    let before = rig.snapshot();
    pair.copy_start(udma, tx, rx).unwrap();
    let report = rig.dev.run_until_idle();
    assert_eq!((report.packets, report.faults), (0, 1));
    let faults = rig.dev.take_faults();
    assert_eq!(faults.len(), 1);
    assert_eq!(faults[0].fault, fault);
    let (group, summary, dir) = match fault.direction() {
        Direction::Tx => (GROUP_A, SUMMARY_M2S, Dir::Tx),
        Direction::Rx => (GROUP_B, SUMMARY_S2M, Dir::Rx),
    };
    assert_eq!(
        rig.dev.iofic_cause(engine, Level::Secondary, group),
        Some(fault.cause_bit())
    );
    let d = rig
        .dev
        .iofic_cause(engine, Level::Primary, GROUP_D)
        .unwrap();
    assert_eq!(
        d & 0xf00,
        summary,
        "the secondary group is summarised in primary D"
    );
    assert_eq!(
        udma.state(dir),
        UdmaState::Abort,
        "abort-enabled by the bring-up policy"
    );
    let other = if dir == Dir::Tx { Dir::Rx } else { Dir::Tx };
    assert_eq!(
        udma.state(other),
        UdmaState::Normal,
        "the other direction keeps running"
    );
    rig.assert_unchanged_outside(&before, &[]);
}

fn wrong_ring_id<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 2, 32);
    let (_, dst, data) = rig.copy_one(&mut pair, 4096, 1);
    patch_tx(&mut pair, 0, |d| d.set_ring_id(RingId::new(3).unwrap()));
    let fault = Fault::TxRingId {
        slot: 0,
        expected: RingId::INITIAL,
        found: RingId::new(3).unwrap(),
    };
    expect_fault(&rig, &udma, &pair, 0, (1, 1), fault);
    assert_eq!(fault.cause_bit(), M2sCause::PREFETCH_RING_ID.bits());

    // Recovery: fix the descriptor, clear the cause through iofic, set NORMAL; the head was
    // left on the packet, so it runs now.
    patch_tx(&mut pair, 0, |d| d.set_ring_id(RingId::INITIAL));
    let genb = udma.regs().window(unit::GEN_BASE);
    iofic::udma::m2s_errors(&genb).clear(M2sCause::PREFETCH_RING_ID);
    assert_eq!(rig.dev.iofic_cause(0, Level::Secondary, GROUP_A), Some(0));
    udma.set_state(UdmaState::Normal).unwrap();
    rig.run_clean(1);
    assert_eq!(rig.dev.read_mem_vec(dst, 4096).unwrap(), data);
}
for_each_arch!(wrong_ring_id);

/// With the ring-id error masked in `err_log_mask` (what the vendor does on NeuronCore
/// engines), the phase is not checked and the copy runs.
fn masked_ring_id_check<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(1, 0, 32);
    let (_, dst, data) = rig.copy_one(&mut pair, 100, 2);
    patch_tx(&mut pair, 0, |d| d.set_ring_id(RingId::new(0).unwrap()));
    let tx = udma.regs().window(unit::M2S_BASE);
    tx.write::<m2s::ErrLogMaskReg>(m2s::ErrLogMask::new().with_pref_ring_id(true));
    pair.copy_start(&udma, 1, 1).unwrap();
    assert_eq!(rig.dev.run_until_idle().faults, 0);
    assert_eq!(rig.dev.read_mem_vec(dst, 100).unwrap(), data);
}
for_each_arch!(masked_ring_id_check);

fn out_of_range_destination<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 32);
    let (src, _) = rig.buffer(rig.host, 4096, 9);
    let end = rig.dev.with_memory(|m| m.region(rig.hbm).unwrap().end());
    let dst = end - 1000; // straddles the end of HBM channel 0
    pair.copy_prepare_one::<A>(&CopyRequest::new(src, dst, 4096))
        .unwrap();
    let fault = Fault::RxDataBus {
        addr: dst,
        len: 4096,
    };
    expect_fault(&rig, &udma, &pair, 0, (1, 1), fault);
    assert_eq!(fault.cause_bit(), S2mCause::DATA_AXI_RESP.bits());
}
for_each_arch!(out_of_range_destination);

fn out_of_range_source_and_ring<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 32);
    let dst = rig.zeroed(rig.hbm, 64);
    pair.copy_prepare_one::<A>(&CopyRequest::new(0xdead_0000_0000, dst, 64))
        .unwrap();
    let fault = Fault::TxDataBus {
        addr: 0xdead_0000_0000,
        len: 64,
    };
    expect_fault(&rig, &udma, &pair, 0, (1, 1), fault);
    assert_eq!(fault.cause_bit(), M2sCause::DATA_AXI_RESP.bits());

    // A ring programmed where no memory is: the descriptor fetch itself fails.
    let udma = rig.engine(1);
    let q = udma_desc::QueueId::new(4).unwrap();
    let nowhere = khal::udma::RingConfig {
        bus_addr: 0x7700_0000_0000,
        size: 32,
    };
    let good = khal::udma::RingConfig {
        bus_addr: rig.dev.alloc(rig.host, 512, 256).unwrap(),
        size: 32,
    };
    udma.init_queue(q, nowhere, good).unwrap();
    let before = rig.snapshot();
    udma.regs()
        .window(khal::regs::queue::queue_base(Dir::Tx, q))
        .write32(0x38, 1);
    assert_eq!(rig.dev.run_until_idle().faults, 1);
    assert_eq!(
        rig.dev.take_faults()[0].fault,
        Fault::TxPrefetchBus {
            slot: 0,
            addr: 0x7700_0000_0000
        }
    );
    assert_eq!(udma.state(Dir::Tx), UdmaState::Abort);
    rig.assert_unchanged_outside(&before, &[]);
}
for_each_arch!(out_of_range_source_and_ring);

fn rx_shorter_than_tx<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 5, 32);
    rig.copy_one(&mut pair, 4096, 3);
    patch_rx(&mut pair, 0, |d| {
        let w = RxLenCtrl::from_bits(d.word0()).with_len(1024);
        d.set_word0(w.into_bits());
    });
    let fault = Fault::RxShort {
        packet_len: 4096,
        rx_capacity: 1024,
    };
    expect_fault(&rig, &udma, &pair, 0, (1, 1), fault);
    assert_eq!(fault.cause_bit(), S2mCause::PKT_LEN.bits());
}
for_each_arch!(rx_shorter_than_tx);

fn last_missing<A: Arch>() {
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 1, 32);
    let (src, _) = rig.buffer(rig.host, 3 * 512, 1);
    let dst = rig.zeroed(rig.hbm, 3 * 512);
    let blocks = (0..3u64).map(|i| CopyBlock {
        src: src + i * 512,
        dst: dst + i * 512,
        size: 512,
    });
    let slots = pair
        .packet_prepare(blocks, &PacketOptions::<A>::new())
        .unwrap();
    patch_tx(&mut pair, 2, |d| d.set_last(false));
    // Without LAST the packet is still open: the engine waits for more descriptors.
    let before = rig.snapshot();
    pair.copy_start(&udma, slots.tx_count, slots.rx_count)
        .unwrap();
    assert_eq!(rig.dev.run_until_idle(), Default::default());
    assert_eq!(udma.state(Dir::Tx), UdmaState::Normal);
    rig.assert_unchanged_outside(&before, &[]);
    // The next packet's FIRST arrives before any LAST: PREFETCH_LAST.
    rig.copy_one(&mut pair, 64, 4);
    let fault = Fault::TxLast { slot: 3 };
    expect_fault(&rig, &udma, &pair, 0, (1, 1), fault);
    assert_eq!(fault.cause_bit(), M2sCause::PREFETCH_LAST.bits());
}
for_each_arch!(last_missing);

/// More descriptors than the programmed prefetch limit (engine init programs the arch's
/// `MAX_TX_DESCS_PER_PACKET`, V2 128, V3 and V4 65; the test lowers it to 8).
fn too_many_descriptors<A: Arch>() {
    let rig = Rig::<A>::new();
    let udma = rig.engine(0);
    udma.set_max_descs_per_packet(8).unwrap();
    let mut pair = rig.queue(&udma, 0, 32);
    let (src, _) = rig.buffer(rig.host, 9 * 64, 2);
    let dst = rig.zeroed(rig.hbm, 9 * 64);
    let blocks = (0..9u64).map(|i| CopyBlock {
        src: src + i * 64,
        dst: dst + i * 64,
        size: 64,
    });
    let slots = pair
        .packet_prepare(blocks, &PacketOptions::<A>::new())
        .unwrap();
    let fault = Fault::TxMaxDesc { limit: 8 };
    expect_fault(
        &rig,
        &udma,
        &pair,
        0,
        (slots.tx_count, slots.rx_count),
        fault,
    );
    assert_eq!(fault.cause_bit(), M2sCause::PREFETCH_MAX_DESC.bits());
}
for_each_arch!(too_many_descriptors);

/// A cause whose abort-mask bit is 1 latches but does not abort: only the faulting queue
/// stops, the others keep running, and a doorbell retries the fixed descriptor.
fn non_aborting_fault_blocks_only_its_queue<A: Arch>() {
    let rig = Rig::<A>::new();
    let udma = rig.engine(0);
    let genb = udma.regs().window(unit::GEN_BASE);
    let errors = iofic::udma::m2s_errors(&genb);
    errors.abort_exactly(M2sCause::all_named() - M2sCause::PREFETCH_RING_ID);
    let mut bad = rig.queue(&udma, 0, 32);
    let mut good = rig.queue(&udma, 1, 32);
    let (_, bad_dst, bad_data) = rig.copy_one(&mut bad, 256, 5);
    patch_tx(&mut bad, 0, |d| d.set_ring_id(RingId::new(2).unwrap()));
    let (_, good_dst, good_data) = rig.copy_one(&mut good, 256, 6);
    bad.copy_start(&udma, 1, 1).unwrap();
    good.copy_start(&udma, 1, 1).unwrap();
    let report = rig.dev.run_until_idle();
    assert_eq!((report.packets, report.faults), (1, 1));
    assert_eq!(errors.cause(), M2sCause::PREFETCH_RING_ID);
    assert_eq!(udma.state(Dir::Tx), UdmaState::Normal);
    assert_eq!(rig.dev.read_mem_vec(good_dst, 256).unwrap(), good_data);
    assert_eq!(rig.dev.read_mem_vec(bad_dst, 256).unwrap(), vec![0; 256]);
    // Fix the slot and ring a zero-count doorbell: the queue retries its head.
    patch_tx(&mut bad, 0, |d| d.set_ring_id(RingId::INITIAL));
    udma.regs()
        .window(khal::regs::queue::queue_base(Dir::Tx, bad.queue()))
        .write32(0x38, 0);
    rig.run_clean(1);
    assert_eq!(rig.dev.read_mem_vec(bad_dst, 256).unwrap(), bad_data);
}
for_each_arch!(non_aborting_fault_blocks_only_its_queue);

#[test]
fn head_stays_on_the_faulting_packet() {
    type A = khal_cayman::Cayman;
    let (rig, udma, mut pair) = Rig::<A>::with_queue(0, 0, 32);
    rig.copy_one(&mut pair, 10, 7);
    rig.copy_one(&mut pair, 10, 8);
    patch_tx(&mut pair, 1, |d| d.set_ring_id(RingId::new(0).unwrap()));
    pair.copy_start(&udma, 2, 2).unwrap();
    let report = rig.dev.run_until_idle();
    assert_eq!((report.packets, report.faults), (1, 1));
    let head = rig.dev.queue_head(0, Direction::Tx, 0).unwrap();
    assert_eq!((head.index, head.ring_id), (1, RingId::INITIAL));
    let reg = udma
        .regs()
        .window(khal::regs::queue::queue_base(Dir::Tx, pair.queue()))
        .read32(0x34);
    assert_eq!(reg, 0x4000_0001, "drhp: index 1, ring id 1");
}
