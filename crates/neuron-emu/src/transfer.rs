//! The data path of one queue pair: fetch a TX packet and its RX buffers from the rings in
//! memory, check them, move the bytes, advance the heads.
//!
//! The behaviour contract is in the crate documentation ("Data path").

use crate::address_space::AddressSpace;
use crate::engine_state::EngineState;
use crate::fault::Fault;
use crate::iofic_model::{GROUP_B, GROUP_C, Level};
use crate::queue::{QueueModel, RingPos};
use crate::unit::UnitModel;
use crate::wire::Fetched;
use khal::regs::{m2s, s2m};

/// Most descriptors per packet the prefetcher accepts when the limit is not programmed
/// (the top of the documented 8..128 range).
const HW_MAX_DESCS_PER_PACKET: u32 = 128;

/// A contiguous range of a packet (source or destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seg {
    addr: u64,
    len: u64,
}

/// Reusable buffers for the data path (no allocation per packet once warmed up).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    tx: Vec<Seg>,
    rx: Vec<Seg>,
}

/// Why a queue pair cannot move a packet now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaitReason {
    /// The M2S or S2M engine is not in the NORMAL state.
    EngineNotRunning,
    /// A stream interface is disabled (`stream_cfg` DISABLE).
    StreamDisabled,
    /// A queue lacks prefetch/scheduling enable, or has no ring length programmed.
    QueueDisabled,
    /// A queue is blocked by an earlier fault.
    Blocked,
    /// No TX descriptor is posted.
    NoTx,
    /// The TX packet's LAST descriptor is not posted yet.
    TxIncomplete,
    /// Fewer RX descriptors are posted than the packet needs.
    NoRx,
}

/// What one attempt on a queue pair did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairOutcome {
    /// One packet moved.
    Moved {
        bytes: u64,
        /// More TX descriptors are posted behind it.
        more: bool,
    },
    /// Nothing could move.
    Wait(WaitReason),
    /// The packet faulted (already reported to the unit).
    Faulted(Fault),
}

/// Engine settings read from the unit's plain registers for a packet (cached by the unit
/// until a plain register changes: see `UnitModel::settings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Either stream interface is disabled (`stream_cfg`).
    stream_disabled: bool,
    encode_64k: bool,
    max_pkt: u64,
    max_desc: u32,
    check_tx_ring_id: bool,
    check_rx_ring_id: bool,
}

impl Settings {
    /// Reads the settings from the unit's registers.
    pub(crate) fn read(unit: &UnitModel) -> Self {
        let cfg_len = unit.plain_as::<m2s::CfgLenReg>(m2s::CfgLenReg::ABS);
        let max_desc = match unit
            .plain_as::<m2s::DescPrefCfg2Reg>(m2s::DescPrefCfg2Reg::ABS)
            .max_desc_per_pkt()
        {
            0 => HW_MAX_DESCS_PER_PACKET,
            n => u32::from(n),
        };
        Self {
            stream_disabled: unit
                .plain_as::<m2s::StreamCfgReg>(m2s::StreamCfgReg::ABS)
                .disable()
                || unit
                    .plain_as::<s2m::StreamCfgReg>(s2m::StreamCfgReg::ABS)
                    .stream_disabled(),
            encode_64k: cfg_len.encode_64k(),
            max_pkt: u64::from(cfg_len.max_pkt_size()),
            max_desc,
            check_tx_ring_id: !unit
                .plain_as::<m2s::ErrLogMaskReg>(m2s::ErrLogMaskReg::ABS)
                .pref_ring_id(),
            check_rx_ring_id: !unit
                .plain_as::<s2m::ErrLogMaskReg>(s2m::ErrLogMaskReg::ABS)
                .pref_ring_id(),
        }
    }
}

/// Summary of a fetched TX packet.
#[derive(Clone, Copy, Debug, Default)]
struct TxPacket {
    descs: u32,
    metas: u32,
    bytes: u64,
    ordering: u32,
    interrupts: u32,
}

/// Summary of the RX side of a packet.
#[derive(Clone, Copy, Debug, Default)]
struct RxSide {
    ordering: u32,
    interrupts: u32,
}

fn fetch(mem: &AddressSpace, q: &QueueModel, pos: RingPos) -> Result<Fetched, u64> {
    let addr = q.slot_addr(pos);
    let mut b = [0u8; Fetched::BYTES];
    mem.read(addr, &mut b).map_err(|_| addr)?;
    Ok(Fetched::from_bytes(b))
}

fn gather_tx(
    mem: &AddressSpace,
    q: &QueueModel,
    set: &Settings,
    segs: &mut Vec<Seg>,
) -> Result<Result<TxPacket, WaitReason>, Fault> {
    segs.clear();
    let mut p = TxPacket::default();
    let mut pos = q.head;
    let mut chained = false;
    loop {
        if u64::from(p.descs) >= q.posted {
            return Ok(Err(WaitReason::TxIncomplete));
        }
        let slot = pos.index;
        let d = fetch(mem, q, pos)
            .map_err(|addr| Fault::TxPrefetchBus { slot, addr })?
            .tx();
        // A CME meta descriptor carries its CME index where data descriptors carry the ring
        // id, so only data descriptors are phase-checked.
        if set.check_tx_ring_id && !d.meta() && d.ring_id() != pos.ring_id {
            return Err(Fault::TxRingId {
                slot,
                expected: pos.ring_id,
                found: d.ring_id(),
            });
        }
        if p.descs == 0 && !d.first() {
            return Err(Fault::TxFirst { slot });
        }
        // A FIRST chained in (CONCAT on the previous descriptor or on itself, as seed 004 §1
        // build_cme_packet marks the data after a CME meta descriptor) continues the packet.
        if p.descs > 0 && d.first() && !chained && !d.concat() {
            return Err(Fault::TxLast { slot });
        }
        p.descs += 1;
        if p.descs > set.max_desc {
            return Err(Fault::TxMaxDesc {
                limit: set.max_desc,
            });
        }
        if d.meta() {
            p.metas += 1;
        } else {
            let len = d.len(set.encode_64k);
            p.bytes += len;
            if p.bytes > set.max_pkt {
                return Err(Fault::TxPacketLen {
                    len: p.bytes,
                    max: set.max_pkt,
                });
            }
            segs.push(Seg {
                addr: d.addr(),
                len,
            });
        }
        p.ordering += u32::from(d.ordering());
        p.interrupts += u32::from(d.int_en());
        pos = pos.advanced(1, q.len);
        chained = d.concat();
        if d.last() {
            return Ok(Ok(p));
        }
    }
}

fn gather_rx(
    mem: &AddressSpace,
    q: &QueueModel,
    set: &Settings,
    count: usize,
    packet_len: u64,
    segs: &mut Vec<Seg>,
) -> Result<Result<RxSide, WaitReason>, Fault> {
    segs.clear();
    if q.posted < count as u64 {
        return Ok(Err(WaitReason::NoRx));
    }
    let mut side = RxSide::default();
    let mut pos = q.head;
    let mut capacity = 0u64;
    for _ in 0..count {
        let slot = pos.index;
        let d = fetch(mem, q, pos)
            .map_err(|addr| Fault::RxPrefetchBus { slot, addr })?
            .rx();
        if set.check_rx_ring_id && d.ring_id() != pos.ring_id {
            return Err(Fault::RxRingId {
                slot,
                expected: pos.ring_id,
                found: d.ring_id(),
            });
        }
        let len = d.len(set.encode_64k);
        capacity += len;
        segs.push(Seg {
            addr: d.addr(),
            len,
        });
        side.ordering += u32::from(d.strong_order());
        side.interrupts += u32::from(d.int_en());
        pos = pos.advanced(1, q.len);
    }
    if capacity < packet_len {
        return Err(Fault::RxShort {
            packet_len,
            rx_capacity: capacity,
        });
    }
    // Trim each buffer to the bytes it will receive.
    let mut remaining = packet_len;
    for s in segs.iter_mut() {
        s.len = s.len.min(remaining);
        remaining -= s.len;
    }
    Ok(Ok(side))
}

/// Checks that every source and destination range is inside memory.
fn check_data(mem: &AddressSpace, tx: &[Seg], rx: &[Seg]) -> Result<(), Fault> {
    for s in tx.iter().filter(|s| s.len > 0) {
        mem.check(s.addr, s.len).map_err(|_| Fault::TxDataBus {
            addr: s.addr,
            len: s.len,
        })?;
    }
    for s in rx.iter().filter(|s| s.len > 0) {
        mem.check(s.addr, s.len).map_err(|_| Fault::RxDataBus {
            addr: s.addr,
            len: s.len,
        })?;
    }
    Ok(())
}

/// Streams the TX ranges into the RX ranges, in order, one slice copy per overlap.
fn move_bytes(mem: &mut AddressSpace, tx: &[Seg], rx: &[Seg]) -> Result<(), Fault> {
    let (mut ti, mut toff, mut ri, mut roff) = (0usize, 0u64, 0usize, 0u64);
    while let (Some(t), Some(d)) = (tx.get(ti), rx.get(ri)) {
        let chunk = (t.len - toff).min(d.len - roff);
        if chunk > 0 {
            let src = t.addr.wrapping_add(toff);
            let dst = d.addr.wrapping_add(roff);
            let n = usize::try_from(chunk).map_err(|_| Fault::TxDataBus {
                addr: src,
                len: chunk,
            })?;
            // Ranges were checked; an error here would be a model bug, reported as a bus error.
            mem.copy(src, dst, n).map_err(|_| Fault::RxDataBus {
                addr: dst,
                len: chunk,
            })?;
        }
        toff += chunk;
        roff += chunk;
        if toff == t.len {
            ti += 1;
            toff = 0;
        }
        if roff == d.len {
            ri += 1;
            roff = 0;
        }
    }
    Ok(())
}

/// Runs at most one packet on queue pair `q` of `unit`.
pub(crate) fn run_pair(
    unit: &mut UnitModel,
    mem: &mut AddressSpace,
    q: usize,
    scratch: &mut Scratch,
) -> PairOutcome {
    match try_pair(unit, mem, q, scratch) {
        Ok(outcome) => outcome,
        Err(fault) => {
            unit.report_fault(q, &fault);
            PairOutcome::Faulted(fault)
        }
    }
}

fn try_pair(
    unit: &mut UnitModel,
    mem: &mut AddressSpace,
    q: usize,
    scratch: &mut Scratch,
) -> Result<PairOutcome, Fault> {
    let wait = |w| Ok(PairOutcome::Wait(w));
    if unit.m2s.state != EngineState::Normal || unit.s2m.state != EngineState::Normal {
        return wait(WaitReason::EngineNotRunning);
    }
    let set = unit.settings();
    if set.stream_disabled {
        return wait(WaitReason::StreamDisabled);
    }
    let (Some(txq), Some(rxq)) = (unit.m2s.queues.get(q), unit.s2m.queues.get(q)) else {
        return wait(WaitReason::QueueDisabled);
    };
    if !txq.enabled() || !rxq.enabled() || txq.len == 0 || rxq.len == 0 {
        return wait(WaitReason::QueueDisabled);
    }
    if txq.blocked.is_some() || rxq.blocked.is_some() {
        return wait(WaitReason::Blocked);
    }
    if txq.posted == 0 {
        return wait(WaitReason::NoTx);
    }
    let tx = match gather_tx(mem, txq, &set, &mut scratch.tx)? {
        Ok(p) => p,
        Err(w) => return wait(w),
    };
    let rx = match gather_rx(mem, rxq, &set, scratch.tx.len(), tx.bytes, &mut scratch.rx)? {
        Ok(s) => s,
        Err(w) => return wait(w),
    };
    check_data(mem, &scratch.tx, &scratch.rx)?;
    move_bytes(mem, &scratch.tx, &scratch.rx)?;

    // Commit: heads advance, completions latch, counters count.
    let rx_descs = u32::try_from(scratch.tx.len()).unwrap_or(u32::MAX);
    if tx.interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_C, 1 << q);
    }
    if rx.interrupts > 0 {
        unit.iofic.raise(Level::Primary, GROUP_B, 1 << q);
    }
    let more;
    {
        let txq = &mut unit.m2s.queues[q];
        txq.consume(tx.descs);
        let s = &mut txq.stats;
        s.packets += 1;
        s.bytes += tx.bytes;
        s.meta_descriptors += u64::from(tx.metas);
        s.ordering_points += u64::from(tx.ordering);
        s.interrupts += u64::from(tx.interrupts);
        more = txq.posted > 0;
    }
    let rxq = &mut unit.s2m.queues[q];
    rxq.consume(rx_descs);
    let s = &mut rxq.stats;
    s.packets += 1;
    s.bytes += tx.bytes;
    s.ordering_points += u64::from(rx.ordering);
    s.interrupts += u64::from(rx.interrupts);
    Ok(PairOutcome::Moved {
        bytes: tx.bytes,
        more,
    })
}
