//! Which ring of a TX/RX pair.

/// The direction of a UDMA ring.
///
/// TX (M2S, memory to stream) rings hold source descriptors; RX (S2M, stream to memory)
/// rings hold destination descriptors. A copy uses one of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Memory to stream: the source side.
    Tx,
    /// Stream to memory: the destination side.
    Rx,
}

impl core::fmt::Display for Direction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Direction::Tx => "TX",
            Direction::Rx => "RX",
        })
    }
}
