//! Queue init, enable, pause and reset (`udma-notes.md` sections 3 and 7).

use mmio::Mmio;
use udma_desc::QueueId;

use super::{Udma, UdmaError};
use crate::Arch;
use crate::regs::queue::{
    CompCfg, Dir, DrbpHigh, DrbpLow, Drl, QSwCtrl, QueueCfg, RingLen, RxCompCfg, RxQSwCtrl,
    TxCompCfg, TxQSwCtrl, TxRlimitMask, TxRlimitMaskReg,
};

/// Ring start and end alignment in bytes.
pub const RING_ALIGN: u64 = 256;
/// Smallest ring, in descriptors (the same fact as [`udma_desc::RING_MIN_SIZE`]).
pub const MIN_RING_SIZE: u32 = udma_desc::RING_MIN_SIZE;
/// Largest ring, in descriptors: the largest power of two under the driver's 2^24 - 16
/// ([`udma_desc::RING_MAX_SIZE`]).
pub const MAX_RING_SIZE: u32 = 1 << (u32::BITS - 1 - udma_desc::RING_MAX_SIZE.leading_zeros());
/// Bytes per descriptor (widening of [`udma_desc::DESC_BYTES`]).
const DESC_BYTES: u64 = udma_desc::DESC_BYTES as u64;

const _: () = {
    assert!(MAX_RING_SIZE == 1 << 23 && MAX_RING_SIZE <= udma_desc::RING_MAX_SIZE);
    assert!(MAX_RING_SIZE.is_power_of_two() && MIN_RING_SIZE.is_power_of_two());
    // 32 descriptors of 16 bytes end on a 256-byte boundary, so any larger power of two does.
    assert!(MIN_RING_SIZE as u64 * DESC_BYTES % RING_ALIGN == 0);
};

/// A descriptor ring handed to a queue: its bus address and size in descriptors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RingConfig {
    /// Bus address of the first descriptor (256-byte aligned).
    pub bus_addr: u64,
    /// Ring size in descriptors: a power of two in 32..=2^23. (The kernel driver's
    /// DMA_QUEUE_INIT takes any multiple of 16 in 32..=2^24-16, `dma-path.md` step 2, but the
    /// ring-index arithmetic masks with size - 1, and the driver's DMA_ACK_COMPLETED refuses a
    /// size that is not a power of two; here it is refused up front.)
    pub size: u32,
}

impl RingConfig {
    /// Checks alignment and size for direction `dir`.
    pub fn validate(&self, dir: Dir) -> Result<(), UdmaError> {
        if self.bus_addr % RING_ALIGN != 0 {
            return Err(UdmaError::RingMisaligned {
                dir,
                addr: self.bus_addr,
            });
        }
        if !self.size.is_power_of_two() || !(MIN_RING_SIZE..=MAX_RING_SIZE).contains(&self.size) {
            return Err(UdmaError::BadRingSize {
                dir,
                size: self.size,
            });
        }
        // A power of two >= 32 descriptors is a multiple of 256 bytes, so the end is aligned
        // whenever the start is; it must still fit the address space.
        self.bus_addr
            .checked_add(u64::from(self.size) * DESC_BYTES)
            .map(|_| ())
            .ok_or(UdmaError::RingOverflow {
                dir,
                addr: self.bus_addr,
            })
    }
}

impl RingConfig {
    /// Checks only the ring rules the kernel driver's DMA_QUEUE_INIT applies (`dma-path.md`
    /// step 2): start and end 256-byte aligned, size a multiple of 16 in 32..=2^24-16. No
    /// power of two is required. For callers that must
    /// program exactly what the driver programs (an emulated kernel); khal's own entry points
    /// keep [`validate`](Self::validate), whose power-of-two size the ring-index arithmetic
    /// needs.
    pub fn validate_driver_rules(&self, dir: Dir) -> Result<(), UdmaError> {
        let misaligned = |addr| UdmaError::RingMisaligned { dir, addr };
        if self.bus_addr % RING_ALIGN != 0 {
            return Err(misaligned(self.bus_addr));
        }
        let size_ok = self.size % udma_desc::RING_SIZE_MULTIPLE == 0
            && (MIN_RING_SIZE..=udma_desc::RING_MAX_SIZE).contains(&self.size);
        if !size_ok {
            return Err(UdmaError::BadDriverRingSize {
                dir,
                size: self.size,
            });
        }
        let end = self
            .bus_addr
            .checked_add(u64::from(self.size) * DESC_BYTES)
            .ok_or(UdmaError::RingOverflow {
                dir,
                addr: self.bus_addr,
            })?;
        if end % RING_ALIGN != 0 {
            return Err(misaligned(end));
        }
        Ok(())
    }
}

/// Low and high halves of a bus address.
const fn split(addr: u64) -> (u32, u32) {
    let [b0, b1, b2, b3, b4, b5, b6, b7] = addr.to_le_bytes();
    (
        u32::from_le_bytes([b0, b1, b2, b3]),
        u32::from_le_bytes([b4, b5, b6, b7]),
    )
}

impl<A: Arch, M: Mmio> Udma<A, M> {
    /// Programs queue `q`'s TX ring then its RX ring and enables both.
    ///
    /// Per direction (TX queue first): TX only, rate-limiter mask with the DMB-pause bit
    /// cleared (0x3); pause (cfg 0x0300_0000); pointer reset (`q_sw_ctrl` 0x100); ring base
    /// low/high; length in descriptors; `comp_cfg` 0 (no completion ring); enable (cfg
    /// 0x0303_0000). Both rings are validated before the first write.
    pub fn init_queue(&self, q: QueueId, tx: RingConfig, rx: RingConfig) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        tx.validate(Dir::Tx)?;
        rx.validate(Dir::Rx)?;
        self.program_ring(Dir::Tx, q, tx);
        self.program_ring(Dir::Rx, q, rx);
        Ok(())
    }

    /// Programs one direction of queue `q` (see [`init_queue`](Self::init_queue)).
    pub fn init_queue_dir(&self, dir: Dir, q: QueueId, ring: RingConfig) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        ring.validate(dir)?;
        self.program_ring(dir, q, ring);
        Ok(())
    }

    /// Programs one direction of queue `q` with a ring that meets the kernel driver's rules
    /// ([`RingConfig::validate_driver_rules`]: any multiple of 16 in 32..=2^24-16, power of two
    /// or not), by the same register sequence as [`init_queue`](Self::init_queue). This is
    /// the kernel driver's DMA_QUEUE_INIT (`dma-path.md` steps 2 and 4), for an emulated
    /// kernel; khal's own ring arithmetic needs [`init_queue_dir`](Self::init_queue_dir).
    pub fn init_queue_dir_driver_rules(
        &self,
        dir: Dir,
        q: QueueId,
        ring: RingConfig,
    ) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        ring.validate_driver_rules(dir)?;
        self.program_ring(dir, q, ring);
        Ok(())
    }

    fn program_ring(&self, dir: Dir, q: QueueId, ring: RingConfig) {
        if dir == Dir::Tx {
            self.write_queue::<TxRlimitMaskReg>(
                dir,
                q,
                TxRlimitMask::RESET.with_internal_pause_dmb(false),
            );
        }
        self.write_cfg(dir, q, QueueCfg::RESET.paused());
        self.write_sw_ctrl(dir, q, QSwCtrl::new().with_rst_q(true));
        let (lo, hi) = split(ring.bus_addr);
        self.write_queue::<DrbpLow>(dir, q, lo);
        self.write_queue::<DrbpHigh>(dir, q, hi);
        self.write_queue::<Drl>(dir, q, RingLen::new().with_descs(ring.size));
        // No completion ring: completion updates off.
        self.write_comp_cfg(dir, q, CompCfg::new());
        self.write_cfg(dir, q, QueueCfg::RESET.enabled());
    }

    fn write_cfg(&self, dir: Dir, q: QueueId, v: QueueCfg) {
        self.write_queue::<crate::regs::queue::Cfg>(dir, q, v);
    }

    fn write_sw_ctrl(&self, dir: Dir, q: QueueId, v: QSwCtrl) {
        match dir {
            Dir::Tx => self.write_queue::<TxQSwCtrl>(dir, q, v),
            Dir::Rx => self.write_queue::<RxQSwCtrl>(dir, q, v),
        }
    }

    fn write_comp_cfg(&self, dir: Dir, q: QueueId, v: CompCfg) {
        match dir {
            Dir::Tx => self.write_queue::<TxCompCfg>(dir, q, v),
            Dir::Rx => self.write_queue::<RxCompCfg>(dir, q, v),
        }
    }

    /// Enables prefetch and scheduling of queue `q` in direction `dir` (cfg 0x0303_0000).
    pub fn enable_queue(&self, dir: Dir, q: QueueId) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        self.write_cfg(dir, q, QueueCfg::RESET.enabled());
        Ok(())
    }

    /// Pauses queue `q`: prefetch and scheduling off (cfg 0x0300_0000).
    pub fn pause_queue(&self, dir: Dir, q: QueueId) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        self.write_cfg(dir, q, QueueCfg::RESET.paused());
        Ok(())
    }

    /// Resets queue `q`: pause, then `q_sw_ctrl` = 0x100 (head and tail back to 0).
    pub fn reset_queue(&self, dir: Dir, q: QueueId) -> Result<(), UdmaError> {
        self.pause_queue(dir, q)?;
        self.write_sw_ctrl(dir, q, QSwCtrl::new().with_rst_q(true));
        Ok(())
    }

    /// Turns TX queue `q`'s completion coalescing on or off: read-modify-write of TX
    /// `comp_cfg` `DIS_COMP_COAL` (bit 1; `udma-bitfields.tsv` row `m2s_q.comp_cfg`). The seed
    /// names the HAL's completion-coalescing setters without their registers; this is the
    /// reference's bit, which it states for TX only (no RX counterpart is modelled).
    pub fn set_tx_queue_comp_coalescing(&self, q: QueueId, enable: bool) -> Result<(), UdmaError> {
        self.check_queue(q)?;
        let v = self.read_queue::<TxCompCfg>(Dir::Tx, q);
        self.write_comp_cfg(Dir::Tx, q, v.with_dis_comp_coal(!enable));
        Ok(())
    }

    /// Reads back queue `q`'s cfg.
    pub fn queue_cfg(&self, dir: Dir, q: QueueId) -> Result<QueueCfg, UdmaError> {
        self.check_queue(q)?;
        Ok(self.read_queue::<crate::regs::queue::Cfg>(dir, q))
    }
}
