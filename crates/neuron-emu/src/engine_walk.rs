//! The engine walk: which descriptors a UDMA queue pair takes from its rings, how they frame
//! a packet, and which rule a bad ring breaks. Written once, here, and used both by the model
//! executing rings in its memory and by a pure decode of a ring dump (`neuron-tool ring
//! decode`), so the two cannot drift.
//!
//! The rules (the crate documentation's "Data path" gives the hardware facts behind each):
//!
//! * **Phase.** A ring position carries the ring id (2 bits) the engine expects there: 1 on the
//!   first lap after a queue reset, `+1 mod 4` at each wrap ([`RingPos::advanced`]). A data
//!   descriptor whose ring id differs is PREFETCH_RING_ID. A TX META descriptor (a CME meta
//!   descriptor) is not phase-checked: it holds its CME index in those bits.
//! * **Framing (TX).** A packet starts with FIRST; a FIRST before the packet's LAST is
//!   PREFETCH_LAST unless it is chained in by CONCAT, on the previous descriptor or on itself
//!   (seed 004 §1 `build_cme_packet`: the CME meta word is FIRST | META, the data descriptors
//!   after it carry CONCAT, the first of them FIRST, the last LAST | CONCAT). LAST ends the
//!   packet. A packet whose end is not posted yet waits.
//! * **CME.** A META descriptor is consumed and counted but moves no data and takes no RX
//!   descriptor.
//! * **Limits.** More data descriptors than the engine's prefetch limit is PREFETCH_MAX_DESC
//!   (the cap counts data descriptors, as `build_packet` counts `num_blocks`; whether the
//!   hardware prefetcher also counts a META descriptor no source states); more bytes than its
//!   maximum packet size is PKT_LEN ([`WalkRules`]: what the registers hold, per arch after
//!   bring-up).
//! * **Pairing.** A packet with `k` data descriptors takes the next `k` RX descriptors; they
//!   must hold at least the packet's bytes (else S2M PKT_LEN) and each is filled in order.
//!
//! The walk reads descriptors through [`DescSource`], implemented for a descriptor slice, for
//! the raw bytes of a dump (`[u8]`), and by the model for its memory.

use udma_desc::{DESC_BYTES, Descriptor, Direction, MAX_TRANSFER_BYTES, RingId};

use crate::fault::Fault;

mod single_shape;
pub(crate) use single_shape::SingleShape;
use single_shape::tx_ordering;

/// A ring position: slot index and the ring id (phase) the engine expects there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingPos {
    /// Slot index, `0..ring length`.
    pub index: u32,
    /// Ring id of the current lap.
    pub ring_id: RingId,
}

impl RingPos {
    /// Where a queue reset (`q_sw_ctrl` RST_Q) puts head and tail: slot 0, ring id 1.
    pub const RESET: Self = Self {
        index: 0,
        ring_id: RingId::INITIAL,
    };

    /// Advances by `n` slots on a ring of `len` slots; the ring id steps `+1 mod 4` per wrap.
    /// A ring of length 0 does not move.
    ///
    /// ```
    /// use neuron_emu::RingPos;
    /// let p = RingPos::RESET.advanced(33, 32);
    /// assert_eq!((p.index, p.ring_id.get()), (1, 2));
    /// ```
    #[must_use]
    pub fn advanced(self, n: u32, len: u32) -> Self {
        if len == 0 {
            return self;
        }
        let total = u64::from(self.index) + u64::from(n);
        let len = u64::from(len);
        // The data path advances by a packet's few descriptors, so at most one wrap: skip the
        // 64-bit division (tens of cycles, several times per packet) on that path.
        let (laps, rest) = if total < len {
            (0, total)
        } else if total - len < len {
            (1, total - len)
        } else {
            (total / len, total % len)
        };
        let mut ring_id = self.ring_id;
        for _ in 0..(laps & u64::from(RingId::MAX)) {
            ring_id = ring_id.next();
        }
        // `rest < len <= u32::MAX`: the conversion never fails.
        let index = u32::try_from(rest).unwrap_or(0);
        Self { index, ring_id }
    }
}

impl RingPos {
    /// [`advanced`](Self::advanced) by one slot, without its general arithmetic in the
    /// common case (not the last slot).
    #[inline(always)]
    #[must_use]
    pub fn next_slot(self, len: u32) -> Self {
        match self.index.checked_add(1) {
            Some(index) if index < len => Self {
                index,
                ring_id: self.ring_id,
            },
            _ => self.wrapped(len),
        }
    }

    /// The last slot's step (and any position off the ring): out of the hot loop.
    #[cold]
    #[inline(never)]
    fn wrapped(self, len: u32) -> Self {
        self.advanced(1, len)
    }
}

/// Where descriptors come from: a ring of [`slots`](Self::slots) 16-byte descriptors.
pub trait DescSource {
    /// Ring length in descriptors.
    fn slots(&self) -> u32;

    /// The descriptor in slot `index`, or the address that could not be read (a DMA address
    /// for memory, a byte offset for a dump).
    fn fetch(&self, index: u32) -> Result<Descriptor, u64>;
}

impl DescSource for [Descriptor] {
    fn slots(&self) -> u32 {
        u32::try_from(self.len()).unwrap_or(u32::MAX)
    }

    fn fetch(&self, index: u32) -> Result<Descriptor, u64> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.get(i))
            .copied()
            .ok_or(u64::from(index) * DESC_BYTES as u64)
    }
}

/// The raw bytes of a ring (a dump, or a ring's memory): whole descriptors only; a trailing
/// partial one is not a slot.
impl DescSource for [u8] {
    fn slots(&self) -> u32 {
        u32::try_from(self.len() / DESC_BYTES).unwrap_or(u32::MAX)
    }

    #[inline]
    fn fetch(&self, index: u32) -> Result<Descriptor, u64> {
        let off = u64::from(index) * DESC_BYTES as u64;
        usize::try_from(off)
            .ok()
            .and_then(|o| self.get(o..o.checked_add(DESC_BYTES)?))
            .and_then(|b| <[u8; DESC_BYTES]>::try_from(b).ok())
            .map(Descriptor::from_le_bytes)
            .ok_or(off)
    }
}

/// The engine settings a walk applies, as the engine registers hold them.
///
/// The model reads them from a unit's registers for every packet; a decode of a dump takes
/// them from a model engine that `khal` brought up ([`crate::rules_after_init`]), so both
/// apply the values bring-up programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WalkRules {
    /// `m2s.cfg_len` ENCODE_64K: a length field of 0 means 65,536 bytes (else 0 bytes).
    pub encode_64k: bool,
    /// `m2s.cfg_len` MAX_PKT_SIZE: most bytes in one packet.
    pub max_packet_bytes: u64,
    /// `m2s_rd.desc_pref_cfg_2` MAX_DESC_PER_PKT: most data descriptors in one packet.
    pub max_descs_per_packet: u32,
    /// TX ring ids are checked (`m2s.err_log_mask` PREF_RING_ID clear).
    pub check_tx_ring_id: bool,
    /// RX ring ids are checked (`s2m.err_log_mask` PREF_RING_ID clear).
    pub check_rx_ring_id: bool,
}

impl WalkRules {
    /// Byte count of a length field under these rules.
    #[inline]
    pub const fn len_of(&self, field: u16) -> u64 {
        match field {
            0 if self.encode_64k => MAX_TRANSFER_BYTES as u64,
            n => n as u64,
        }
    }
}

/// A contiguous range of a packet (a source or a destination buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// DMA address.
    pub addr: u64,
    /// Bytes.
    pub len: u64,
}

/// The TX side of a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxPacket {
    /// Where the packet starts.
    pub head: RingPos,
    /// Where the next packet starts.
    pub end: RingPos,
    /// Descriptors (data and META).
    pub descs: u32,
    /// META (CME) descriptors among them.
    pub metas: u32,
    /// Payload bytes.
    pub bytes: u64,
    /// Descriptors asking for ordering (DMB or the `meta_ctrl` write barrier).
    pub ordering: u32,
    /// Descriptors with INT_EN.
    pub interrupts: u32,
}

impl TxPacket {
    /// Data descriptors: the RX descriptors the packet takes.
    pub const fn data_descs(&self) -> u32 {
        self.descs - self.metas
    }
}

/// The RX buffers a packet takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RxBuffers {
    /// Where the next packet's buffers start.
    pub end: RingPos,
    /// Descriptors taken.
    pub descs: u32,
    /// Bytes they can hold.
    pub capacity: u64,
    /// Descriptors with STRONG_ORDER_WR.
    pub ordering: u32,
    /// Descriptors with INT_EN.
    pub interrupts: u32,
}

/// Why a walk cannot produce a packet yet (the engine waits; nothing is wrong).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pending {
    /// No TX descriptor is posted.
    NoTx,
    /// The packet's end (LAST without CONCAT) is not among the posted descriptors.
    TxIncomplete {
        /// Descriptors of the packet that are posted.
        descs: u32,
    },
    /// Fewer RX descriptors are posted than the packet needs.
    NoRx {
        /// RX descriptors the packet needs.
        needed: u32,
    },
}

/// Walks the TX packet at `head`: at most `posted` descriptors; `data` receives each data
/// descriptor's source range in order.
///
/// ```
/// use neuron_emu::engine_walk::{tx_packet, RingPos, WalkRules};
/// use udma_desc::Descriptor;
/// let rules = WalkRules {
///     encode_64k: true,
///     max_packet_bytes: 0xf_ffff,
///     max_descs_per_packet: 65,
///     check_tx_ring_id: true,
///     check_rx_ring_id: true,
/// };
/// // FIRST | LAST, ring id 1, 16 bytes from 0x2000.
/// let ring = [Descriptor::from_words([0x0d00_0010, 0, 0x2000, 0])];
/// let mut src = Vec::new();
/// let p = tx_packet(&ring[..], RingPos::RESET, 1, &rules, |s| src.push(s))?.unwrap();
/// assert_eq!((p.descs, p.bytes, p.end.ring_id.get()), (1, 16, 2));
/// assert_eq!(src[0].addr, 0x2000);
/// # Ok::<(), neuron_emu::Fault>(())
/// ```
#[inline]
pub fn tx_packet<S: DescSource + ?Sized>(
    ring: &S,
    head: RingPos,
    posted: u64,
    rules: &WalkRules,
    mut data: impl FnMut(Segment),
) -> Result<Result<TxPacket, Pending>, Fault> {
    if posted == 0 {
        return Ok(Err(Pending::NoTx));
    }
    let len = ring.slots();
    let mut p = TxPacket {
        head,
        end: head,
        descs: 0,
        metas: 0,
        bytes: 0,
        ordering: 0,
        interrupts: 0,
    };
    let mut pos = head;
    let mut chained = false;
    loop {
        if u64::from(p.descs) >= posted {
            return Ok(Err(Pending::TxIncomplete { descs: p.descs }));
        }
        let slot = pos.index;
        let d = ring
            .fetch(slot)
            .map_err(|addr| Fault::TxPrefetchBus { slot, addr })?
            .as_tx();
        let c = d.len_ctrl;
        let meta = c.meta();
        if rules.check_tx_ring_id && !meta && c.ring_id() != pos.ring_id {
            return Err(Fault::TxRingId {
                slot,
                expected: pos.ring_id,
                found: c.ring_id(),
            });
        }
        if p.descs == 0 && !c.first() {
            return Err(Fault::TxFirst { slot });
        }
        if p.descs > 0 && c.first() && !chained && !c.concat() {
            return Err(Fault::TxLast { slot });
        }
        p.descs += 1;
        if meta {
            p.metas += 1;
        } else {
            if p.descs - p.metas > rules.max_descs_per_packet {
                return Err(Fault::TxMaxDesc {
                    limit: rules.max_descs_per_packet,
                });
            }
            let n = rules.len_of(c.len());
            p.bytes += n;
            if p.bytes > rules.max_packet_bytes {
                return Err(Fault::TxPacketLen {
                    len: p.bytes,
                    max: rules.max_packet_bytes,
                });
            }
            data(Segment {
                addr: d.buf_ptr,
                len: n,
            });
        }
        p.ordering += u32::from(c.dmb() || d.meta_ctrl.write_barrier());
        p.interrupts += u32::from(c.int_en());
        pos = pos.advanced(1, len);
        chained = c.concat();
        if c.last() {
            p.end = pos;
            return Ok(Ok(p));
        }
    }
}

/// Walks the `count` RX descriptors at `head` that receive a packet of `packet_len` bytes
/// (at most `posted` are available); `data` receives each destination range, trimmed to the
/// bytes it will receive.
#[inline]
pub fn rx_buffers<S: DescSource + ?Sized>(
    ring: &S,
    head: RingPos,
    posted: u64,
    count: u32,
    packet_len: u64,
    rules: &WalkRules,
    mut data: impl FnMut(Segment),
) -> Result<Result<RxBuffers, Pending>, Fault> {
    if posted < u64::from(count) {
        return Ok(Err(Pending::NoRx { needed: count }));
    }
    let len = ring.slots();
    let mut b = RxBuffers {
        end: head,
        descs: 0,
        capacity: 0,
        ordering: 0,
        interrupts: 0,
    };
    let mut pos = head;
    let mut remaining = packet_len;
    for _ in 0..count {
        let slot = pos.index;
        let d = ring
            .fetch(slot)
            .map_err(|addr| Fault::RxPrefetchBus { slot, addr })?
            .as_rx();
        let c = d.len_ctrl;
        if rules.check_rx_ring_id && c.ring_id() != pos.ring_id {
            return Err(Fault::RxRingId {
                slot,
                expected: pos.ring_id,
                found: c.ring_id(),
            });
        }
        let n = rules.len_of(c.len());
        b.capacity += n;
        let take = n.min(remaining);
        remaining -= take;
        data(Segment {
            addr: d.buf1_ptr,
            len: take,
        });
        b.descs += 1;
        b.ordering += u32::from(c.strong_order_wr());
        b.interrupts += u32::from(c.int_en());
        pos = pos.advanced(1, len);
    }
    if remaining > 0 {
        return Err(Fault::RxShort {
            packet_len,
            rx_capacity: b.capacity,
        });
    }
    b.end = pos;
    Ok(Ok(b))
}

/// One packet of a queue pair: the TX packet and the RX buffers it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The TX side.
    pub tx: TxPacket,
    /// The RX side.
    pub rx: RxBuffers,
}

/// One side of a queue pair for a walk: its ring, head and posted descriptors.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a, S: ?Sized> {
    /// The ring.
    pub ring: &'a S,
    /// The engine's head.
    pub head: RingPos,
    /// Descriptors posted (doorbells) and not yet consumed.
    pub posted: u64,
}

/// The descriptor at a ring's head, for [`single`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// The descriptor in the head slot.
    pub desc: Descriptor,
    /// The head.
    pub pos: RingPos,
    /// Ring length in descriptors.
    pub slots: u32,
}

/// A packet of one data descriptor on each ring, as [`single`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Single {
    /// What the walk reports for it.
    pub packet: Packet,
    /// The source range.
    pub src: Segment,
    /// The destination range, trimmed to the packet's bytes.
    pub dst: Segment,
}

/// The packet at the heads when it is the shape nearly every copy takes: one TX descriptor
/// with FIRST and LAST (not META) and one RX descriptor, in phase, within the limits, the RX
/// buffer large enough. `None` for anything else — a longer packet, a CME packet, or one
/// that breaks a rule — which the full walk ([`packet`]) frames and reports.
///
/// This is the start of the one walk, not a second one: [`packet`] tries it first, and it
/// answers exactly what the framing loop answers for such a packet (checked over random
/// descriptor pairs by the `single_agrees_with_the_framing_loop` test). The model runs
/// batches of these without building a packet description each time.
#[inline(always)]
pub fn single(tx: Head, rx: Head, rules: &WalkRules) -> Option<Single> {
    let shape = SingleShape::new(rules, tx.pos.ring_id, rx.pos.ring_id);
    let bytes = shape.bytes(&tx.desc, &rx.desc)?;
    let (t, r) = (tx.desc.as_tx(), rx.desc.as_rx());
    let (c, rc) = (t.len_ctrl, r.len_ctrl);
    let capacity = rules.len_of(rc.len());
    Some(Single {
        packet: Packet {
            tx: TxPacket {
                head: tx.pos,
                end: tx.pos.next_slot(tx.slots),
                descs: 1,
                metas: 0,
                bytes,
                ordering: u32::from(tx_ordering(&t)),
                interrupts: u32::from(c.int_en()),
            },
            rx: RxBuffers {
                end: rx.pos.next_slot(rx.slots),
                descs: 1,
                capacity,
                ordering: u32::from(rc.strong_order_wr()),
                interrupts: u32::from(rc.int_en()),
            },
        },
        src: Segment {
            addr: t.buf_ptr,
            len: bytes,
        },
        dst: Segment {
            addr: r.buf1_ptr,
            len: bytes,
        },
    })
}

/// Walks the next packet of a queue pair: the TX packet at the TX head and the RX buffers
/// it takes. `tx_data` and `rx_data` receive the source and destination ranges in order.
#[inline]
pub fn packet<T: DescSource + ?Sized, R: DescSource + ?Sized>(
    tx: Side<'_, T>,
    rx: Side<'_, R>,
    rules: &WalkRules,
    mut tx_data: impl FnMut(Segment),
    mut rx_data: impl FnMut(Segment),
) -> Result<Result<Packet, Pending>, Fault> {
    if tx.posted > 0 && rx.posted > 0 {
        if let (Ok(t), Ok(r)) = (tx.ring.fetch(tx.head.index), rx.ring.fetch(rx.head.index)) {
            let heads = (
                Head {
                    desc: t,
                    pos: tx.head,
                    slots: tx.ring.slots(),
                },
                Head {
                    desc: r,
                    pos: rx.head,
                    slots: rx.ring.slots(),
                },
            );
            if let Some(s) = single(heads.0, heads.1, rules) {
                tx_data(s.src);
                rx_data(s.dst);
                return Ok(Ok(s.packet));
            }
        }
    }
    framed_packet(tx, rx, rules, tx_data, rx_data)
}

/// [`packet`] by the framing loop alone, for any shape of packet: for a caller that has
/// already tried [`single`] on these heads (the model's data path), so it is not tried twice.
#[inline]
pub(crate) fn framed_packet<T: DescSource + ?Sized, R: DescSource + ?Sized>(
    tx: Side<'_, T>,
    rx: Side<'_, R>,
    rules: &WalkRules,
    tx_data: impl FnMut(Segment),
    rx_data: impl FnMut(Segment),
) -> Result<Result<Packet, Pending>, Fault> {
    let t = match tx_packet(tx.ring, tx.head, tx.posted, rules, tx_data)? {
        Ok(t) => t,
        Err(p) => return Ok(Err(p)),
    };
    let r = match rx_buffers(
        rx.ring,
        rx.head,
        rx.posted,
        t.data_descs(),
        t.bytes,
        rules,
        rx_data,
    )? {
        Ok(r) => r,
        Err(p) => return Ok(Err(p)),
    };
    Ok(Ok(Packet { tx: t, rx: r }))
}

/// Where a phase scan stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseStop {
    /// The slot and the ring id expected there.
    pub pos: RingPos,
    /// The ring id found (`None`: the slot could not be read).
    pub found: Option<RingId>,
}

/// The descriptors written for the current lap, from `head`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseScan {
    /// Descriptors from `head` whose ring id is the one expected there (at most one lap).
    pub count: u32,
    /// The first that is not (`None`: the whole lap matches).
    pub stop: Option<PhaseStop>,
}

/// Counts the descriptors from `head` whose ring id is the phase the engine expects there
/// (TX META descriptors always count): the ones software wrote for this lap. A dump has no
/// tail pointer; this is how a decode finds what was posted.
pub fn phase_scan<S: DescSource + ?Sized>(ring: &S, dir: Direction, head: RingPos) -> PhaseScan {
    let len = ring.slots();
    let mut pos = head;
    for count in 0..len {
        let found = match ring.fetch(pos.index) {
            Ok(d) => {
                let c = d.as_tx().len_ctrl;
                if dir == Direction::Tx && c.meta() {
                    None
                } else {
                    Some(d.ring_id())
                }
            }
            Err(_) => {
                return PhaseScan {
                    count,
                    stop: Some(PhaseStop { pos, found: None }),
                };
            }
        };
        if let Some(id) = found.filter(|&id| id != pos.ring_id) {
            return PhaseScan {
                count,
                stop: Some(PhaseStop {
                    pos,
                    found: Some(id),
                }),
            };
        }
        pos = pos.advanced(1, len);
    }
    PhaseScan {
        count: len,
        stop: None,
    }
}

#[cfg(test)]
mod tests {
    //! Descriptor words here are built from `reference/udma-bitfields.tsv` positions:
    //! TX `len_ctrl` LEN 15:0, META 23, RING_ID 25:24, FIRST 26, LAST 27, INT_EN 28,
    //! DMB 30, CONCAT 31; RX `len_ctrl` LEN 15:0, RING_ID 25:24, INT_EN 28.
    use super::*;

    const FIRST: u32 = 1 << 26;
    const LAST: u32 = 1 << 27;
    const CONCAT: u32 = 1 << 31;
    const META: u32 = 1 << 23;

    fn rid(n: u8) -> RingId {
        RingId::new(n).unwrap()
    }

    fn d(word0: u32, addr: u64) -> Descriptor {
        Descriptor::from_words([word0, 0, (addr & 0xffff_ffff) as u32, (addr >> 32) as u32])
    }

    fn tx(rid: u32, flags: u32, len: u32) -> Descriptor {
        d((rid << 24) | flags | len, 0x1000)
    }

    const RULES: WalkRules = WalkRules {
        encode_64k: true,
        max_packet_bytes: 0xf_ffff,
        max_descs_per_packet: 65,
        check_tx_ring_id: true,
        check_rx_ring_id: true,
    };

    /// A TX `len_ctrl` from the bits the walk reads (FIRST, LAST, META, CONCAT, INT_EN, DMB,
    /// RING_ID) and a length, so that one in four is the FIRST | LAST shape `single` takes.
    fn tx_word0() -> impl proptest::strategy::Strategy<Value = u32> {
        use proptest::prelude::*;
        (
            any::<u8>(),
            0u32..4,
            prop_oneof![Just(0u32), Just(0xffff), 0u32..0x1_0000],
        )
            .prop_map(|(f, id, len)| {
                let bit = |n: u8, v: u32| if f & (1 << n) != 0 { v } else { 0 };
                bit(0, FIRST)
                    | bit(1, LAST)
                    | bit(2, META) & bit(3, META)
                    | bit(4, CONCAT)
                    | bit(5, 1 << 28)
                    | bit(6, 1 << 30)
                    | (id << 24)
                    | len
            })
    }

    proptest::proptest! {
        /// `single` is the framing loop's answer for the packets it takes, and declines the
        /// rest: `packet` (single first) and the loop alone agree on the result and on every
        /// range handed out, whatever the descriptors, heads, doorbells and rules.
        #[test]
        fn single_agrees_with_the_framing_loop(
            tx_words in proptest::collection::vec((tx_word0(), proptest::prelude::any::<u32>()), 2),
            rx_words in proptest::collection::vec(proptest::prelude::any::<u32>(), 2),
            heads in (0u32..2, 0u8..4, 0u32..2, 0u8..4),
            posted in (0u64..3, 0u64..3),
            rules in (
                proptest::prelude::any::<(bool, bool, bool)>(),
                proptest::prop_oneof![
                    proptest::strategy::Just(0u64),
                    proptest::strategy::Just(0xffff),
                    proptest::strategy::Just(0x1_0000),
                    proptest::strategy::Just(0xf_ffff),
                ],
                0u32..3,
            ),
        ) {
            let tx_ring: Vec<Descriptor> = tx_words
                .iter()
                .map(|&(w0, w1)| Descriptor::from_words([w0, w1, 0x1000, 0]))
                .collect();
            let rx_ring: Vec<Descriptor> =
                rx_words.iter().map(|&w0| d(w0, 0x9000)).collect();
            let ((e64, ctx, crx), max_bytes, max_descs) = rules;
            let rules = WalkRules {
                encode_64k: e64,
                max_packet_bytes: max_bytes,
                max_descs_per_packet: max_descs,
                check_tx_ring_id: ctx,
                check_rx_ring_id: crx,
            };
            let side = |ring: &'static [Descriptor], index, id, posted| Side {
                ring,
                head: RingPos { index, ring_id: rid(id) },
                posted,
            };
            let (tx_ring, rx_ring): (&'static [Descriptor], &'static [Descriptor]) =
                (tx_ring.leak(), rx_ring.leak());
            let walk = |single_first: bool| {
                let (mut src, mut dst) = (Vec::new(), Vec::new());
                let tx = side(tx_ring, heads.0, heads.1, posted.0);
                let rx = side(rx_ring, heads.2, heads.3, posted.1);
                let out = if single_first {
                    packet(tx, rx, &rules, |s| src.push(s), |s| dst.push(s))
                } else {
                    framed_packet(tx, rx, &rules, |s| src.push(s), |s| dst.push(s))
                };
                (out, src, dst)
            };
            proptest::prop_assert_eq!(walk(true), walk(false));
        }
    }

    #[test]
    fn single_takes_a_first_last_pair_and_declines_a_cme_packet() {
        // FIRST | LAST, ring id 1, 16 bytes; RX ring id 1, 64 bytes.
        let head = |w0| Head {
            desc: d(w0, 0x2000),
            pos: RingPos::RESET,
            slots: 4,
        };
        let s = single(head(0x0d00_0010), head(0x0100_0040), &RULES).unwrap();
        assert_eq!((s.src.addr, s.src.len, s.dst.len), (0x2000, 16, 16));
        assert_eq!((s.packet.tx.end.index, s.packet.rx.capacity), (1, 64));
        // The same with META: a CME meta descriptor moves nothing; the full walk frames it.
        assert_eq!(single(head(0x0d80_0010), head(0x0100_0040), &RULES), None);
        // An RX buffer one byte short: the full walk reports RxShort.
        assert_eq!(single(head(0x0d00_0010), head(0x0100_000f), &RULES), None);
    }

    #[test]
    fn ring_id_steps_once_per_wrap() {
        let p = RingPos::RESET;
        let at = |n, len| {
            let q = p.advanced(n, len);
            (q.index, q.ring_id.get())
        };
        assert_eq!(at(31, 32), (31, 1));
        assert_eq!(at(32, 32), (0, 2));
        assert_eq!(at(32 * 3 + 5, 32), (5, 0));
        assert_eq!(at(32 * 4, 32), (0, 1));
        assert_eq!(p.advanced(7, 0), p, "no ring programmed: no movement");
        assert_eq!(p.advanced(u32::MAX, 32).index, 31);
    }

    #[test]
    fn stepping_one_at_a_time_equals_one_big_step() {
        // The no-wrap, one-wrap and many-wrap paths must agree.
        for len in [1u32, 2, 3, 7, 32] {
            for index in 0..len {
                for r in 0..4u8 {
                    let start = RingPos {
                        index,
                        ring_id: rid(r),
                    };
                    let mut walked = start;
                    for n in 0..=4 * len + 3 {
                        assert_eq!(start.advanced(n, len), walked, "len {len} from {start:?}");
                        walked = walked.next_slot(len);
                    }
                }
            }
        }
    }

    #[test]
    fn next_slot_is_advanced_by_one_even_off_the_ring() {
        // A head beyond a ring length written smaller later, and a ring of no length.
        for (index, len) in [
            (0u32, 4u32),
            (3, 4),
            (4, 4),
            (6, 4),
            (9, 4),
            (0, 0),
            (u32::MAX, 8),
        ] {
            let p = RingPos {
                index,
                ring_id: rid(3),
            };
            assert_eq!(
                p.next_slot(len),
                p.advanced(1, len),
                "index {index} len {len}"
            );
        }
    }

    #[test]
    fn bytes_and_descriptor_slices_are_the_same_ring() {
        let ring = [tx(1, FIRST | LAST, 16), tx(1, FIRST | LAST, 0)];
        let bytes: Vec<u8> = ring
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .chain([7])
            .collect();
        assert_eq!(
            bytes[..].slots(),
            2,
            "a trailing partial descriptor is not a slot"
        );
        for i in 0..2 {
            assert_eq!(bytes[..].fetch(i), ring[..].fetch(i));
        }
        assert_eq!(bytes[..].fetch(2), Err(32));
        assert_eq!(ring[..].fetch(2), Err(32));
    }

    #[test]
    fn length_zero_is_64k_only_with_encode_64k() {
        assert_eq!(RULES.len_of(0), 65_536);
        let off = WalkRules {
            encode_64k: false,
            ..RULES
        };
        assert_eq!(off.len_of(0), 0);
        assert_eq!(off.len_of(17), 17);
    }

    #[test]
    fn framing_faults_name_the_slot() {
        let walk = |ring: &[Descriptor]| tx_packet(ring, RingPos::RESET, 8, &RULES, |_| {});
        assert_eq!(
            walk(&[tx(1, LAST, 16)]),
            Err(Fault::TxFirst { slot: 0 }),
            "no FIRST"
        );
        assert_eq!(
            walk(&[tx(1, FIRST, 16), tx(1, FIRST | LAST, 16)]),
            Err(Fault::TxLast { slot: 1 }),
            "FIRST inside an open packet"
        );
        assert_eq!(
            walk(&[tx(1, FIRST | CONCAT, 16), tx(1, FIRST | LAST, 16)]).map(|r| r.map(|p| p.descs)),
            Ok(Ok(2)),
            "CONCAT on the previous descriptor chains a FIRST in"
        );
        assert_eq!(
            walk(&[
                tx(1, FIRST, 16),
                tx(1, FIRST | CONCAT, 16),
                tx(1, LAST | CONCAT, 16)
            ])
            .map(|r| r.map(|p| (p.descs, p.end.index))),
            Ok(Ok((3, 0))),
            "CONCAT on the FIRST itself chains it in; LAST | CONCAT ends the packet"
        );
        assert_eq!(
            walk(&[tx(2, FIRST | LAST, 16)]),
            Err(Fault::TxRingId {
                slot: 0,
                expected: rid(1),
                found: rid(2)
            })
        );
        let open = [tx(1, FIRST, 16), tx(1, 0, 16)];
        assert_eq!(
            tx_packet(&open[..], RingPos::RESET, 2, &RULES, |_| {}),
            Ok(Err(Pending::TxIncomplete { descs: 2 })),
            "LAST not posted: wait"
        );
        assert_eq!(
            walk(&open),
            Err(Fault::TxRingId {
                slot: 0,
                expected: rid(2),
                found: rid(1)
            }),
            "posted past the wrap: the stale slot 0 is a ring-id fault"
        );
        assert_eq!(
            tx_packet(
                &[tx(1, FIRST | LAST, 1)][..],
                RingPos::RESET,
                0,
                &RULES,
                |_| {}
            ),
            Ok(Err(Pending::NoTx))
        );
    }

    #[test]
    fn seed_cme_packet_is_one_packet_and_the_meta_moves_nothing() {
        // Seed 004 §1 build_cme_packet: meta word (cme_index << 24) | 0x04800000 (FIRST |
        // META), then the data descriptors with CONCAT, FIRST on the first, LAST on the last.
        let ring = [
            d((3 << 24) | 0x0480_0000, 0),
            tx(1, FIRST | CONCAT, 4096),
            tx(1, LAST | CONCAT, 4096),
        ];
        let mut segs = Vec::new();
        let p = tx_packet(&ring[..], RingPos::RESET, 3, &RULES, |s| segs.push(s))
            .unwrap()
            .unwrap();
        assert_eq!((p.descs, p.metas, p.data_descs(), p.bytes), (3, 1, 2, 8192));
        assert_eq!(segs.len(), 2, "the META descriptor moves no data");
        assert_eq!(p.end.index, 0, "a ring of three wrapped");
    }

    #[test]
    fn the_descriptor_cap_counts_data_descriptors() {
        // 65 data descriptors behind a CME meta descriptor: within V3's cap of 65.
        let mut ring = vec![d((1 << 24) | 0x0480_0000, 0)];
        ring.extend((0..65).map(|i| match i {
            0 => tx(1, FIRST | CONCAT, 16),
            64 => tx(1, LAST | CONCAT, 16),
            _ => tx(1, CONCAT, 16),
        }));
        let p = tx_packet(&ring[..], RingPos::RESET, 66, &RULES, |_| {});
        assert_eq!(p.map(|r| r.map(|p| p.descs)), Ok(Ok(66)));
    }

    #[test]
    fn limits_are_the_rules() {
        let ring: Vec<Descriptor> = (0..66)
            .map(|i| match i {
                0 => tx(1, FIRST, 16),
                65 => tx(1, LAST, 16),
                _ => tx(1, 0, 16),
            })
            .collect();
        assert_eq!(
            tx_packet(&ring[..], RingPos::RESET, 66, &RULES, |_| {}),
            Err(Fault::TxMaxDesc { limit: 65 })
        );
        let v2 = WalkRules {
            max_descs_per_packet: 128,
            ..RULES
        };
        assert!(matches!(
            tx_packet(&ring[..], RingPos::RESET, 66, &v2, |_| {}),
            Ok(Ok(_))
        ));
        let small = WalkRules {
            max_packet_bytes: 31,
            ..RULES
        };
        assert_eq!(
            tx_packet(&ring[..], RingPos::RESET, 66, &small, |_| {}),
            Err(Fault::TxPacketLen { len: 32, max: 31 })
        );
    }

    #[test]
    fn rx_buffers_fill_in_order_and_must_hold_the_packet() {
        let rx = [d((1 << 24) | 100, 0xa000), d((1 << 24) | 100, 0xb000)];
        let mut segs = Vec::new();
        let b = rx_buffers(&rx[..], RingPos::RESET, 2, 2, 150, &RULES, |s| segs.push(s))
            .unwrap()
            .unwrap();
        assert_eq!((b.descs, b.capacity), (2, 200));
        assert_eq!(
            segs,
            [
                Segment {
                    addr: 0xa000,
                    len: 100
                },
                Segment {
                    addr: 0xb000,
                    len: 50
                }
            ]
        );
        assert_eq!(
            rx_buffers(&rx[..], RingPos::RESET, 2, 2, 201, &RULES, |_| {}),
            Err(Fault::RxShort {
                packet_len: 201,
                rx_capacity: 200
            })
        );
        assert_eq!(
            rx_buffers(&rx[..], RingPos::RESET, 1, 2, 1, &RULES, |_| {}),
            Ok(Err(Pending::NoRx { needed: 2 }))
        );
    }

    #[test]
    fn phase_scan_counts_this_laps_descriptors() {
        // Head at slot 2 of 4 expecting 1: slots 2, 3 carry 1; 0 carries 2 (next lap); 1 is stale.
        let ring = [
            tx(2, FIRST | LAST, 1),
            tx(1, FIRST | LAST, 1),
            tx(1, FIRST | LAST, 1),
            tx(1, FIRST | LAST, 1),
        ];
        let head = RingPos {
            index: 2,
            ring_id: rid(1),
        };
        let s = phase_scan(&ring[..], Direction::Tx, head);
        assert_eq!(s.count, 3);
        assert_eq!(
            s.stop,
            Some(PhaseStop {
                pos: RingPos {
                    index: 1,
                    ring_id: rid(2)
                },
                found: Some(rid(1))
            })
        );
        let meta = [tx(3, FIRST | META | CONCAT, 0), tx(1, LAST, 1)];
        assert_eq!(
            phase_scan(&meta[..], Direction::Tx, RingPos::RESET).count,
            2,
            "TX META skips the check"
        );
        assert_eq!(
            phase_scan(&meta[..], Direction::Rx, RingPos::RESET).count,
            0,
            "RX has no META"
        );
    }
}
