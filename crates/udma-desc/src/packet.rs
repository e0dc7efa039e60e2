//! Multi-descriptor packets: N TX + N RX descriptors, optionally behind a CME meta descriptor.

use core::marker::PhantomData;

use crate::caps::{NotificationMask, PacketCaps, StrongOrder};
use crate::{
    Barrier, DescStore, Descriptor, Direction, Error, MetaCtrl, RingId, RingPair, RxDesc,
    RxLenCtrl, TxDesc, TxLenCtrl, TxMetaDesc, encode_size,
};

/// Largest packet in bytes: `m2s.cfg_len` MAX_PKT_SIZE, 20 bits, which the driver
/// programs to its maximum 0xFFFFF.
pub const MAX_PACKET_BYTES: u32 = 0x000f_ffff;

/// Largest CME index: it fills the 2-bit field at `len_ctrl` bits 25:24.
pub const CME_INDEX_MAX: u8 = 3;

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

/// How to build a packet for arch `C`. The per-arch features are gated at compile time:
/// [`with_strong_order`](Self::with_strong_order) needs `C: StrongOrder`,
/// [`with_notification_mask`](Self::with_notification_mask) needs `C: NotificationMask`.
///
/// ```
/// use udma_desc::{caps::{PacketCaps, StrongOrder}, PacketOptions};
/// struct V3;
/// impl PacketCaps for V3 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
///     const HAS_NOTIFICATION_MASK: bool = false;
///     const HAS_STRONG_ORDER: bool = true;
/// }
/// impl StrongOrder for V3 {}
/// let opts = PacketOptions::<V3>::new().with_strong_order().with_dst_interrupt(true);
/// ```
///
/// A V2-like arch has no strong order, so this does not compile:
///
/// ```compile_fail
/// use udma_desc::{caps::PacketCaps, PacketOptions};
/// struct V2;
/// impl PacketCaps for V2 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x80;
///     const HAS_NOTIFICATION_MASK: bool = false;
///     const HAS_STRONG_ORDER: bool = false;
/// }
/// let opts = PacketOptions::<V2>::new().with_strong_order();
/// ```
///
/// Nor does a notification mask before V4:
///
/// ```compile_fail
/// use udma_desc::{caps::{PacketCaps, StrongOrder}, PacketOptions};
/// struct V3;
/// impl PacketCaps for V3 {
///     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
///     const HAS_NOTIFICATION_MASK: bool = false;
///     const HAS_STRONG_ORDER: bool = true;
/// }
/// impl StrongOrder for V3 {}
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

    /// Orders the packet: DMB on the packet's first TX descriptor, the write barrier in
    /// the first data descriptor's `meta_ctrl`, or SOW on every RX descriptor (checked
    /// against the arch when the packet is built).
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

    /// Prepends a CME meta descriptor with this index (`0..=3`).
    pub const fn with_cme_index(mut self, index: u8) -> Result<Self, Error> {
        if index > CME_INDEX_MAX {
            return Err(Error::ValueTooWide {
                field: "CME index",
                value: index as u32,
                max: CME_INDEX_MAX as u32,
            });
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

    /// Notification mask on the packet's last RX descriptor (`RxLenCtrl` bits 23:16);
    /// compiles only for `C: NotificationMask`.
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

/// The CME meta descriptor: word 0 = `cme_index << 24 | FIRST | META`, CONCAT-chained to
/// the data descriptor that follows; the other words are 0. The index sits in the bits
/// data descriptors use for the ring id, so it is not stamped with one.
pub fn cme_descriptor(cme_index: u8) -> Result<Descriptor, Error> {
    if cme_index > CME_INDEX_MAX {
        return Err(Error::ValueTooWide {
            field: "CME index",
            value: u32::from(cme_index),
            max: u32::from(CME_INDEX_MAX),
        });
    }
    Ok(Descriptor::from(TxMetaDesc {
        len_ctrl: TxLenCtrl::new()
            .with_ring_id(RingId::from_bits(u32::from(cme_index)))
            .with_first(true)
            .with_meta(true)
            .with_concat(true),
        meta_ctrl: MetaCtrl::from_bits(0),
        meta1: 0,
        meta2: 0,
    }))
}

impl<T: DescStore, R: DescStore> RingPair<T, R> {
    /// Builds one packet from `blocks`: one TX and one RX descriptor per block, FIRST on
    /// the packet's first TX descriptor (the CME one if present), LAST on the last, the
    /// options of [`PacketOptions`] applied.
    ///
    /// Checked as it goes: at least one block, each size `1..=65536`, at most
    /// `C::MAX_TX_DESCS_PER_PACKET` TX descriptors (CME included), at most
    /// [`MAX_PACKET_BYTES`] bytes, room on both rings. Descriptors go into free slots
    /// beyond the rings' `next` and the indices move only when the whole packet is
    /// written: a failure half-way leaves both rings as they were (nothing published).
    pub fn packet_prepare<C: PacketCaps, I: IntoIterator<Item = CopyBlock>>(
        &mut self,
        blocks: I,
        opts: &PacketOptions<C>,
    ) -> Result<PacketSlots, Error> {
        if opts.barrier == Barrier::Sow && !C::HAS_STRONG_ORDER {
            return Err(Error::StrongOrderUnsupported);
        }
        if opts.notification_mask != 0 && !C::HAS_NOTIFICATION_MASK {
            return Err(Error::NotificationMaskUnsupported);
        }
        let tx_room = self.tx().available();
        let rx_room = self.rx().available();
        let tx_start = self.tx().ring().cursor();
        let rx_start = self.rx().ring().cursor();
        let mut tx = tx_start;
        let mut rx = rx_start;
        let mut tx_count: u32 = 0;
        let mut rx_count: u32 = 0;
        let mut bytes: u64 = 0;

        if let Some(idx) = opts.cme_index {
            let mut d = cme_descriptor(idx)?;
            if opts.barrier == Barrier::Dmb {
                d.set_word0(TxLenCtrl::from_bits(d.word0()).with_dmb(true).into_bits());
            }
            self.put_tx::<C>(&mut tx, &mut tx_count, tx_room, d)?;
        }

        let mut blocks = blocks.into_iter().peekable();
        if blocks.peek().is_none() {
            return Err(Error::EmptyPacket);
        }
        while let Some(b) = blocks.next() {
            let last = blocks.peek().is_none();
            let len = encode_size(b.size)?;
            bytes = bytes.saturating_add(u64::from(b.size));
            if bytes > u64::from(MAX_PACKET_BYTES) {
                return Err(Error::PacketTooLarge {
                    bytes,
                    max: MAX_PACKET_BYTES,
                });
            }
            let first_tx = tx_count == 0;
            let first_data = rx_count == 0;
            let mut lc = TxLenCtrl::new()
                .with_len(len)
                .with_ring_id(tx.ring_id)
                .with_first(first_tx)
                .with_last(last);
            let mut meta = MetaCtrl::new();
            if first_tx && opts.barrier == Barrier::Dmb {
                lc.set_dmb(true);
            }
            if first_data && opts.barrier == Barrier::WriteBarrier {
                meta.set_write_barrier(true);
            }
            let d = Descriptor::from(TxDesc {
                len_ctrl: lc,
                meta_ctrl: meta,
                buf_ptr: b.src,
            });
            self.put_tx::<C>(&mut tx, &mut tx_count, tx_room, d)?;

            if rx_count >= rx_room {
                return Err(Error::RingFull {
                    ring: Direction::Rx,
                    needed: rx_count.saturating_add(1),
                    available: rx_room,
                });
            }
            let rlc = RxLenCtrl::new()
                .with_len(len)
                .with_ring_id(rx.ring_id)
                .with_strong_order_wr(opts.barrier == Barrier::Sow)
                .with_int_en(last && opts.dst_interrupt)
                .with_notification_mask(if last { opts.notification_mask } else { 0 });
            let d = Descriptor::from(RxDesc {
                len_ctrl: rlc,
                buf2_ptr_lo: 0,
                buf1_ptr: b.dst,
            });
            self.rx_mut().store_mut().store(rx.next, d)?;
            rx = self.rx().ring().advance(rx, 1);
            rx_count += 1;
        }
        // Publish: both rings move past the whole packet at once.
        self.rx_mut().ring_mut().commit(rx);
        self.tx_mut().ring_mut().commit(tx);
        Ok(PacketSlots {
            tx_start: tx_start.next,
            tx_count,
            rx_start: rx_start.next,
            rx_count,
            bytes,
        })
    }

    fn put_tx<C: PacketCaps>(
        &mut self,
        cursor: &mut crate::ring::Cursor,
        count: &mut u32,
        room: u32,
        d: Descriptor,
    ) -> Result<(), Error> {
        if *count >= C::MAX_TX_DESCS_PER_PACKET {
            return Err(Error::PacketTooManyDescriptors {
                max: C::MAX_TX_DESCS_PER_PACKET,
            });
        }
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
