// Per-queue target steering uses the revision-4 `vmpr_v4` selector layout, the only one the
// reference gives: an engine whose arch has an older revision type must not compile the call.
use khal::caps::{PacketCaps, Supported, Unsupported};
use khal::udma::{QueueTarget, Udma};
use khal::{Arch, Generation, Product, Rev3, Scalars};
use mmio::FakeRegs;
use udma_desc::QueueId;

#[derive(Clone, Copy, Debug, Default)]
struct Rev3Engine;
impl PacketCaps for Rev3Engine {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    type NotificationMasks = Unsupported;
    type StrongOrdering = Supported;
}
impl Arch for Rev3Engine {
    const GENERATION: Generation = Generation::V3;
    const PRODUCTS: &'static [Product] = &[];
    type Revision = Rev3;
    const SCALARS: Scalars = khal_cayman::SCALARS;
}

fn main() {
    let regs: FakeRegs<8, 8> = FakeRegs::new();
    let engine = Udma::<Rev3Engine, _>::attach(&regs, 0xff, None).unwrap();
    let _ = engine.set_queue_target(QueueId::new(0).unwrap(), QueueTarget::NONE);
}
