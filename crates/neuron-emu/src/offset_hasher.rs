//! A cheap hasher for register-offset keys.
//!
//! The unit's plain register file is a map keyed by the register's unit offset, and the data
//! path reads six of its registers per packet. The std default (SipHash, keyed against
//! hash-flooding) cost more per packet than the descriptor checks; offsets come from the
//! model's own register decoding, not from an attacker, so one multiply does.

use core::hash::{BuildHasherDefault, Hasher};
use std::collections::HashMap;

/// Odd 64-bit multiplier with well-mixed bits (the golden-ratio constant, 2^64 / phi).
const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

/// Multiplicative hasher for integer keys: `rotate(key * MULTIPLIER)`.
///
/// The rotation brings the best-mixed high product bits down to the low bits the table uses
/// to pick a bucket (register offsets are multiples of 4, so their own low bits are constant).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OffsetHasher(u64);

impl Hasher for OffsetHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(MULTIPLIER).rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_usize(&mut self, n: usize) {
        // usize -> u64 never loses bits on the 32- and 64-bit hosts Rust supports.
        self.0 = self.0.rotate_left(32) ^ n as u64;
    }
}

/// A map keyed by register offset, hashed with [`OffsetHasher`].
pub(crate) type OffsetMap<V> = HashMap<usize, V, BuildHasherDefault<OffsetHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use core::hash::BuildHasher;

    #[test]
    fn distinct_aligned_offsets_spread_over_buckets() {
        // Every 4-byte register of a 64 KiB window: the low 12 bits (a 4096-bucket table's
        // index) must take many values, not collapse onto the offsets' constant low bits.
        let b = BuildHasherDefault::<OffsetHasher>::default();
        let buckets: std::collections::HashSet<u64> = (0..0x1_0000usize)
            .step_by(4)
            .map(|off| b.hash_one(off) & 0xfff)
            .collect();
        assert!(buckets.len() > 3000, "only {} buckets used", buckets.len());
    }

    #[test]
    fn stores_and_finds_like_a_map() {
        let mut m = OffsetMap::default();
        for off in (0..0x3c800usize).step_by(4) {
            m.insert(off, u32::try_from(off).unwrap() ^ 0xa5a5);
        }
        assert_eq!(m.len(), 0x3c800 / 4);
        assert_eq!(m.get(&0x258), Some(&(0x258 ^ 0xa5a5)));
        assert_eq!(m.get(&0x3c800), None);
    }
}
