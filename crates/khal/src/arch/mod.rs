//! The compile-time `Arch` trait and its parts.

mod activity_stats;
mod error;
mod generation;
mod mmap_special;
mod nc_map;
mod pure;
mod registrar;
mod revision;
#[macro_use]
mod scalar_fields;
mod scalars;
mod tpb;

pub use error::ArchError;
pub use mmap_special::{MmapSpecial, mmap_special};
pub use mmap_special::{block as mmap_block, resource as mmap_resource};
pub use pure::{UDMA_UNIT_WINDOW, WRITE_BLOCKED_QUEUE_REGS, WaitTimes};
pub use registrar::{Platform, RegistrarError, RegistrarInput, Registration, register_common};

pub use activity_stats::{ACTIVITY_STATS_HEADER, ActivityStats};
pub use generation::{
    Generation, InvalidGeneration, PCI_VENDOR_ID, Product, UnknownDeviceId, pci_id,
};
pub use nc_map::{
    DIE_FLIP_XOR, NC_MAP_ENTRIES, NC_MAP_TYPE, NcLocation, NcMapTable, PATTERN_A, PATTERN_B,
    PATTERN_C, PATTERN_D, nc_map_entry, v4_table,
};
pub use revision::{
    Rev3, Rev4, SteeringLayoutV4, TgtidLayoutV3, TgtidLayoutV4, TttRevision, UdmaRevision,
};
pub use scalar_fields::{ScalarField, ScalarValue};
pub use scalars::{Scalars, VersionWindow};
pub use tpb::read_pe_counter;

use udma_desc::caps::PacketCaps;

use udma_desc::QueueId;

use crate::regs::QueueReg;
use crate::regs::queue::Dir;

/// The DHAL callback tally, by source. This crate models the reference's 59 slots
/// (`arch-callbacks.tsv`, driver 2.26.5.0): it is the table the tests check against, one row
/// per slot. Seed 003 counts 56 for driver 2.27.4.0 (a later release with fewer slots per
/// sub-table: e.g. `mpset` 1, `ndmar` 6, no `reg_access`, `pci` 2, `cdev` 3); no slot list of
/// that release is in the repository, so its differences are not modelled slot by slot. Both
/// agree that the version-common registrar sets 4 (`ndhal_tpb`).
#[derive(Clone, Copy, Debug)]
pub struct DhalCallbacks;

impl DhalCallbacks {
    /// Seed 003 §1 "Callback Tally": 56 (2.27.4.0).
    pub const SEED_2_27_4_0: usize = 56;
    /// `arch-README.md` "Callback count": 59 (2.26.5.0), the count implemented here.
    pub const REFERENCE_2_26_5_0: usize = 59;
    /// Slots the version-common registrar sets (both sources).
    pub const VC: usize = 4;
}

/// One chip generation, resolved at compile time.
///
/// Implemented by zero-sized types in `khal-sunda` (V2), `khal-cayman` (V3) and
/// `khal-mariana` (V4 = V3 + overrides). Code that depends on the generation is generic over
/// `A: Arch` and reads associated consts, so each generation gets its own monomorphised copy
/// with the numbers folded in — no table of function pointers, no run-time branch.
///
/// The capability supertrait comes from the crate below `khal`: [`PacketCaps`] (descriptor
/// limits, `udma-desc`). The error-interrupt policy masks (`iofic::caps::IoficCaps`) belong
/// to the UDMA revision: `A::Revision` implements them. Version-common behaviour is written
/// once, as default items here.
pub trait Arch: PacketCaps + Copy + Default + core::fmt::Debug + Send + Sync + 'static {
    // --- identity ---
    /// The generation.
    const GENERATION: Generation;
    /// Project code name (SUNDA, CAYMAN, MARIANA).
    const CODE_NAME: &'static str = Self::GENERATION.code_name();
    /// The products of this generation (PCI ids and sysfs strings).
    const PRODUCTS: &'static [Product];
    /// The UDMA revision of this generation's engines, as a type (revision-gated APIs are
    /// bounded on it; it carries the IOFIC policy values, `iofic::caps::IoficCaps`).
    type Revision: UdmaRevision;
    /// The UDMA revision number.
    const UDMA_REVISION: u8 = <Self::Revision as UdmaRevision>::NUMBER;

    // --- data ---
    /// Per-arch scalars (`arch-scalars.tsv`, `address-map.tsv`).
    const SCALARS: Scalars;
    /// Whether the userspace HAL runs the TTT default configuration on this generation's
    /// NORMAL transition (seed 004 §2: MARIANA only). An arch that sets it implements
    /// [`caps::TargetTranslationTable`](crate::caps::TargetTranslationTable).
    const TTT_DEFAULT_ON_NORMAL: bool = false;

    // --- behaviour ---
    /// The registrar: decides the host-wide HAL state for the first probed device.
    /// Version common: [`register_common`]; V3 and V4 layer on top of it.
    fn register(input: &RegistrarInput<'_>) -> Result<Registration, RegistrarError> {
        register_common::<Self>(input)
    }

    /// BAR0 offset of DMA engine `engine`'s UDMA unit (core engines, then H2T engines).
    fn udma_engine_offset(engine: u32) -> Result<u64, ArchError> {
        Self::SCALARS.udma_engine_offset(engine)
    }

    /// Offset from the unit base of per-queue register `reg` of queue `q`, direction `dir`
    /// (`None` for a TX-only register asked for RX): the userspace HAL's per-queue offset
    /// trampolines (seed 004 §3). Version common: the one queue layout of
    /// [`regs::queue`](crate::regs::queue), which every generation has (UDMA revision 4).
    #[inline]
    fn queue_reg_offset(dir: Dir, q: QueueId, reg: QueueReg) -> Option<usize> {
        reg.abs(dir, q)
    }

    /// The H2T engine of core `nc`.
    fn h2t_engine_id(nc: u32) -> Result<u16, ArchError> {
        Self::SCALARS.h2t_engine_id(nc)
    }

    /// The H2T queue of core `nc`.
    fn h2t_default_queue(nc: u32) -> Result<u32, ArchError> {
        Self::SCALARS.h2t_default_queue(nc)
    }

    /// Whether core `nc` re-initialises its H2T engine after resetting `nc_map`.
    fn inits_h2t_engine(nc: u32, nc_map: u32) -> Result<bool, ArchError> {
        Self::SCALARS.inits_h2t_engine(nc, nc_map)
    }

    /// Whether queue `q` of engine `eng` is reserved for NX cores.
    fn is_nx_ring(eng: u32, q: u32) -> bool {
        Self::SCALARS.is_nx_ring(eng, q)
    }

    /// Notification queue id of (`index`, `nq_type`).
    fn nq_id(index: u32, nq_type: u32) -> Result<u32, ArchError> {
        Self::SCALARS.nq_id(index, nq_type)
    }

    /// BAR0 offset of core `nc`'s semaphore base.
    fn semaphore_base(nc: u32) -> Result<u64, ArchError> {
        Self::SCALARS.semaphore_base(nc)
    }

    /// BAR0 offset of event `event` of core `nc`.
    fn event_offset(nc: u32, event: u32) -> Result<u64, ArchError> {
        Self::SCALARS.event_offset(nc, event)
    }

    /// DMA completion wait times for `count` descriptors.
    fn wait_for_completion(count: u32, is_async: bool) -> Result<WaitTimes, ArchError> {
        Self::SCALARS.wait_for_completion(count, is_async)
    }

    /// BAR4 offset of a device HBM range.
    fn bar4_offset(addr: u64, size: u64) -> Result<u64, ArchError> {
        Self::SCALARS.bar4_offset(addr, size)
    }

    /// Logical-to-physical NeuronCore map entry `entry` (`ncdev_logical_to_physical_nc_map`):
    /// version common, no map ([`ArchError::NcMapUnsupported`], V2); V3 answers from its
    /// table with the die flip, V4 overrides by platform.
    fn logical_to_physical_nc(
        mapping_type: u32,
        entry: u16,
        platform: Option<Platform>,
        die_flipped: bool,
    ) -> Result<NcLocation, ArchError> {
        let _ = (mapping_type, entry, platform, die_flipped);
        Err(ArchError::NcMapUnsupported)
    }

    /// Whether user space may not write BAR0 offset `off`.
    fn is_bar0_write_blocked(off: u64) -> bool {
        Self::SCALARS.is_bar0_write_blocked(off)
    }
}
