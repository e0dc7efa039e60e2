//! The descriptor builders of seed 004 §1 through the C ABI: the single copy, the batch,
//! packets, CRC and the stand-alone pair builder. Generic over the arch (`per_arch.rs`).

use core::ffi::c_int;

use khal::Arch;
use udma_desc::{
    Barrier, CopyBlock, CopyRequest, CrcRequest, Descriptor, PacketOptions, RingId, U3,
    build_copy_pair,
};

use crate::engine::{engine, read_in};
use crate::failure::Failure;
use crate::types::{
    al_udma, al_udma_desc, al_udma_m2m_block, al_udma_m2m_copy_req, al_udma_m2m_crc_req,
    al_udma_m2m_packet_opts, al_udma_slots,
};

/// `count` elements at `p` as a slice, refusing NULL (unless `count` is 0) and misalignment.
///
/// # Safety
/// A non-NULL `p` is readable for `count` elements that nobody writes during the call.
pub(crate) unsafe fn slice<'a, T>(
    p: *const T,
    count: u32,
    what: &'static str,
) -> Result<&'a [T], Failure> {
    let n = usize::try_from(count).map_err(|_| Failure::invalid("count", count.into()))?;
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Failure::null(what));
    }
    if p.align_offset(align_of::<T>()) != 0 {
        return Err(Failure::invalid("misaligned array pointer", p as u64));
    }
    // SAFETY: non-NULL, aligned, and readable for `n` elements by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts(p, n) })
}

/// `count` descriptors at `p` as `udma_desc` descriptors (the same memory image).
///
/// # Safety
/// As [`slice`].
pub(crate) unsafe fn descs<'a>(
    p: *const al_udma_desc,
    count: u32,
    what: &'static str,
) -> Result<&'a [Descriptor], Failure> {
    // SAFETY: forwarded; `al_udma_desc` and `Descriptor` have the same size, alignment and
    // valid bit patterns (asserted in `types.rs`).
    let s = unsafe { slice(p, count, what) }?;
    // SAFETY: as above: a reinterpretation of plain 16-byte words.
    Ok(unsafe { core::slice::from_raw_parts(s.as_ptr().cast::<Descriptor>(), s.len()) })
}

/// A C copy request as `udma-desc`'s, its barrier number checked.
#[inline]
fn request(r: &al_udma_m2m_copy_req) -> Result<CopyRequest, Failure> {
    Ok(CopyRequest::new(r.src, r.dst, r.size)
        .with_barrier(Barrier::from_raw(r.barrier)?)
        .with_dst_interrupt(r.dst_int != 0))
}

fn put_slots(out: *mut al_udma_slots, v: al_udma_slots) -> Result<(), Failure> {
    if out.is_null() {
        return Ok(());
    }
    if out.align_offset(align_of::<al_udma_slots>()) != 0 {
        return Err(Failure::invalid("misaligned out-pointer", out as u64));
    }
    // SAFETY: non-NULL, aligned; writable by the caller's contract.
    unsafe { out.write(v) };
    Ok(())
}

/// `al_udma_m2m_copy_prepare_one` (seed 004 §1): one pair, no barrier, no interrupt.
#[inline]
pub(crate) fn copy_prepare_one<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    src: u64,
    dst: u64,
    size: u32,
) -> Result<c_int, Failure> {
    let mut e = engine::<A>(udma)?;
    let q = e.get().queue(qid)?;
    q.pair
        .copy_prepare_one::<A>(&CopyRequest::new(src, dst, size))?;
    Ok(0)
}

/// `al_udma_m2m_copy_prepare_batch`: `udma_desc::RingPair::copy_prepare_batch_from` over
/// the caller's array, read in place (`al_udma_m2m_copy_req` is a `udma_desc::CopySource`):
/// room for all checked first, then the pairs written straight into the caller's ring
/// memory in runs where neither ring wraps, each run's requests checked once at its end
/// (sizes, barrier numbers, SOW on V2), then both rings take the slots. The bytes are those
/// of `count` calls to `copy_prepare_one` with the requests' barriers and interrupts. A
/// refused batch takes no slot and publishes nothing; free slots past the rings' `next` may
/// have been written (the contract of `RingPair::copy_prepare_batch`).
///
/// # Safety
/// `reqs` is NULL or readable for `count` requests; `out` is NULL or writable.
pub(crate) unsafe fn copy_prepare_batch<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    reqs: *const al_udma_m2m_copy_req,
    count: u32,
    out: *mut al_udma_slots,
) -> Result<c_int, Failure> {
    // SAFETY: forwarded from this function's contract.
    let reqs = unsafe { slice(reqs, count, "reqs is NULL") }?;
    let mut e = engine::<A>(udma)?;
    let q = e.get().queue(qid)?;
    let b = q.pair.copy_prepare_batch_from::<A, _>(reqs)?;
    put_slots(
        out,
        al_udma_slots {
            tx_start: b.tx.start(),
            tx_count: b.tx.count(),
            rx_start: b.rx.start(),
            rx_count: b.rx.count(),
        },
    )?;
    Ok(0)
}

/// `al_udma_m2m_build_copy_descriptor` (seed 004 §1, the pair orchestrator): builds one
/// pair into two caller slots; nothing is written unless both are built.
///
/// # Safety
/// `rx_desc`, `tx_desc` are NULL or writable descriptors.
#[allow(
    clippy::too_many_arguments,
    reason = "the seed's argument list plus two"
)]
pub(crate) unsafe fn build_copy_descriptor<A: Arch>(
    rx_desc: *mut al_udma_desc,
    tx_desc: *mut al_udma_desc,
    rx_ring_id: u32,
    tx_ring_id: u32,
    src: u64,
    dst: u64,
    size: u32,
    barrier: u32,
    dst_int: u32,
) -> Result<c_int, Failure> {
    for (p, what) in [(rx_desc, "rx_desc is NULL"), (tx_desc, "tx_desc is NULL")] {
        if p.is_null() {
            return Err(Failure::null(what));
        }
        if p.align_offset(align_of::<al_udma_desc>()) != 0 {
            return Err(Failure::invalid("descriptor not 16-byte aligned", p as u64));
        }
    }
    let rid = |v: u32| {
        u8::try_from(v)
            .map_err(|_| Failure::invalid("ring id above 3", v.into()))
            .and_then(|v| Ok(RingId::new(v)?))
    };
    let req = request(&al_udma_m2m_copy_req {
        src,
        dst,
        size,
        barrier,
        dst_int,
    })?;
    let pair = build_copy_pair::<A>(rid(tx_ring_id)?, rid(rx_ring_id)?, &req)?;
    // SAFETY: both checked non-NULL and aligned; writable by the caller's contract.
    unsafe {
        tx_desc.write(al_udma_desc::from_descriptor(pair.tx));
        rx_desc.write(al_udma_desc::from_descriptor(pair.rx));
    }
    Ok(0)
}

/// `al_udma_m2m_build_packet` (seed 004 §1 `build_cme_packet` / `build_packet`) over an
/// array of blocks.
///
/// # Safety
/// `blocks` is NULL or readable for `num_blocks`; `opts` NULL (defaults) or readable;
/// `out` NULL or writable.
pub(crate) unsafe fn build_packet<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    blocks: *const al_udma_m2m_block,
    num_blocks: u32,
    opts: *const al_udma_m2m_packet_opts,
    out: *mut al_udma_slots,
) -> Result<c_int, Failure> {
    // SAFETY: forwarded from this function's contract.
    let blocks = unsafe { slice(blocks, num_blocks, "blocks is NULL") }?;
    let o = if opts.is_null() {
        al_udma_m2m_packet_opts::default()
    } else {
        // SAFETY: forwarded from this function's contract.
        unsafe { read_in(opts, "opts is NULL") }?
    };
    if o.notification_mask != 0 {
        // The V4-only gate of seed 004 §1, in the order `packet_prepare` checks it.
        let mask = u8::try_from(o.notification_mask)
            .map_err(|_| Failure::invalid("notification mask", o.notification_mask.into()))?;
        return Err(if A::HAS_NOTIFICATION_MASK {
            udma_desc::Error::NotificationMaskEncodingUnknown { mask }
        } else {
            udma_desc::Error::NotificationMaskUnsupported
        }
        .into());
    }
    let mut p = PacketOptions::<A>::new()
        .with_barrier(Barrier::from_raw(o.barrier)?)
        .with_dst_interrupt(o.dst_int != 0);
    if o.cme != 0 {
        let idx = u8::try_from(o.cme_index)
            .map_err(|_| Failure::invalid("CME index", o.cme_index.into()))?;
        p = p.with_cme_index(idx)?;
    }
    let mut e = engine::<A>(udma)?;
    let q = e.get().queue(qid)?;
    let s = q.pair.packet_prepare::<A, _>(
        blocks.iter().map(|b| CopyBlock {
            src: b.src,
            dst: b.dst,
            size: b.size,
        }),
        &p,
    )?;
    put_slots(
        out,
        al_udma_slots {
            tx_start: s.tx_start,
            tx_count: s.tx_count,
            rx_start: s.rx_start,
            rx_count: s.rx_count,
        },
    )?;
    Ok(0)
}

/// `al_udma_m2m_crc_prepare_one` (seed 004 §1; descriptor layout in `udma_desc::CrcRequest`).
///
/// # Safety
/// `req` NULL or readable; `out` NULL or writable.
pub(crate) unsafe fn crc_prepare_one<A: Arch>(
    udma: *mut al_udma,
    qid: u32,
    req: *const al_udma_m2m_crc_req,
    out: *mut al_udma_slots,
) -> Result<c_int, Failure> {
    // SAFETY: forwarded from this function's contract.
    let r = unsafe { read_in(req, "req is NULL") }?;
    let u3 = |v: u32, what| {
        u8::try_from(v)
            .map_err(|_| Failure::invalid(what, v.into()))
            .and_then(|v| Ok(U3::new(v)?))
    };
    let crc = CrcRequest {
        src: r.src,
        size: r.size,
        dst: r.dst,
        seed: (r.use_seed != 0).then_some(r.seed),
        iv_index: u3(r.iv_index, "iv_index above 7")?,
        op_type: u3(r.op_type, "op_type above 7")?,
        store_result: r.store_result != 0,
        dst_interrupt: r.dst_int != 0,
    };
    let mut e = engine::<A>(udma)?;
    let q = e.get().queue(qid)?;
    let s = q.pair.crc_prepare_one::<A>(&crc)?;
    put_slots(
        out,
        al_udma_slots {
            tx_start: s.tx_meta.index,
            tx_count: 2,
            rx_start: s.rx.index,
            rx_count: 1,
        },
    )?;
    Ok(0)
}
