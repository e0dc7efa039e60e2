//! The per-queue registers by name, for code that picks one at run time (the seed's
//! per-queue offset trampolines, seed 004 §3; the device model's and the emulated kernel's
//! readers): each name resolves through its typed marker and the queue block arrays of
//! [`queue`], so no offset is restated. Every generation has this one layout (the kernel
//! driver programs all three as UDMA revision 4; no source gives another).

use mmio::Register;
use udma_desc::QueueId;

use super::queue::{self, Dir};

/// Declares [`QueueReg`] from one list: each name with its typed marker per direction (none
/// for a TX-only register). The enum, [`QueueReg::ALL`] and the marker lookup are generated
/// from it, and a compile-time check below ties the list to the queue blocks' own register
/// lists ([`TxQueue`](queue::TxQueue) and [`RxQueue`](queue::RxQueue) `REGISTERS`, made by
/// `mmio::register!`): a register declared in a queue block without a name here, or a name
/// whose marker is not in its block, does not compile.
macro_rules! queue_regs {
    ($(
        $(#[$doc:meta])*
        $name:ident { tx: $tx:path $(, rx: $rx:path)? $(,)? }
    ),* $(,)?) => {
        /// One of the per-queue registers (`comp_cfg` and `q_sw_ctrl` sit at different
        /// offsets per direction, so the offset set is larger than the name set). Each is an
        /// entry of [`REGISTERS`](super::REGISTERS) (block `q_rings`, `m2s_q` or `s2m_q`).
        ///
        /// The userspace HAL resolves one more per-queue offset through its trampolines, the
        /// M2S-only data-tail-pointer increment (seed 004 §3); no source gives its offset, so
        /// it has no variant here ([`khal_udma`](super::khal_udma)).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum QueueReg {
            $($(#[$doc])* $name,)*
        }

        impl QueueReg {
            /// Every per-queue register name, in declaration order.
            pub const ALL: [QueueReg; [$(stringify!($name)),*].len()] = [$(Self::$name),*];

            /// The offset inside a queue block and the table name of this register in
            /// direction `dir` (from its typed marker); `None` for a TX-only register asked
            /// for RX.
            pub const fn marker_offset_and_name(self, dir: Dir) -> Option<(usize, &'static str)> {
                match self {
                    $(Self::$name => match dir {
                        Dir::Tx => Some((<$tx as Register>::OFFSET, <$tx as Register>::NAME)),
                        Dir::Rx => queue_regs!(@rx $($rx)?),
                    },)*
                }
            }
        }
    };
    (@rx $rx:path) => { Some((<$rx as Register>::OFFSET, <$rx as Register>::NAME)) };
    (@rx) => { None };
}

queue_regs! {
    /// TX only: descriptor prefetch setup.
    DescPrefCfg { tx: queue::TxDescPrefCfg },
    /// Queue cfg.
    Cfg { tx: queue::Cfg, rx: queue::Cfg },
    /// Ring status.
    Status { tx: queue::Status, rx: queue::Status },
    /// Descriptor ring base low.
    DrbpLow { tx: queue::DrbpLow, rx: queue::DrbpLow },
    /// Descriptor ring base high.
    DrbpHigh { tx: queue::DrbpHigh, rx: queue::DrbpHigh },
    /// Descriptor ring length.
    Drl { tx: queue::Drl, rx: queue::Drl },
    /// Ring head.
    Drhp { tx: queue::Drhp, rx: queue::Drhp },
    /// Tail increment (doorbell).
    DrtpInc { tx: queue::DrtpInc, rx: queue::DrtpInc },
    /// Ring tail.
    Drtp { tx: queue::Drtp, rx: queue::Drtp },
    /// Current descriptor pointer.
    Dcp { tx: queue::Dcp, rx: queue::Dcp },
    /// Completion ring base low.
    CrbpLow { tx: queue::CrbpLow, rx: queue::CrbpLow },
    /// Completion ring base high.
    CrbpHigh { tx: queue::CrbpHigh, rx: queue::CrbpHigh },
    /// Completion ring head.
    Crhp { tx: queue::Crhp, rx: queue::Crhp },
    /// TX only: rate-limiter mask.
    RlimitMask { tx: queue::TxRlimitMaskReg },
    /// Completion behaviour.
    CompCfg { tx: queue::TxCompCfg, rx: queue::RxCompCfg },
    /// Software control (queue reset).
    QSwCtrl { tx: queue::TxQSwCtrl, rx: queue::RxQSwCtrl },
}

/// Whether the names in [`QueueReg::ALL`] cover exactly the registers of `rows` (a queue
/// block's `REGISTERS`) in direction `dir`: the same count, and each name's marker at an
/// offset the block lists.
const fn covers(rows: &[mmio::RegisterInfo], dir: Dir) -> bool {
    let mut named = 0;
    let mut names: &[QueueReg] = &QueueReg::ALL;
    while let [reg, rest @ ..] = names {
        names = rest;
        if let Some((off, _)) = reg.marker_offset_and_name(dir) {
            named += 1;
            if !lists_register_at(rows, off) {
                return false;
            }
        }
    }
    let mut regs = 0;
    let mut left = rows;
    while let [row, rest @ ..] = left {
        left = rest;
        if row.window.is_none() {
            regs += 1;
        }
    }
    named == regs
}

/// Whether `rows` has a register (not a sub-window) at `offset`.
const fn lists_register_at(mut rows: &[mmio::RegisterInfo], offset: usize) -> bool {
    while let [row, rest @ ..] = rows {
        if row.offset == offset && row.window.is_none() {
            return true;
        }
        rows = rest;
    }
    false
}

const _: () = {
    use mmio::RegisterBlock;
    assert!(
        covers(queue::TxQueue::REGISTERS, Dir::Tx),
        "a TX queue register has no name"
    );
    assert!(
        covers(queue::RxQueue::REGISTERS, Dir::Rx),
        "an RX queue register has no name"
    );
};

impl QueueReg {
    /// Offset of this register inside a queue block of direction `dir`; `None` for the
    /// TX-only registers asked for RX (the table has no RX sibling).
    #[inline]
    pub const fn offset(self, dir: Dir) -> Option<usize> {
        match self.marker_offset_and_name(dir) {
            Some((off, _)) => Some(off),
            None => None,
        }
    }

    /// Offset from the unit base of this register of queue `q`, direction `dir`.
    #[inline]
    pub const fn abs(self, dir: Dir, q: QueueId) -> Option<usize> {
        match self.offset(dir) {
            Some(off) => Some(queue::queue_base(dir, q) + off),
            None => None,
        }
    }
}
