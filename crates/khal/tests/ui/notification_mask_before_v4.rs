// Descriptor notification masks exist only from V4 on: the udma-desc packet option that sets
// one must not compile for V3 (khal-cayman does not implement `NotificationMask`).
use udma_desc::PacketOptions;

fn main() {
    let _v4 = PacketOptions::<khal_mariana::Mariana>::new().with_notification_mask(0x3); // fine
    let _v3 = PacketOptions::<khal_cayman::Cayman>::new().with_notification_mask(0x3);
}
