//! The V2 AXI-error product step (`udma-notes.md` section 2 step 8, first bullet).
//!
//! After engine init the V2 product turns AXI bus errors into engine aborts: it fills the
//! AXI error detection tables and the per-queue rows of the AXI error controls, makes every
//! cause of the six AXI-error interrupt controllers unmasked and aborting (through `iofic`),
//! and then lifts the AXI transaction timeout that engine init set to 0.1 s to its maximum.

use mmio::{Mmio, MmioExt};
use udma_desc::QueueId;

use super::Udma;
use crate::caps::AxiErrorAborts;
use crate::regs::{general, unit};

/// AXI error detection tables and AXI error controls the step programs: 0..5 (the seventh is
/// left alone, as is the seventh, MSI-X, AXI-error interrupt controller).
pub const AXI_ERROR_TABLES_PROGRAMMED: usize = 6;
/// Detection-table entries set, in order (each table alike).
pub const AXI_ERROR_DETECTION_SET: [usize; 6] = [1, 2, 3, 9, 10, 11];
/// Value written to each of those entries.
pub const AXI_ERROR_DETECTION_ON: u32 = 0xf;
/// Low bits of every AXI error control row selector (the queue goes above them).
pub const AXI_ERROR_CONTROL_ROW_LOW: u32 = 0x7;
/// Bit position of the queue in an AXI error control row selector.
pub const AXI_ERROR_CONTROL_ROW_QUEUE_SHIFT: u32 = 3;
/// Data written to each selected AXI error control row.
pub const AXI_ERROR_CONTROL_ROW_DATA: u32 = 0x10;
/// AXI transaction timeout the V2 product sets last (the register's maximum).
pub const AXI_TIMEOUT_MAX: u32 = 0xffff_ffff;

// Every index the step uses maps to a register (so the `if let Some` below never skips).
const _: () = {
    let mut rest: &[usize] = &AXI_ERROR_DETECTION_SET;
    while let Some((entry, tail)) = rest.split_first() {
        assert!(general::axi_error_detection(AXI_ERROR_TABLES_PROGRAMMED - 1, *entry).is_some());
        rest = tail;
    }
    assert!(general::axi_error_control(AXI_ERROR_TABLES_PROGRAMMED - 1).is_some());
};

/// Row selector of queue `q` in an AXI error control: `(q << 3) | 7`.
pub fn axi_error_control_row(q: QueueId) -> u32 {
    u32::from(q.get()) << AXI_ERROR_CONTROL_ROW_QUEUE_SHIFT | AXI_ERROR_CONTROL_ROW_LOW
}

impl<A: AxiErrorAborts, M: Mmio> Udma<A, M> {
    /// The V2 product's AXI-error step, in the notes' order:
    ///
    /// * detection tables 0..5: entries 1, 2, 3, 9, 10, 11 = 0xf (table by table);
    /// * error controls 0..5: for queues 0..15, `table_addr` = `(q << 3) | 7`, then
    ///   `table_data` = 0x10 (control by control);
    /// * the six AXI-error interrupt controllers: control 0x28, abort mask 0, mask-clear 0
    ///   ([`iofic::udma::enable_axi_error_aborts`]);
    /// * AXI timeout (`gen.axi.cfg_1`) = 0xffff_ffff.
    ///
    /// Run it after [`Udma::init`]: it replaces init's AXI timeout. Only V2 implements
    /// [`AxiErrorAborts`]; on V3/V4 this does not compile.
    ///
    /// ```
    /// use khal::udma::{EngineParams, Udma};
    /// use khal_sunda::Sunda;
    /// use mmio::FakeRegs;
    /// let regs: FakeRegs<512, 1024> = FakeRegs::new();
    /// let engine = Udma::<Sunda, _>::init(&regs, EngineParams::for_arch::<Sunda>())?;
    /// engine.arm_axi_error_aborts();
    /// assert_eq!(regs.peek(0x3a300), 0xffff_ffff); // AXI timeout lifted
    /// assert_eq!(regs.peek(0x3a904), 0xf); // table 0, entry 1
    /// # Ok::<(), khal::udma::UdmaError>(())
    /// ```
    pub fn arm_axi_error_aborts(&self) {
        let genb = self.regs().window(unit::GEN_BASE);
        for table in 0..AXI_ERROR_TABLES_PROGRAMMED {
            for entry in AXI_ERROR_DETECTION_SET {
                if let Some(off) = general::axi_error_detection(table, entry) {
                    genb.write32(off, AXI_ERROR_DETECTION_ON);
                }
            }
        }
        for control in 0..AXI_ERROR_TABLES_PROGRAMMED {
            if let Some(off) = general::axi_error_control(control) {
                for q in QueueId::all() {
                    genb.write32(off, axi_error_control_row(q));
                    genb.write32(
                        off + general::AXI_ERROR_CONTROL_DATA,
                        AXI_ERROR_CONTROL_ROW_DATA,
                    );
                }
            }
        }
        iofic::udma::enable_axi_error_aborts(&genb);
        genb.write::<general::AxiCfg1>(AXI_TIMEOUT_MAX);
    }
}
