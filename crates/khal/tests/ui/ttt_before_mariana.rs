// The Target Translation Table is run by the userspace HAL on MARIANA only (seed 004 §2):
// V3 (CAYMAN) has UDMA revision 4 but not the `TargetTranslationTable` capability, so the
// TTT methods do not compile for it.
use khal::udma::Udma;
use khal_cayman::Cayman;
use mmio::FakeRegs;

fn main() {
    let regs: FakeRegs<8, 8> = FakeRegs::new();
    let tgtid: FakeRegs<8, 8> = FakeRegs::new();
    let engine = Udma::<Cayman, _>::attach(&regs, 0xff, None).unwrap();
    engine.ttt_en(&tgtid, true);
}
