//! Hex in and out for descriptors, hand-rolled so that the batch path formats without
//! allocating or going through `core::fmt`.

use udma_desc::{DESC_BYTES, Descriptor};

/// Characters of a descriptor in hex: two per byte.
pub const DESC_HEX_LEN: usize = DESC_BYTES * 2;

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Writes the 16 memory bytes of `d` as 32 lowercase hex digits (lowest address first, the
/// format of `reference/desc-vectors-sample.tsv`).
///
/// ```
/// use neuron_tool::hex::encode_desc;
/// let d = udma_desc::Descriptor::from_words([0x0d00_1000, 0x0108_0003, 0x2000, 0]);
/// let mut out = [0u8; 32];
/// encode_desc(&d, &mut out);
/// assert_eq!(&out, b"0010000d030008010020000000000000");
/// ```
pub fn encode_desc(d: &Descriptor, out: &mut [u8; DESC_HEX_LEN]) {
    for (pair, b) in out.chunks_exact_mut(2).zip(d.to_le_bytes()) {
        if let [hi, lo] = pair {
            *hi = DIGITS[usize::from(b >> 4)];
            *lo = DIGITS[usize::from(b & 0xf)];
        }
    }
}

/// Marks a byte that is not a hex digit in [`HEX_VALUE`].
pub const NOT_HEX: u8 = 0xff;

/// Value of every byte as a hex digit, [`NOT_HEX`] for the others: one load per digit
/// instead of three range checks (the batch parser reads 32 hex digits per line).
pub const HEX_VALUE: [u8; 256] = {
    let mut t = [NOT_HEX; 256];
    let mut c = 0u8;
    while c < 10 {
        t[(b'0' + c) as usize] = c;
        c += 1;
    }
    let mut c = 0u8;
    while c < 6 {
        t[(b'a' + c) as usize] = 10 + c;
        t[(b'A' + c) as usize] = 10 + c;
        c += 1;
    }
    t
};

/// Value of one hex digit.
///
/// ```
/// use neuron_tool::hex::hex_digit;
/// assert_eq!((hex_digit(b'7'), hex_digit(b'b'), hex_digit(b'F')), (Some(7), Some(11), Some(15)));
/// assert_eq!(hex_digit(b'g'), None);
/// ```
#[inline]
pub const fn hex_digit(c: u8) -> Option<u8> {
    match HEX_VALUE[c as usize] {
        NOT_HEX => None,
        v => Some(v),
    }
}

/// Parses descriptor bytes in memory order: 32 hex digits, optionally after `0x`, with
/// spaces, `_`, `:` or `-` allowed between them (as dumps often group bytes).
///
/// ```
/// use neuron_tool::hex::parse_desc;
/// let d = parse_desc("0010000d 03000801 00200000 00000000")?;
/// assert_eq!(d.word0(), 0x0d00_1000);
/// assert!(parse_desc("00").is_err());
/// # Ok::<(), String>(())
/// ```
pub fn parse_desc(text: &str) -> Result<Descriptor, String> {
    let t = text.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    let mut bytes = [0u8; DESC_BYTES];
    let mut digits = 0usize;
    for c in t.bytes() {
        if matches!(c, b' ' | b'\t' | b'_' | b':' | b'-') {
            continue;
        }
        let v = hex_digit(c).ok_or_else(|| {
            format!(
                "{} is not a hex digit (expected 32 hex digits, the 16 bytes in memory order)",
                crate::quote::quote(&[c])
            )
        })?;
        let byte = bytes
            .get_mut(digits / 2)
            .ok_or_else(|| "more than 32 hex digits (a descriptor is 16 bytes)".to_string())?;
        *byte = if digits % 2 == 0 { v << 4 } else { *byte | v };
        digits += 1;
    }
    if digits != DESC_HEX_LEN {
        return Err(format!(
            "{digits} hex digits, a descriptor needs exactly 32 (16 bytes in memory order)"
        ));
    }
    Ok(Descriptor::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_byte_value() {
        for start in (0u8..=240).step_by(16) {
            let mut bytes = [0u8; 16];
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = start.wrapping_add(i as u8);
            }
            let d = Descriptor::from_le_bytes(bytes);
            let mut out = [0u8; 32];
            encode_desc(&d, &mut out);
            assert_eq!(std::str::from_utf8(&out).unwrap(), d.to_string());
            assert_eq!(parse_desc(std::str::from_utf8(&out).unwrap()), Ok(d));
        }
    }

    #[test]
    fn refuses_bad_text_with_a_reason() {
        assert!(parse_desc("zz").unwrap_err().contains("not a hex digit"));
        assert!(
            parse_desc(&"0".repeat(31))
                .unwrap_err()
                .contains("31 hex digits")
        );
        assert!(
            parse_desc(&"0".repeat(34))
                .unwrap_err()
                .contains("more than 32")
        );
        assert!(parse_desc(&format!("0x{}", "A".repeat(32))).is_ok());
    }
}
