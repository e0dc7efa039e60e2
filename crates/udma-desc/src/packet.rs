//! Multi-descriptor packets: N TX + N RX descriptors, optionally behind a CME meta descriptor.

use core::marker::PhantomData;

use crate::caps::{NotificationMask, PacketCaps, StrongOrder};
use crate::{
    Barrier, DescStore, Descriptor, Direction, Error, MetaCtrl, RingPair, RxDesc, RxLenCtrl,
    TxDesc, TxLenCtrl, encode_size,
};

/// Largest packet in bytes: `m2s.cfg_len` MAX_PKT_SIZE, 20 bits, which the driver
/// programs to its maximum 0xFFFFF.
pub const MAX_PACKET_BYTES: u32 = 0x000f_ffff;

/// Largest CME index the project accepts.
///
/// Seed 004 §1 `build_cme_packet` writes the meta word as `(cme_index << 24) | 0x04800000`
/// and gives no range for the index. Bit 26 (FIRST) is always set by that formula and bits
/// 27..31 are LAST, INT_EN, DMB and CONCAT, so only indices `0..=3` (bits 25:24) keep the
/// formula one-to-one and the flags as the seed states them; anything wider is refused.
pub const CME_INDEX_MAX: u8 = 3;

/// The CME meta-descriptor constant of seed 004 §1 `build_cme_packet`: FIRST (bit 26) |
/// META (bit 23), built from the typed fields and pinned to the seed's literal.
pub const CME_META_FLAGS: u32 = TxLenCtrl::new()
    .with_first(true)
    .with_meta(true)
    .into_bits();
const _: () = assert!(
    CME_META_FLAGS == 0x0480_0000,
    "seed 004 §1: meta_w0 | 0x04800000"
);

/// One block of a packet: `size` bytes from `src` to `dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyBlock {
    /// Source bus address.
    pub src: u64,
    /// Destination bus address.
    pub dst: u64,
    /// Bytes, `1..=65536`.
    pub size: u32,
}

/// One side's piece of a scatter-gather packet: `size` bytes at bus address `addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    /// Bus address.
    pub addr: u64,
    /// Bytes, `1..=65536`.
    pub size: u32,
}

/// One block of a scatter-gather packet: the TX descriptor's source segment and the RX
/// descriptor's destination segment, sized independently.
///
/// Seed 004 §1 `build_packet` runs two loops of `num_blocks` each, the TX loop and then the
/// RX loop, and calls `fetch_block` afresh in each: the source and the destination are split
/// into the same number of blocks, but not necessarily at the same places. A [`CopyBlock`]
/// is the symmetric case (one size for both sides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SgBlock {
    /// What the block's TX descriptor reads.
    pub src: Segment,
    /// What the block's RX descriptor writes.
    pub dst: Segment,
}

impl From<CopyBlock> for SgBlock {
    fn from(b: CopyBlock) -> Self {
        Self {
            src: Segment {
                addr: b.src,
                size: b.size,
            },
            dst: Segment {
                addr: b.dst,
                size: b.size,
            },
        }
    }
}

/// How to build a packet for arch `C`. The per-arch features are gated at compile time:
/// [`with_strong_order`](Self::with_strong_order) needs `C: StrongOrder`,
/// [`with_notification_mask`](Self::with_notification_mask) needs `C: NotificationMask`.
///
/// ```
/// use udma_desc::{caps::{PacketCaps, Supported, Unsupported}, PacketOptions};
/// struct V3;
/// impl PacketCaps for V3 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
///     type NotificationMasks = Unsupported;
///     type StrongOrdering = Supported;
/// }
/// let opts = PacketOptions::<V3>::new().with_strong_order().with_dst_interrupt(true);
/// ```
///
/// A V2-like arch has no strong order, so this does not compile:
///
/// ```compile_fail
/// use udma_desc::{caps::{PacketCaps, Unsupported}, PacketOptions};
/// struct V2;
/// impl PacketCaps for V2 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x80;
///     type NotificationMasks = Unsupported;
///     type StrongOrdering = Unsupported;
/// }
/// let opts = PacketOptions::<V2>::new().with_strong_order();
/// ```
///
/// Nor does a notification mask before V4:
///
/// ```compile_fail
/// use udma_desc::{caps::{PacketCaps, Supported, Unsupported}, PacketOptions};
/// struct V3;
/// impl PacketCaps for V3 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
///     type NotificationMasks = Unsupported;
///     type StrongOrdering = Supported;
/// }
/// let opts = PacketOptions::<V3>::new().with_notification_mask(1);
/// ```
#[derive(Debug)]
pub struct PacketOptions<C> {
    barrier: Barrier,
    dst_interrupt: bool,
    cme_index: Option<u8>,
    notification_mask: u8,
    caps: PhantomData<fn() -> C>,
}

impl<C> Clone for PacketOptions<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for PacketOptions<C> {}

impl<C: PacketCaps> Default for PacketOptions<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: PacketCaps> PacketOptions<C> {
    /// No barrier, no interrupt, no CME descriptor, no notification.
    pub const fn new() -> Self {
        Self {
            barrier: Barrier::None,
            dst_interrupt: false,
            cme_index: None,
            notification_mask: 0,
            caps: PhantomData,
        }
    }

    /// Orders the packet. Seed 004 §1 `build_packet` hands the same TX `flags` and the same
    /// `meta` word to every TX data descriptor and `0x20000000` (SOW) to every RX one, so
    /// DMB (TX `len_ctrl` bit 30) and the write barrier (TX `meta_ctrl` bit 26) go on
    /// every TX data descriptor, SOW on every RX descriptor (checked against the arch when
    /// the packet is built). The CME meta descriptor never carries a barrier: its word is
    /// exactly the seed's. (The seed does not say which barrier bits its callers put in
    /// `flags`; this is the placement its loop gives.)
    #[must_use]
    pub const fn with_barrier(mut self, barrier: Barrier) -> Self {
        self.barrier = barrier;
        self
    }

    /// Sets INT_EN on the packet's last RX descriptor.
    #[must_use]
    pub const fn with_dst_interrupt(mut self, on: bool) -> Self {
        self.dst_interrupt = on;
        self
    }

    /// Prepends a CME meta descriptor with this index (`0..=3`, see [`CME_INDEX_MAX`]).
    pub const fn with_cme_index(mut self, index: u8) -> Result<Self, Error> {
        if let Err(e) = Error::check_width("CME index", index, CME_INDEX_MAX) {
            return Err(e);
        }
        self.cme_index = Some(index);
        Ok(self)
    }

    /// Strong-ordered writes on every RX descriptor; compiles only for `C: StrongOrder`.
    #[must_use]
    pub const fn with_strong_order(self) -> Self
    where
        C: StrongOrder,
    {
        self.with_barrier(Barrier::Sow)
    }

    /// Requests a notification mask; compiles only for `C: NotificationMask` (V4, the gate
    /// of seed 004 §1 `build_packet`).
    ///
    /// **Not encodable yet:** the seed sets the mask through the TX meta word
    /// (`al_sdma_m2s_set_notification_mask`), and neither the seed nor the reference gives
    /// its bit positions (nor its width). A packet that asks for a non-zero mask is
    /// refused with [`Error::NotificationMaskEncodingUnknown`]; nothing is written.
    #[must_use]
    pub const fn with_notification_mask(mut self, mask: u8) -> Self
    where
        C: NotificationMask,
    {
        self.notification_mask = mask;
        self
    }
}

/// Where a packet went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketSlots {
    /// First TX slot (the CME meta descriptor if any).
    pub tx_start: u32,
    /// TX descriptors written (data blocks, plus one for CME).
    pub tx_count: u32,
    /// First RX slot.
    pub rx_start: u32,
    /// RX descriptors written (one per data block).
    pub rx_count: u32,
    /// Bytes moved.
    pub bytes: u64,
}

/// The CME meta descriptor of seed 004 §1 `build_cme_packet`: word 0 =
/// `(cme_index << 24) | 0x04800000` (FIRST | META), exactly, with no CONCAT, ring id or
/// barrier. The packet is CONCAT-chained through its data descriptors instead (see
/// [`RingPair::packet_prepare`]). The seed names only word 0; words 1-3 are written 0 here
/// (the seed is silent on them).
///
/// ```
/// assert_eq!(udma_desc::cme_descriptor(2)?.words(), [0x0680_0000, 0, 0, 0]);
/// # Ok::<(), udma_desc::Error>(())
/// ```
pub fn cme_descriptor(cme_index: u8) -> Result<Descriptor, Error> {
    Error::check_width("CME index", cme_index, CME_INDEX_MAX)?;
    Ok(Descriptor::from_words([
        (u32::from(cme_index) << TxLenCtrl::RING_ID_SHIFT) | CME_META_FLAGS,
        0,
        0,
        0,
    ]))
}

impl<T: DescStore, R: DescStore> RingPair<T, R> {
    /// Builds one packet from `blocks` with the descriptors of seed 004 §1
    /// `build_cme_packet` / `build_packet`: the optional CME meta descriptor first (its word
    /// exactly the seed's), one TX descriptor per block (FIRST on the first data descriptor,
    /// LAST on the last, CONCAT on every one when a CME descriptor leads the packet, the
    /// barrier of [`PacketOptions::with_barrier`]) and one RX descriptor per block (SOW on
    /// every one if asked; INT_EN on the last if [`PacketOptions::with_dst_interrupt`], a
    /// project option the seed's loop does not have).
    ///
    /// Write order: the seed writes every TX descriptor, then every RX one; this writes the
    /// CME descriptor, then block by block its TX then its RX descriptor (one pass over
    /// `blocks`, which the seed's callback walks twice). The slots and bytes are the same,
    /// and nothing is visible to the engine before the whole packet is published.
    ///
    /// Checked in the seed's order where it can be (a block count the iterator reports up front
    /// first, then a notification mask: before V4 [`Error::NotificationMaskUnsupported`], on V4
    /// [`Error::NotificationMaskEncodingUnknown`]; then SOW on an arch without it,
    /// [`Error::StrongOrderUnsupported`]), then as it goes: at least one block, each size
    /// `1..=65536`, at most `C::MAX_TX_DESCS_PER_PACKET` data blocks (the seed checks
    /// `num_blocks`; the CME descriptor is added outside that count), at most
    /// [`MAX_PACKET_BYTES`] bytes, room on both rings. Descriptors go into free slots
    /// beyond the rings' `next` and the indices move only when the whole packet is
    /// written: a failure half-way leaves both rings as they were (nothing published).
    pub fn packet_prepare<C: PacketCaps, I: IntoIterator<Item = CopyBlock>>(
        &mut self,
        blocks: I,
        opts: &PacketOptions<C>,
    ) -> Result<PacketSlots, Error> {
        self.packet_prepare_sg(blocks.into_iter().map(SgBlock::from), opts)
    }

    /// [`packet_prepare`](Self::packet_prepare) with the source and the destination split
    /// independently ([`SgBlock`]): block `i`'s TX descriptor reads `src`, its RX descriptor
    /// writes `dst`, as seed 004 §1 `build_packet`'s separate TX and RX loops allow. The
    /// same checks, each segment's size checked on its own side, and one more (the
    /// project's, no source states it): the RX segments add up to the TX bytes
    /// ([`Error::PacketSidesDiffer`]), so the engine's destination buffers hold exactly the
    /// packet.
    ///
    /// ```
    /// use udma_desc::{caps::{PacketCaps, Unsupported}, DescRing, Descriptor, Direction};
    /// use udma_desc::{PacketOptions, QueueId, RingPair, Segment, SgBlock};
    /// struct V2;
    /// impl PacketCaps for V2 {
    ///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x80;
    ///     type NotificationMasks = Unsupported;
    ///     type StrongOrdering = Unsupported;
    /// }
    /// let (mut txs, mut rxs) = ([Descriptor::ZERO; 32], [Descriptor::ZERO; 32]);
    /// let mut pair = RingPair::new(
    ///     QueueId::new(0)?,
    ///     DescRing::new(Direction::Tx, &mut txs[..])?,
    ///     DescRing::new(Direction::Rx, &mut rxs[..])?,
    /// );
    /// let seg = |addr, size| Segment { addr, size };
    /// // 100 + 28 bytes read, written as 64 + 64.
    /// let blocks = [
    ///     SgBlock { src: seg(0x1000, 100), dst: seg(0x8000, 64) },
    ///     SgBlock { src: seg(0x2000, 28), dst: seg(0x9000, 64) },
    /// ];
    /// let slots = pair.packet_prepare_sg(blocks, &PacketOptions::<V2>::new())?;
    /// assert_eq!((slots.tx_count, slots.rx_count, slots.bytes), (2, 2, 128));
    /// assert_eq!(pair.rx().load(1)?.words()[0] & 0xffff, 64);
    /// # Ok::<(), udma_desc::Error>(())
    /// ```
    pub fn packet_prepare_sg<C: PacketCaps, I: IntoIterator<Item = SgBlock>>(
        &mut self,
        blocks: I,
        opts: &PacketOptions<C>,
    ) -> Result<PacketSlots, Error> {
        let blocks = blocks.into_iter();
        check_gates(blocks.size_hint().0, opts)?;
        let mut b = PacketBuild {
            tx_room: self.tx().available(),
            rx_room: self.rx().available(),
            tx: self.tx().ring().cursor(),
            rx: self.rx().ring().cursor(),
            tx_count: 0,
            rx_count: 0,
            bytes: 0,
            rx_bytes: 0,
        };
        let (tx_start, rx_start) = (b.tx, b.rx);
        if let Some(idx) = opts.cme_index {
            let d = cme_descriptor(idx)?;
            self.put_tx(&mut b.tx, &mut b.tx_count, b.tx_room, d)?;
        }
        let mut blocks = blocks.peekable();
        if blocks.peek().is_none() {
            return Err(Error::EmptyPacket);
        }
        while let Some(block) = blocks.next() {
            let last = blocks.peek().is_none();
            self.put_block(&mut b, block, last, opts)?;
        }
        if b.rx_bytes != b.bytes {
            return Err(Error::PacketSidesDiffer {
                tx_bytes: b.bytes,
                rx_bytes: b.rx_bytes,
            });
        }
        // Publish: both rings move past the whole packet at once.
        self.rx_mut().ring_mut().commit(b.rx);
        self.tx_mut().ring_mut().commit(b.tx);
        Ok(PacketSlots {
            tx_start: tx_start.next,
            tx_count: b.tx_count,
            rx_start: rx_start.next,
            rx_count: b.rx_count,
            bytes: b.bytes,
        })
    }

    /// One data block: its TX descriptor, then its RX descriptor, into the free slots at
    /// the build's cursors.
    ///
    /// Seed: `flags` (CONCAT when a CME descriptor leads) and `meta` are the same for every
    /// TX data descriptor. Where a barrier goes is the project's choice, by the kernel's
    /// barrier table: type 1 sets TX bit 30 in `flags`, type 2 the `meta_ctrl` write barrier
    /// (which is what the seed's `set_dmb` sets).
    fn put_block<C: PacketCaps>(
        &mut self,
        b: &mut PacketBuild,
        block: SgBlock,
        last: bool,
        opts: &PacketOptions<C>,
    ) -> Result<(), Error> {
        if b.rx_count >= C::MAX_TX_DESCS_PER_PACKET {
            return Err(Error::PacketTooManyDescriptors {
                max: C::MAX_TX_DESCS_PER_PACKET,
            });
        }
        let len = encode_size(block.src.size)?;
        b.bytes = b.bytes.saturating_add(u64::from(block.src.size));
        if b.bytes > u64::from(MAX_PACKET_BYTES) {
            return Err(Error::PacketTooLarge {
                bytes: b.bytes,
                max: MAX_PACKET_BYTES,
            });
        }
        let len_ctrl = TxLenCtrl::new()
            .with_concat(opts.cme_index.is_some())
            .with_dmb(opts.barrier == Barrier::Dmb)
            .with_len(len)
            .with_ring_id(b.tx.ring_id)
            .with_first(b.rx_count == 0)
            .with_last(last);
        let d = Descriptor::from(TxDesc {
            len_ctrl,
            meta_ctrl: MetaCtrl::new().with_write_barrier(opts.barrier == Barrier::WriteBarrier),
            buf_ptr: block.src.addr,
        });
        self.put_tx(&mut b.tx, &mut b.tx_count, b.tx_room, d)?;

        if b.rx_count >= b.rx_room {
            return Err(Error::RingFull {
                ring: Direction::Rx,
                needed: b.rx_count.saturating_add(1),
                available: b.rx_room,
            });
        }
        let rx_len = encode_size(block.dst.size)?;
        b.rx_bytes = b.rx_bytes.saturating_add(u64::from(block.dst.size));
        let len_ctrl = RxLenCtrl::new()
            .with_len(rx_len)
            .with_ring_id(b.rx.ring_id)
            .with_strong_order_wr(opts.barrier == Barrier::Sow)
            .with_int_en(last && opts.dst_interrupt);
        let d = Descriptor::from(RxDesc {
            len_ctrl,
            buf2_ptr_lo: 0,
            buf1_ptr: block.dst.addr,
        });
        self.rx_mut().store_mut().store(b.rx.next, d)?;
        b.rx = self.rx().ring().advance(b.rx, 1);
        b.rx_count += 1;
        Ok(())
    }

    fn put_tx(
        &mut self,
        cursor: &mut crate::ring::Cursor,
        count: &mut u32,
        room: u32,
        d: Descriptor,
    ) -> Result<(), Error> {
        if *count >= room {
            return Err(Error::RingFull {
                ring: Direction::Tx,
                needed: count.saturating_add(1),
                available: room,
            });
        }
        self.tx_mut().store_mut().store(cursor.next, d)?;
        *cursor = self.tx().ring().advance(*cursor, 1);
        *count += 1;
        Ok(())
    }
}

/// A packet being built: the free slots it writes (nothing published until it is whole).
struct PacketBuild {
    tx_room: u32,
    rx_room: u32,
    tx: crate::ring::Cursor,
    rx: crate::ring::Cursor,
    tx_count: u32,
    rx_count: u32,
    /// TX (packet) bytes so far.
    bytes: u64,
    /// RX bytes so far.
    rx_bytes: u64,
}

/// The seed's order of checks before anything is built (seed 004 §1 `build_packet`): the
/// block cap first (a count the iterator reports up front; one it does not know is counted
/// as the blocks come), then the notification gate, then SOW.
fn check_gates<C: PacketCaps>(count_hint: usize, opts: &PacketOptions<C>) -> Result<(), Error> {
    if count_hint > usize::try_from(C::MAX_TX_DESCS_PER_PACKET).unwrap_or(usize::MAX) {
        return Err(Error::PacketTooManyDescriptors {
            max: C::MAX_TX_DESCS_PER_PACKET,
        });
    }
    if opts.notification_mask != 0 {
        return Err(if C::HAS_NOTIFICATION_MASK {
            Error::NotificationMaskEncodingUnknown {
                mask: opts.notification_mask,
            }
        } else {
            Error::NotificationMaskUnsupported
        });
    }
    if opts.barrier == Barrier::Sow && !C::HAS_STRONG_ORDER {
        return Err(Error::StrongOrderUnsupported);
    }
    Ok(())
}
