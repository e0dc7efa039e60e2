//! The queue words 2.27.4.0 adds (`khal::regs::added_2_27`) against the 2.27 notes and the
//! 2.26.5.0 register table.

use khal::regs::added_2_27::PREFETCH_WORDS_2_27;
use khal::regs::queue::{Dir, RxQueue, TxQueue};
use mmio::RegisterBlock;

const UNKNOWNS: &str = include_str!("../tables/abi/unknowns-2.27-2.30.md");
const REGISTERS_TSV: &str = include_str!("../tables/udma-registers.tsv");

/// The words are where `reference/abi/unknowns-2.27-2.30.md` (e) puts them, none is declared
/// in khal's queue blocks, and 2.26.5.0's register table has nothing at those offsets.
#[test]
fn the_words_are_the_notes_and_were_reserved() {
    let notes = UNKNOWNS.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        "each M2S queue block gains a second descriptor-prefetch word at queue+0x04",
        "Each S2M queue block gains prefetch words at queue+0x00 and queue+0x04",
        "the kernel never writes them",
    ] {
        assert!(notes.contains(said), "{said}");
    }
    let places: Vec<(Dir, usize)> = PREFETCH_WORDS_2_27
        .iter()
        .map(|w| (w.dir, w.offset))
        .collect();
    assert_eq!(places, [(Dir::Tx, 0x04), (Dir::Rx, 0x00), (Dir::Rx, 0x04)]);
    for w in PREFETCH_WORDS_2_27 {
        assert_eq!(w.since, "2.27.4.0");
        let (block, regs) = match w.dir {
            Dir::Tx => ("m2s_q", TxQueue::REGISTERS),
            Dir::Rx => ("s2m_q", RxQueue::REGISTERS),
        };
        assert!(
            regs.iter().all(|r| r.offset != w.offset),
            "{block} {:#x}",
            w.offset
        );
        let at = format!("{:#06x}", w.offset);
        let taken = REGISTERS_TSV.lines().any(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            f.len() > 2 && f[0] == block && f[2] == at
        });
        assert!(!taken, "{block} {at} is a 2.26.5.0 register");
    }
    // The TX word sits beside 2.26.5.0's `desc_pref_cfg` at +0x00.
    assert!(
        REGISTERS_TSV
            .lines()
            .any(|l| l.starts_with("m2s_q\tdesc_pref_cfg\t0x0000\t"))
    );
}
