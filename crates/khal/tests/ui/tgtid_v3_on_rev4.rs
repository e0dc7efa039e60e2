// Target-id steering has one layout per UDMA revision (seed 004 §2
// `al_udma_gen_tgtid_conf_queue_set_adv`): the words at gen + 0x23EC are for revision <= 3
// engines (the ancestor HAL's "v3"), so a revision-4 arch does not compile the call.
use khal::udma::Udma;
use khal_mariana::Mariana;
use mmio::FakeRegs;
use udma_desc::QueueId;

fn main() {
    let regs: FakeRegs<8, 8> = FakeRegs::new();
    let engine = Udma::<Mariana, _>::attach(&regs, 0xff, None).unwrap();
    let _ = engine.set_tgtid_queue_v3(QueueId::new(0).unwrap(), &Default::default());
}
