// Strong-ordered RX writes do not exist on V2: the udma-desc packet option must not compile
// for khal-sunda's arch.
use udma_desc::PacketOptions;

fn main() {
    let _v3 = PacketOptions::<khal_cayman::Cayman>::new().with_strong_order(); // fine
    let _v4 = PacketOptions::<khal_mariana::Mariana>::new().with_strong_order(); // fine
    let _v2 = PacketOptions::<khal_sunda::Sunda>::new().with_strong_order();
}
