//! The 16-byte UDMA descriptor and its raw words.

use crate::{Direction, RingId, TxLenCtrl};

/// Bytes in one descriptor (TX, RX and completion alike).
pub const DESC_BYTES: usize = 16;

/// One 16-byte UDMA descriptor exactly as it sits in a ring in memory.
///
/// The four 32-bit words are kept **little-endian in memory** (what the engine reads over
/// DMA), whatever the host byte order, so a `Descriptor` can be copied into a ring slot
/// as is. The 16-byte alignment is the engine's: rings are 256-byte aligned and a
/// descriptor never straddles a cache line.
///
/// A descriptor does not know its direction; read it through a typed view:
/// [`as_tx`](Self::as_tx), [`as_tx_meta`](Self::as_tx_meta), [`as_rx`](Self::as_rx),
/// [`as_completion`](Self::as_completion), or [`decode`](Self::decode).
///
/// ```
/// use udma_desc::Descriptor;
/// let bytes = [0x00, 0x10, 0x00, 0x0d, 0x03, 0x00, 0x08, 0x01, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01];
/// let d = Descriptor::from_le_bytes(bytes);
/// let tx = d.as_tx();
/// assert_eq!(tx.len_ctrl.size(), 4096);
/// assert!(tx.len_ctrl.first() && tx.len_ctrl.last());
/// assert_eq!(tx.buf_ptr, 0x0123_4567_89ab_cdef);
/// assert_eq!(d.to_le_bytes(), bytes);
/// ```
#[repr(C, align(16))]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, zerocopy::FromBytes)]
pub struct Descriptor {
    /// The two 8-byte halves in memory order, each stored little-endian (`u64::to_le`):
    /// words 0-1 and words 2-3 (word 0 in the low half). Two halves, not four words, so
    /// that writing a descriptor into a slot is two 8-byte stores, not four narrow ones.
    le: [u64; 2],
}

const _: () = assert!(core::mem::size_of::<Descriptor>() == DESC_BYTES);
const _: () = assert!(core::mem::align_of::<Descriptor>() == DESC_BYTES);

impl Descriptor {
    /// The all-zero descriptor.
    pub const ZERO: Descriptor = Descriptor { le: [0; 2] };

    /// The descriptor whose memory bytes are `bytes`.
    #[inline]
    pub const fn from_le_bytes(bytes: [u8; DESC_BYTES]) -> Self {
        let [
            a0,
            a1,
            a2,
            a3,
            b0,
            b1,
            b2,
            b3,
            c0,
            c1,
            c2,
            c3,
            d0,
            d1,
            d2,
            d3,
        ] = bytes;
        Self::from_words([
            u32::from_le_bytes([a0, a1, a2, a3]),
            u32::from_le_bytes([b0, b1, b2, b3]),
            u32::from_le_bytes([c0, c1, c2, c3]),
            u32::from_le_bytes([d0, d1, d2, d3]),
        ])
    }

    /// The 16 bytes this descriptor occupies in memory.
    #[inline]
    pub const fn to_le_bytes(self) -> [u8; DESC_BYTES] {
        let [w0, w1, w2, w3] = self.words();
        let [a0, a1, a2, a3] = w0.to_le_bytes();
        let [b0, b1, b2, b3] = w1.to_le_bytes();
        let [c0, c1, c2, c3] = w2.to_le_bytes();
        let [d0, d1, d2, d3] = w3.to_le_bytes();
        [
            a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3,
        ]
    }

    /// The descriptor made of four word values (word 0 at bytes 0-3).
    #[inline]
    pub const fn from_words(words: [u32; 4]) -> Self {
        let [w0, w1, w2, w3] = words;
        Self::from_halves(join(w0, w1), join(w2, w3))
    }

    /// The descriptor of two 64-bit halves: words 0-1 (word 0 low) and words 2-3.
    #[inline]
    const fn from_halves(lo: u64, hi: u64) -> Self {
        Self {
            le: [lo.to_le(), hi.to_le()],
        }
    }

    /// [`from_halves`](Self::from_halves) built in one 16-byte vector register where the
    /// target has one in its baseline (x86_64's SSE2), so writing it into a slot is one
    /// 16-byte store instead of two 8-byte ones: the batch path is bound by its stores
    /// (`benches/pair_instructions.rs alternate`: 1.39 against 1.59 ns a pair). The same
    /// bytes on every target.
    #[inline(always)]
    pub(crate) fn from_halves_one_store(lo: u64, hi: u64) -> Self {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            let (hi, lo) = (
                i64::from_ne_bytes(hi.to_ne_bytes()),
                i64::from_ne_bytes(lo.to_ne_bytes()),
            );
            // SAFETY: the intrinsic's one requirement is SSE2, which the cfg above makes a
            // compile-time fact (it is in the x86_64 baseline); it only builds a value.
            let v = unsafe { core::arch::x86_64::_mm_set_epi64x(hi, lo) };
            // `lo` in bytes 0-7 and `hi` in bytes 8-15, little-endian: `le: [lo.to_le(),
            // hi.to_le()]` on this little-endian target. zerocopy checks the sizes and that
            // every bit pattern is a descriptor.
            zerocopy::transmute!(v)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            Self::from_halves(lo, hi)
        }
    }

    /// `from_halves_one_store(lo | u64::from(size as u16), hi)`: the 16-bit length field
    /// taken from `size` and ORed into `lo` in the vector register (x86_64), so a batch of
    /// copies moves no control word from a general register into a vector one (the port
    /// that does so also does the final unpack, and bounds the batch loop). The same bytes
    /// on every target.
    #[inline(always)]
    pub(crate) fn from_lo_len_one_store(lo: u64, size: u32, hi: u64) -> Self {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use core::arch::x86_64::{
                _mm_and_si128, _mm_cvtsi32_si128, _mm_cvtsi64_si128, _mm_or_si128,
                _mm_unpacklo_epi64,
            };
            let i = |v: u64| i64::from_ne_bytes(v.to_ne_bytes());
            let size = i32::from_ne_bytes(size.to_ne_bytes());
            // SAFETY: these intrinsics' one requirement is SSE2, which the cfg above makes
            // a compile-time fact (it is in the x86_64 baseline); they only build values.
            let v = unsafe {
                let len = _mm_and_si128(_mm_cvtsi32_si128(size), _mm_cvtsi32_si128(0xffff));
                let lo = _mm_or_si128(_mm_cvtsi64_si128(i(lo)), len);
                _mm_unpacklo_epi64(lo, _mm_cvtsi64_si128(i(hi)))
            };
            // `lo` in bytes 0-7 and `hi` in bytes 8-15, as `from_halves_one_store`.
            zerocopy::transmute!(v)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            Self::from_halves(lo | u64::from(size & 0xffff), hi)
        }
    }

    /// The descriptor of control word `w0`, word 1 `w1` and a 64-bit address in words 2-3
    /// (how TX and RX data descriptors are laid out), built as two 64-bit halves so it can
    /// be stored in one go.
    #[inline]
    pub const fn from_words_addr(w0: u32, w1: u32, addr: u64) -> Self {
        Self::from_halves(join(w0, w1), addr)
    }

    /// The descriptor of words 0-1 as one value `lo` (word 0 low, see [`join`]) and a 64-bit
    /// address in words 2-3.
    #[inline]
    pub(crate) const fn from_half0_addr(lo: u64, addr: u64) -> Self {
        Self::from_halves(lo, addr)
    }

    /// The four word values (word 0 at bytes 0-3).
    #[inline]
    pub const fn words(self) -> [u32; 4] {
        let [lo, hi] = self.le;
        let (w0, w1) = split(u64::from_le(lo));
        let (w2, w3) = split(u64::from_le(hi));
        [w0, w1, w2, w3]
    }

    /// Word 0: the control word (`len_ctrl` of TX and RX, `ctrl_meta` of a completion).
    #[inline]
    pub const fn word0(self) -> u32 {
        split(u64::from_le(self.le[0])).0
    }

    /// Replaces word 0 (the control word).
    #[inline]
    pub const fn set_word0(&mut self, v: u32) {
        self.le[0] = join(v, self.word1()).to_le();
    }

    /// Word 1: TX `meta_ctrl`, RX `buf2_ptr_lo`.
    #[inline]
    pub const fn word1(self) -> u32 {
        split(u64::from_le(self.le[0])).1
    }

    /// Replaces word 1.
    #[inline]
    pub const fn set_word1(&mut self, v: u32) {
        self.le[0] = join(self.word0(), v).to_le();
    }

    /// Words 2-3 as the 64-bit buffer address of TX and RX descriptors.
    #[inline]
    pub const fn buf_ptr(self) -> u64 {
        u64::from_le(self.le[1])
    }

    /// Reads the descriptor as TX (memory-to-stream) data descriptor.
    #[inline]
    pub const fn as_tx(self) -> TxDesc {
        TxDesc {
            len_ctrl: TxLenCtrl::from_bits(self.word0()),
            meta_ctrl: crate::MetaCtrl::from_bits(self.word1()),
            buf_ptr: self.buf_ptr(),
        }
    }

    /// Reads the descriptor as TX meta descriptor (META set: words 2-3 are metadata).
    #[inline]
    pub const fn as_tx_meta(self) -> TxMetaDesc {
        let [w0, w1, w2, w3] = self.words();
        TxMetaDesc {
            len_ctrl: TxLenCtrl::from_bits(w0),
            meta_ctrl: crate::MetaCtrl::from_bits(w1),
            meta1: w2,
            meta2: w3,
        }
    }

    /// Reads the descriptor as RX (stream-to-memory) descriptor.
    #[inline]
    pub const fn as_rx(self) -> RxDesc {
        RxDesc {
            len_ctrl: crate::RxLenCtrl::from_bits(self.word0()),
            buf2_ptr_lo: self.word1(),
            buf1_ptr: self.buf_ptr(),
        }
    }

    /// Reads the descriptor as completion-ring entry.
    #[inline]
    pub const fn as_completion(self) -> CompletionDesc {
        let [w0, w1, w2, w3] = self.words();
        CompletionDesc {
            ctrl_meta: crate::CompCtrlMeta::from_bits(w0),
            word1: w1,
            word2: w2,
            word3: w3,
        }
    }

    /// Decodes the descriptor for a ring of direction `dir`: TX descriptors with META set
    /// read as [`TxMetaDesc`], other TX ones as [`TxDesc`], RX ones as [`RxDesc`].
    #[inline]
    pub const fn decode(self, dir: Direction) -> Decoded {
        match dir {
            Direction::Rx => Decoded::Rx(self.as_rx()),
            Direction::Tx => {
                if TxLenCtrl::from_bits(self.word0()).meta() {
                    Decoded::TxMeta(self.as_tx_meta())
                } else {
                    Decoded::Tx(self.as_tx())
                }
            }
        }
    }

    /// The TX transfer size in bytes (length 0 means 65,536).
    #[inline]
    pub const fn tx_size(self) -> u32 {
        TxLenCtrl::from_bits(self.word0()).size()
    }

    /// Sets or clears FIRST (TX `len_ctrl` bit 26), leaving every other bit alone.
    #[inline]
    pub const fn set_first(&mut self, on: bool) {
        self.set_word0(
            TxLenCtrl::from_bits(self.word0())
                .with_first(on)
                .into_bits(),
        );
    }

    /// Sets or clears LAST (TX `len_ctrl` bit 27), leaving every other bit alone.
    #[inline]
    pub const fn set_last(&mut self, on: bool) {
        self.set_word0(TxLenCtrl::from_bits(self.word0()).with_last(on).into_bits());
    }

    /// Sets or clears CONCAT (TX `len_ctrl` bit 31), leaving every other bit alone.
    #[inline]
    pub const fn set_concat(&mut self, on: bool) {
        self.set_word0(
            TxLenCtrl::from_bits(self.word0())
                .with_concat(on)
                .into_bits(),
        );
    }

    /// Sets or clears the write barrier (TX `meta_ctrl` bit 26, barrier type 2).
    ///
    /// This is what seed 004 §1 calls `al_udma_m2m_set_dmb` ("set the write-barrier via the
    /// SDMA overlay … flips meta_ctrl bit26"): the userspace HAL's "DMB" is this bit, while
    /// the kernel's barrier type 1 "DMB" is TX `len_ctrl` bit 30 ([`TxLenCtrl::dmb`]).
    #[inline]
    pub const fn set_write_barrier(&mut self, on: bool) {
        self.set_word1(
            crate::MetaCtrl::from_bits(self.word1())
                .with_write_barrier(on)
                .into_bits(),
        );
    }

    /// Replaces the ring id (bits 25:24 of word 0, the same place on TX and RX).
    #[inline]
    pub const fn set_ring_id(&mut self, id: RingId) {
        // Plain mask arithmetic (the generated setters are not inlinable across crates, and
        // bulk writes stamp every descriptor).
        let mask = (RingId::MAX as u32) << TxLenCtrl::RING_ID_SHIFT;
        self.set_word0((self.word0() & !mask) | crate::builder::ring_id_bits(id));
    }

    /// The ring id stamped in word 0.
    #[inline]
    pub const fn ring_id(self) -> RingId {
        TxLenCtrl::from_bits(self.word0()).ring_id()
    }
}

impl From<[u8; DESC_BYTES]> for Descriptor {
    #[inline]
    fn from(b: [u8; DESC_BYTES]) -> Self {
        Self::from_le_bytes(b)
    }
}

impl From<Descriptor> for [u8; DESC_BYTES] {
    #[inline]
    fn from(d: Descriptor) -> Self {
        d.to_le_bytes()
    }
}

impl core::fmt::Debug for Descriptor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let [w0, w1, w2, w3] = self.words();
        f.debug_struct("Descriptor")
            .field("word0_ctrl", &format_args!("{w0:#010x}"))
            .field("word1", &format_args!("{w1:#010x}"))
            .field("word2_addr_lo", &format_args!("{w2:#010x}"))
            .field("word3_addr_hi", &format_args!("{w3:#010x}"))
            .finish()
    }
}

/// The 16 memory bytes in hex, lowest address first (the format of the reference vectors).
impl core::fmt::Display for Descriptor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for b in self.to_le_bytes() {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// TX data descriptor: bytes 0-3 `len_ctrl`, 4-7 `meta_ctrl`, 8-15 source address.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TxDesc {
    /// Length, ring id, packet flags.
    pub len_ctrl: TxLenCtrl,
    /// Operation and write barrier.
    pub meta_ctrl: crate::MetaCtrl,
    /// Source bus address.
    pub buf_ptr: u64,
}

/// TX meta descriptor (META set): bytes 0-3 `len_ctrl`, 4-7 `meta_ctrl`, 8-11 `meta1`,
/// 12-15 `meta2`. Carries configuration (a CME index, a CRC seed) instead of data.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TxMetaDesc {
    /// Flags; META is set.
    pub len_ctrl: TxLenCtrl,
    /// Operation configuration.
    pub meta_ctrl: crate::MetaCtrl,
    /// First metadata word.
    pub meta1: u32,
    /// Second metadata word.
    pub meta2: u32,
}

/// RX descriptor: bytes 0-3 `len_ctrl`, 4-7 `buf2_ptr_lo` (unused by copies, 0), 8-15
/// destination address.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RxDesc {
    /// Length, ring id, flags.
    pub len_ctrl: crate::RxLenCtrl,
    /// Low 32 bits of a second buffer (unused by the copy path).
    pub buf2_ptr_lo: u32,
    /// Destination bus address.
    pub buf1_ptr: u64,
}

/// Completion-ring entry: bytes 0-3 `ctrl_meta`; the other words are not described by the
/// reference and are kept raw.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CompletionDesc {
    /// FIRST / LAST of the completed descriptor.
    pub ctrl_meta: crate::CompCtrlMeta,
    /// Word 1, raw.
    pub word1: u32,
    /// Word 2, raw.
    pub word2: u32,
    /// Word 3, raw.
    pub word3: u32,
}

// Every view is the same 16 bytes with its words where the driver's structs put them.
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(size_of::<TxDesc>() == DESC_BYTES);
    assert!(offset_of!(TxDesc, len_ctrl) == 0);
    assert!(offset_of!(TxDesc, meta_ctrl) == 4);
    assert!(offset_of!(TxDesc, buf_ptr) == 8);
    assert!(size_of::<TxMetaDesc>() == DESC_BYTES);
    assert!(offset_of!(TxMetaDesc, len_ctrl) == 0);
    assert!(offset_of!(TxMetaDesc, meta_ctrl) == 4);
    assert!(offset_of!(TxMetaDesc, meta1) == 8);
    assert!(offset_of!(TxMetaDesc, meta2) == 12);
    assert!(size_of::<RxDesc>() == DESC_BYTES);
    assert!(offset_of!(RxDesc, len_ctrl) == 0);
    assert!(offset_of!(RxDesc, buf2_ptr_lo) == 4);
    assert!(offset_of!(RxDesc, buf1_ptr) == 8);
    assert!(size_of::<CompletionDesc>() == DESC_BYTES);
    assert!(offset_of!(CompletionDesc, ctrl_meta) == 0);
};

/// `lo` in the low 32 bits, `hi` in the high ones.
#[inline]
pub(crate) const fn join(lo: u32, hi: u32) -> u64 {
    ((hi as u64) << 32) | lo as u64
}

/// The low and high 32 bits.
#[inline]
const fn split(addr: u64) -> (u32, u32) {
    // Low and high halves: the truncation is the point.
    #[allow(clippy::cast_possible_truncation)]
    ((addr & 0xffff_ffff) as u32, (addr >> 32) as u32)
}

impl From<TxDesc> for Descriptor {
    #[inline]
    fn from(v: TxDesc) -> Self {
        Descriptor::from_words_addr(v.len_ctrl.into_bits(), v.meta_ctrl.into_bits(), v.buf_ptr)
    }
}

impl From<TxMetaDesc> for Descriptor {
    #[inline]
    fn from(v: TxMetaDesc) -> Self {
        Descriptor::from_words([
            v.len_ctrl.into_bits(),
            v.meta_ctrl.into_bits(),
            v.meta1,
            v.meta2,
        ])
    }
}

impl From<RxDesc> for Descriptor {
    #[inline]
    fn from(v: RxDesc) -> Self {
        Descriptor::from_words_addr(v.len_ctrl.into_bits(), v.buf2_ptr_lo, v.buf1_ptr)
    }
}

impl From<CompletionDesc> for Descriptor {
    #[inline]
    fn from(v: CompletionDesc) -> Self {
        Descriptor::from_words([v.ctrl_meta.into_bits(), v.word1, v.word2, v.word3])
    }
}

impl TxDesc {
    /// The descriptor in ring form.
    #[inline]
    pub fn to_descriptor(self) -> Descriptor {
        self.into()
    }
}

impl RxDesc {
    /// The descriptor in ring form.
    #[inline]
    pub fn to_descriptor(self) -> Descriptor {
        self.into()
    }
}

impl TxMetaDesc {
    /// The descriptor in ring form.
    #[inline]
    pub fn to_descriptor(self) -> Descriptor {
        self.into()
    }

    /// The CME index of a CME meta descriptor: it sits where data descriptors keep their
    /// ring id (`len_ctrl` bits 25:24, written as `cme_index << 24`).
    #[inline]
    pub const fn cme_index(self) -> u8 {
        self.len_ctrl.ring_id().get()
    }
}

impl core::fmt::Display for TxDesc {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "TX {} | meta_ctrl={:#010x} ({}) | buf_ptr={:#018x}",
            self.len_ctrl,
            self.meta_ctrl.into_bits(),
            self.meta_ctrl,
            self.buf_ptr
        )
    }
}

impl core::fmt::Display for TxMetaDesc {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "TX-META {} | meta_ctrl={:#010x} ({}) | meta1={:#010x} meta2={:#010x}",
            self.len_ctrl,
            self.meta_ctrl.into_bits(),
            self.meta_ctrl,
            self.meta1,
            self.meta2
        )
    }
}

impl core::fmt::Display for RxDesc {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "RX {} | buf2_ptr_lo={:#010x} | buf1_ptr={:#018x}",
            self.len_ctrl, self.buf2_ptr_lo, self.buf1_ptr
        )
    }
}

impl core::fmt::Display for CompletionDesc {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "CDESC {} | word1={:#010x} word2={:#010x} word3={:#010x}",
            self.ctrl_meta, self.word1, self.word2, self.word3
        )
    }
}

/// A descriptor decoded for its ring's direction (see [`Descriptor::decode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decoded {
    /// A TX data descriptor.
    Tx(TxDesc),
    /// A TX meta descriptor (META set).
    TxMeta(TxMetaDesc),
    /// An RX descriptor.
    Rx(RxDesc),
}

impl core::fmt::Display for Decoded {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Decoded::Tx(d) => d.fmt(f),
            Decoded::TxMeta(d) => d.fmt(f),
            Decoded::Rx(d) => d.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Descriptor;

    /// The one-store build is the two-half build, byte for byte, whichever halves: the
    /// vector path must not reorder or swap them.
    #[test]
    fn one_store_build_is_the_two_half_build() {
        let halves = [
            (0, 0),
            (1, 0),
            (0, 1),
            (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
            (u64::MAX, 0x8000_0000_0000_0000),
        ];
        for (lo, hi) in halves {
            let one = Descriptor::from_halves_one_store(lo, hi);
            assert_eq!(one, Descriptor::from_halves(lo, hi), "{lo:#x} {hi:#x}");
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&lo.to_le_bytes());
            bytes[8..].copy_from_slice(&hi.to_le_bytes());
            assert_eq!(one.to_le_bytes(), bytes);
        }
    }
}
