//! The copy itself, written once over any [`CopyDevice`] and generic over the arch.

use std::time::Instant;

use khal::Arch;
use udma_desc::{Barrier, PacketOptions, QueueId};

use super::device::{CopyDevice, CopyQueue};
use super::plan::{CopyPlan, SplitLimits};
use super::summary::CopySummary;
use crate::error::{Result, ToolError};

/// Ring size the copy uses on each side (descriptors).
pub const COPY_RING: u32 = 4096;

/// Bytes moved per host read/write while filling and verifying.
const CHUNK: usize = 1 << 20;

/// What to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyOptions {
    /// The DMA queue.
    pub queue: QueueId,
    /// Bytes.
    pub size: u64,
    /// Ordering on every packet.
    pub barrier: Barrier,
    /// Descriptors per ring.
    pub ring_size: u32,
}

/// The pattern word of the 8-byte word `index` of the copy: a multiplicative hash, so every
/// word differs and a descriptor that lands at the wrong place, twice, or not at all is caught.
const fn pattern_word(index: u64) -> [u8; 8] {
    (index + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .to_le_bytes()
}

/// The source pattern: byte `offset` of the copy.
pub fn pattern_byte(offset: u64) -> u8 {
    pattern_word(offset / 8)
        .get((offset % 8) as usize)
        .copied()
        .unwrap_or(0)
}

/// Fills `buf` with the pattern of the copy bytes starting at `offset` (a word at a time
/// where aligned: filling and checking a GiB must not cost more than the copy).
pub fn fill_pattern(offset: u64, buf: &mut [u8]) {
    let head = usize::try_from((8 - offset % 8) % 8)
        .unwrap_or(0)
        .min(buf.len());
    let (first, rest) = buf.split_at_mut(head);
    for (i, b) in first.iter_mut().enumerate() {
        *b = pattern_byte(offset + i as u64);
    }
    let aligned = offset + head as u64;
    let whole = rest.len() - rest.len() % 8;
    let mut words = rest.chunks_exact_mut(8);
    for (i, w) in (&mut words).enumerate() {
        w.copy_from_slice(&pattern_word(aligned / 8 + i as u64));
    }
    let tail = words.into_remainder();
    let tail_at = aligned + whole as u64;
    for (i, b) in tail.iter_mut().enumerate() {
        *b = pattern_byte(tail_at + i as u64);
    }
}

/// The name of a barrier on the command line.
pub const fn barrier_name(b: Barrier) -> &'static str {
    match b {
        Barrier::None => "none",
        Barrier::Dmb => "dmb",
        Barrier::WriteBarrier => "write-barrier",
        Barrier::Sow => "sow",
    }
}

/// Runs one verified copy on `dev` for arch `A`.
///
/// 1. Plans the copy ([`CopyPlan`], the arch's packet limits) and refuses a barrier the arch
///    does not have before touching the device.
/// 2. Opens the queue, fills the source with [`pattern_byte`].
/// 3. Builds each packet into the rings with `RingPair::packet_prepare` and rings its
///    doorbells (RX, then TX); when the rings are full, waits for the engine and acknowledges.
/// 4. Waits for the rest, reads the destination back and compares every byte.
///
/// `progress` is called with the bytes known complete after each wait. Returns the summary
/// (`verified` true) or [`ToolError::VerifyFailed`].
pub fn run_copy<A: Arch, D: CopyDevice>(
    dev: &mut D,
    opts: &CopyOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<CopySummary> {
    let plan = CopyPlan::new(opts.size, SplitLimits::for_arch::<A>())
        .map_err(|e| ToolError::BadArgument(e.to_string()))?;
    let packet_opts = PacketOptions::<A>::new().with_barrier(opts.barrier);
    if opts.barrier == Barrier::Sow && !A::HAS_STRONG_ORDER {
        return Err(ToolError::BadArgument(format!(
            "{} has no strong-ordered write (SOW); use --barrier none, dmb or write-barrier",
            A::CODE_NAME
        )));
    }

    let device = dev.name();
    let dev_err = |e: D::Error| ToolError::Device {
        device: device.clone(),
        why: e.to_string(),
    };
    let mut q = dev
        .open_queue::<A>(opts.queue, opts.ring_size, opts.size)
        .map_err(dev_err)?;
    let (src, dst) = (q.src(), q.dst());

    let mut chunk = vec![0u8; CHUNK.min(usize::try_from(opts.size).unwrap_or(CHUNK))];
    let mut off = 0u64;
    while off < opts.size {
        let n = chunk
            .len()
            .min(usize::try_from(opts.size - off).unwrap_or(CHUNK));
        let part = chunk.get_mut(..n).unwrap_or_default();
        fill_pattern(off, part);
        q.write_src(off, part).map_err(dev_err)?;
        off += n as u64;
    }

    let (mut outstanding, mut done, mut in_flight_bytes, mut waits) = (0u32, 0u64, 0u64, 0u64);
    let start = Instant::now();
    for packet in plan.iter() {
        let rings = q.rings();
        if rings.tx().available() < packet.descs || rings.rx().available() < packet.descs {
            q.wait().map_err(dev_err)?;
            q.rings().ack(outstanding)?;
            waits += 1;
            done += in_flight_bytes;
            progress(done);
            outstanding = 0;
            in_flight_bytes = 0;
        }
        let slots = q
            .rings_mut()
            .packet_prepare::<A, _>(packet.blocks(src, dst), &packet_opts)?;
        q.rings()
            .copy_start(q.bell(), slots.tx_count, slots.rx_count)?;
        outstanding += slots.tx_count;
        in_flight_bytes += slots.bytes;
    }
    if outstanding > 0 {
        q.wait().map_err(dev_err)?;
        q.rings().ack(outstanding)?;
        waits += 1;
        done += in_flight_bytes;
        progress(done);
    }
    let seconds = start.elapsed().as_secs_f64();

    let (mut first, mut mismatches) = (None, 0u64);
    let mut expect = vec![0u8; chunk.len()];
    let mut off = 0u64;
    while off < opts.size {
        let n = chunk
            .len()
            .min(usize::try_from(opts.size - off).unwrap_or(CHUNK));
        let got = chunk.get_mut(..n).unwrap_or_default();
        q.read_dst(off, got).map_err(dev_err)?;
        let want = expect.get_mut(..n).unwrap_or_default();
        fill_pattern(off, want);
        if got != want {
            for (i, (g, w)) in got.iter().zip(want.iter()).enumerate() {
                if g != w {
                    first.get_or_insert(off + i as u64);
                    mismatches += 1;
                }
            }
        }
        off += n as u64;
    }
    drop(q);
    if let Some(first) = first {
        return Err(ToolError::VerifyFailed { first, mismatches });
    }
    Ok(CopySummary {
        arch: A::CODE_NAME,
        device,
        queue: opts.queue.get(),
        barrier: barrier_name(opts.barrier),
        bytes: opts.size,
        descriptors: plan.descriptors(),
        packets: plan.packets(),
        waits,
        seconds,
        bytes_per_second: if seconds > 0.0 {
            opts.size as f64 / seconds
        } else {
            0.0
        },
        verified: true,
    })
}

#[cfg(test)]
mod tests {
    use super::super::loopback::{Loopback, LoopbackFault};
    use super::*;
    use khal_cayman::Cayman;
    use khal_mariana::Mariana;
    use khal_sunda::Sunda;

    fn opts(size: u64, barrier: Barrier) -> CopyOptions {
        CopyOptions {
            queue: QueueId::new(2).unwrap(),
            size,
            barrier,
            ring_size: 64,
        }
    }

    #[test]
    fn copies_and_verifies_across_ring_wraps() {
        // 64-slot rings (48 usable): 5 MiB is 80 descriptors, so the rings refill and wrap.
        for size in [1, 4095, 65_536, 65_537, (5 << 20) + 3] {
            let mut dev = Loopback::new(size, 64);
            let mut seen = Vec::new();
            let s =
                run_copy::<Cayman, _>(&mut dev, &opts(size, Barrier::Dmb), &mut |d| seen.push(d))
                    .unwrap();
            assert!(s.verified);
            assert_eq!(s.bytes, size);
            assert_eq!(s.descriptors, size.div_ceil(65_536));
            assert_eq!(dev.descriptors_executed(), s.descriptors);
            assert_eq!(dev.packets_executed(), s.packets);
            assert_eq!(seen.last(), Some(&size), "progress ends at the full size");
            assert!(seen.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(s.waits, seen.len() as u64);
        }
    }

    #[test]
    fn packets_follow_the_arch_limit() {
        let size = 3 << 20;
        let mut v2 = Loopback::new(size, 64);
        let s = run_copy::<Sunda, _>(&mut v2, &opts(size, Barrier::None), &mut |_| {}).unwrap();
        assert_eq!(s.packets, 4); // 15 + 15 + 15 + 3 descriptors
        assert!(v2.max_packet_descs() <= 15);
        let mut v4 = Loopback::new(size, 64);
        run_copy::<Mariana, _>(&mut v4, &opts(size, Barrier::Sow), &mut |_| {}).unwrap();
    }

    #[test]
    fn sow_on_sunda_is_refused_before_the_device_is_touched() {
        let mut dev = Loopback::new(4096, 64);
        let e = run_copy::<Sunda, _>(&mut dev, &opts(4096, Barrier::Sow), &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("SOW"), "{e}");
        assert!(!dev.opened());
    }

    #[test]
    fn a_corrupted_destination_fails_verification() {
        let mut dev = Loopback::new(200_000, 64).with_fault(LoopbackFault::FlipByte(70_000));
        let e = run_copy::<Cayman, _>(&mut dev, &opts(200_000, Barrier::None), &mut |_| {})
            .unwrap_err();
        match e {
            ToolError::VerifyFailed { first, mismatches } => {
                assert_eq!((first, mismatches), (70_000, 1));
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn a_dropped_descriptor_fails_verification() {
        let mut dev = Loopback::new(300_000, 64).with_fault(LoopbackFault::SkipDescriptor(2));
        let e = run_copy::<Cayman, _>(&mut dev, &opts(300_000, Barrier::None), &mut |_| {})
            .unwrap_err();
        assert!(
            matches!(e, ToolError::VerifyFailed { first: 131_072, .. }),
            "{e}"
        );
    }

    #[test]
    fn device_errors_become_one_sentence() {
        let mut dev = Loopback::new(4096, 64).with_fault(LoopbackFault::Timeout);
        let e =
            run_copy::<Cayman, _>(&mut dev, &opts(4096, Barrier::None), &mut |_| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            "loopback: engine did not complete 1 descriptors"
        );
    }

    #[test]
    fn fast_fill_equals_the_byte_definition_at_every_alignment() {
        for offset in 0..17u64 {
            for len in [0usize, 1, 7, 8, 9, 23, 64] {
                let mut fast = vec![0u8; len];
                fill_pattern(offset, &mut fast);
                let slow: Vec<u8> = (0..len as u64).map(|i| pattern_byte(offset + i)).collect();
                assert_eq!(fast, slow, "offset {offset} len {len}");
            }
        }
    }

    #[test]
    fn pattern_differs_per_word() {
        let mut a = [0u8; 16];
        fill_pattern(0, &mut a);
        assert_ne!(a[..8], a[8..]);
        let mut b = [0u8; 8];
        fill_pattern(8, &mut b);
        assert_eq!(a[8..], b);
    }
}
