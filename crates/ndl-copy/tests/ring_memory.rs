//! Descriptor rings in a real mapping (the rustix backend over an ordinary file standing in
//! for the device node): slot i at byte 16 * i, four little-endian words, the bytes the
//! engine fetches.

use std::fs;

use ndl_copy::RingMemory;
use ndl_std::Ndl;
use udma_desc::{DescStore, Descriptor};

#[test]
fn a_ring_in_a_mapping_stores_each_descriptor_at_sixteen_bytes_a_slot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("neuron0");
    fs::write(&path, vec![0u8; 8192]).unwrap();
    let ndl = Ndl::new().with_root(dir.path());
    let h = ndl.open_device(0).unwrap();
    let mut ring = RingMemory::new(h.map(4096, 4096).unwrap());
    let d = Descriptor::from_words([0x0c00_0040, 0x0108_0003, 0x1000, 0x2]);
    ring.store(3, d).unwrap();
    assert_eq!(ring.load(3).unwrap(), d);
    assert_eq!(ring.capacity(), 256);
    assert!(ring.store(256, d).is_err());
    drop(ring);
    let file = fs::read(&path).unwrap();
    assert_eq!(
        &file[4096 + 48..4096 + 64],
        &d.to_le_bytes(),
        "the bytes the engine fetches"
    );
    // Word 0 first, little-endian: len_ctrl 0x0c000040.
    assert_eq!(&file[4096 + 48..4096 + 52], &[0x40, 0, 0, 0x0c]);
}
