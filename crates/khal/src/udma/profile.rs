//! Engine bring-up profiles: the two sources' engine-init sequences, kept side by side.
//!
//! The userspace HAL (seed 004 §2 `al_udma_init`, libnrt 2.31.24.0) and the kernel driver
//! (`udma-notes.md` section 2, driver 2.26.5.0) bring a UDMA engine up differently. Where
//! they disagree each value is kept, named after its source:
//!
//! | what | userspace HAL (seed 004 §2) | kernel (reference) |
//! |---|---|---|
//! | revision | read (`al_udma_revision_get`), refused unless 4 | not read: "record revision 4" (notes §2 step 1) |
//! | `m2s_rd.data_cfg` depth (`[m2s+0x310]`) | CAYMAN 2296, MARIANA 4088, else 0x400 ([`Scalars::hal_data_fifo_depth`]) | `num_beats`: V2 1024, V3/V4 2296 ([`Scalars::num_beats`]) |
//! | `m2s_rd.data_cfg` packet limit | 0x100 ("0x400/0x100"; stated for the `else` branch only) | 0x100 |
//! | `gen.axi.cfg_1` (abs `0x3a300`, the seed's "pkt/clk"; the AXI transaction timeout) | [`HAL_PKT_CLK`] = 0xF4240 ("1e6 clk") | [`KERNEL_AXI_TIMEOUT`] = 100,000,000 |
//! | `packet_size_cfg_set` | named, no register or value given (the ancestor's: `m2s.cfg_len` = 0x010fffff) | `m2s.cfg_len` = 0x010fffff |
//! | `s2m_comp.cfg_application_ack` (`[s2m+0x38c]`) | 0 | 0 |
//! | other engine defaults (outstanding limits, stream, selectors, completion size, prefetch) | not in the seed | notes §2 steps 3, 5, 7 |
//! | error interrupts | `al_udma_iofic_{m2s,s2m}_error_ints_unmask` | same policy (`iofic.tsv`) |
//! | `iofic_mode` | `al_udma_iofic_config_ex` (body not in the seed) | — |
//!
//! The ancestor HAL (`reference/al-hal/`, row `f`) names `gen.axi.cfg_1` the AXI
//! transaction timeout and writes [`ANCESTOR_AXI_TIMEOUT`] = 5,000,000 there: a third value,
//! kept for the record; neither profile writes it (the seed's value is fork-specific).
//!
//! [`Scalars::hal_data_fifo_depth`]: crate::Scalars::hal_data_fifo_depth
//! [`Scalars::num_beats`]: crate::Scalars::num_beats

use crate::Arch;

/// `gen.axi.cfg_1` as the userspace HAL programs it: 0xF4240 = 1,000,000 (seed 004 §2
/// `al_udma_init`: "common: [m2s+pkt]=0xF4240 (1e6 clk)"; "pkt/clk = +0x3a300").
pub const HAL_PKT_CLK: u32 = 0x000F_4240;
/// `gen.axi.cfg_1` as the kernel programs it: 100,000,000 (`udma-notes.md` §2 step 3 #3).
pub const KERNEL_AXI_TIMEOUT: u32 = 100_000_000;
/// `gen.axi.cfg_1` as the ancestor HAL's defaults program it: 5,000,000 (al-hal `f`,
/// "gen axi.cfg_1 ... is the AXI transaction timeout"). Written by neither profile.
pub const ANCESTOR_AXI_TIMEOUT: u32 = 5_000_000;
/// `m2s_rd.data_cfg` packet-count limit: 0x100 in both sources (seed "0x400/0x100";
/// `udma-bitfields.tsv` `MAX_PKT_LIMIT` 0x00000100).
pub const DATA_CFG_MAX_PKT_LIMIT: u16 = 0x100;
/// `[s2m+0x38c]` (`s2m_comp.cfg_application_ack`): 0 in both sources.
pub const S2M_APP_ACK_TIMEOUT: u32 = 0;
/// `num_of_queues` value meaning "all queues" (seed: `0xFF ? 16`; kernel: "0xff means all").
pub const NUM_OF_QUEUES_ALL: u8 = 0xFF;

/// Which source's engine-init sequence [`Udma::init_with`](crate::udma::Udma) runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BringUpProfile {
    /// The userspace HAL's `al_udma_init` (seed 004 §2): the default for user code.
    UserspaceHal,
    /// The kernel driver's engine init (`udma-notes.md` §2): what the emulated kernel's
    /// probe runs.
    Kernel,
}

impl BringUpProfile {
    /// The default for user-space code.
    pub const DEFAULT: Self = Self::UserspaceHal;

    /// Whether this profile reads the revision from the hardware (`al_udma_revision_get`).
    pub const fn reads_revision(self) -> bool {
        matches!(self, Self::UserspaceHal)
    }

    /// The value this profile writes to `gen.axi.cfg_1`.
    pub const fn axi_cfg_1(self) -> u32 {
        match self {
            Self::UserspaceHal => HAL_PKT_CLK,
            Self::Kernel => KERNEL_AXI_TIMEOUT,
        }
    }

    /// The `m2s_rd.data_cfg` FIFO depth this profile writes for arch `A`.
    pub const fn data_fifo_depth<A: Arch>(self) -> u16 {
        match self {
            Self::UserspaceHal => A::SCALARS.hal_data_fifo_depth,
            Self::Kernel => A::SCALARS.num_beats,
        }
    }
}

impl Default for BringUpProfile {
    fn default() -> Self {
        Self::DEFAULT
    }
}
