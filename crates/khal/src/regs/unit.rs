//! Block bases inside one UDMA unit.

/// Start of the TX (memory-to-stream) register file.
pub const M2S_BASE: usize = 0x0_0000;
/// Start of the RX (stream-to-memory) register file.
pub const S2M_BASE: usize = 0x2_0000;
/// Start of the general block (interrupt controllers, AXI, spare registers): defined once,
/// in `iofic` (which sits below khal and needs it), checked here against the table.
pub const GEN_BASE: usize = iofic::layout::GEN_BASE_IN_UNIT;
/// Start of the extended general block (per-queue address-high selectors).
pub const GEN_EX_BASE: usize = 0x3_c000;
/// Bytes covered by the unit's register structure (end of `gen_ex`).
pub const UNIT_SIZE: usize = 0x3_c800;

const _: () = assert!(crate::table::abs_is("unit", "m2s_base", M2S_BASE));
const _: () = assert!(crate::table::abs_is("unit", "s2m_base", S2M_BASE));
const _: () = assert!(crate::table::abs_is("unit", "gen_base", GEN_BASE));
const _: () = assert!(crate::table::abs_is("unit", "gen_ex_base", GEN_EX_BASE));
