//! The one way an error message shows what the user gave: quoted, short and escaped.
//!
//! Input reaches error messages from files and streams (a batch line, a token of it), from
//! the command line and from paths. Echoed raw, a megabyte token makes a megabyte message
//! and a NUL or an escape sequence reaches the terminal. [`quote`] shows at most
//! [`QUOTE_MAX`] bytes of it, escapes every control character and every byte that is not
//! UTF-8, and says how long the input was when it cut it.

use std::fmt;
use std::path::Path;

/// Input bytes an error message shows: any well-formed token whole (a 64-bit number is at
/// most 20 decimal digits, a `0x` one 18 characters) and a path of a few directories,
/// while a sentence stays about one terminal line.
pub const QUOTE_MAX: usize = 64;

/// `bytes` quoted for an error message.
///
/// ```
/// use neuron_tool::quote::quote;
/// assert_eq!(quote(b"0xZZ").to_string(), "'0xZZ'");
/// assert_eq!(quote(b"a\0b\x1b[31m'\xff").to_string(), r"'a\0b\x1b[31m\'\xff'");
/// let long = vec![b'7'; 1 << 20];
/// assert_eq!(quote(&long).to_string(), format!("'{}'... (1048576 bytes)", "7".repeat(64)));
/// ```
pub fn quote(bytes: &[u8]) -> Quoted<'_> {
    Quoted(bytes)
}

/// A string quoted for an error message ([`quote`] of its bytes).
pub fn quote_str(text: &str) -> Quoted<'_> {
    Quoted(text.as_bytes())
}

/// A path quoted for an error message ([`quote`] of its bytes as the OS holds them).
pub fn quote_path(path: &Path) -> Quoted<'_> {
    Quoted(path.as_os_str().as_encoded_bytes())
}

/// What [`quote`] returns: formats as the quoted, capped, escaped input.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(&'a [u8]);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("'")?;
        let mut shown = 0usize;
        'chunks: for chunk in self.0.utf8_chunks() {
            for c in chunk.valid().chars() {
                if shown + c.len_utf8() > QUOTE_MAX {
                    break 'chunks;
                }
                shown += c.len_utf8();
                match c {
                    '\'' => f.write_str("\\'")?,
                    '\\' => f.write_str("\\\\")?,
                    '\0' => f.write_str("\\0")?,
                    '\t' => f.write_str("\\t")?,
                    '\n' => f.write_str("\\n")?,
                    '\r' => f.write_str("\\r")?,
                    c if c.is_control() => match u8::try_from(c) {
                        Ok(b) => write!(f, "\\x{b:02x}")?,
                        Err(_) => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                    },
                    c => write!(f, "{c}")?,
                }
            }
            for b in chunk.invalid() {
                if shown >= QUOTE_MAX {
                    break 'chunks;
                }
                shown += 1;
                write!(f, "\\x{b:02x}")?;
            }
        }
        f.write_str("'")?;
        if shown < self.0.len() {
            write!(f, "... ({} bytes)", self.0.len())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_printable_input_is_shown_whole() {
        assert_eq!(quote_str("trainium").to_string(), "'trainium'");
        assert_eq!(quote_str("").to_string(), "''");
        assert_eq!(quote_str("café").to_string(), "'café'");
        assert_eq!(
            quote_path(Path::new("/tmp/ring dump.bin")).to_string(),
            "'/tmp/ring dump.bin'"
        );
    }

    #[test]
    fn control_bytes_and_bad_utf8_are_escaped() {
        assert_eq!(quote(b"\0\0").to_string(), r"'\0\0'");
        assert_eq!(quote(b"a\tb\r\n").to_string(), r"'a\tb\r\n'");
        assert_eq!(quote(b"\x7f\x01").to_string(), r"'\x7f\x01'");
        assert_eq!(quote("\u{85}".as_bytes()).to_string(), r"'\x85'");
        assert_eq!(quote(b"\xc3(").to_string(), r"'\xc3('");
        assert_eq!(quote(br"a\b'c").to_string(), r"'a\\b\'c'");
    }

    #[test]
    fn long_input_is_cut_at_the_cap_and_its_length_given() {
        let zeros = vec![0u8; 300 << 20];
        let q = quote(&zeros).to_string();
        assert_eq!(
            q,
            format!("'{}'... ({} bytes)", r"\0".repeat(QUOTE_MAX), 300 << 20)
        );
        // Exactly the cap: whole, no length.
        let exact = "x".repeat(QUOTE_MAX);
        assert_eq!(quote_str(&exact).to_string(), format!("'{exact}'"));
        // A multi-byte character is never split.
        let wide = "é".repeat(QUOTE_MAX);
        let q = quote_str(&wide).to_string();
        assert!(
            q.starts_with(&format!("'{}'", "é".repeat(QUOTE_MAX / 2))),
            "{q}"
        );
        assert!(q.ends_with(&format!("({} bytes)", wide.len())), "{q}");
    }
}
