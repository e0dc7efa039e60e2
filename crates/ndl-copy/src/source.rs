//! The bytes a copy moves, produced piece by piece.
//!
//! A copy of N bytes needs the source bytes twice: once to fill the source chunk and once
//! to check the destination. A [`Source`] hands them out in bounded pieces, so a caller whose
//! data is a generator (a test pattern) never holds N bytes of it, and the copy streams both
//! directions through MEM_BUF_COPY (or a mapping) with one [`STREAM_BYTES`] buffer each.

use super::CopyError;

/// Bytes moved per MEM_BUF_COPY (or mapped store/load) when the data is streamed: large
/// enough that the ioctl's fixed cost vanishes, small enough to stay in cache.
pub const STREAM_BYTES: usize = 1 << 20;

/// Source bytes of a copy, addressable by offset.
pub trait Source {
    /// Total bytes.
    fn len(&self) -> u64;

    /// Whether there are no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes bytes `[offset, offset + out.len())` of the source into `out` (the range lies
    /// inside `0..len()`).
    fn fill(&self, offset: u64, out: &mut [u8]);

    /// The bytes as one slice, when the source holds them (then no piece is copied).
    fn as_slice(&self) -> Option<&[u8]> {
        None
    }
}

impl Source for [u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }

    fn fill(&self, offset: u64, out: &mut [u8]) {
        let piece = usize::try_from(offset)
            .ok()
            .and_then(|at| self.get(at..at.checked_add(out.len())?));
        if let Some(piece) = piece {
            out.copy_from_slice(piece);
        }
    }

    fn as_slice(&self) -> Option<&[u8]> {
        Some(self)
    }
}

/// Compares one piece of the destination, read back from `offset`, with the source; the
/// first differing byte (as an offset into the whole copy) is the error.
pub fn verify_piece(offset: u64, expected: &[u8], found: &[u8]) -> Result<(), CopyError> {
    if expected == found {
        return Ok(());
    }
    super::verify(expected, found).map_err(|e| match e {
        CopyError::Mismatch {
            offset: at,
            expected,
            found,
        } => CopyError::Mismatch {
            offset: offset + at,
            expected,
            found,
        },
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_fills_any_piece_of_itself() {
        let data: Vec<u8> = (0..=255).collect();
        let mut out = [0u8; 4];
        data.as_slice().fill(250, &mut out);
        assert_eq!(out, [250, 251, 252, 253]);
        assert_eq!(Source::len(data.as_slice()), 256);
    }

    #[test]
    fn a_mismatch_in_a_piece_names_its_offset_in_the_whole_copy() {
        let e = verify_piece(1 << 20, &[1, 2, 3], &[1, 9, 3]).unwrap_err();
        assert!(matches!(
            e,
            CopyError::Mismatch {
                offset: 1_048_577,
                expected: 2,
                found: 9
            }
        ));
        assert!(verify_piece(5, &[1, 2], &[1, 2]).is_ok());
    }
}
