//! Building single descriptors and the copy pair, byte-identical to the vendor driver.

use crate::caps::{PacketCaps, StrongOrder};
use crate::descriptor::join;
use crate::{
    Barrier, Descriptor, Error, MetaCtrl, RingId, RxDesc, RxLenCtrl, TxDesc, TxLenCtrl, encode_size,
};

/// Builds a TX data descriptor: `flags` with its length and ring id replaced, `meta`, and
/// the source address. Size must be `1..=65536` (65,536 is encoded as 0).
///
/// ```
/// use udma_desc::{tx_descriptor, MetaCtrl, RingId, TxLenCtrl};
/// let d = tx_descriptor(RingId::INITIAL, 0x1000, 64, TxLenCtrl::COPY_FLAGS, MetaCtrl::new())?;
/// assert_eq!(d.as_tx().len_ctrl.into_bits(), 0x0d00_0040);
/// assert!(tx_descriptor(RingId::INITIAL, 0x1000, 0, TxLenCtrl::COPY_FLAGS, MetaCtrl::new()).is_err());
/// # Ok::<(), udma_desc::Error>(())
/// ```
#[inline]
pub fn tx_descriptor(
    ring_id: RingId,
    addr: u64,
    size: u32,
    flags: TxLenCtrl,
    meta: MetaCtrl,
) -> Result<Descriptor, Error> {
    let len = encode_size(size)?;
    Ok(Descriptor::from(TxDesc {
        len_ctrl: flags.with_len(len).with_ring_id(ring_id),
        meta_ctrl: meta,
        buf_ptr: addr,
    }))
}

/// Builds an RX descriptor: `flags` with its length and ring id replaced, `buf2_ptr_lo` 0,
/// and the destination address. Size must be `1..=65536`.
///
/// ```
/// use udma_desc::{rx_descriptor, RingId, RxLenCtrl};
/// let d = rx_descriptor(RingId::INITIAL, 0x2000, 65_536, RxLenCtrl::new().with_int_en(true))?;
/// assert_eq!(d.as_rx().len_ctrl.into_bits(), 0x1100_0000);
/// # Ok::<(), udma_desc::Error>(())
/// ```
#[inline]
pub fn rx_descriptor(
    ring_id: RingId,
    addr: u64,
    size: u32,
    flags: RxLenCtrl,
) -> Result<Descriptor, Error> {
    let len = encode_size(size)?;
    Ok(Descriptor::from(RxDesc {
        len_ctrl: flags.with_len(len).with_ring_id(ring_id),
        buf2_ptr_lo: 0,
        buf1_ptr: addr,
    }))
}

/// One memory-to-memory copy: one single-descriptor packet in each direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyRequest {
    /// Source bus address (TX buffer).
    pub src: u64,
    /// Destination bus address (RX buffer).
    pub dst: u64,
    /// Bytes, `1..=65536`.
    pub size: u32,
    /// Ordering.
    pub barrier: Barrier,
    /// Raise the destination (RX) completion interrupt.
    pub dst_interrupt: bool,
}

impl CopyRequest {
    /// A copy without barrier or interrupt.
    #[inline]
    pub const fn new(src: u64, dst: u64, size: u32) -> Self {
        Self {
            src,
            dst,
            size,
            barrier: Barrier::None,
            dst_interrupt: false,
        }
    }

    /// The same copy with `barrier`. [`Barrier::Sow`] given here is checked against the
    /// arch when the pair is built; [`strong_ordered`](Self::strong_ordered) checks it at
    /// compile time instead.
    #[must_use]
    #[inline]
    pub const fn with_barrier(mut self, barrier: Barrier) -> Self {
        self.barrier = barrier;
        self
    }

    /// The same copy with or without the destination interrupt.
    #[must_use]
    #[inline]
    pub const fn with_dst_interrupt(mut self, on: bool) -> Self {
        self.dst_interrupt = on;
        self
    }

    /// The same copy with a strong-ordered destination write; compiles only for archs
    /// that have it (`C: StrongOrder`, i.e. not V2).
    #[must_use]
    #[inline]
    pub const fn strong_ordered<C: StrongOrder>(self) -> Self {
        self.with_barrier(Barrier::Sow)
    }

    /// Checks the request for arch `C` without building anything: the barrier must exist
    /// on the arch, the size must be `1..=65536`. Returns the encoded length.
    #[inline]
    pub fn validate<C: PacketCaps>(&self) -> Result<u16, Error> {
        if self.barrier == Barrier::Sow && !C::HAS_STRONG_ORDER {
            return Err(Error::StrongOrderUnsupported);
        }
        encode_size(self.size)
    }
}

/// The two descriptors of a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyPair {
    /// Source descriptor (TX ring).
    pub tx: Descriptor,
    /// Destination descriptor (RX ring).
    pub rx: Descriptor,
}

/// Builds the descriptor pair of one copy, exactly as the vendor driver lays it out.
///
/// TX: FIRST | LAST | ring id | length, `meta_ctrl` 0x01080003, source address.
/// RX: ring id | length, word 1 zero, destination address. Then the barrier sets its one
/// bit (see [`Barrier`]) and the destination interrupt sets RX INT_EN. TX never gets
/// INT_EN; RX never gets FIRST, LAST or DMB.
///
/// ```
/// use udma_desc::{build_copy_pair, caps::{PacketCaps, Supported, Unsupported}, Barrier, CopyRequest, RingId};
/// struct V3;
/// impl PacketCaps for V3 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
///     type NotificationMasks = Unsupported;
///     type StrongOrdering = Supported;
/// }
/// let req = CopyRequest::new(0x1000, 0x2000, 65_536).with_barrier(Barrier::Dmb);
/// let pair = build_copy_pair::<V3>(RingId::INITIAL, RingId::INITIAL, &req)?;
/// assert_eq!(pair.tx.to_string(), "0000004d030008010010000000000000");
/// assert_eq!(pair.rx.to_string(), "00000001000000000020000000000000");
/// # Ok::<(), udma_desc::Error>(())
/// ```
#[inline]
pub fn build_copy_pair<C: PacketCaps>(
    tx_ring_id: RingId,
    rx_ring_id: RingId,
    req: &CopyRequest,
) -> Result<CopyPair, Error> {
    let len = req.validate::<C>()?;
    Ok(copy_pair_unchecked(tx_ring_id, rx_ring_id, req, len))
}

// The copy words as constants, taken from the typed words (each bit defined once there):
// the hot path ORs them in registers instead of calling the generated setters.
const TX_COPY: u32 = TxLenCtrl::COPY_FLAGS.into_bits();
const TX_DMB: u32 = TxLenCtrl::new().with_dmb(true).into_bits();
const META_COPY: u32 = MetaCtrl::DEFAULT_BITS;
const META_WRITE_BARRIER: u32 = MetaCtrl::new().with_write_barrier(true).into_bits() ^ META_COPY;
const RX_SOW: u32 = RxLenCtrl::new().with_strong_order_wr(true).into_bits();
pub(crate) const RX_INT_EN: u32 = RxLenCtrl::new().with_int_en(true).into_bits();

/// A ring id in place in `len_ctrl` (bits 25:24, TX and RX alike): computed once per run of
/// slots that share it.
#[inline]
pub(crate) const fn ring_id_bits(id: RingId) -> u32 {
    id.in_control_word()
}

/// `bit` when `on`, else 0, without a branch.
#[inline]
const fn bit_if(on: bool, bit: u32) -> u32 {
    bit & (on as u32).wrapping_neg()
}

/// Words 0-1 of a copy's TX descriptor before length and ring id, as one 64-bit half
/// (word 0 low): FIRST | LAST, meta 0x01080003, and the barrier's one bit (DMB in word 0,
/// the write barrier in word 1).
#[inline]
pub(crate) const fn tx_copy_half(barrier: Barrier) -> u64 {
    match barrier {
        Barrier::Dmb => join(TX_COPY | TX_DMB, META_COPY),
        Barrier::WriteBarrier => join(TX_COPY, META_COPY | META_WRITE_BARRIER),
        Barrier::None | Barrier::Sow => join(TX_COPY, META_COPY),
    }
}

/// The RX control-word bit of a barrier (strong-ordered write for SOW, else none).
#[inline]
pub(crate) const fn rx_barrier_bits(barrier: Barrier) -> u32 {
    match barrier {
        Barrier::Sow => RX_SOW,
        Barrier::None | Barrier::Dmb | Barrier::WriteBarrier => 0,
    }
}

/// The TX descriptor of a validated copy: `rid_bits` from [`ring_id_bits`].
#[inline]
pub(crate) fn copy_tx(req: &CopyRequest, len: u16, rid_bits: u32) -> Descriptor {
    let lo = tx_copy_half(req.barrier) | u64::from(u32::from(len) | rid_bits);
    Descriptor::from_half0_addr(lo, req.src)
}

/// The RX descriptor of a validated copy: `rid_bits` from [`ring_id_bits`].
#[inline]
pub(crate) fn copy_rx(req: &CopyRequest, len: u16, rid_bits: u32) -> Descriptor {
    let ctrl = u32::from(len)
        | rid_bits
        | rx_barrier_bits(req.barrier)
        | bit_if(req.dst_interrupt, RX_INT_EN);
    Descriptor::from_words_addr(ctrl, 0, req.dst)
}

/// Builds the pair from an already validated request and its encoded length.
#[inline]
pub(crate) fn copy_pair_unchecked(
    tx_ring_id: RingId,
    rx_ring_id: RingId,
    req: &CopyRequest,
    len: u16,
) -> CopyPair {
    CopyPair {
        tx: copy_tx(req, len, ring_id_bits(tx_ring_id)),
        rx: copy_rx(req, len, ring_id_bits(rx_ring_id)),
    }
}
