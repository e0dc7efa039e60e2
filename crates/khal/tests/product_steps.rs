//! The product's post-init engine steps (`udma-notes.md` section 2 step 8), recorded on a
//! fake register file and checked write by write, in order, against the notes and
//! `iofic.tsv`: V2's AXI-error aborts and V3/V4's ring-id error masking (section 10).

mod common;

use common::{IOFIC, Regs, hex, rows};
use khal::udma::{EngineParams, Udma};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;
use mmio::{Access, Window};

/// Rows `section` of `iofic.tsv` as (address column, value) in table order.
fn iofic_rows(section: &str) -> Vec<(String, u32)> {
    rows(IOFIC)
        .filter(|r| r[0] == section)
        .map(|r| (r[2].to_string(), u32::try_from(hex(r[4])).unwrap()))
        .collect()
}

/// Where the test puts the external top-level controller in the same fake (any offset
/// outside the unit works; the reference does not say where it is).
const EXT: usize = 0x100_0000;

/// `iofic.tsv` `ring_id_mask_write` as unit offsets (`ext+…` rows moved to [`EXT`]).
fn ring_id_rows() -> Vec<(usize, u32)> {
    iofic_rows("ring_id_mask_write")
        .into_iter()
        .map(|(addr, v)| {
            let off = match addr.strip_prefix("ext+") {
                Some(rel) => EXT + usize::try_from(hex(rel)).unwrap(),
                None => usize::try_from(hex(&addr)).unwrap(),
            };
            (off, v)
        })
        .collect()
}

/// Reads of the trace, in order.
fn reads(regs: &Regs) -> Vec<usize> {
    regs.trace()
        .iter()
        .filter(|a| !a.is_write())
        .map(Access::offset)
        .collect()
}

fn ring_id_masking_with_external<A: khal::caps::RingIdErrorMasking>() {
    let regs = Regs::new();
    let e = Udma::<A, _>::attach(&regs, 0xff, None).unwrap();
    e.mask_ring_id_errors_with_external(&Window::new(&regs, EXT));
    // The table's values assume every register read back 0 (the fake's reset value).
    let expected = ring_id_rows();
    assert_eq!(expected.len(), 8);
    assert_eq!(regs.writes().as_slice(), expected.as_slice());
    // The hand-read notes, section 10, in order: sec A mask, sec A abort, sec B mask,
    // sec B abort, ext group 2 mask, ext group 3 mask, TX err_log_mask, RX err_log_mask.
    assert_eq!(
        regs.writes(),
        [
            (0x3a010, 1 << 17),
            (0x3a030, 1 << 17),
            (0x3a050, 1 << 11),
            (0x3a070, 1 << 11),
            (EXT + 0x90, 1 << 11),
            (EXT + 0xd0, 1 << 2),
            (0x0020c, 1 << 17),
            (0x2020c, 1 << 11),
        ]
    );
    // Every mask is a read-modify-write: each write is preceded by a read of its register;
    // the abort masks are written from the mask value, never read.
    assert_eq!(
        reads(&regs),
        [0x3a010, 0x3a050, EXT + 0x90, EXT + 0xd0, 0x0020c, 0x2020c]
    );
}

#[test]
fn ring_id_masking_matches_the_reference_sequence_on_v3_and_v4() {
    ring_id_masking_with_external::<Cayman>();
    ring_id_masking_with_external::<Mariana>();
}

#[test]
fn ring_id_masking_keeps_the_other_bits_and_copies_the_mask_into_the_abort_mask() {
    let regs = Regs::new();
    // After the bring-ups: secondary A masks the causes it does not use (bits 28..31),
    // secondary B those outside 0xffffef07 (bits 3..7 and 12); error logs have other bits.
    regs.preset(0x3a010, 0xf000_0000);
    regs.preset(0x3a050, 0x0000_10f8);
    regs.preset(0x0020c, 0x0000_0005);
    regs.preset(0x2020c, 0x8000_0000);
    regs.preset(0x3a030, 0x1234_5678); // the old abort mask does not matter
    let e = Udma::<Mariana, _>::attach(&regs, 0xff, None).unwrap();
    e.mask_ring_id_errors();
    assert_eq!(
        regs.writes(),
        [
            (0x3a010, 0xf002_0000),
            (0x3a030, 0xf002_0000),
            (0x3a050, 0x0000_18f8),
            (0x3a070, 0x0000_18f8),
            (0x0020c, 0x0002_0005),
            (0x2020c, 0x8000_0800),
        ],
        "no external window: steps 3 and 4 are skipped, nothing outside the unit is touched"
    );
    assert!(regs.writes().iter().all(|&(off, _)| off < 0x3_c800));
}

/// The V2 AXI-error step as the notes describe it, with literal unit offsets.
fn expected_axi_error_step() -> Vec<(usize, u32)> {
    let mut w = Vec::new();
    // Detection tables 0..5 at gen+0x2900 (unit 0x3a900), 0x40 apart: entries 1,2,3,9,10,11.
    for table in 0..6 {
        for entry in [1, 2, 3, 9, 10, 11] {
            w.push((0x3a900 + table * 0x40 + entry * 4, 0xf));
        }
    }
    // Error controls 0..5 at gen+0x2b00 (unit 0x3ab00), 8 apart: per queue row then data.
    for control in 0..6 {
        for q in 0..16u32 {
            w.push((0x3ab00 + control * 8, (q << 3) | 7));
            w.push((0x3ab04 + control * 8, 0x10));
        }
    }
    // The six AXI-error IOFICs (iofic.tsv unmask_write.axi_error), then the AXI timeout.
    for (addr, v) in iofic_rows("unmask_write.axi_error") {
        w.push((usize::try_from(hex(&addr)).unwrap(), v));
    }
    w.push((0x3a300, 0xffff_ffff));
    w
}

#[test]
fn v2_axi_error_step_matches_the_notes_in_order() {
    let expected = expected_axi_error_step();
    assert_eq!(expected.len(), 36 + 192 + 18 + 1);
    // Spot checks of the expected list itself against hand-read addresses.
    assert_eq!(expected[0], (0x3a904, 0xf));
    assert_eq!(expected[35], (0x3aa6c, 0xf)); // table 5, entry 11
    assert_eq!(expected[36], (0x3ab00, 0x7));
    assert_eq!(expected[227], (0x3ab2c, 0x10)); // control 5, queue 15 data
    assert_eq!(expected[226], (0x3ab28, 0x7f));
    assert_eq!(expected[228], (0x3ad28, 0x28));

    let regs = Regs::new();
    let e = Udma::<Sunda, _>::attach(&regs, 0xff, None).unwrap();
    e.arm_axi_error_aborts();
    assert_eq!(regs.lost(), 0);
    assert_eq!(regs.writes().as_slice(), expected.as_slice());
    assert!(reads(&regs).is_empty(), "write-only");
}

#[test]
fn v2_axi_error_step_after_engine_init_replaces_the_timeout() {
    let regs = Regs::new();
    let e = Udma::<Sunda, _>::init(&regs, EngineParams::for_arch::<Sunda>()).unwrap();
    assert_eq!(regs.peek(0x3a300), 100_000_000);
    regs.clear_trace();
    e.arm_axi_error_aborts();
    assert_eq!(regs.peek(0x3a300), 0xffff_ffff);
    // The MSI-X AXI-error IOFIC (gen+0x3300) and table/control 6 are left alone.
    assert!(regs.writes().iter().all(|&(off, _)| {
        !(0x3b300..0x3b340).contains(&off)
            && !(0x3aa80..0x3aac0).contains(&off)
            && off != 0x3ab30
            && off != 0x3ab34
    }));
}
