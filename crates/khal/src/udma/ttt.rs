//! The TTT, the ancestor's *Transaction Type Table* (seed 004 §2: `al_udma_ttt_en`
//! @0x475d90, `al_udma_ttt_entry_set` @0x475e70, `al_udma_ttt_default_config` @0x476040):
//! UDMA revision 4 only and run by the userspace HAL on MARIANA only, so every method here is
//! bounded on [`TargetTranslationTable`] (and the revision's [`TttRevision`]) and does not
//! compile for another arch.
//!
//! The registers and every value written are in [`regs::ttt`](crate::regs::ttt): offsets
//! from the seed, the block (`gen_ex`) and the fields from the ancestor HAL
//! (`reference/al-hal/facts.tsv` rows `d`). Nothing is taken from the caller but the
//! window: every method takes a window on `gen_ex` ([`Udma::gen_ex`] is the unit's own, the
//! default; a caller whose mapping of the unit ends at the kernel's structure, or a model
//! that serves the block apart, passes another).
//!
//! * `ttt_en`: masked write of `cfg_v4_section_en` bit 0.
//! * `ttt_entry_set`: entry words 0..=5, read back word 5, data memory barrier, word 6 (whose
//!   write commits the entry into the table), read back word 6, data memory barrier (al-hal
//!   `d`: "2 read-back + barrier pairs"; the seed: "two `al_data_memory_barrier` fences after
//!   the trigger words"). The barrier is [`mmio::Mmio::write_barrier`], the only one the
//!   register trait has; the read-backs make the posted writes complete before it.
//! * `ttt_default_config`: set `init_trig` bit 0 (masked), wait until `init_in_progress`
//!   bit 0 reads 0 (the ancestor spins without bound; here at most `max_polls` reads,
//!   [`UdmaError::TttNotReady`] past them), `ttt_en(1)`, then the default entry
//!   ([`TttEntry::default_for_queue`]) for each configured queue (the ancestor loops over
//!   `num_of_queues`).
//!
//! Where it runs: the seed reaches `ttt_default_config` "only from `al_udma_state_set_wait`
//! on the NORMAL transition", MARIANA only. The ancestor runs it **after** the NORMAL state
//! has been observed (and only when flushing the RX stream, which the seed does not show).
//! This crate does the same, after the wait, on every NORMAL of a MARIANA engine
//! ([`Udma::state_set_wait`]). An earlier version of this crate configured the table before
//! the state command; no source gives that order, so it is gone.

use mmio::{Mmio, MmioExt, Placed, Register, Window};
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::caps::TargetTranslationTable;
use crate::regs::ttt::{
    EntryAxiTgtidValues, EntryAxiWritePadding, TTT_CTRL, TTT_EN, TTT_ENTRY, TTT_ENTRY_COMMIT,
    TTT_ENTRY_WORDS, TTT_INIT_BIT, TTT_INIT_IN_PROGRESS, TTT_INIT_TRIG, TttAddr, TttBlock,
    TttCountCmd, TttTgtidValues, TttWriteCmd, TttWritePadding,
};
use crate::regs::unit;
use crate::{Arch, TttRevision};

/// Offset in `gen_ex` of entry word 5, read back before the committing write.
const TTT_TGTID_VALUES: usize = TttBlock::BASE + <EntryAxiTgtidValues as Register>::OFFSET;
const _: () = assert!(
    TttBlock::BASE + <EntryAxiWritePadding as Register>::OFFSET == TTT_ENTRY_COMMIT
        && TTT_TGTID_VALUES == TTT_ENTRY + 4 * 5
);

/// One TTT entry, the seven words in write order (al-hal `d`; fields in
/// [`regs::ttt`](crate::regs::ttt)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TttEntry {
    /// Word 0: transaction type and queue (the seed's "`idx<<5 | mask`").
    pub addr: TttAddr,
    /// Word 1 (the seed's "key").
    pub write_cmd: TttWriteCmd,
    /// Word 2 (the seed's "`valid | flags<<1`").
    pub count_cmd: TttCountCmd,
    /// Word 3.
    pub axi_msb_addr: u32,
    /// Word 4.
    pub axi_msb_addr_sel: u32,
    /// Word 5.
    pub axi_tgtid_values: TttTgtidValues,
    /// Word 6 (its write commits the entry).
    pub axi_write_padding: TttWritePadding,
}

impl TttEntry {
    /// The entry `ttt_default_config` writes for queue `q` (al-hal `d`, "ancestor only"):
    /// type 0 (buffer-1 data), queue `q`, write to buffer 1, accumulate into the buffer-1
    /// length, address MSBs all kept (`axi_msb_addr` 0, selector all ones), target id kept
    /// (value 0, selector all ones), no padding: words `q<<5, 0, 3, 0, 0xFFFFFFFF, 0xFFFF0000,
    /// 0`.
    pub const fn default_for_queue(q: QueueId) -> Self {
        Self {
            addr: TttAddr::new().with_tr_type(0).with_queue(q.get()),
            write_cmd: TttWriteCmd::new().with_cmd(0),
            count_cmd: TttCountCmd::new().with_accumulate(true).with_field(1),
            axi_msb_addr: 0,
            axi_msb_addr_sel: u32::MAX,
            axi_tgtid_values: TttTgtidValues::new().with_tgtid(0).with_tgtid_sel(u16::MAX),
            axi_write_padding: TttWritePadding::new(),
        }
    }

    /// The seven words, in write order.
    pub const fn words(&self) -> [u32; TTT_ENTRY_WORDS] {
        [
            self.addr.into_bits(),
            self.write_cmd.into_bits(),
            self.count_cmd.into_bits(),
            self.axi_msb_addr,
            self.axi_msb_addr_sel,
            self.axi_tgtid_values.into_bits(),
            self.axi_write_padding.into_bits(),
        ]
    }
}

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// The unit's `gen_ex` block (unit `+0x3C000`), where the ancestor HAL has the TTT (the
    /// seed's `tgtid_regs`): the window the TTT methods take by default.
    pub fn gen_ex(&self) -> Window<&M> {
        self.regs().window(unit::GEN_EX_BASE)
    }

    /// `ttt_en` without the arch bound (the bounded entry points and the NORMAL transition
    /// of a TTT arch call it).
    fn ttt_en_any<W: Mmio + ?Sized>(gen_ex: &W, enable: bool) {
        gen_ex.modify32(TTT_CTRL, |v| if enable { v | TTT_EN } else { v & !TTT_EN });
    }

    /// `ttt_entry_set` without the arch bound.
    fn ttt_entry_set_any<W: Mmio + ?Sized>(gen_ex: &W, entry: &TttEntry) {
        let words = entry.words();
        let (staged, [commit]) = words.split_at(TTT_ENTRY_WORDS - 1) else {
            return;
        };
        for (i, v) in staged.iter().enumerate() {
            gen_ex.write32(TTT_ENTRY + 4 * i, *v);
        }
        // Read back word 5, barrier; commit with word 6, read it back, barrier.
        let _ = gen_ex.read32(TTT_TGTID_VALUES);
        gen_ex.write_barrier();
        gen_ex.write32(TTT_ENTRY_COMMIT, *commit);
        let _ = gen_ex.read32(TTT_ENTRY_COMMIT);
        gen_ex.write_barrier();
    }

    /// `ttt_default_config` without the arch bound: `pause` runs between reads of
    /// `init_in_progress`.
    pub(crate) fn ttt_default_config_any<W: Mmio + ?Sized, P: FnMut()>(
        &self,
        gen_ex: &W,
        max_polls: u32,
        mut pause: P,
    ) -> Result<(), UdmaError> {
        gen_ex.modify32(TTT_INIT_TRIG, |v| v | TTT_INIT_BIT);
        let mut done = false;
        for _ in 0..max_polls {
            if gen_ex.read32(TTT_INIT_IN_PROGRESS) & TTT_INIT_BIT == 0 {
                done = true;
                break;
            }
            pause();
        }
        if !done {
            return Err(UdmaError::TttNotReady { polls: max_polls });
        }
        Self::ttt_en_any(gen_ex, true);
        for q in QueueId::all().take(usize::from(self.queue_count())) {
            Self::ttt_entry_set_any(gen_ex, &TttEntry::default_for_queue(q));
        }
        Ok(())
    }
}

impl<A: Arch + TargetTranslationTable, M: Mmio> Udma<A, M>
where
    A::Revision: TttRevision,
{
    /// The marker and [`Arch::TTT_DEFAULT_ON_NORMAL`] state one fact twice (seed 004 §2: the
    /// TTT default configuration is "MARIANA-only" and "reached only from
    /// `al_udma_state_set_wait` on the NORMAL transition"): an arch with the marker but
    /// without the flag fails to compile as soon as it uses a TTT method.
    const TTT_RUNS_ON_NORMAL: () = assert!(
        A::TTT_DEFAULT_ON_NORMAL,
        "an arch implementing TargetTranslationTable must set TTT_DEFAULT_ON_NORMAL"
    );

    /// `al_udma_ttt_en` on the `gen_ex` window `gen_ex`: sets or clears bit 0 of `+0x800`
    /// (read-modify-write).
    pub fn ttt_en<W: Mmio + ?Sized>(&self, gen_ex: &W, enable: bool) {
        let () = Self::TTT_RUNS_ON_NORMAL;
        Self::ttt_en_any(gen_ex, enable);
    }

    /// `al_udma_ttt_entry_set` on the `gen_ex` window `gen_ex` (module docs: words, read-backs
    /// and barriers).
    pub fn ttt_entry_set<W: Mmio + ?Sized>(&self, gen_ex: &W, entry: &TttEntry) {
        let () = Self::TTT_RUNS_ON_NORMAL;
        Self::ttt_entry_set_any(gen_ex, entry);
    }

    /// `al_udma_ttt_default_config` on the `gen_ex` window `gen_ex` (module docs), at most
    /// `max_polls` reads of `init_in_progress`.
    pub fn ttt_default_config<W: Mmio + ?Sized>(
        &self,
        gen_ex: &W,
        max_polls: u32,
    ) -> Result<(), UdmaError> {
        let () = Self::TTT_RUNS_ON_NORMAL;
        self.ttt_default_config_any(gen_ex, max_polls, || {})
    }

    /// [`state_set_wait`](Self::state_set_wait) with the TTT in the `gen_ex` window
    /// `gen_ex` instead of the unit's own.
    pub fn state_set_wait_ttt<W: Mmio + ?Sized>(
        &self,
        state: super::UdmaState,
        gen_ex: &W,
        max_polls: u32,
    ) -> Result<(), UdmaError> {
        let () = Self::TTT_RUNS_ON_NORMAL;
        self.state_set_wait_in(state, gen_ex, super::WaitFor::Either, max_polls, || {})
    }
}
