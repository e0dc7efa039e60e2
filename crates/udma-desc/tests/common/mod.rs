//! Test arch capability types mimicking the three generations, and small helpers.
#![allow(dead_code)]

use udma_desc::caps::{PacketCaps, Supported, Unsupported};
use udma_desc::{DescRing, DescStore, Descriptor, Direction, Error, QueueId, RingPair};

/// Like V2 (SUNDA): 0x80 TX descriptors per packet, no notification mask, no strong order.
pub struct V2;
impl PacketCaps for V2 {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x80;
    type NotificationMasks = Unsupported;
    type StrongOrdering = Unsupported;
}

/// Like V3 (CAYMAN): 0x41, strong order.
pub struct V3;
impl PacketCaps for V3 {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    type NotificationMasks = Unsupported;
    type StrongOrdering = Supported;
}

/// Like V4 (MARIANA): V3 plus notification masks.
pub struct V4;
impl PacketCaps for V4 {
    const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
    type NotificationMasks = Supported;
    type StrongOrdering = Supported;
}

/// Heap storage through the trait's default methods (how a custom store, e.g. a volatile
/// window, plugs in).
#[derive(Debug, Clone, PartialEq)]
pub struct VecStore(pub Vec<Descriptor>);

impl DescStore for VecStore {
    fn capacity(&self) -> usize {
        self.0.len()
    }
    fn store(&mut self, index: u32, desc: Descriptor) -> Result<(), Error> {
        let cap = self.0.len();
        let slot = self
            .0
            .get_mut(index as usize)
            .ok_or(Error::SlotOutOfRange {
                index,
                capacity: cap,
            })?;
        *slot = desc;
        Ok(())
    }
    fn load(&self, index: u32) -> Result<Descriptor, Error> {
        self.0
            .get(index as usize)
            .copied()
            .ok_or(Error::SlotOutOfRange {
                index,
                capacity: self.0.len(),
            })
    }
}

pub type Pair = RingPair<VecStore, VecStore>;

/// A pair of `size`-descriptor rings on queue 0, storage zeroed.
pub fn pair(size: usize) -> Pair {
    let tx = VecStore(vec![Descriptor::ZERO; size]);
    let rx = VecStore(vec![Descriptor::ZERO; size]);
    RingPair::new(
        QueueId::new(0).unwrap(),
        DescRing::new(Direction::Tx, tx).unwrap(),
        DescRing::new(Direction::Rx, rx).unwrap(),
    )
}

const BITFIELDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/udma-bitfields.tsv"
));

/// The mask (or, for value rows, the value) of `register.field` in the reference table.
pub fn tsv(register: &str, field: &str) -> u32 {
    for l in BITFIELDS.lines().skip(1) {
        let c: Vec<&str> = l.split('\t').collect();
        if c[0] == register && c[1] == field {
            let cell = if c[4] != "-" { c[4] } else { c[6] };
            return u32::from_str_radix(cell.trim_start_matches("0x"), 16)
                .unwrap_or_else(|_| panic!("{register}.{field}: {cell}"));
        }
    }
    panic!("{register}.{field} not in table")
}
