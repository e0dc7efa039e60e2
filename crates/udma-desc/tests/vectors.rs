//! The vendor driver's golden descriptor vectors, matched byte for byte, directly through the
//! builder and through `copy_prepare_one` on rings positioned at the vector's ring ids.

mod common;
use common::{V2, V3, pair};
use udma_desc::{Barrier, CopyRequest, Error, RingId, build_copy_pair};

const VECTORS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/desc-vectors-sample.tsv"
));

struct Case {
    id: u32,
    tx_rid: u8,
    rx_rid: u8,
    src: u64,
    dst: u64,
    size: u32,
    barrier: u32,
    dst_int: bool,
    rc: i32,
    tx: [u8; 16],
    rx: [u8; 16],
}

fn bytes16(h: &str) -> [u8; 16] {
    assert_eq!(h.len(), 32);
    let mut b = [0; 16];
    for (i, o) in b.iter_mut().enumerate() {
        *o = u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap();
    }
    b
}

fn cases() -> Vec<Case> {
    let mut lines = VECTORS.lines();
    assert_eq!(
        lines.next().unwrap(),
        "case\ttx_ring_id\trx_ring_id\tsrc\tdst\tsize\tbarrier_type\tset_dst_int\trc\ttx_desc_hex\trx_desc_hex"
    );
    lines
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 11, "{l}");
            Case {
                id: c[0].parse().unwrap(),
                tx_rid: c[1].parse().unwrap(),
                rx_rid: c[2].parse().unwrap(),
                src: u64::from_str_radix(c[3].trim_start_matches("0x"), 16).unwrap(),
                dst: u64::from_str_radix(c[4].trim_start_matches("0x"), 16).unwrap(),
                size: c[5].parse().unwrap(),
                barrier: c[6].parse().unwrap(),
                dst_int: c[7] == "1",
                rc: c[8].parse().unwrap(),
                tx: bytes16(c[9]),
                rx: bytes16(c[10]),
            }
        })
        .collect()
}

/// The outcome our typed API gives for a raw vendor input (with the V3 caps, where every
/// barrier type exists). Barrier first, as the vendor builder checks it before the size.
fn build(c: &Case, size: u32) -> Result<([u8; 16], [u8; 16]), Error> {
    let barrier = Barrier::from_raw(c.barrier)?;
    let req = CopyRequest::new(c.src, c.dst, size)
        .with_barrier(barrier)
        .with_dst_interrupt(c.dst_int);
    let p = build_copy_pair::<V3>(RingId::new(c.tx_rid)?, RingId::new(c.rx_rid)?, &req)?;
    Ok((p.tx.to_le_bytes(), p.rx.to_le_bytes()))
}

#[test]
fn every_vector_matches_byte_for_byte() {
    let cases = cases();
    assert_eq!(cases.len(), 40);
    let (mut ok, mut einval, mut too_big, mut zero) = (0, 0, 0, 0);
    for c in &cases {
        let got = build(c, c.size);
        match c.rc {
            0 if c.size == 0 => {
                // The kernel encodes size 0 as a 64 KiB transfer; we refuse it, and the
                // same request for 65,536 bytes gives exactly the kernel's bytes.
                assert_eq!(got, Err(Error::ZeroSize), "case {}", c.id);
                assert_eq!(build(c, 65_536), Ok((c.tx, c.rx)), "case {} as 65536", c.id);
                zero += 1;
            }
            0 => {
                assert_eq!(got, Ok((c.tx, c.rx)), "case {}", c.id);
                ok += 1;
            }
            -22 => {
                assert_eq!(
                    got,
                    Err(Error::InvalidBarrier { value: c.barrier }),
                    "case {}",
                    c.id
                );
                assert_eq!(
                    (c.tx, c.rx),
                    ([0; 16], [0; 16]),
                    "case {}: kernel wrote nothing",
                    c.id
                );
                einval += 1;
            }
            -1 => {
                assert_eq!(
                    got,
                    Err(Error::SizeTooLarge { size: c.size }),
                    "case {}",
                    c.id
                );
                assert_eq!((c.tx, c.rx), ([0; 16], [0; 16]));
                too_big += 1;
            }
            rc => panic!("case {}: unexpected rc {rc}", c.id),
        }
    }
    // Every outcome class of the sample is exercised.
    assert!(
        ok > 20 && einval >= 5 && too_big >= 5 && zero >= 1,
        "{ok} {einval} {too_big} {zero}"
    );
}

#[test]
fn v2_refuses_sow_and_matches_the_rest() {
    for c in cases().iter().filter(|c| c.rc == 0 && c.size != 0) {
        let req = CopyRequest::new(c.src, c.dst, c.size)
            .with_barrier(Barrier::from_raw(c.barrier).unwrap())
            .with_dst_interrupt(c.dst_int);
        let got = build_copy_pair::<V2>(
            RingId::new(c.tx_rid).unwrap(),
            RingId::new(c.rx_rid).unwrap(),
            &req,
        );
        if c.barrier == 3 {
            assert_eq!(got, Err(Error::StrongOrderUnsupported), "case {}", c.id);
        } else {
            let p = got.unwrap();
            assert_eq!(
                (p.tx.to_le_bytes(), p.rx.to_le_bytes()),
                (c.tx, c.rx),
                "case {}",
                c.id
            );
        }
    }
}

/// Moves a 32-slot ring to the pass stamped `rid` (pass 1 is id 1, pass 4 is id 0) and to
/// slot `at` of it, by reserving and acknowledging.
fn position(ring: &mut udma_desc::DescRing<common::VecStore>, rid: u8, at: u32) {
    let passes = (u32::from(rid) + 3) % 4;
    let mut todo = passes * 32 + at;
    while todo > 0 {
        let n = todo.min(ring.available());
        ring.reserve(n).unwrap();
        ring.ack(n).unwrap();
        todo -= n;
    }
    assert_eq!(ring.ring().ring_id().get(), rid);
    assert_eq!(ring.ring().next_index(), at);
}

#[test]
fn copy_prepare_one_writes_the_vector_bytes_into_the_slots() {
    for (k, c) in cases().iter().enumerate() {
        let mut p = pair(32);
        let at = (k as u32 * 7) % 32;
        position(p.tx_mut(), c.tx_rid, at);
        position(p.rx_mut(), c.rx_rid, (at + 5) % 32);
        let req_size = if c.size == 0 { 65_536 } else { c.size };
        let barrier = Barrier::from_raw(c.barrier);
        let res = barrier.and_then(|b| {
            p.copy_prepare_one::<V3>(
                &CopyRequest::new(c.src, c.dst, req_size)
                    .with_barrier(b)
                    .with_dst_interrupt(c.dst_int),
            )
        });
        if c.rc != 0 {
            assert!(res.is_err(), "case {}", c.id);
            assert_eq!(
                p.tx().ring().next_index(),
                at,
                "case {}: nothing consumed",
                c.id
            );
            continue;
        }
        let slots = res.unwrap();
        assert_eq!((slots.tx.index, slots.rx.index), (at, (at + 5) % 32));
        assert_eq!(
            p.tx().load(slots.tx.index).unwrap().to_le_bytes(),
            c.tx,
            "case {}",
            c.id
        );
        assert_eq!(
            p.rx().load(slots.rx.index).unwrap().to_le_bytes(),
            c.rx,
            "case {}",
            c.id
        );
    }
}
