//! The engine handle and engine init (`udma-notes.md` section 2).

use core::marker::PhantomData;

use mmio::{Mmio, MmioExt, Register};
use udma_desc::{QUEUES_PER_ENGINE, QueueId};

use super::UdmaError;
use super::error::RevisionFeature;
use super::prefetch::{MIN_DESCS_PER_PACKET, check_max_descs, max_descs_in_range};
use super::profile::DATA_CFG_MAX_PKT_LIMIT;
use crate::regs::queue::{self, Dir, QueueCfg};
use crate::regs::{gen_ex, general, m2s, s2m, unit};
use crate::{Arch, Rev4, UdmaRevision};

/// Queue-count argument meaning "every queue" (16).
pub const QUEUE_COUNT_ALL: u8 = super::NUM_OF_QUEUES_ALL;
/// AXI transaction timeout the kernel programs at engine init (100,000,000 cycles, about
/// 0.1 s); the userspace HAL writes [`HAL_PKT_CLK`](super::HAL_PKT_CLK) there instead.
pub const AXI_TIMEOUT: u32 = super::KERNEL_AXI_TIMEOUT;
/// `axi_s2m.ostand_cfg_wr`: 128 data writes, 0x40 beats, 128 completion writes, 0x40 beats.
pub const OSTAND_S2M_WR: s2m::OstandCfgWr = s2m::OstandCfgWr::new()
    .with_max_data_wr_ostand(128)
    .with_max_data_beats_wr(0x40)
    .with_max_comp_req(128)
    .with_max_comp_data_wr(0x40);
/// Completion entries are 16 bytes; the engine counts them in 32-bit words.
const COMPLETION_DESC_WORDS: u16 = 16 / 4;
/// `m2s.cfg_len` as engine init programs it: the largest packet the 20-bit field holds
/// (the same limit the `udma-desc` packet builder enforces) and 64 KiB encoded as length 0
/// (the encoding `udma_desc::encode_size` produces). A `const`, so a limit that did not fit
/// the field would fail the build instead of panicking in the setter.
pub(super) const CFG_LEN: m2s::CfgLen = m2s::CfgLen::new()
    .with_max_pkt_size(udma_desc::MAX_PACKET_BYTES)
    .with_encode_64k(true);

/// Writes `cfg` = `0x0003_0000` (EN_PREF | EN_SCHEDULING over a zero cache) to the TX then
/// RX queue of every queue number, as both sources' engine init does before the cache is
/// filled (kernel: `udma-notes.md` §2 step 2 and quirk 6; seed 004 §2 `al_udma_q_enable`).
pub(super) fn enable_every_queue<M: Mmio>(r: &M) {
    let enable = QueueCfg::new().enabled();
    for q in QueueId::all() {
        for d in Dir::BOTH {
            r.window(queue::queue_base(d, q))
                .write::<queue::Cfg>(enable);
        }
    }
}

/// `axi_m2s.ostand_cfg`: 128/128/128/32, or 111/8/0/0 when the max read AXI id is
/// reserved (V2).
pub const fn ostand_m2s(reserve_axi_id: bool) -> m2s::OstandCfg {
    if reserve_axi_id {
        m2s::OstandCfg::new()
            .with_max_data_rd(111)
            .with_max_desc_rd(8)
    } else {
        m2s::OstandCfg::new()
            .with_max_data_rd(128)
            .with_max_desc_rd(128)
            .with_max_comp_req(128)
            .with_max_comp_data_wr(32)
    }
}

/// `axi_s2m.ostand_cfg_rd`: 128 (8 with the AXI-id reserve) descriptor reads, 0x40 acks.
pub const fn ostand_s2m_rd(reserve_axi_id: bool) -> s2m::OstandCfgRd {
    s2m::OstandCfgRd::new()
        .with_max_desc_rd_ostand(if reserve_axi_id { 8 } else { 128 })
        .with_max_stream_ack(0x40)
}

/// Engine init parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EngineParams {
    /// Queues to use: 1..=16, or [`QUEUE_COUNT_ALL`].
    pub queue_count: u8,
    /// Max descriptors per packet, 8..=128, programmed into the prefetcher (step 7).
    pub max_descs_per_packet: u8,
    /// The engine's UDMA revision, when the caller knows it; it must equal the arch's.
    ///
    /// [`Udma::init_hal`] (the userspace HAL's bring-up) then uses it **instead of reading**
    /// `m2s_feature.dma_version`: the override for an engine whose version word does not read
    /// 4 although the engine is revision 4 (which register holds the revision, and that it
    /// reads exactly 4, are the ancestor HAL's fact and an inference: see
    /// [`revision_from_dma_version`](super::revision_from_dma_version)). `None`: read it.
    /// [`Udma::init`] (the kernel's, which never reads it) only checks it against the arch.
    pub hw_revision: Option<u8>,
}

impl EngineParams {
    /// The parameters for arch `A`: all queues, and as many descriptors per packet as `A`'s
    /// descriptor rules allow ([`MAX_TX_DESCS_PER_PACKET`]: V2 128, V3 and V4 65), so that
    /// every packet the `udma-desc` builders accept for `A` is one the prefetcher takes.
    ///
    /// [`MAX_TX_DESCS_PER_PACKET`]: crate::caps::PacketCaps::MAX_TX_DESCS_PER_PACKET
    ///
    /// The kernel product passes 64 + 1 = 65 on every generation
    /// ([`Scalars::descs_per_packet_at_init`](crate::Scalars::descs_per_packet_at_init)); on
    /// V3/V4 that is the same number, on V2 it is below the V2 limit. To program the kernel's
    /// value (or any other), override it with
    /// [`with_max_descs_per_packet`](Self::with_max_descs_per_packet).
    ///
    /// `A`'s limit is checked against 8..=128 when this is compiled for `A`: an arch with a
    /// limit the prefetcher cannot take does not build.
    ///
    /// ```
    /// use khal::Arch;
    /// use khal::udma::EngineParams;
    /// assert_eq!(EngineParams::for_arch::<khal_sunda::Sunda>().max_descs_per_packet, 128);
    /// assert_eq!(EngineParams::for_arch::<khal_cayman::Cayman>().max_descs_per_packet, 65);
    /// let kernel = EngineParams::for_arch::<khal_sunda::Sunda>()
    ///     .with_max_descs_per_packet(khal_sunda::Sunda::SCALARS.descs_per_packet_at_init);
    /// assert_eq!(kernel.max_descs_per_packet, 65);
    /// ```
    pub const fn for_arch<A: Arch>() -> Self {
        Self {
            queue_count: QUEUE_COUNT_ALL,
            max_descs_per_packet: ArchPacketLimit::<A>::MAX_DESCS,
            hw_revision: None,
        }
    }

    /// The same parameters with the engine's UDMA revision stated by the caller
    /// ([`hw_revision`](Self::hw_revision)): [`Udma::init_hal`] does not read it then.
    pub const fn with_revision(self, revision: u8) -> Self {
        Self {
            hw_revision: Some(revision),
            ..self
        }
    }

    /// The same parameters with an explicit max-descriptors-per-packet (checked against
    /// 8..=128 by [`Udma::init`], before any write).
    pub const fn with_max_descs_per_packet(self, n: u8) -> Self {
        Self {
            max_descs_per_packet: n,
            ..self
        }
    }
}

/// `A`'s TX packet limit as the engine's 8-bit argument, checked at compile time.
struct ArchPacketLimit<A>(PhantomData<A>);

impl<A: Arch> ArchPacketLimit<A> {
    const MAX_DESCS: u8 = {
        let n = max_descs_in_range(A::MAX_TX_DESCS_PER_PACKET);
        assert!(
            n.is_some(),
            "the arch's MAX_TX_DESCS_PER_PACKET is outside the prefetcher's 8..=128"
        );
        match n {
            Some(n) => n,
            None => MIN_DESCS_PER_PACKET,
        }
    };
}

/// `A`'s engine-init scalars, checked at compile time against the register fields that
/// receive them: the generated `bitfield-struct` setters panic on a value wider than the
/// field, so an arch whose table does not fit must not build (rather than panic in
/// [`Udma::init`], or be silently masked as the vendor's C would).
pub(super) struct ArchEngineScalars<A>(PhantomData<A>);

impl<A: Arch> ArchEngineScalars<A> {
    /// `SCALARS.num_beats`, which must fit `m2s_rd.data_cfg` `data_fifo_depth`.
    const NUM_BEATS: u16 = {
        let n = A::SCALARS.num_beats;
        assert!(
            m2s::DataCfg::new().with_data_fifo_depth_checked(n).is_ok(),
            "the arch's num_beats does not fit m2s_rd.data_cfg data_fifo_depth"
        );
        n
    };
    /// `SCALARS.hal_data_fifo_depth` (the userspace HAL's), which must fit
    /// `m2s_rd.data_cfg` `data_fifo_depth`.
    pub(super) const HAL_DATA_FIFO_DEPTH: u16 = {
        let n = A::SCALARS.hal_data_fifo_depth;
        assert!(
            m2s::DataCfg::new().with_data_fifo_depth_checked(n).is_ok(),
            "the arch's hal_data_fifo_depth does not fit m2s_rd.data_cfg data_fifo_depth"
        );
        n
    };
    /// `SCALARS.ostand_data_wr_wide`, which must fit `ostand_cfg_wr_2` `max_data_wr_ostand`.
    const OSTAND_DATA_WR_WIDE: Option<u16> = {
        let w = A::SCALARS.ostand_data_wr_wide;
        if let Some(n) = w {
            assert!(
                s2m::OstandCfgWr2::new()
                    .with_max_data_wr_ostand_checked(n)
                    .is_ok(),
                "the arch's ostand_data_wr_wide does not fit axi_s2m.ostand_cfg_wr_2"
            );
        }
        w
    };
}

/// One UDMA engine (unit) of arch `A`, reached through the register window `M` of the
/// whole unit (offset 0 = the unit base).
#[derive(Debug)]
pub struct Udma<A: Arch, M: Mmio> {
    regs: M,
    queue_count: u8,
    revision: u8,
    _arch: PhantomData<A>,
}

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// A handle for an engine that is already initialised (no register access).
    pub fn attach(regs: M, queue_count: u8, hw_revision: Option<u8>) -> Result<Self, UdmaError> {
        let queue_count = Self::check_queue_count(queue_count)?;
        let revision = Self::check_revision(hw_revision)?;
        Ok(Self {
            regs,
            queue_count,
            revision,
            _arch: PhantomData,
        })
    }

    fn check_queue_count(requested: u8) -> Result<u8, UdmaError> {
        // `DMA_MAX_Q`: the seed's "max: %d" check, the kernel's "16 queues max"; an engine
        // of revision <= 3 has 4 (al-hal `a`: `DMA_MAX_Q_V3` = 4, `DMA_MAX_Q_V4` = 16).
        let max = if A::UDMA_REVISION < Rev4::NUMBER {
            crate::regs::tgtid::DMA_MAX_Q_V3
        } else {
            QUEUES_PER_ENGINE
        };
        match requested {
            QUEUE_COUNT_ALL => Ok(max),
            1.. if requested <= max => Ok(requested),
            _ => Err(UdmaError::BadQueueCount { requested }),
        }
    }

    fn check_revision(hw: Option<u8>) -> Result<u8, UdmaError> {
        match hw {
            Some(hardware) if hardware != A::UDMA_REVISION => Err(UdmaError::RevisionMismatch {
                hardware,
                arch: A::UDMA_REVISION,
            }),
            _ => Ok(A::UDMA_REVISION),
        }
    }

    /// The **kernel's** engine init ([`BringUpProfile::Kernel`](super::BringUpProfile)),
    /// what the emulated kernel's probe runs; user code defaults to the userspace HAL's
    /// ([`init_hal`](Self::init_hal), [`init_with`](Self::init_with)). In the driver's order: enable the 32 queue cfgs; engine defaults (data
    /// FIFO, outstanding limits, AXI timeout, packet length, stream, address selectors, V4's
    /// wide write limit, completion-head reporting); TX then RX error-interrupt unmask
    /// (through `iofic`); completion descriptor size; prefetch and burst setup.
    ///
    /// Every parameter is checked first; on error nothing is written.
    pub fn init(regs: M, params: EngineParams) -> Result<Self, UdmaError> {
        let engine = Self::attach(regs, params.queue_count, params.hw_revision)?;
        engine.require_revision(RevisionFeature::EngineInit, Rev4::NUMBER)?;
        check_max_descs(u32::from(params.max_descs_per_packet))?;
        let r = &engine.regs;
        let (tx, rx, genb, genx) = (
            r.window(unit::M2S_BASE),
            r.window(unit::S2M_BASE),
            r.window(unit::GEN_BASE),
            r.window(unit::GEN_EX_BASE),
        );

        // Step 2. The driver ORs the enable bits into a cfg cache that is still zero at this
        // point (it fills it at step 6), so the reset bits 24-25 are not written: 0x00030000.
        enable_every_queue(r);

        // Step 3: engine defaults.
        let s = &A::SCALARS;
        tx.write::<m2s::DataCfgReg>(
            m2s::DataCfg::new()
                .with_data_fifo_depth(ArchEngineScalars::<A>::NUM_BEATS)
                .with_max_pkt_limit(DATA_CFG_MAX_PKT_LIMIT),
        );
        tx.write::<m2s::AxiOstandCfg>(ostand_m2s(s.reserve_max_read_axi_id));
        genb.write::<general::AxiCfg1>(AXI_TIMEOUT);
        tx.write::<m2s::CompCfgApplicationAck>(0);
        tx.write::<m2s::CfgLenReg>(CFG_LEN);
        tx.write::<m2s::StreamCfgReg>(m2s::StreamCfg::new().with_rd_mode(true).with_rd_th(1));
        for q in QueueId::all() {
            genx.write32(gen_ex::tx_sel(q), gen_ex::SEL_NONE);
        }
        tx.write::<m2s::AxiDataRdCfg>(
            m2s::DataRdCfg::new()
                .with_low(8)
                .with_always_break_on_max_boundary(true),
        );
        rx.write::<s2m::CompCfgApplicationAck>(0);
        for q in QueueId::all() {
            for i in 0..gen_ex::RX_SELECTORS {
                if let Some(off) = gen_ex::rx_sel(q, i) {
                    genx.write32(off, gen_ex::SEL_NONE);
                }
            }
        }
        rx.write::<s2m::AxiOstandCfgRd>(ostand_s2m_rd(s.reserve_max_read_axi_id));
        rx.write::<s2m::AxiOstandCfgWr>(OSTAND_S2M_WR);
        if let Some(wide) = ArchEngineScalars::<A>::OSTAND_DATA_WR_WIDE {
            let v = rx.read::<s2m::AxiOstandCfgWr2>();
            rx.write::<s2m::AxiOstandCfgWr2>(v.with_max_data_wr_ostand(wide));
        }
        let spare = genb.read::<general::SpareZeroes0Reg>();
        genb.write::<general::SpareZeroes0Reg>(spare.with_disable_comp_head_report(false));

        // Step 4: error interrupts, TX then RX (iofic policy layer).
        super::unmask_error_interrupts::<A, _>(&genb);

        // Step 5: completion engine.
        rx.write::<s2m::CompCfg1cReg>(
            s2m::CompCfg1c::new()
                .with_desc_size_words(COMPLETION_DESC_WORDS)
                .with_q_promotion(true),
        );

        // Step 7: prefetch and burst setup.
        engine.set_max_descs_per_packet(params.max_descs_per_packet)?;
        Ok(engine)
    }

    /// The unit's register window.
    pub fn regs(&self) -> &M {
        &self.regs
    }

    /// Queues in use.
    pub fn queue_count(&self) -> u8 {
        self.queue_count
    }

    /// The engine's UDMA revision.
    pub fn revision(&self) -> u8 {
        self.revision
    }

    /// Typed error unless the engine's revision is `required`.
    pub(crate) fn require_revision(
        &self,
        feature: RevisionFeature,
        required: u8,
    ) -> Result<(), UdmaError> {
        if self.revision == required {
            Ok(())
        } else {
            Err(UdmaError::UnsupportedRevision {
                feature,
                found: self.revision,
                required,
            })
        }
    }

    /// Typed error unless `q` is among the configured queues.
    pub(crate) fn check_queue(&self, q: QueueId) -> Result<(), UdmaError> {
        if q.get() < self.queue_count {
            Ok(())
        } else {
            Err(UdmaError::QueueNotConfigured {
                queue: q.get(),
                count: self.queue_count,
            })
        }
    }

    /// Writes typed register `R` of queue `q`, direction `dir`.
    ///
    /// Through a [`mmio::Window`], whose offset sum is checked: an impossible overflow is an
    /// unmapped access, never an arithmetic panic.
    pub(crate) fn write_queue<R: Register>(&self, dir: Dir, q: QueueId, v: R::Value) {
        self.regs.window(queue::queue_base(dir, q)).write::<R>(v);
    }

    /// Reads typed register `R` of queue `q`, direction `dir`.
    pub(crate) fn read_queue<R: Register>(&self, dir: Dir, q: QueueId) -> R::Value {
        self.regs.window(queue::queue_base(dir, q)).read::<R>()
    }
}
