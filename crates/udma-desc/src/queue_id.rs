//! Queue numbers.

/// Queues per UDMA engine and direction (both M2S and S2M have 16).
pub const QUEUES_PER_ENGINE: u8 = 16;

/// A UDMA queue number, checked to be below [`QUEUES_PER_ENGINE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueueId(u8);

/// A queue number that is not below [`QUEUES_PER_ENGINE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidQueueId(pub u32);

impl core::fmt::Display for InvalidQueueId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "queue id {} out of range (0..{})",
            self.0, QUEUES_PER_ENGINE
        )
    }
}

impl core::error::Error for InvalidQueueId {}

impl QueueId {
    /// Checks `id < 16`.
    ///
    /// ```
    /// use udma_desc::QueueId;
    /// assert_eq!(QueueId::new(15).map(QueueId::get), Ok(15));
    /// assert!(QueueId::new(16).is_err());
    /// ```
    #[inline]
    pub const fn new(id: u32) -> Result<Self, InvalidQueueId> {
        if id < QUEUES_PER_ENGINE as u32 {
            // `id < 16`, so the narrowing keeps every bit.
            #[allow(clippy::cast_possible_truncation)]
            Ok(Self(id as u8))
        } else {
            Err(InvalidQueueId(id))
        }
    }

    /// The queue number, `0..16`.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The queue number as an index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Every queue, `0..16`, in order.
    #[inline]
    pub fn all() -> impl Iterator<Item = QueueId> {
        (0..QUEUES_PER_ENGINE).map(QueueId)
    }
}
