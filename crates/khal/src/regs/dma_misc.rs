//! The revision-4 gen `dma_misc` block at gen `+0x2100` (unit `0x3a100`): registers only the
//! ancestor HAL names (`reference/al-hal/facts.tsv`, rows `a` and `g`; neither the seeds nor
//! the reference list them). Declared here for the one step that writes one of them (the
//! ancestor's no-descriptor procedure, [`Udma::set_s2m_no_desc_ancestor`]) and for decoding;
//! they are not in [`REGISTERS`](super::REGISTERS), which lists the reference's rows and the
//! seed's.
//!
//! [`Udma::set_s2m_no_desc_ancestor`]: crate::udma::Udma::set_s2m_no_desc_ancestor

use mmio::Placed;

use super::general::Gen;

mmio::register! {
    /// gen `dma_misc` of the revision-4 gen map (al-hal `c`: "dma_misc 0x2100").
    pub block DmaMisc = "gen.dma_misc" @ (Gen::BASE + 0x2100) {
        /// The revision register (al-hal `a`). `al_udma_revision_get` does not read it on
        /// revision 4 (it reads `m2s_feature.dma_version`).
        pub DmaMiscRevision:
            /// `dma_misc.revision` (al-hal `a`: programming-interface ID `[11:0]`, minor
            /// `[23:12]`, major `[31:24]`).
            struct DmaMiscRevisionWord {
                /// Programming-interface ID.
                #[bits(12)]
                pub programming_id: u16,
                /// Minor revision.
                #[bits(12)]
                pub minor: u16,
                /// Major revision.
                pub major: u8,
            } = "revision" @ 0x04, source "al-hal a";
        /// Hardware bug-fix enables (al-hal `g`).
        pub BwBugFixesReg:
            /// `dma_misc.bw_bug_fixes`: bit 0 is the RX data-build FSM fix, which the ancestor's
            /// no-descriptor procedure clears on revision 4 when it turns drop on (al-hal `g`).
            struct BwBugFixes {
                /// The RX data-build FSM fix.
                pub rx_data_build_fsm_fix: bool,
                #[bits(31)]
                __: u32,
            } = "bw_bug_fixes" @ 0x20, source "al-hal g";
    }
}

const _: () = {
    use crate::table::no_row_at;
    // Not a reference row of gen (the kernel leaves gen 0x2100..0x22ff unnamed).
    assert!(no_row_at("gen", DmaMisc::BASE - Gen::BASE + 0x04));
    assert!(no_row_at("gen", DmaMisc::BASE - Gen::BASE + 0x20));
    assert!(BwBugFixesReg::ABS == 0x3_a120 && DmaMiscRevision::ABS == 0x3_a104);
};
