//! Where a BAR0 offset lands on a unit's TTT registers (the ancestor HAL's `gen_ex` section
//! control, unit `0x3c800..0x3cc1c`, just past the kernel's unit structure that the model's
//! register file covers): the device's register window routes those offsets to the unit's
//! [`TttModel`](crate::ttt_model), on units of UDMA revision 4 and later.

use khal::regs::ttt::TTT_IN_UNIT;
use khal::regs::unit::GEN_EX_BASE;

use crate::model::Model;

/// Bytes the TTT registers span (a multiple of 4).
const SPAN: usize = TTT_IN_UNIT.end - TTT_IN_UNIT.start;
const _: () = assert!(SPAN % 4 == 0 && SPAN <= TTT_IN_UNIT.start);

/// `(unit, offset in gen_ex)` of BAR offset `off` when it is a 4-byte aligned TTT register of
/// a unit whose revision has the TTT; `None` otherwise. For an offset the caller has already
/// found outside every unit's register file ([`Model::locate`]): a unit's register file wins
/// (an offset inside any unit's window, units placed closer than the TTT's end, is never a
/// TTT's), and the register window's hot path asks the model once, not twice.
pub(crate) fn past_units(m: &Model, off: usize) -> Option<(usize, usize)> {
    // An offset in a unit's TTT range, moved down by the span, lands inside the same unit's
    // register file, which the model can locate.
    let at = m.locate(off.checked_sub(SPAN)?)?;
    let rel = off.checked_sub(m.unit_base(at.unit)?)?;
    let unit = m.units.get(at.unit)?;
    let has_ttt = unit.dma_version >= khal::regs::m2s::UDMA_REV_ID_4;
    if !(TTT_IN_UNIT.contains(&rel) && has_ttt) {
        return None;
    }
    Some((at.unit, rel.checked_sub(GEN_EX_BASE)?))
}
