//! `neuron-tool bench build --arch A --pairs N`: how fast copy pairs go into a ring.
//!
//! N pairs into a 4096-entry TX/RX ring pair in plain memory, twice, by the same loop:
//! once one pair per [`RingPair::copy_prepare_one`] call ("single"), once [`BATCH`] pairs
//! per [`RingPair::copy_prepare_batch`] call ("batch"). The ring keeps 16 slots in reserve,
//! so every 4080 pairs the whole lap is acknowledged, as a completion handler would; the
//! ring wraps and its phase advances as in real use. This is a quick figure for the
//! terminal; the criterion benches of `udma-desc` (with their C peer) are the record.

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

/// Pairs per `copy_prepare_batch` call in batch mode (16 calls fill a 4080-slot lap).
pub const BATCH: usize = 255;

/// How the pairs go in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One `copy_prepare_one` call per pair.
    Single,
    /// [`BATCH`] pairs per `copy_prepare_batch` call.
    Batch,
}

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

/// The `i`-th request of a run: sizes cycle through 1..=64 KiB so the length encoding
/// is exercised, addresses move on.
fn request(i: u64) -> CopyRequest {
    let size = u32::try_from(i % 65_536).unwrap_or(0) + 1;
    CopyRequest::new(0x1_0000_0000 + i * 64, 0x2_0000_0000 + i * 64, size)
}

/// Builds `pairs` copy pairs for arch `A` in `mode` and times it.
pub fn build_pairs<A: Arch>(
    pairs: u64,
    mode: Mode,
) -> std::result::Result<BenchResult, udma_desc::Error> {
    let mut tx = vec![Descriptor::ZERO; BENCH_RING];
    let mut rx = vec![Descriptor::ZERO; BENCH_RING];
    let mut pair = RingPair::new(
        QueueId::new(0)?,
        DescRing::new(Direction::Tx, &mut tx[..])?,
        DescRing::new(Direction::Rx, &mut rx[..])?,
    );
    let room = u64::from(pair.tx().available());
    let mut batch = [CopyRequest::new(0, 0, 1); BATCH];
    let mut acks = 0u64;
    let mut since_ack = 0u64;
    let mut done = 0u64;
    let start = Instant::now();
    while done < pairs {
        if since_ack == room {
            pair.ack(u32::try_from(since_ack).unwrap_or(u32::MAX))?;
            since_ack = 0;
            acks += 1;
        }
        let n = match mode {
            Mode::Single => {
                black_box(pair.copy_prepare_one::<A>(black_box(&request(done)))?);
                1
            }
            Mode::Batch => {
                let n = (BATCH as u64).min(pairs - done).min(room - since_ack);
                let reqs = batch.get_mut(..n as usize).unwrap_or(&mut []);
                for (k, r) in (done..).zip(reqs.iter_mut()) {
                    *r = request(k);
                }
                black_box(pair.copy_prepare_batch::<A>(black_box(reqs))?);
                n
            }
        };
        done += n;
        since_ack += n;
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
    type Runs = std::result::Result<(BenchResult, BenchResult), udma_desc::Error>;
    struct Run(u64);
    impl ArchVisitor for Run {
        type Output = (Runs, &'static str);
        fn visit<A: Arch>(self) -> Self::Output {
            let runs = build_pairs::<A>(self.0, Mode::Single)
                .and_then(|s| Ok((s, build_pairs::<A>(self.0, Mode::Batch)?)));
            (runs, A::CODE_NAME)
        }
    }
    let (r, name) = dispatch(arch.generation(), Run(pairs))?;
    let (single, batch) = r?;
    writeln!(
        out,
        "{name}: {pairs} copy pairs into a {BENCH_RING}-entry ring pair ({} ring acks)",
        single.acks
    )?;
    for (label, r) in [
        ("single (copy_prepare_one)           ", single),
        ("batch of 255 (copy_prepare_batch)   ", batch),
    ] {
        writeln!(
            out,
            "  {label} {:>10.3} ms: {:.2} ns per pair",
            r.elapsed.as_secs_f64() * 1e3,
            r.ns_per_pair()
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal_sunda::Sunda;

    #[test]
    fn wraps_the_ring_and_counts_acks() {
        for mode in [Mode::Single, Mode::Batch] {
            let r = build_pairs::<Sunda>(10_000, mode).unwrap();
            assert_eq!(r.pairs, 10_000);
            // 4080 usable slots: acks after 4080 and 8160 pairs.
            assert_eq!(r.acks, 2, "{mode:?}");
        }
    }
}
