// The per-generation symbol set: included once per arch by `lib.rs`, inside a module that
// defines `A` (the arch type) and `c_name!` (the symbol suffix, `_v2` / `_v3` / `_v4`).
// Every function is monomorphised for that `A`: no run-time dispatch on the hot path.
// The header test makes cbindgen read this file once per suffix.

/// Brings up one UDMA engine as the userspace HAL does (seed 004 §2 `al_udma_init`:
/// revision read and checked = 4, queue count, every queue enabled M2S then S2M, the
/// arch's data FIFO depth, `gen.axi.cfg_1`, `m2s.cfg_len`, `s2m` application ack, M2S then
/// S2M error-interrupt unmask) over the caller's register block, and returns a new engine
/// handle in `*udma`.
///
/// Signature: the seed's `al_udma_init(udma, params)` fills caller storage; here the
/// handle is opaque and returned through `udma` (this project's design).
///
/// Returns 0, or -EINVAL (NULL or misaligned pointer, a callback missing, revision other
/// than 4, queue count 0 or above 16 and not 0xFF), -ENOMEM (no free handle). On error no
/// handle is made; registers may have been read (the revision) but none written unless
/// the revision and count were accepted.
///
/// # Safety
/// `params` is NULL or points to a readable `struct al_udma_params`; `udma` is NULL or
/// writable. The register block's `ctx` and callbacks must stay valid until
/// `al_udma_destroy`; the HAL calls them only from threads that call it.
/// Thread safety: any thread.
#[unsafe(export_name = c_name!("al_udma_init"))]
pub unsafe extern "C" fn al_udma_init(params: *const al_udma_params, udma: *mut *mut al_udma) -> c_int {
    // SAFETY: forwarded from this function's contract.
    guard(c_name!("al_udma_init"), || unsafe { engine::init::<A>(params, udma) })
}

/// Makes an engine handle *without* a register block, for an engine whose queue
/// registers the driver owns (on a real host user space may not write them:
/// `reference/dma-path.md`). Descriptors are built into caller rings as with
/// `al_udma_init`; register calls (`al_udma_q_enable`, `al_udma_desc_action_add`,
/// `al_udma_m2m_copy_start`, the IOFIC calls) return -EOPNOTSUPP, and the caller hands the
/// descriptors to the driver (DMA_COPY_DESCRIPTORS, DMA_QUEUE_COPY_START through
/// `ndl_device_ioctl`). This project's function: no seed names it.
///
/// Returns 0, -EINVAL (NULL `udma`, queue count 0 or above 16 and not 0xFF), -ENOMEM.
///
/// # Safety
/// `udma` is NULL or writable. Thread safety: any thread.
#[unsafe(export_name = c_name!("al_udma_attach"))]
pub unsafe extern "C" fn al_udma_attach(num_of_queues: u8, udma: *mut *mut al_udma) -> c_int {
    guard(c_name!("al_udma_attach"), || engine::attach::<A>(num_of_queues, udma))
}

/// Destroys an engine handle: the handle and all its queue handles become invalid (later
/// calls with them return -EBADF). No register is written; ring memory stays the
/// caller's. This project's function (the seed's handle is caller storage).
///
/// Returns 0, -EINVAL (NULL, or not an engine of this generation), -EBADF (already
/// destroyed), -EBUSY (in use by another thread right now: nothing destroyed).
///
/// # Safety
/// None beyond passing a value `al_udma_init`/`al_udma_attach` returned (any other value is
/// refused). Thread safety: any thread.
#[unsafe(export_name = c_name!("al_udma_destroy"))]
pub unsafe extern "C" fn al_udma_destroy(udma: *mut al_udma) -> c_int {
    guard(c_name!("al_udma_destroy"), || engine::destroy::<A>(udma))
}

/// Gives queue `qid` its TX (M2S, source) and RX (S2M, destination) rings and, on an engine
/// with registers, programs them (per ring, TX first: rate-limit mask (TX), pause, pointer
/// reset, base low/high, length, no completion ring, enable: `udma-notes.md` §3). Ring
/// state starts as after init: next slot 0, ring id 1. Calling it again replaces the rings.
/// This project's signature (the vendor's queue init takes its own `al_udma_q_params`).
///
/// Returns 0, -EINVAL (NULL or misaligned pointer, `qid` not below the queue count, a ring
/// size that is not a power of two in 32..=2^23, a bus address not 256-byte aligned).
/// Both rings are checked before any register is written.
///
/// # Safety
/// `tx`, `rx` are NULL or readable. Each `ring` points to `size` writable, 16-byte
/// aligned `struct al_udma_desc` that outlive the engine handle (or the next q_init of this
/// queue) and that the caller does not write while calls on this engine run (reading them,
/// e.g. to hand them to the driver, is fine between calls).
/// Thread safety: any thread; one call per engine at a time (else -EBUSY).
#[unsafe(export_name = c_name!("al_udma_q_init"))]
pub unsafe extern "C" fn al_udma_q_init(
    udma: *mut al_udma,
    qid: u32,
    tx: *const al_udma_q_params,
    rx: *const al_udma_q_params,
) -> c_int {
    // SAFETY: forwarded from this function's contract.
    guard(c_name!("al_udma_q_init"), || unsafe { engine::q_init::<A>(udma, qid, tx, rx) })
}

/// The handle of queue `qid`'s TX (`is_rx` 0) or RX (`is_rx` non-zero) ring (seed 004 §1
/// `al_udma_q_handle_get(udma, qid, is_rx)`; the handle is returned through `q`). It is
/// valid as long as the engine handle.
///
/// Returns 0, -EINVAL (NULL, `qid` not below the queue count), -EBADF, -EBUSY.
///
/// # Safety
/// `q` is NULL or writable. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_q_handle_get"))]
pub unsafe extern "C" fn al_udma_q_handle_get(
    udma: *mut al_udma,
    qid: u32,
    is_rx: c_int,
    q: *mut *mut al_udma_q,
) -> c_int {
    guard(c_name!("al_udma_q_handle_get"), || engine::q_handle_get::<A>(udma, qid, is_rx, q))
}

/// Enables (`enable` non-zero: cfg 0x0303_0000) or pauses (0x0300_0000) one queue ring
/// (seed 004 §2 `al_udma_q_enable`).
///
/// Returns 0, -EINVAL, -EBADF, -EBUSY, -EOPNOTSUPP (attached engine: no registers).
///
/// # Safety
/// None beyond a valid handle. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_q_enable"))]
pub unsafe extern "C" fn al_udma_q_enable(q: *mut al_udma_q, enable: c_int) -> c_int {
    guard(c_name!("al_udma_q_enable"), || engine::q_enable::<A>(q, enable))
}

/// Free slots of the queue ring: `(completed - (next + 16)) mod size` (seed 004 §1
/// `al_udma_available_get`; 16 slots stay in reserve).
///
/// Returns the count (>= 0), or -EINVAL (the queue has no rings), -EBADF, -EBUSY.
///
/// # Safety
/// None beyond a valid handle. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_available_get"))]
pub unsafe extern "C" fn al_udma_available_get(q: *mut al_udma_q) -> c_int {
    guard(c_name!("al_udma_available_get"), || engine::available_get::<A>(q))
}

/// Returns `num` completed descriptors to the queue ring (the vendor HAL's
/// `al_udma_cdesc_ack`; no seed gives its signature). The caller decides completion (e.g.
/// a completion marker landed).
///
/// Returns 0, -EINVAL (`num` above the descriptors outstanding), -EBADF, -EBUSY.
///
/// # Safety
/// None beyond a valid handle. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_cdesc_ack"))]
pub unsafe extern "C" fn al_udma_cdesc_ack(q: *mut al_udma_q, num: u32) -> c_int {
    guard(c_name!("al_udma_cdesc_ack"), || engine::cdesc_ack::<A>(q, num))
}

/// Hands `num` more descriptors of the queue ring to the engine: a full fence, then one
/// write of `num` to the ring's tail-pointer increment (seed 004 §1
/// `al_udma_desc_action_add`).
///
/// Returns 0, -EINVAL (`num` 0 or above the ring size), -EBADF, -EBUSY, -EOPNOTSUPP.
///
/// # Safety
/// None beyond a valid handle. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_desc_action_add"))]
pub unsafe extern "C" fn al_udma_desc_action_add(q: *mut al_udma_q, num: u32) -> c_int {
    guard(c_name!("al_udma_desc_action_add"), || engine::desc_action_add::<A>(q, num))
}

/// Builds one copy (seed 004 §1 `al_udma_m2m_copy_prepare_one(udma, qid, s_addr, d_addr,
/// size)`): checks size 1..=65536 and a free slot on both rings first, then writes the RX
/// slot, the TX slot (TX FIRST|LAST, meta 0x01080003, no barrier) and advances both rings.
/// A refused copy takes no slot and writes nothing.
///
/// Returns 0, -EINVAL (size 0 or above 65536: the seed returns -1 there; a bad `qid`;
/// a queue without rings), -ENOMEM (no room, as the seed), -EBADF, -EBUSY.
///
/// # Safety
/// None beyond a valid handle and the ring contract of `al_udma_q_init`.
/// Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_m2m_copy_prepare_one"))]
pub unsafe extern "C" fn al_udma_m2m_copy_prepare_one(
    udma: *mut al_udma,
    qid: u32,
    s_addr: u64,
    d_addr: u64,
    size: u32,
) -> c_int {
    guard(c_name!("al_udma_m2m_copy_prepare_one"), || {
        batch::copy_prepare_one::<A>(udma, qid, s_addr, d_addr, size)
    })
}

/// Builds `count` copies in one call, each with its barrier and interrupt (the batch path
/// of seed 004 §1, `reserve_descriptors` + `set_descriptors`, over requests). Room for all
/// is checked first (no room: nothing written); a refused batch takes no slot and publishes
/// nothing, though free slots past the rings' next slot may have been written (they stay
/// free: the requests are checked once per run of slots, after the run is written). The
/// bytes are those of `count` single copies. `slots`, if not NULL, receives the first
/// slot and count on each ring. This project's function.
///
/// Returns 0, -EINVAL (a bad request: size, barrier above 3, SOW on V2; NULL `reqs` with
/// `count` > 0; a bad `qid`), -ENOMEM (no room for all), -EBADF, -EBUSY.
///
/// # Safety
/// `reqs` is readable for `count` aligned requests (may be NULL if `count` is 0); `slots`
/// NULL or writable. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_m2m_copy_prepare_batch"))]
pub unsafe extern "C" fn al_udma_m2m_copy_prepare_batch(
    udma: *mut al_udma,
    qid: u32,
    reqs: *const al_udma_m2m_copy_req,
    count: u32,
    slots: *mut al_udma_slots,
) -> c_int {
    guard(c_name!("al_udma_m2m_copy_prepare_batch"), || {
        // SAFETY: forwarded from this function's contract.
        unsafe { batch::copy_prepare_batch::<A>(udma, qid, reqs, count, slots) }
    })
}

/// Rings queue `qid`'s doorbells: RX with `s2m_count`, then TX with `m2s_count` if above 0
/// (seed 004 §1 `al_udma_m2m_copy_start(udma, qid, m2s_count, s2m_count)`, with the 2.26.5.0
/// kernel's checks).
///
/// Returns 0, -EINVAL (a count above its ring size or the 24-bit field, `s2m_count` 0),
/// -EBADF, -EBUSY, -EOPNOTSUPP (attached engine). Nothing is written on error.
///
/// # Safety
/// None beyond a valid handle. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_m2m_copy_start"))]
pub unsafe extern "C" fn al_udma_m2m_copy_start(
    udma: *mut al_udma,
    qid: u32,
    m2s_count: u32,
    s2m_count: u32,
) -> c_int {
    guard(c_name!("al_udma_m2m_copy_start"), || {
        engine::copy_start::<A>(udma, qid, m2s_count, s2m_count)
    })
}

/// Builds the descriptor pair of one copy into two caller slots, exactly as the vendor
/// lays it out (seed 004 §1 `al_udma_m2m_build_copy_descriptor(rx_slot, tx_slot, rx_rid,
/// tx_rid, s_addr, d_addr, size)`, the seed's order; `barrier` and `dst_int`, the kernel
/// builder's two further arguments, are appended). No ring is involved. Nothing is written
/// unless the pair is built.
///
/// Returns 0, -EINVAL (NULL or misaligned slot, ring id above 3, size 0 or above 65536,
/// barrier above 3, SOW on V2).
///
/// # Safety
/// `rx_desc`, `tx_desc` are NULL or writable, 16-byte aligned. Thread safety: any thread.
#[unsafe(export_name = c_name!("al_udma_m2m_build_copy_descriptor"))]
pub unsafe extern "C" fn al_udma_m2m_build_copy_descriptor(
    rx_desc: *mut al_udma_desc,
    tx_desc: *mut al_udma_desc,
    rx_ring_id: u32,
    tx_ring_id: u32,
    s_addr: u64,
    d_addr: u64,
    size: u32,
    barrier: u32,
    dst_int: u32,
) -> c_int {
    guard(c_name!("al_udma_m2m_build_copy_descriptor"), || {
        // SAFETY: forwarded from this function's contract.
        unsafe {
            batch::build_copy_descriptor::<A>(
                rx_desc, tx_desc, rx_ring_id, tx_ring_id, s_addr, d_addr, size, barrier,
                dst_int,
            )
        }
    })
}

/// Builds one packet of `num_blocks` blocks (seed 004 §1 `build_cme_packet` /
/// `build_packet`: optional CME meta descriptor, one TX descriptor per block with FIRST on
/// the first and LAST on the last, one RX per block). The seed walks a `fetch_block`
/// callback; this takes an array (this project's signature). `opts` NULL means none.
/// Nothing is published unless the whole packet is written.
///
/// Returns 0, -EINVAL (no block, more than the arch's cap: 128 V2, 65 V3/V4; a size;
/// more than 0xFFFFF bytes; SOW on V2; a notification mask: before V4 unsupported, on V4 its
/// bits are in no source), -ENOMEM (no room), -EBADF, -EBUSY.
///
/// # Safety
/// `blocks` readable for `num_blocks`; `opts`, `slots` NULL or valid.
/// Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_m2m_build_packet"))]
pub unsafe extern "C" fn al_udma_m2m_build_packet(
    udma: *mut al_udma,
    qid: u32,
    blocks: *const al_udma_m2m_block,
    num_blocks: u32,
    opts: *const al_udma_m2m_packet_opts,
    slots: *mut al_udma_slots,
) -> c_int {
    guard(c_name!("al_udma_m2m_build_packet"), || {
        // SAFETY: forwarded from this function's contract.
        unsafe { batch::build_packet::<A>(udma, qid, blocks, num_blocks, opts, slots) }
    })
}

/// Builds one CRC operation: a TX meta and a TX data descriptor, one RX result descriptor
/// (seed 004 §1 names `al_udma_m2m_crc_prepare_one` without its descriptors; the layout is
/// this project's, `udma_desc::CrcRequest`). Room on both rings is checked first.
///
/// Returns 0, -EINVAL, -ENOMEM, -EBADF, -EBUSY.
///
/// # Safety
/// `req` readable; `slots` NULL or writable. Thread safety: any thread; one call per
/// engine at a time.
#[unsafe(export_name = c_name!("al_udma_m2m_crc_prepare_one"))]
pub unsafe extern "C" fn al_udma_m2m_crc_prepare_one(
    udma: *mut al_udma,
    qid: u32,
    req: *const al_udma_m2m_crc_req,
    slots: *mut al_udma_slots,
) -> c_int {
    guard(c_name!("al_udma_m2m_crc_prepare_one"), || {
        // SAFETY: forwarded from this function's contract.
        unsafe { batch::crc_prepare_one::<A>(udma, qid, req, slots) }
    })
}

/// Claims `num` consecutive slots on both rings of queue `qid` (seed 004 §1
/// `reserve_descriptors`: the pre-reservation indices, phase flip on wrap), returned in
/// `*slots`. One reservation per queue waits at a time, filled by
/// `al_udma_m2m_set_descriptors`.
///
/// Returns 0, -EINVAL (NULL `slots`, a reservation already waiting), -ENOMEM, -EBADF, -EBUSY.
///
/// # Safety
/// `slots` is NULL or writable. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_m2m_reserve_descriptors"))]
pub unsafe extern "C" fn al_udma_m2m_reserve_descriptors(
    udma: *mut al_udma,
    qid: u32,
    num: u32,
    slots: *mut al_udma_slots,
) -> c_int {
    guard(c_name!("al_udma_m2m_reserve_descriptors"), || {
        engine::reserve::<A>(udma, qid, num, slots)
    })
}

/// Writes `num` prebuilt TX and RX descriptors into the waiting reservation of queue
/// `qid`, each stamped with its slot's ring id (seed 004 §1 `set_descriptors`; the seed ORs
/// the id in, this replaces bits 25:24, the same bytes for descriptors with them clear).
///
/// Returns 0, -EINVAL (no reservation waiting, `num` not its count, NULL arrays), -EBADF,
/// -EBUSY.
///
/// # Safety
/// `tx`, `rx` readable for `num` aligned descriptors. Thread safety: any thread; one call
/// per engine at a time.
#[unsafe(export_name = c_name!("al_udma_m2m_set_descriptors"))]
pub unsafe extern "C" fn al_udma_m2m_set_descriptors(
    udma: *mut al_udma,
    qid: u32,
    tx: *const al_udma_desc,
    rx: *const al_udma_desc,
    num: u32,
) -> c_int {
    guard(c_name!("al_udma_m2m_set_descriptors"), || {
        // SAFETY: forwarded from this function's contract.
        unsafe { engine::set_descriptors::<A>(udma, qid, tx, rx, num) }
    })
}

/// Unmasks the M2S (TX) error interrupts of the engine with this generation's masks
/// (seed 004 §4 `al_udma_iofic_m2s_error_ints_unmask`; seven writes, `iofic.tsv`).
/// `al_udma_init` already does it.
///
/// Returns 0, -EINVAL, -EBADF, -EBUSY, -EOPNOTSUPP.
///
/// # Safety
/// None beyond a valid handle. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_iofic_m2s_error_ints_unmask"))]
pub unsafe extern "C" fn al_udma_iofic_m2s_error_ints_unmask(udma: *mut al_udma) -> c_int {
    guard(c_name!("al_udma_iofic_m2s_error_ints_unmask"), || {
        engine::iofic_error_ints_unmask::<A>(udma, true)
    })
}

/// Unmasks the S2M (RX) error interrupts (seed 004 §4
/// `al_udma_iofic_s2m_error_ints_unmask`). As the M2S one otherwise.
///
/// # Safety
/// None beyond a valid handle. Thread safety: any thread; one call per engine at a time.
#[unsafe(export_name = c_name!("al_udma_iofic_s2m_error_ints_unmask"))]
pub unsafe extern "C" fn al_udma_iofic_s2m_error_ints_unmask(udma: *mut al_udma) -> c_int {
    guard(c_name!("al_udma_iofic_s2m_error_ints_unmask"), || {
        engine::iofic_error_ints_unmask::<A>(udma, false)
    })
}
