//! The engine handle behind `struct al_udma`: `khal::udma::Udma<A, _>` plus the
//! `udma_desc::RingPair` of each queue over caller memory. Every function here is generic
//! over the arch and is monomorphised once per `_vN` symbol set (`per_arch.rs`).

use core::ffi::c_int;

use khal::Arch;
use khal::udma::{EngineParams, RingConfig, Udma, UdmaError};
use mmio::{BUS_ERROR_READ, Mmio, MmioExt};
use udma_desc::{Direction, QueueId, Reservation, RingPair};

use crate::failure::Failure;
use crate::handle::{self, Acquired, Kind};
use crate::regs::CRegs;
use crate::ring_mem::RawRing;
use crate::types::{al_udma, al_udma_params, al_udma_q, al_udma_q_params, al_udma_slots};

/// The register block of an engine handle: the caller's, or none (an attached engine,
/// whose queue registers the driver owns).
#[derive(Clone, Copy, Debug)]
pub(crate) enum EngineRegs {
    /// The caller's callbacks.
    C(CRegs),
    /// No register access: reads are bus errors, writes are dropped, and every entry
    /// that would touch a register refuses first (`Failure::NoRegisters`).
    Detached,
}

impl Mmio for EngineRegs {
    #[inline]
    fn read32(&self, offset: usize) -> u32 {
        match self {
            EngineRegs::C(r) => r.read32(offset),
            EngineRegs::Detached => BUS_ERROR_READ,
        }
    }
    #[inline]
    fn write32(&self, offset: usize, value: u32) {
        if let EngineRegs::C(r) = self {
            r.write32(offset, value)
        }
    }
}

/// A bulk reservation waiting for `al_udma_m2m_set_descriptors`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    tx: Reservation,
    rx: Reservation,
}

/// The rings of one queue.
#[derive(Debug)]
pub(crate) struct Queue {
    pub(crate) pair: RingPair<RawRing, RawRing>,
    pending: Option<Pending>,
}

/// What `struct al_udma` stands for.
#[derive(Debug)]
pub(crate) struct Engine<A: Arch> {
    udma: Udma<A, EngineRegs>,
    queues: [Option<Queue>; 16],
}

/// The slot kind of an engine of arch `A`.
const fn kind<A: Arch>() -> Kind {
    Kind::engine(A::GENERATION)
}

/// Acquires the engine behind `udma` (an engine handle of arch `A`).
#[inline]
pub(crate) fn engine<A: Arch>(udma: *mut al_udma) -> Result<Acquired<Engine<A>>, Failure> {
    Ok(handle::acquire(udma as usize, "udma", kind::<A>(), false)?)
}

/// Acquires the engine of queue handle `q`; returns the queue id and direction too.
#[inline]
fn queue_of<A: Arch>(
    q: *mut al_udma_q,
) -> Result<(Acquired<Engine<A>>, QueueId, Direction), Failure> {
    let e = handle::acquire::<Engine<A>>(q as usize, "q", kind::<A>(), true)?;
    let (qid, rx) = e.token.queue.unwrap_or((0, false));
    let qid = QueueId::new(qid.into()).map_err(udma_desc::Error::from)?;
    Ok((e, qid, if rx { Direction::Rx } else { Direction::Tx }))
}

impl<A: Arch> Engine<A> {
    fn new(udma: Udma<A, EngineRegs>) -> Self {
        Self {
            udma,
            queues: Default::default(),
        }
    }

    /// The engine with a register block, or [`Failure::NoRegisters`].
    pub(crate) fn with_regs(&self) -> Result<&Udma<A, EngineRegs>, Failure> {
        match self.udma.regs() {
            EngineRegs::C(_) => Ok(&self.udma),
            EngineRegs::Detached => Err(Failure::NoRegisters),
        }
    }

    /// Checks `qid` against 16 and the configured queue count.
    fn queue_id(&self, qid: u32) -> Result<QueueId, Failure> {
        let q = QueueId::new(qid).map_err(udma_desc::Error::from)?;
        if q.get() >= self.udma.queue_count() {
            return Err(UdmaError::QueueNotConfigured {
                queue: q.get(),
                count: self.udma.queue_count(),
            }
            .into());
        }
        Ok(q)
    }

    /// The rings of queue `qid`.
    #[inline]
    pub(crate) fn queue(&mut self, qid: u32) -> Result<&mut Queue, Failure> {
        let q = self.queue_id(qid)?;
        self.queues
            .get_mut(q.index())
            .and_then(Option::as_mut)
            .ok_or(Failure::invalid(
                "queue has no rings yet (al_udma_q_init first)",
                qid.into(),
            ))
    }
}

/// Writes `v` to `*out` (checked non-NULL first by the caller).
fn put<T>(out: *mut T, v: T) {
    // SAFETY: callers pass a pointer they checked non-NULL; the header makes the caller
    // vouch that it is writable and aligned for `T`.
    unsafe { out.write(v) }
}

/// Checks an out-pointer: NULL and misalignment are refused (a Rust write through either
/// would be undefined behaviour).
pub(crate) fn out_ptr<T>(out: *mut T, what: &'static str) -> Result<*mut T, Failure> {
    if out.is_null() {
        Err(Failure::null(what))
    } else if out.align_offset(align_of::<T>()) != 0 {
        Err(Failure::invalid("misaligned out-pointer", out as u64))
    } else {
        Ok(out)
    }
}

/// Reads an in-struct, refusing NULL and misalignment.
///
/// # Safety
/// A non-NULL `p` points to a readable `T`.
pub(crate) unsafe fn read_in<T: Copy>(p: *const T, what: &'static str) -> Result<T, Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    if p.align_offset(align_of::<T>()) != 0 {
        return Err(Failure::invalid("misaligned argument pointer", p as u64));
    }
    // SAFETY: non-NULL and aligned, readable by the caller's contract.
    Ok(unsafe { p.read() })
}

fn publish<A: Arch>(engine: Engine<A>, out: *mut *mut al_udma) -> Result<c_int, Failure> {
    let raw = handle::insert(Box::new(engine), kind::<A>())?;
    put(out, raw as *mut al_udma);
    Ok(0)
}

/// `al_udma_init`: the userspace HAL's bring-up over the caller's register block.
///
/// # Safety
/// `params` is NULL or readable; `out` is NULL or writable.
pub(crate) unsafe fn init<A: Arch>(
    params: *const al_udma_params,
    out: *mut *mut al_udma,
) -> Result<c_int, Failure> {
    let out = out_ptr(out, "udma out-pointer is NULL")?;
    // SAFETY: forwarded from this function's contract.
    let p = unsafe { read_in(params, "params is NULL") }?;
    let regs = EngineRegs::C(CRegs::new(&p.regs)?);
    let params = EngineParams {
        queue_count: p.num_of_queues,
        ..EngineParams::for_arch::<A>()
    };
    publish(Engine::new(Udma::<A, _>::init_hal(regs, params)?), out)
}

/// `al_udma_attach`: an engine handle without registers.
pub(crate) fn attach<A: Arch>(num_of_queues: u8, out: *mut *mut al_udma) -> Result<c_int, Failure> {
    let out = out_ptr(out, "udma out-pointer is NULL")?;
    let udma = Udma::<A, _>::attach(EngineRegs::Detached, num_of_queues, None)?;
    publish(Engine::new(udma), out)
}

/// `al_udma_destroy`.
pub(crate) fn destroy<A: Arch>(udma: *mut al_udma) -> Result<c_int, Failure> {
    drop(handle::remove::<Engine<A>>(
        udma as usize,
        "udma",
        kind::<A>(),
    )?);
    Ok(0)
}

/// `al_udma_q_init`: adopts the two rings of queue `qid` and, with registers, programs
/// them (TX then RX, `Udma::init_queue`).
///
/// # Safety
/// `tx`, `rx` are NULL or readable; the rings they name satisfy the header's contract.
pub(crate) unsafe fn q_init<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    tx: *const al_udma_q_params,
    rx: *const al_udma_q_params,
) -> Result<c_int, Failure> {
    // SAFETY: forwarded from this function's contract.
    let (t, r) = unsafe { (read_in(tx, "tx is NULL")?, read_in(rx, "rx is NULL")?) };
    let mut e = engine::<A>(udma)?;
    let e = e.get();
    let q = e.queue_id(qid)?;
    let tx_cfg = RingConfig {
        bus_addr: t.bus_addr,
        size: t.size,
    };
    let rx_cfg = RingConfig {
        bus_addr: r.bus_addr,
        size: r.size,
    };
    tx_cfg.validate(Direction::Tx)?;
    rx_cfg.validate(Direction::Rx)?;
    let pair = RingPair::new(
        q,
        udma_desc::DescRing::new(
            Direction::Tx,
            RawRing::new(t.ring, t.size, "tx->ring is NULL")?,
        )?,
        udma_desc::DescRing::new(
            Direction::Rx,
            RawRing::new(r.ring, r.size, "rx->ring is NULL")?,
        )?,
    );
    if matches!(e.udma.regs(), EngineRegs::C(_)) {
        e.udma.init_queue(q, tx_cfg, rx_cfg)?;
    }
    if let Some(slot) = e.queues.get_mut(q.index()) {
        *slot = Some(Queue {
            pair,
            pending: None,
        });
    }
    Ok(0)
}

/// `al_udma_q_handle_get`.
pub(crate) fn q_handle_get<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    is_rx: c_int,
    out: *mut *mut al_udma_q,
) -> Result<c_int, Failure> {
    let out = out_ptr(out, "q out-pointer is NULL")?;
    let mut e = engine::<A>(udma)?;
    let q = e.get().queue_id(qid)?;
    put(
        out,
        e.token.queue_handle(q.get(), is_rx != 0) as *mut al_udma_q,
    );
    Ok(0)
}

/// `al_udma_q_enable`.
pub(crate) fn q_enable<A: Arch>(q: *mut al_udma_q, enable: c_int) -> Result<c_int, Failure> {
    let (mut e, qid, dir) = queue_of::<A>(q)?;
    let u = e.get().with_regs()?;
    if enable != 0 {
        u.enable_queue(dir, qid)?;
    } else {
        u.pause_queue(dir, qid)?;
    }
    Ok(0)
}

/// The ring of `dir` of queue `qid` in `e`.
fn ring<A: Arch>(
    e: &mut Engine<A>,
    qid: QueueId,
    dir: Direction,
) -> Result<&udma_desc::Ring, Failure> {
    let q = e.queue(qid.get().into())?;
    Ok(match dir {
        Direction::Tx => q.pair.tx().ring(),
        Direction::Rx => q.pair.rx().ring(),
    })
}

/// `al_udma_available_get`: free slots of the queue's ring.
pub(crate) fn available_get<A: Arch>(q: *mut al_udma_q) -> Result<c_int, Failure> {
    let (mut e, qid, dir) = queue_of::<A>(q)?;
    let free = ring(e.get(), qid, dir)?.available();
    // At most 2^23 - 16: always fits.
    Ok(c_int::try_from(free).unwrap_or(c_int::MAX))
}

/// `al_udma_cdesc_ack`: returns `num` completed descriptors to the queue's ring.
pub(crate) fn cdesc_ack<A: Arch>(q: *mut al_udma_q, num: u32) -> Result<c_int, Failure> {
    let (mut e, qid, dir) = queue_of::<A>(q)?;
    ring(e.get(), qid, dir)?.ack(num)?;
    Ok(0)
}

/// `al_udma_desc_action_add`: the doorbell of one ring (`num` in `1..=ring size`).
pub(crate) fn desc_action_add<A: Arch>(q: *mut al_udma_q, num: u32) -> Result<c_int, Failure> {
    use udma_desc::Doorbell;
    let (mut e, qid, dir) = queue_of::<A>(q)?;
    let size = ring(e.get(), qid, dir)?.size();
    if num == 0 || num > size {
        return Err(Failure::invalid(
            "descriptor count must be 1..=ring size",
            num.into(),
        ));
    }
    let u = e.get().with_regs()?;
    match dir {
        Direction::Tx => u.ring_tx(qid, num),
        Direction::Rx => u.ring_rx(qid, num),
    }
    Ok(0)
}

/// `al_udma_m2m_copy_start`: counts checked against the rings, then `Udma::copy_start`
/// (RX doorbell, then TX).
pub(crate) fn copy_start<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    m2s_count: u32,
    s2m_count: u32,
) -> Result<c_int, Failure> {
    let mut e = engine::<A>(udma)?;
    let e = e.get();
    let q = e.queue(qid)?;
    for (dir, count, size) in [
        (Direction::Tx, m2s_count, q.pair.tx().ring().size()),
        (Direction::Rx, s2m_count, q.pair.rx().ring().size()),
    ] {
        if count > size {
            return Err(udma_desc::Error::DoorbellCountTooLarge {
                ring: dir,
                count,
                ring_size: size,
            }
            .into());
        }
    }
    let id = q.pair.queue();
    e.with_regs()?.copy_start(id, m2s_count, s2m_count)?;
    Ok(0)
}

/// `al_udma_m2m_reserve_descriptors`: takes `num` slots on both rings of queue `qid`
/// (both checked first) and remembers the reservation for `set_descriptors`.
pub(crate) fn reserve<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    num: u32,
    out: *mut al_udma_slots,
) -> Result<c_int, Failure> {
    let out = out_ptr(out, "slots out-pointer is NULL")?;
    let mut e = engine::<A>(udma)?;
    let q = e.get().queue(qid)?;
    if q.pending.is_some() {
        return Err(Failure::invalid(
            "a reservation is already waiting for al_udma_m2m_set_descriptors",
            qid.into(),
        ));
    }
    q.pair.tx().ring().ensure_room(num)?;
    q.pair.rx().ring().ensure_room(num)?;
    let tx = q.pair.tx_mut().reserve(num)?;
    let rx = q.pair.rx_mut().reserve(num)?;
    q.pending = Some(Pending { tx, rx });
    put(out, slots_of(&tx, &rx));
    Ok(0)
}

fn slots_of(tx: &Reservation, rx: &Reservation) -> al_udma_slots {
    al_udma_slots {
        tx_start: tx.start(),
        tx_count: tx.count(),
        rx_start: rx.start(),
        rx_count: rx.count(),
    }
}

/// `al_udma_m2m_set_descriptors`: writes `num` prebuilt TX and RX descriptors into the
/// waiting reservation, each stamped with its slot's ring id.
///
/// # Safety
/// `tx`, `rx` are NULL or readable for `num` descriptors.
pub(crate) unsafe fn set_descriptors<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    tx: *const crate::types::al_udma_desc,
    rx: *const crate::types::al_udma_desc,
    num: u32,
) -> Result<c_int, Failure> {
    // SAFETY: forwarded from this function's contract.
    let (tx, rx) = unsafe {
        (
            crate::batch::descs(tx, num, "tx is NULL")?,
            crate::batch::descs(rx, num, "rx is NULL")?,
        )
    };
    let mut e = engine::<A>(udma)?;
    let q = e.get().queue(qid)?;
    let p = q.pending.ok_or(Failure::invalid(
        "no reservation waiting (al_udma_m2m_reserve_descriptors first)",
        qid.into(),
    ))?;
    if p.tx.count() != num {
        return Err(udma_desc::Error::ReservationMismatch {
            reserved: p.tx.count(),
            given: tx.len(),
        }
        .into());
    }
    q.pair.tx_mut().write_reserved(&p.tx, tx)?;
    q.pair.rx_mut().write_reserved(&p.rx, rx)?;
    q.pending = None;
    Ok(0)
}

/// `al_udma_iofic_m2s_error_ints_unmask` (`m2s`) or `_s2m_` (`!m2s`): the `iofic`
/// policy with the masks of `A`'s UDMA revision, on the unit's `gen` block.
pub(crate) fn iofic_error_ints_unmask<A: Arch>(
    udma: *mut al_udma,
    m2s: bool,
) -> Result<c_int, Failure> {
    let mut e = engine::<A>(udma)?;
    let u = e.get().with_regs()?;
    let genb = u.regs().window(iofic::layout::GEN_BASE_IN_UNIT);
    if m2s {
        iofic::udma::m2s_bring_up::<A::Revision, _>(&genb);
    } else {
        iofic::udma::s2m_bring_up::<A::Revision, _>(&genb);
    }
    Ok(0)
}
