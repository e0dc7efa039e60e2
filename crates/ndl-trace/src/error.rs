//! Why a trace could not be read: every refusal names where (byte offset, event number) and
//! what was wrong, with which value.

/// A trace file the reader refuses.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// The file could not be read.
    #[error("cannot read the trace: {0}")]
    Io(#[from] std::io::Error),
    /// The first bytes are not the trace magic.
    #[error("not a Neuron trace (magic {found:02x?}, expected {expected:02x?})")]
    NotATrace {
        /// The first bytes of the file (fewer when the file is shorter).
        found: Vec<u8>,
        /// The magic of every trace.
        expected: [u8; 8],
    },
    /// A format version this reader does not know.
    #[error("trace format version {found}, this reader knows version {known}")]
    Version {
        /// The file's version.
        found: u16,
        /// The version this reader reads.
        known: u16,
    },
    /// The file ends inside the header, or inside a record.
    #[error("truncated trace: {what} at byte {offset} needs {need} bytes, {have} left")]
    Truncated {
        /// The header, or `event N`.
        what: String,
        /// Where it starts.
        offset: u64,
        /// Bytes it needs.
        need: u64,
        /// Bytes the file still had.
        have: u64,
    },
    /// A checksum does not match: the bytes were changed after they were written.
    #[error(
        "corrupt trace: {what} at byte {offset} has checksum {computed:#010x}, recorded {stored:#010x}"
    )]
    Checksum {
        /// The header, or `event N`.
        what: String,
        /// Where it starts.
        offset: u64,
        /// The checksum it carries.
        stored: u32,
        /// The checksum of its bytes.
        computed: u32,
    },
    /// A value out of its range, or bytes that do not add up.
    #[error("corrupt trace: {what} at byte {offset}: {why}")]
    Corrupt {
        /// The header, or `event N`.
        what: String,
        /// Where the header or record starts.
        offset: u64,
        /// What is wrong, with the value.
        why: String,
    },
}
