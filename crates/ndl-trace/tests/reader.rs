//! The reader against damaged input: a recorded trace cut at every byte boundary of its first
//! events, and with every byte of them changed, is refused with a typed error (or, cut exactly
//! between records, read as the records before the cut and reported incomplete) — never a
//! panic, never a different event.

use std::io::Cursor;

use ndl_trace::{Event, MAGIC, MAX_RECORD, TraceError, TraceReader, VERSION};

fn golden() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/copy-v3.ntrace"
    ))
    .unwrap()
}

/// Every event of `bytes`, or the error that stopped the reader.
fn read(bytes: &[u8]) -> Result<(Vec<String>, bool), TraceError> {
    let mut r = TraceReader::new(Cursor::new(bytes))?;
    let mut events = Vec::new();
    while let Some((_, e)) = r.next_event()? {
        events.push(format!("{e:?}"));
    }
    Ok((events, r.complete()))
}

/// Byte offsets where each record ends (the header's end first).
fn boundaries(bytes: &[u8]) -> Vec<usize> {
    let header = usize::from(u16::from_le_bytes([bytes[10], bytes[11]]));
    let mut at = vec![header];
    let mut pos = header;
    while pos < bytes.len() {
        let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        pos += 8 + len;
        at.push(pos);
    }
    assert_eq!(pos, bytes.len());
    at
}

const FIRST_EVENTS: usize = 8;

#[test]
fn every_cut_of_the_first_events_is_refused_cleanly() {
    let bytes = golden();
    let (all, complete) = read(&bytes).unwrap();
    assert!(complete);
    let ends = boundaries(&bytes);
    for cut in 0..ends[FIRST_EVENTS] {
        match read(&bytes[..cut]) {
            // Exactly between records: the records before the cut, no end record.
            Ok((events, complete)) => {
                let k = ends.iter().position(|&e| e == cut).unwrap_or_else(|| {
                    panic!(
                        "cut at {cut} read as a whole trace of {} events",
                        events.len()
                    )
                });
                assert_eq!(events[..], all[..k], "cut at {cut}");
                assert!(!complete, "cut at {cut} looks complete");
            }
            Err(TraceError::Truncated {
                offset, need, have, ..
            }) => {
                // Names the header or the record the cut falls in, and says how short it is.
                let start = ends
                    .iter()
                    .rev()
                    .find(|&&e| e <= cut)
                    .map_or(0, |&e| e as u64);
                let start = if cut < ends[0] { 0 } else { start };
                assert_eq!(offset, start, "cut at {cut}");
                assert!(have < need, "cut at {cut}: {have} of {need}");
            }
            Err(e) => panic!("cut at {cut}: {e}"),
        }
    }
}

#[test]
fn every_changed_byte_of_the_first_events_is_refused() {
    let bytes = golden();
    let ends = boundaries(&bytes);
    for at in 0..ends[4] {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bad = bytes.clone();
            bad[at] ^= flip;
            match read(&bad) {
                Ok(_) => panic!("byte {at} ^ {flip:#x} was read as a good trace"),
                Err(TraceError::Io(e)) => panic!("byte {at}: {e}"),
                Err(_) => {}
            }
        }
    }
}

#[test]
fn lengths_are_bounded_before_anything_is_read() {
    let bytes = golden();
    let ends = boundaries(&bytes);
    // A record claiming 4 GiB: refused at its length, not by reading (or allocating) it.
    let mut huge = bytes[..ends[1]].to_vec();
    huge[ends[0]..ends[0] + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut r = TraceReader::new(Cursor::new(&huge)).unwrap();
    match r.next_event() {
        Err(TraceError::Corrupt { why, offset, .. }) => {
            assert_eq!(offset, ends[0] as u64);
            assert!(why.contains(&MAX_RECORD.to_string()), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // A header claiming more bytes than the file has.
    let mut long = bytes[..ends[0]].to_vec();
    long[10..12].copy_from_slice(&u16::MAX.to_le_bytes());
    assert!(matches!(
        TraceReader::new(Cursor::new(&long)),
        Err(TraceError::Truncated { .. })
    ));
}

#[test]
fn the_magic_and_the_version_are_checked() {
    let bytes = golden();
    assert_eq!(bytes[..8], MAGIC);
    match TraceReader::new(Cursor::new(b"#!/bin/sh\n")) {
        Err(TraceError::NotATrace { found, .. }) => assert_eq!(found, b"#!/bin/s"),
        other => panic!("{other:?}"),
    }
    let mut v2 = bytes.clone();
    v2[8..10].copy_from_slice(&(VERSION + 1).to_le_bytes());
    match TraceReader::new(Cursor::new(&v2)) {
        Err(TraceError::Version { found, known }) => assert_eq!((found, known), (2, 1)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn events_reencode_to_the_same_bytes() {
    // The reader and the encoder agree on every byte of a recorded trace.
    let bytes = golden();
    let ends = boundaries(&bytes);
    let mut r = TraceReader::new(Cursor::new(&bytes)).unwrap();
    let mut again = Vec::new();
    ndl_trace::encode_header(r.header(), &mut again).unwrap();
    while let Some((_, e)) = r.next_event().unwrap() {
        let e: Event<'_> = e;
        ndl_trace::encode_event(&e, &mut again).unwrap();
    }
    assert_eq!(again.len(), *ends.last().unwrap());
    assert!(again == bytes);
}
