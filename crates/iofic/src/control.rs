//! The group control register (`int_control_grp`, +0x28) as a typed word.

use bitfield_struct::bitfield;

/// Revision of the interrupt controller itself, as reported in control bits 29:28.
///
/// This is the controller's own revision (a 2-bit field read back from hardware), not the
/// UDMA revision that keys the summary table ([`crate::secondary_summary_bits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ControllerRev(u8);

impl ControllerRev {
    /// Width of the field in the control register.
    pub const BITS: u32 = 2;

    /// From the raw 2-bit field (higher bits are dropped: the field cannot hold them).
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits & 0b11)
    }

    /// The raw 2-bit field.
    pub const fn into_bits(self) -> u8 {
        self.0
    }

    /// The revision number, 0..=3.
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// Group control flags.
///
/// Bits 3 and 5 are defined by the kernel reference (`control_flag`); bits 0..2 are from the
/// public Annapurna IOFIC helper (`control_flag_external`); bits 29:28 report the controller
/// revision (seed 004 §4 `al_iofic_handle_init`: `(reg[+0x28] >> 28) & 3`). The other bits
/// are reserved and kept as read.
///
/// ```
/// use iofic::Control;
/// // What the kernel writes to every group it configures (iofic.tsv PROGRAMMED_VALUE).
/// assert_eq!(Control::PROGRAMMED.into_bits(), 0x28);
/// assert_eq!(Control::from_bits(0x2000_0028).revision().get(), 2);
/// ```
#[bitfield(u32)]
#[derive(PartialEq, Eq, Hash)]
pub struct Control {
    /// Reading the cause register clears it (external helper, bit 0).
    pub clear_on_read: bool,
    /// Hardware masks a cause once it fires (external helper, bit 1).
    pub auto_mask: bool,
    /// Hardware clears the cause automatically (external helper, bit 2).
    pub auto_clear: bool,
    /// A cause latches only on a rising edge of its source (bit 3).
    pub set_on_posedge: bool,
    #[bits(1)]
    __: u8,
    /// Suppress this group's own MSI-X; its summary bit in the level above is used instead
    /// (bit 5).
    pub mask_msi_x: bool,
    #[bits(22)]
    __: u32,
    /// Controller revision (bits 29:28), read only.
    #[bits(2, access = RO, default = 0)]
    pub revision: ControllerRev,
    #[bits(2)]
    __: u8,
}

impl Control {
    /// Edge-latched causes, per-group MSI-X off: the value the kernel writes to every group
    /// it configures (0x28).
    pub const PROGRAMMED: Control = Control::new()
        .with_set_on_posedge(true)
        .with_mask_msi_x(true);
}

// Compile-time checks against iofic.tsv `control_flag*` and the HAL revision field 29:28.
const _: () = {
    assert!(Control::CLEAR_ON_READ_OFFSET == 0 && Control::AUTO_MASK_OFFSET == 1);
    assert!(Control::AUTO_CLEAR_OFFSET == 2 && Control::SET_ON_POSEDGE_OFFSET == 3);
    assert!(Control::MASK_MSI_X_OFFSET == 5);
    assert!(Control::REVISION_OFFSET == 28 && Control::REVISION_BITS == 2);
    assert!(Control::PROGRAMMED.into_bits() == 0x28);
};
