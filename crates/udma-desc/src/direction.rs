//! Which ring of a TX/RX pair: the one direction type of the workspace.

/// The direction of a UDMA ring or queue.
///
/// TX (M2S, memory to stream) rings hold source descriptors; RX (S2M, stream to memory)
/// rings hold destination descriptors. A copy uses one of each. The reference names the two
/// register files `m2s` (TX, unit offset 0x00000) and `s2m` (RX, 0x20000); this type is the
/// one run-time direction the crates above re-export (khal's register blocks, the device
/// model's units and faults), so it carries both vocabularies.
///
/// ```
/// use udma_desc::Direction;
/// assert_eq!(Direction::BOTH, [Direction::Tx, Direction::Rx]);
/// assert_eq!((Direction::M2S, Direction::S2M), (Direction::Tx, Direction::Rx));
/// assert_eq!(Direction::Rx.block_prefix(), "s2m");
/// assert_eq!(format!("{} {:#}", Direction::Tx, Direction::Rx), "TX S2M");
/// let mut per_dir = [0u32; 2];
/// per_dir[Direction::Rx.index()] += 1;
/// assert_eq!(per_dir, [0, 1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Memory to stream: the source side.
    Tx,
    /// Stream to memory: the destination side.
    Rx,
}

impl Direction {
    /// Memory to stream, the reference's name for [`Tx`](Self::Tx).
    pub const M2S: Direction = Direction::Tx;
    /// Stream to memory, the reference's name for [`Rx`](Self::Rx).
    pub const S2M: Direction = Direction::Rx;
    /// Both directions in the order the driver programs them (TX first).
    pub const BOTH: [Direction; 2] = [Direction::Tx, Direction::Rx];

    /// 0 for TX, 1 for RX: an index into per-direction arrays.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Direction::Tx => 0,
            Direction::Rx => 1,
        }
    }

    /// The prefix of this direction's register blocks in the reference tables
    /// (`m2s`, `m2s_q` / `s2m`, `s2m_q`).
    #[inline]
    pub const fn block_prefix(self) -> &'static str {
        match self {
            Direction::Tx => "m2s",
            Direction::Rx => "s2m",
        }
    }

    /// `TX` / `RX`.
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Tx => "TX",
            Direction::Rx => "RX",
        }
    }

    /// `M2S` / `S2M`.
    #[inline]
    pub const fn engine_name(self) -> &'static str {
        match self {
            Direction::Tx => "M2S",
            Direction::Rx => "S2M",
        }
    }
}

/// `TX` / `RX`; the alternate form (`{:#}`) prints `M2S` / `S2M`.
impl core::fmt::Display for Direction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if f.alternate() {
            self.engine_name()
        } else {
            self.name()
        })
    }
}
