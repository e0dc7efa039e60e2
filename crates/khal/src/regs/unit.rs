//! Block bases inside one UDMA unit: the places the block declarations give, under the
//! names the rest of the workspace uses, checked against the table's `unit` rows.

use mmio::Placed;

use super::gen_ex::GenEx;
use super::general::Gen;
use super::m2s::M2s;
use super::s2m::S2m;

/// Start of the TX (memory-to-stream) register file ([`M2s`]).
pub const M2S_BASE: usize = M2s::BASE;
/// Start of the RX (stream-to-memory) register file ([`S2m`]).
pub const S2M_BASE: usize = S2m::BASE;
/// Start of the general block ([`Gen`]: interrupt controllers, AXI, spare registers), whose
/// base `iofic` defines (it sits below khal and needs it).
pub const GEN_BASE: usize = Gen::BASE;
/// Start of the extended general block ([`GenEx`]: per-queue address-high selectors).
pub const GEN_EX_BASE: usize = GenEx::BASE;
/// Bytes covered by the unit's register structure (end of `gen_ex`: its last selector
/// block).
pub const UNIT_SIZE: usize = 0x3_c800;

const _: () = {
    use crate::table::abs_is;
    assert!(abs_is("unit", "m2s_base", M2S_BASE));
    assert!(abs_is("unit", "s2m_base", S2M_BASE));
    assert!(abs_is("unit", "gen_base", GEN_BASE));
    assert!(abs_is("unit", "gen_ex_base", GEN_EX_BASE));
    use super::gen_ex::VmprV4;
    assert!(GEN_EX_BASE + VmprV4::BASE + VmprV4::COUNT * VmprV4::STRIDE == UNIT_SIZE);
};
