// Ring-id error masking is a V3/V4 product step: V2 (khal-sunda) does not implement
// `RingIdErrorMasking`, so the call must not compile for it.
use khal::udma::Udma;
use mmio::FakeRegs;

fn main() {
    let regs: FakeRegs<8, 8> = FakeRegs::new();
    Udma::<khal_cayman::Cayman, _>::attach(&regs, 0xff, None).unwrap().mask_ring_id_errors(); // fine
    Udma::<khal_mariana::Mariana, _>::attach(&regs, 0xff, None).unwrap().mask_ring_id_errors(); // fine
    Udma::<khal_sunda::Sunda, _>::attach(&regs, 0xff, None).unwrap().mask_ring_id_errors();
}
