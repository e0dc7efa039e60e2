//! Reading a raw ring dump (bytes) as descriptors, for tools that print rings.

use crate::{DESC_BYTES, Descriptor, Error};

/// Iterator over the descriptors of a raw ring dump, without allocation.
///
/// [`RingDump::new`] is lenient: it yields every whole descriptor and leaves a trailing
/// partial one in [`remainder`](Self::remainder). [`RingDump::strict`] refuses a dump whose
/// length is not a multiple of 16.
///
/// ```
/// use udma_desc::{Direction, RingDump};
/// let mut dump = [0u8; 33];
/// dump[3] = 0x0c; // slot 0: FIRST | LAST, length 0 (64 KiB)
/// let ring = RingDump::new(&dump);
/// assert_eq!(ring.remainder().len(), 1);
/// for (slot, d) in ring.enumerate() {
///     println!("{slot:4}: {}", d.decode(Direction::Tx));
/// }
/// assert!(RingDump::strict(&dump).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct RingDump<'a> {
    chunks: core::slice::ChunksExact<'a, u8>,
}

impl<'a> RingDump<'a> {
    /// Every whole descriptor of `bytes`; a trailing partial one is kept aside.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self {
            chunks: bytes.chunks_exact(DESC_BYTES),
        }
    }

    /// Like [`new`](Self::new), but a length that is not a multiple of 16 is an error.
    pub fn strict(bytes: &'a [u8]) -> Result<Self, Error> {
        let trailing = bytes.len() % DESC_BYTES;
        if trailing != 0 {
            return Err(Error::PartialDescriptor {
                len: bytes.len(),
                trailing,
            });
        }
        Ok(Self::new(bytes))
    }

    /// Bytes after the last whole descriptor (empty for a well-formed dump).
    pub fn remainder(&self) -> &'a [u8] {
        self.chunks.remainder()
    }
}

impl Iterator for RingDump<'_> {
    type Item = Descriptor;

    fn next(&mut self) -> Option<Descriptor> {
        // `ChunksExact` yields exactly 16-byte chunks, so the conversion always succeeds.
        self.chunks
            .next()
            .and_then(|c| <[u8; DESC_BYTES]>::try_from(c).ok())
            .map(Descriptor::from_le_bytes)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl ExactSizeIterator for RingDump<'_> {}

impl DoubleEndedIterator for RingDump<'_> {
    fn next_back(&mut self) -> Option<Descriptor> {
        self.chunks
            .next_back()
            .and_then(|c| <[u8; DESC_BYTES]>::try_from(c).ok())
            .map(Descriptor::from_le_bytes)
    }
}
