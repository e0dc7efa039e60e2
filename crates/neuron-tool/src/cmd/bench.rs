//! `neuron-tool bench build --arch A --pairs N`: how fast copy pairs go into a ring.
//!
//! N pairs through [`RingPair::copy_prepare_one`] into a 4096-entry TX/RX ring pair in plain
//! memory. The ring keeps 16 slots in reserve, so every 4080 pairs the whole batch is
//! acknowledged, as a completion handler would; the ring wraps and its phase advances as in
//! real use. This is a quick figure for the terminal; the criterion benches are the record.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use khal::Arch;
use udma_desc::{CopyRequest, DescRing, Descriptor, Direction, QueueId, RingPair};

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::ArchName;
use crate::error::{Result, ToolError};

/// Ring size of the benchmark (descriptors per ring).
pub const BENCH_RING: usize = 4096;

/// What a run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchResult {
    /// Pairs built.
    pub pairs: u64,
    /// Wall time of the loop.
    pub elapsed: Duration,
    /// Times the rings were acknowledged to make room.
    pub acks: u64,
}

impl BenchResult {
    /// Nanoseconds per pair.
    pub fn ns_per_pair(&self) -> f64 {
        self.elapsed.as_nanos() as f64 / self.pairs.max(1) as f64
    }
}

/// Builds `pairs` copy pairs for arch `A` (sizes cycling through 1..=64 KiB so the length
/// encoding is exercised) and times it.
pub fn build_pairs<A: Arch>(pairs: u64) -> std::result::Result<BenchResult, udma_desc::Error> {
    let mut tx = vec![Descriptor::ZERO; BENCH_RING];
    let mut rx = vec![Descriptor::ZERO; BENCH_RING];
    let mut pair = RingPair::new(
        QueueId::new(0)?,
        DescRing::new(Direction::Tx, &mut tx[..])?,
        DescRing::new(Direction::Rx, &mut rx[..])?,
    );
    let room = pair.tx().available();
    let mut acks = 0u64;
    let mut since_ack = 0u32;
    let start = Instant::now();
    for i in 0..pairs {
        if since_ack == room {
            pair.ack(since_ack)?;
            since_ack = 0;
            acks += 1;
        }
        let size = u32::try_from(i % 65_536).unwrap_or(0) + 1;
        let req = CopyRequest::new(0x1_0000_0000 + i * 64, 0x2_0000_0000 + i * 64, size);
        black_box(pair.copy_prepare_one::<A>(black_box(&req))?);
        since_ack += 1;
    }
    let elapsed = start.elapsed();
    black_box(pair.tx().load(0)?);
    Ok(BenchResult {
        pairs,
        elapsed,
        acks,
    })
}

/// `bench build --arch A --pairs N`.
pub fn build(arch: ArchName, pairs: u64, out: &mut impl Write) -> Result<()> {
    if pairs == 0 {
        return Err(ToolError::BadArgument("--pairs must be at least 1".into()));
    }
    struct Run(u64);
    impl ArchVisitor for Run {
        type Output = (
            std::result::Result<BenchResult, udma_desc::Error>,
            &'static str,
        );
        fn visit<A: Arch>(self) -> Self::Output {
            (build_pairs::<A>(self.0), A::CODE_NAME)
        }
    }
    let (r, name) = dispatch(arch.generation(), Run(pairs))?;
    let r = r?;
    writeln!(
        out,
        "{name}: {} copy pairs into a {BENCH_RING}-entry ring pair in {:.3} ms ({} ring acks): {:.2} ns per pair",
        r.pairs,
        r.elapsed.as_secs_f64() * 1e3,
        r.acks,
        r.ns_per_pair()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal_sunda::Sunda;

    #[test]
    fn wraps_the_ring_and_counts_acks() {
        let r = build_pairs::<Sunda>(10_000).unwrap();
        assert_eq!(r.pairs, 10_000);
        // 4080 usable slots: acks after 4080 and 8160 pairs.
        assert_eq!(r.acks, 2);
    }
}
