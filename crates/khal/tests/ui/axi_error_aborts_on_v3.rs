// The AXI-error abort step is V2's: V3 and V4 do not implement `AxiErrorAborts`, so the call
// must not compile for them.
use khal::udma::Udma;
use mmio::FakeRegs;

fn main() {
    let regs: FakeRegs<8, 8> = FakeRegs::new();
    Udma::<khal_sunda::Sunda, _>::attach(&regs, 0xff, None).unwrap().arm_axi_error_aborts(); // fine
    Udma::<khal_cayman::Cayman, _>::attach(&regs, 0xff, None).unwrap().arm_axi_error_aborts();
    Udma::<khal_mariana::Mariana, _>::attach(&regs, 0xff, None).unwrap().arm_axi_error_aborts();
}
