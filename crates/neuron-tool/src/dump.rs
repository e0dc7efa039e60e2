//! A raw ring dump: read with a bound, checked, and split into descriptors.
//!
//! A dump is the memory of one descriptor ring, 16 bytes per descriptor in memory order.
//! What a dump can be is bounded by what a ring can be: [`MAX_DUMP_BYTES`] is the largest
//! ring the driver's DMA_QUEUE_INIT accepts on every arch, so nothing larger is read (a
//! 300 MiB file or `/dev/zero` is refused after at most that many bytes and one more).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use udma_desc::{DESC_BYTES, Descriptor, RING_MAX_SIZE, RingDump};

/// Bytes of the largest ring: [`RING_MAX_SIZE`] descriptors of [`DESC_BYTES`] each
/// (2^24 - 16 descriptors, the `drl` limit DMA_QUEUE_INIT checks on V2, V3 and V4 alike,
/// `reference/udma-notes.md` "max ring size"; 268,435,200 bytes).
pub const MAX_DUMP_BYTES: u64 = RING_MAX_SIZE as u64 * DESC_BYTES as u64;

/// Why a file is not a ring dump.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DumpError {
    /// No bytes at all.
    #[error("is empty (a dump holds 16 bytes per descriptor)")]
    Empty,
    /// Not a whole number of descriptors: a truncated dump, or not a dump.
    #[error(
        "is {len} bytes, not a whole number of {DESC_BYTES}-byte descriptors (its last \
         {trailing} bytes are part of one: a truncated dump?)"
    )]
    Partial {
        /// Bytes in the file.
        len: u64,
        /// Bytes after the last whole descriptor.
        trailing: usize,
    },
    /// More than the largest ring.
    #[error(
        "holds more than {MAX_DUMP_BYTES} bytes, the largest ring ({RING_MAX_SIZE} \
         descriptors of {DESC_BYTES} bytes, the driver's DMA_QUEUE_INIT limit)"
    )]
    TooLarge,
    /// Hex digits and blanks only: a text dump, not the raw bytes.
    #[error(
        "holds only hex digits and blanks: it is hex text, not raw bytes (`xxd -r -p` converts it)"
    )]
    HexText,
}

/// True when `bytes` are hex digits and blanks only. Every descriptor the driver or this
/// project writes holds a zero byte (a DMA address's bits 63:56, the unused `meta_ctrl`
/// bytes), which such text never does, so no real ring looks like this.
fn is_hex_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|b| b.is_ascii_hexdigit() || b.is_ascii_whitespace())
}

/// The descriptors of a dump, or why `bytes` are not one.
///
/// ```
/// use neuron_tool::dump::{DumpError, parse_dump};
/// let ring = [0u8; 32];
/// assert_eq!(parse_dump(&ring).map(|d| d.len()), Ok(2));
/// assert_eq!(parse_dump(&ring[..20]), Err(DumpError::Partial { len: 20, trailing: 4 }));
/// assert_eq!(parse_dump(b""), Err(DumpError::Empty));
/// assert_eq!(parse_dump(b"0010000d03000801\n0020000000000000\n"), Err(DumpError::HexText));
/// ```
pub fn parse_dump(bytes: &[u8]) -> Result<Vec<Descriptor>, DumpError> {
    let len = bytes.len() as u64;
    if len == 0 {
        return Err(DumpError::Empty);
    }
    if len > MAX_DUMP_BYTES {
        return Err(DumpError::TooLarge);
    }
    if is_hex_text(bytes) {
        return Err(DumpError::HexText);
    }
    let dump = RingDump::new(bytes);
    let trailing = dump.remainder().len();
    if trailing != 0 {
        return Err(DumpError::Partial { len, trailing });
    }
    Ok(dump.collect())
}

/// Reads the file at `path`, at most [`MAX_DUMP_BYTES`] + 1 bytes of it (one more says it
/// is too large). A regular file whose size says so is refused without reading.
pub fn read_dump(path: &Path) -> Result<Vec<u8>, ReadDumpError> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > MAX_DUMP_BYTES {
        return Err(ReadDumpError::Dump(DumpError::TooLarge));
    }
    let mut bytes = Vec::new();
    if meta.is_file() {
        // The size is known and bounded: one allocation, not a doubling past it.
        let len = usize::try_from(meta.len()).map_err(|_| DumpError::TooLarge)?;
        bytes
            .try_reserve_exact(len.saturating_add(1))
            .map_err(std::io::Error::other)?;
    }
    file.take(MAX_DUMP_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Why [`read_dump`] read no dump.
#[derive(Debug, thiserror::Error)]
pub enum ReadDumpError {
    /// The file could not be opened or read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The file is larger than any ring.
    #[error(transparent)]
    Dump(#[from] DumpError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_is_the_largest_ring_queue_init_takes() {
        // udma-notes.md: "max ring size | 16,777,200 descriptors (2^24 - 16)".
        assert_eq!(MAX_DUMP_BYTES, 16_777_200 * 16);
    }

    #[test]
    fn large_and_endless_inputs_are_refused_after_the_bound() {
        let big = tempfile::NamedTempFile::new().unwrap();
        big.as_file().set_len(300 << 20).unwrap();
        assert!(matches!(
            read_dump(big.path()),
            Err(ReadDumpError::Dump(DumpError::TooLarge))
        ));
        // A stream with no size: read up to the bound and one byte more, then refused.
        let zero = read_dump(Path::new("/dev/zero")).unwrap();
        assert_eq!(zero.len() as u64, MAX_DUMP_BYTES + 1);
        assert_eq!(parse_dump(&zero), Err(DumpError::TooLarge));
    }

    #[test]
    fn a_dump_of_exactly_the_largest_ring_is_taken() {
        let max = vec![0u8; usize::try_from(MAX_DUMP_BYTES).unwrap()];
        assert_eq!(
            parse_dump(&max).map(|d| d.len() as u64),
            Ok(u64::from(RING_MAX_SIZE))
        );
    }

    #[test]
    fn raw_rings_with_zero_bytes_are_never_hex_text() {
        let d = Descriptor::from_words([0x0d00_1000, 0x0108_0003, 0x2000, 0]);
        assert_eq!(parse_dump(&d.to_le_bytes()).map(|v| v[0]), Ok(d));
        assert_eq!(parse_dump(b"0123456789abcdef"), Err(DumpError::HexText));
        assert_eq!(
            parse_dump(b"0123456789abcdeg").map(|v| v.len()),
            Ok(1),
            "one non-hex byte: a descriptor"
        );
    }
}
