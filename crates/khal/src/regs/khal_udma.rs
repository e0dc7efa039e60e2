//! The userspace HAL's per-queue register-offset trampolines (seed 004 §3): which register
//! offsets libnrt resolves per arch through `kaena_khal.khal_udma`, as facts about the
//! **slots**. khal needs no run-time resolver (the offsets are the queue block declarations
//! of [`queue`](super::queue)); this module records what the seed states so
//! that the layout can be checked against it and what is missing is said once.
//!
//! Known (seed 004 §3): 3 block-base slots at `kaena_khal + 0x578/0x580/0x588` (M2S base,
//! S2M base, M2S abort-cause base) and 18 per-queue slots at `+0x590..=+0x618`, 8 bytes
//! apart. 17 of the 18 form M2S/S2M pairs; `get_m2s_queue_data_tail_ptr_inc_offset`
//! (@0x45f990, slot `+0x608`) has **no S2M sibling**: the RX ring has no separate data tail
//! pointer (a hardware fact, not a missing function); slot `+0x610` is the M2S SW-control.
//!
//! Not stated: the **offset values** every slot returns (they live in the per-arch
//! `*_sunda/_cayman/_mariana` leaves, which the seed does not decode), and the names of the
//! slots other than those listed in [`KNOWN_SLOTS`]. In particular the M2S data-tail-pointer
//! increment register has no offset in either source, so [`QueueReg`](super::QueueReg)
//! has no entry for it ([`M2S_DATA_TAIL_PTR_INC_OFFSET`] is `None`).

/// Offset of `kaena_khal` in libnrt's `.bss` (`slot offset = slot_vma - 0xCAEB80`).
pub const KAENA_KHAL_VMA: u64 = 0x00CA_EB80;
/// First of the three block-base slots.
pub const FIRST_BASE_SLOT: u16 = 0x578;
/// First of the 18 per-queue register slots.
pub const FIRST_QUEUE_SLOT: u16 = 0x590;
/// Last of the 18 per-queue register slots.
pub const LAST_QUEUE_SLOT: u16 = 0x618;
/// Bytes per slot (one function pointer).
pub const SLOT_BYTES: u16 = 8;
/// Per-queue register trampolines.
pub const QUEUE_TRAMPOLINES: u16 = 18;
/// Block-base trampolines preceding them.
pub const BASE_TRAMPOLINES: u16 = 3;

/// Slot of `get_m2s_queue_data_tail_ptr_inc_offset`, the M2S-only trampoline.
pub const M2S_DATA_TAIL_PTR_INC_SLOT: u16 = 0x608;
/// The M2S data-tail-pointer increment register's offset in a queue block: **unknown** (no
/// source gives the value the per-arch leaf returns). There is no S2M counterpart.
pub const M2S_DATA_TAIL_PTR_INC_OFFSET: Option<usize> = None;

/// A `khal_udma` slot whose member the seed names (by its `__assert_fail` string or the
/// registrar's store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Offset from `kaena_khal`.
    pub slot: u16,
    /// The `kaena_khal.khal_udma` member.
    pub member: &'static str,
}

/// The slots the seed names, in slot order.
pub const KNOWN_SLOTS: [Slot; 6] = [
    Slot {
        slot: 0x578,
        member: "m2s base offset",
    },
    Slot {
        slot: 0x580,
        member: "s2m base offset",
    },
    Slot {
        slot: 0x588,
        member: "m2s abort-cause base offset",
    },
    Slot {
        slot: 0x590,
        member: "get_s2m_abort_cause_offset",
    },
    Slot {
        slot: 0x598,
        member: "get_m2s_queue_offset",
    },
    Slot {
        slot: M2S_DATA_TAIL_PTR_INC_SLOT,
        member: "get_m2s_queue_data_tail_ptr_inc_offset",
    },
];

const _: () = {
    assert!(FIRST_BASE_SLOT + BASE_TRAMPOLINES * SLOT_BYTES == FIRST_QUEUE_SLOT);
    assert!(FIRST_QUEUE_SLOT + (QUEUE_TRAMPOLINES - 1) * SLOT_BYTES == LAST_QUEUE_SLOT);
    assert!(M2S_DATA_TAIL_PTR_INC_SLOT >= FIRST_QUEUE_SLOT);
    assert!(M2S_DATA_TAIL_PTR_INC_SLOT <= LAST_QUEUE_SLOT);
};
