//! Human byte sizes: `4096`, `0x1000`, `64KiB`, `1MiB`, `2GiB`, `64K`, `1M`.

use crate::quote::quote_str;

/// Parses a byte count. Binary suffixes (`KiB`, `MiB`, `GiB`, and the short `K`, `M`, `G`)
/// multiply by powers of 1024; a bare number may be decimal or `0x` hex.
///
/// Returns a sentence-ready error for anything else (empty, unknown suffix, overflow).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty size".into());
    }
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        // Digits only: `from_str_radix` alone would also take a leading `+`.
        return hex
            .bytes()
            .all(|b| b.is_ascii_hexdigit())
            .then(|| u64::from_str_radix(hex, 16).ok())
            .flatten()
            .ok_or_else(|| format!("{} is not a valid hex size", quote_str(text)));
    }
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, suffix) = t.split_at(digits_end);
    if num.is_empty() {
        return Err(format!("{} does not start with a number", quote_str(text)));
    }
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{} is too large", quote_str(text)))?;
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" | "kb" => 10,
        "m" | "mib" | "mb" => 20,
        "g" | "gib" | "gb" => 30,
        other => {
            return Err(format!(
                "unknown size suffix {} in {} (use KiB, MiB or GiB)",
                quote_str(other),
                quote_str(text)
            ));
        }
    };
    n.checked_mul(1u64 << shift)
        .ok_or_else(|| format!("{} is too large", quote_str(text)))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn accepts_plain_hex_and_binary_suffixes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("0x1000"), Ok(4096));
        assert_eq!(parse_size("64KiB"), Ok(65536));
        assert_eq!(parse_size("64k"), Ok(65536));
        assert_eq!(parse_size("1MiB"), Ok(1 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size(" 3 MiB "), Ok(3 << 20));
    }

    #[test]
    fn rejects_garbage_with_a_reason() {
        assert!(parse_size("").unwrap_err().contains("empty"));
        assert!(parse_size("MiB").unwrap_err().contains("number"));
        assert!(parse_size("5XiB").unwrap_err().contains("suffix"));
        assert!(
            parse_size("99999999999999999999")
                .unwrap_err()
                .contains("too large")
        );
        assert!(
            parse_size("17179869184GiB")
                .unwrap_err()
                .contains("too large")
        );
        assert!(parse_size("0xZZ").unwrap_err().contains("hex"));
        // No sign, in either form (the sign the ioctl_decode fuzz target found in parse_u64).
        assert!(parse_size("0x+10").unwrap_err().contains("hex"));
        assert!(parse_size("+10").unwrap_err().contains("number"));
    }
}
