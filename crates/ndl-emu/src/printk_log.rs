//! The messages PRINTK leaves, bounded as the kernel's own log is: a ring that drops the
//! oldest messages once the newest fill it (issue 25 item 2: a PRINTK flood must not grow the
//! server without bound).
//!
//! The kernel's log buffer is `2^CONFIG_LOG_BUF_SHIFT` bytes (17, 128 KiB, in many
//! distribution configurations); [`LOG_BYTES`] is the model's choice of the same size, not
//! a value a source states for the driver.

use std::collections::VecDeque;

/// Text bytes the log keeps (the model's choice, see the module docs).
pub(crate) const LOG_BYTES: usize = 128 << 10;

/// The newest PRINTK messages, at most [`LOG_BYTES`] of text.
#[derive(Debug, Default)]
pub(crate) struct PrintkLog {
    lines: VecDeque<String>,
    bytes: usize,
}

impl PrintkLog {
    /// Appends `line`, dropping the oldest messages until the log fits again.
    pub(crate) fn push(&mut self, line: String) {
        self.bytes += line.len();
        self.lines.push_back(line);
        while self.bytes > LOG_BYTES {
            let Some(old) = self.lines.pop_front() else {
                break;
            };
            self.bytes -= old.len();
        }
    }

    /// The messages kept, oldest first.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.lines.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{LOG_BYTES, PrintkLog};

    #[test]
    fn a_flood_keeps_only_the_newest_log_bytes() {
        let mut log = PrintkLog::default();
        // PRINTK's largest message: 511 bytes of text (PRINTK_MAX 512 with the NUL).
        for i in 0..10_000 {
            log.push(format!("{i:0>511}"));
        }
        let lines = log.lines();
        assert_eq!(lines.len(), LOG_BYTES / 511);
        assert_eq!(lines.last().unwrap(), &format!("{:0>511}", 9_999));
        assert!(log.bytes <= LOG_BYTES);
    }
}
