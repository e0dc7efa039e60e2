//! Device layout and memory defaults taken from an [`Arch`](khal::Arch) type.

use khal::udma::{EngineParams, Udma};
use khal::{Arch, Scalars};

use crate::address_space::{AddressSpace, RegionKind, RegionSpec};
use crate::device::{Device, DeviceConfig, ExecMode};
use crate::engine_walk::WalkRules;
use crate::error::{MapError, RulesError};

/// How much memory an arch-derived device gets.
///
/// The real HBM channels hold 16 to 36 GiB each; the model maps each channel at its real
/// device address but with a configurable size (default 64 MiB, at most the channel's active
/// size), and one host region at the arch's PCIe host base OR the chosen host physical base.
/// Regions are allocated zeroed and committed lazily by the host OS, so unused bytes cost
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryConfig {
    /// Bytes mapped per HBM channel.
    pub hbm_bytes_per_channel: u64,
    /// Bytes of host memory.
    pub host_bytes: u64,
    /// Host physical address of the host region (the DMA address is
    /// `pci_host_base | host_phys_base`).
    pub host_phys_base: u64,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        Self {
            hbm_bytes_per_channel: 64 << 20,
            host_bytes: 64 << 20,
            host_phys_base: 0,
        }
    }
}

/// BAR0 offsets of every UDMA unit of an arch, in engine-id order (core engines, then the
/// host-transfer engines; the ids are contiguous, so the index is the engine id), from
/// khal's `Scalars::udma_engine_offset`.
pub fn unit_bases(s: &Scalars) -> Vec<usize> {
    s.engine_ids()
        .filter_map(|e| s.udma_engine_offset(e).ok())
        .filter_map(|b| usize::try_from(b).ok())
        .collect()
}

/// The memory regions of an arch: one per HBM channel, then the host region.
pub fn regions(s: &Scalars, mem: &MemoryConfig) -> Vec<RegionSpec> {
    let hbm_size = mem.hbm_bytes_per_channel.min(s.hbm_active_size);
    let mut out: Vec<RegionSpec> = (0u8..)
        .zip(s.hbm_bases)
        .map(|(ch, &base)| {
            RegionSpec::new(
                format!("hbm{ch}"),
                RegionKind::Device { channel: ch },
                base,
                hbm_size,
            )
        })
        .collect();
    out.push(RegionSpec::new(
        "host",
        RegionKind::Host,
        s.pci_host_base | mem.host_phys_base,
        mem.host_bytes,
    ));
    out
}

impl DeviceConfig {
    /// The units and memory of one device of arch `A`.
    pub fn for_arch<A: Arch>(mem: &MemoryConfig) -> Self {
        Self {
            unit_bases: unit_bases(&A::SCALARS),
            regions: regions(&A::SCALARS, mem),
            mode: ExecMode::Manual,
            dma_version: u32::from(A::UDMA_REVISION),
        }
    }
}

impl Device {
    /// A device of arch `A` in its power-on state.
    ///
    /// ```
    /// use neuron_emu::{Device, MemoryConfig, RegionKind};
    /// let dev = Device::for_arch::<khal_sunda::Sunda>(&MemoryConfig::default())?;
    /// assert_eq!(dev.unit_count(), 34); // 32 core engines + 2 host-transfer engines
    /// assert_eq!(dev.unit_base(16), Some(0x3070_0000));
    /// let host = dev.with_memory(|m| m.find(RegionKind::Host)).unwrap();
    /// assert_eq!(dev.with_memory(|m| m.region(host).map(|r| r.base())), Some(0x1000_0000_0000));
    /// # Ok::<(), neuron_emu::MapError>(())
    /// ```
    pub fn for_arch<A: Arch>(mem: &MemoryConfig) -> Result<Self, MapError> {
        Self::new(DeviceConfig::for_arch::<A>(mem))
    }
}

/// The walk rules an engine of arch `A` applies after `khal` engine init with `params`.
///
/// A scratch model engine (one unit, no memory) is brought up by [`Udma::init`] and its
/// registers are read back, so a decode of a ring dump applies exactly the limits bring-up
/// programs (`m2s.cfg_len`, `desc_pref_cfg_2`, `err_log_mask`), with no second copy of them.
///
/// ```
/// use khal::udma::EngineParams;
/// type A = khal_cayman::Cayman;
/// let rules = neuron_emu::rules_after_init::<A>(EngineParams::for_arch::<A>())?;
/// assert_eq!(rules.max_descs_per_packet, 65);
/// assert_eq!(rules.max_packet_bytes, u64::from(udma_desc::MAX_PACKET_BYTES));
/// assert!(rules.encode_64k && rules.check_tx_ring_id && rules.check_rx_ring_id);
/// # Ok::<(), neuron_emu::RulesError>(())
/// ```
pub fn rules_after_init<A: Arch>(params: EngineParams) -> Result<WalkRules, RulesError> {
    let dev = Device::from_address_space(AddressSpace::new(), vec![0], ExecMode::Manual);
    Udma::<A, _>::init(mmio::Window::new(dev.clone(), 0), params)?;
    dev.walk_rules(0).ok_or(RulesError::NoUnit)
}
