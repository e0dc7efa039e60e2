//! The bytes `neuron-tool copy` moves: byte `i` is `(i mod 256) * 31 XOR (i >> 16) mod 256`,
//! so neighbouring bytes and neighbouring 64 KiB pieces (one descriptor each) differ and a
//! misplaced descriptor shows. Generated piece by piece on demand ([`Source`]), so a copy of
//! any size holds none of it whole.

use ndl_copy::Source;

/// Bytes of one period of the low part (`i mod 256`).
const ROW: usize = 256;

/// `(j * 31) mod 256` for every `j` of a row.
const ROW_BYTES: [u8; ROW] = {
    let mut row = [0u8; ROW];
    let mut j = 0;
    while j < ROW {
        row[j] = (j as u8).wrapping_mul(31);
        j += 1;
    }
    row
};

/// The copy pattern of `len` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    len: u64,
}

impl Pattern {
    /// The first `len` bytes of the pattern.
    pub fn new(len: u64) -> Self {
        Self { len }
    }

    /// Byte `i` of the pattern (the definition the pieces follow).
    pub fn byte(i: u64) -> u8 {
        (i as u8).wrapping_mul(31) ^ (i >> 16) as u8
    }

    /// All of it, for a caller that needs one slice (the register-level path); `None`
    /// when the host cannot allocate it (never an abort).
    pub fn to_vec(&self) -> Option<Vec<u8>> {
        let len = usize::try_from(self.len).ok()?;
        let mut v = Vec::new();
        v.try_reserve_exact(len).ok()?;
        v.resize(len, 0);
        self.fill(0, &mut v);
        Some(v)
    }
}

impl Source for Pattern {
    fn len(&self) -> u64 {
        self.len
    }

    /// Row by row: a 256-byte-aligned row never crosses a 64 KiB boundary, so each row is
    /// `ROW_BYTES` XOR one byte.
    fn fill(&self, offset: u64, out: &mut [u8]) {
        let mut i = offset;
        let mut rest = out;
        while !rest.is_empty() {
            let col = (i % ROW as u64) as usize;
            let row = ROW_BYTES.get(col..).unwrap_or_default();
            let n = row.len().min(rest.len());
            let (head, tail) = rest.split_at_mut(n);
            let high = (i >> 16) as u8;
            for (d, s) in head.iter_mut().zip(row) {
                *d = s ^ high;
            }
            i += n as u64;
            rest = tail;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_at_any_offset_follow_the_definition() {
        for (offset, len) in [
            (0u64, 1000usize),
            (255, 3),
            (65_530, 20),
            (1 << 30, 600),
            (7, 0),
        ] {
            let mut out = vec![0u8; len];
            Pattern::new(offset + len as u64).fill(offset, &mut out);
            for (k, b) in out.iter().enumerate() {
                assert_eq!(
                    *b,
                    Pattern::byte(offset + k as u64),
                    "offset {offset} + {k}"
                );
            }
        }
    }

    #[test]
    fn neighbouring_bytes_and_descriptor_pieces_differ() {
        assert_ne!(Pattern::byte(0), Pattern::byte(1));
        assert_ne!(Pattern::byte(5), Pattern::byte(5 + (1 << 16)));
        assert_eq!(Pattern::new(4).to_vec().unwrap(), vec![0, 31, 62, 93]);
        // More than any allocator gives: refused, not an abort.
        assert_eq!(Pattern::new(u64::MAX / 2).to_vec(), None);
    }
}
