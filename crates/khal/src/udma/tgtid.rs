//! Per-queue target-id steering, `al_udma_gen_tgtid_conf_queue_set_adv` (seed 004 §2
//! @0x4756d0), and the MSI-X target-id bits, one method per revision layout, each gated at
//! compile time on the arch's UDMA revision type.
//!
//! Places and queue bounds are the seed's; the fields and the write sequence are the
//! ancestor HAL's (`reference/al-hal/facts.tsv` rows `c`, [`regs::tgtid`](crate::regs::tgtid)).
//! Every write is the ancestor's masked read-modify-write of one field, so one queue's call
//! never disturbs another queue's bits or unrelated bits of a shared word.
//!
//! * Revision 4 ([`Udma::set_tgtid_queue_v4`]): asserts `qid < DMA_MAX_Q_V4` (16, which every
//!   [`QueueId`] is below), not the configured count; `cfg_vm_ctrl` enables one bit at a time
//!   (TX descriptor, TX queue, RX descriptor, RX queue), then `cfg_tx_vm`, then `cfg_rx_vm`.
//! * Revision <= 3 ([`Udma::set_tgtid_queue_v3`]): asserts `qid < udma->num_of_queues` and
//!   `qid < 4`; in the revision-3 gen map (unit `+0x1C000`) `cfg_tgtid_0`'s four enables of
//!   the queue, then its 16-bit TX and RX target ids, then (revision 2 and later) its 16-bit
//!   TX and RX address MSBs.
//! * MSI-X ([`Udma::set_tgtid_msix_v4`], [`Udma::set_tgtid_msix_v3`],
//!   `al_udma_gen_tgtid_msix_conf_set_adv`): one masked write of bits 8 and 9 of
//!   `cfg_tgtid_0` (revision 4: gen `+0x2500`; revision <= 3: gen `+0x23EC`).

use mmio::{Mmio, MmioExt, Placed, Register};
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::regs::tgtid::{
    CfgRxVm, CfgTgtid0, CfgTgtid0V4, CfgTxVm, CfgVmCtrl, DMA_MAX_Q_V3, REV3_GEN_BASE, TgtaddrV3,
    TgtaddrV4, TgtidCfg0, TgtidV3, TgtidV4, VmCtrl, VmTarget, v3_queue_words,
};
use crate::regs::unit;
use crate::{Arch, TgtidLayoutV3, TgtidLayoutV4};

/// One direction's target-id steering of a queue (the ancestor's `al_udma_gen_tgtid_conf`
/// per-queue TX or RX half).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TgtidDir {
    /// Take the target id from each descriptor's address (bits 63:48).
    pub desc_en: bool,
    /// Use the queue's target id [`tgtid`](Self::tgtid).
    pub queue_en: bool,
    /// The queue's target id.
    pub tgtid: u16,
    /// The queue's target-address MSBs.
    pub tgtaddr: u16,
}

/// A queue's target-id steering, both directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TgtidQueue {
    /// TX (M2S).
    pub tx: TgtidDir,
    /// RX (S2M).
    pub rx: TgtidDir,
}

/// The MSI-X target-id bits of `cfg_tgtid_0` (`al_udma_gen_tgtid_msix_conf`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TgtidMsix {
    /// Bit 9: MSI-X target-id access enable.
    pub access_en: bool,
    /// Bit 8: MSI-X target-id select.
    pub sel: bool,
}

/// The ancestor's `al_reg_write32_masked`: read, replace the `mask` bits with `value`'s,
/// write.
fn write_masked<W: Mmio + ?Sized>(w: &W, offset: usize, mask: u32, value: u32) {
    w.modify32(offset, |v| (v & !mask) | (value & mask));
}

/// Masked write of the MSI-X bits of the `cfg_tgtid_0` at `offset` of `w`.
fn write_msix<W: Mmio + ?Sized>(w: &W, offset: usize, msix: TgtidMsix) {
    let v = TgtidCfg0::new()
        .with_msix_access_en(msix.access_en)
        .with_msix_sel(msix.sel)
        .into_bits();
    write_masked(w, offset, TgtidCfg0::MSIX_BITS, v);
}

/// Writes the four enables of a queue into `cfg_vm_ctrl` / `cfg_tgtid_0` one masked write
/// each, in the ancestor's order: TX descriptor, TX queue, RX descriptor, RX queue.
fn write_enables<W: Mmio + ?Sized>(w: &W, offset: usize, bits: [u32; 4], conf: &TgtidQueue) {
    let on = [
        conf.tx.desc_en,
        conf.tx.queue_en,
        conf.rx.desc_en,
        conf.rx.queue_en,
    ];
    for (bit, on) in bits.into_iter().zip(on) {
        write_masked(w, offset, bit, if on { bit } else { 0 });
    }
}

impl<A: Arch, M: Mmio> Udma<A, M>
where
    A::Revision: TgtidLayoutV4,
{
    /// Steers queue `q`'s target ids (revision 4): its block at `gen + 16*(q+608)`, as the
    /// module docs give the sequence. The seed's bound is 16 queues (`DMA_MAX_Q_V4`), not
    /// the configured count, so any [`QueueId`] is accepted.
    pub fn set_tgtid_queue_v4(&self, q: QueueId, conf: &TgtidQueue) {
        let block = self
            .regs()
            .window(unit::GEN_BASE + crate::regs::tgtid::tgtid_queue_v4(q));
        let ctrl = <CfgVmCtrl as Register>::OFFSET;
        let bits = |f: fn(VmCtrl) -> VmCtrl| f(VmCtrl::new()).into_bits();
        let order = [
            bits(|v| v.with_tx_desc_tgtid_en(true)),
            bits(|v| v.with_tx_queue_tgtid_en(true)),
            bits(|v| v.with_rx_desc_tgtid_en(true)),
            bits(|v| v.with_rx_queue_tgtid_en(true)),
        ];
        write_enables(&block, ctrl, order, conf);
        for (off, d) in [
            (<CfgTxVm as Register>::OFFSET, conf.tx),
            (<CfgRxVm as Register>::OFFSET, conf.rx),
        ] {
            let v = VmTarget::new().with_tgtid(d.tgtid).with_tgtaddr(d.tgtaddr);
            write_masked(&block, off, u32::MAX, v.into_bits());
        }
    }

    /// Reads queue `q`'s revision-4 target-id block back.
    pub fn tgtid_queue_v4(&self, q: QueueId) -> TgtidQueue {
        let block = self
            .regs()
            .window(unit::GEN_BASE + crate::regs::tgtid::tgtid_queue_v4(q));
        let ctrl = block.read::<CfgVmCtrl>();
        let (tx, rx) = (block.read::<CfgTxVm>(), block.read::<CfgRxVm>());
        TgtidQueue {
            tx: TgtidDir {
                desc_en: ctrl.tx_desc_tgtid_en(),
                queue_en: ctrl.tx_queue_tgtid_en(),
                tgtid: tx.tgtid(),
                tgtaddr: tx.tgtaddr(),
            },
            rx: TgtidDir {
                desc_en: ctrl.rx_desc_tgtid_en(),
                queue_en: ctrl.rx_queue_tgtid_en(),
                tgtid: rx.tgtid(),
                tgtaddr: rx.tgtaddr(),
            },
        }
    }

    /// The MSI-X target-id bits (revision 4: `cfg_tgtid_0` at gen `+0x2500`, ancestor only).
    pub fn set_tgtid_msix_v4(&self, msix: TgtidMsix) {
        let genb = self.regs().window(unit::GEN_BASE);
        write_msix(
            &genb,
            TgtidV4::BASE + <CfgTgtid0V4 as Register>::OFFSET,
            msix,
        );
    }
}

impl<A: Arch, M: Mmio> Udma<A, M>
where
    A::Revision: TgtidLayoutV3,
{
    /// Steers queue `q`'s target ids (revision <= 3, the revision-3 gen map), as the module
    /// docs give the sequence. `q` must be among the configured queues (the seed's assert) and
    /// below 4 (the ancestor's); refused before any access otherwise.
    pub fn set_tgtid_queue_v3(&self, q: QueueId, conf: &TgtidQueue) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        let (tx_id, rx_id, tx_addr, rx_addr, shift) =
            v3_queue_words(q.get()).ok_or(UdmaError::QueueNotConfigured {
                queue: q.get(),
                count: DMA_MAX_Q_V3,
            })?;
        let gen3 = self.regs().window(REV3_GEN_BASE);
        let ids = TgtidV3::BASE;
        write_enables(
            &gen3,
            ids + <CfgTgtid0 as Register>::OFFSET,
            TgtidCfg0::queue_bits(q.get()),
            conf,
        );
        let mask = 0xFFFF << shift;
        let half = |v: u16| u32::from(v) << shift;
        write_masked(&gen3, ids + tx_id, mask, half(conf.tx.tgtid));
        write_masked(&gen3, ids + rx_id, mask, half(conf.rx.tgtid));
        // The address MSBs exist from UDMA revision 2 (every revision <= 3 type here is 3).
        let addrs = TgtaddrV3::BASE;
        write_masked(&gen3, addrs + tx_addr, mask, half(conf.tx.tgtaddr));
        write_masked(&gen3, addrs + rx_addr, mask, half(conf.rx.tgtaddr));
        Ok(())
    }

    /// The MSI-X target-id bits (revision <= 3: `cfg_tgtid_0` at gen `+0x23EC` of the
    /// revision-3 gen map).
    pub fn set_tgtid_msix_v3(&self, msix: TgtidMsix) {
        let gen3 = self.regs().window(REV3_GEN_BASE);
        write_msix(&gen3, TgtidV3::BASE, msix);
    }
}

// The revision-4 queue blocks are the `TgtaddrV4` array of `gen`.
const _: () = assert!(TgtaddrV4::COUNT == udma_desc::QUEUES_PER_ENGINE as usize);
