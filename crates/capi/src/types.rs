//! The types C sees: opaque handles, caller-filled structs and the constants that go with
//! them. Names are C names (`struct al_udma`, ...), so the Rust names follow C style.
#![allow(non_camel_case_types)]

use core::ffi::c_void;

use udma_desc::{Barrier, DESC_BYTES, Descriptor};

/// One UDMA engine (unit) of one generation: its register block (if any) and the rings
/// of its queues. Opaque; made by `al_udma_init_vN` / `al_udma_attach_vN`, freed by
/// `al_udma_destroy_vN`. The pointer value is a handle, never dereferenced by the caller.
pub struct al_udma {
    _opaque: (),
}

/// One direction (TX = M2S or RX = S2M) of one queue of an engine. Opaque; obtained with
/// `al_udma_q_handle_get_vN`, valid while its engine handle is.
pub struct al_udma_q {
    _opaque: (),
}

/// An open `/dev/neuronN` (O_RDWR, the handle-owned fd of seed 000). Opaque.
pub struct ndl_device {
    _opaque: (),
}

/// A mapping made by `ndl_mmap_mem` / `ndl_mmap_resource`. Opaque.
pub struct ndl_mapping {
    _opaque: (),
}

/// One 16-byte hardware descriptor as it sits in a ring: its four 32-bit words in memory
/// order. The device reads them little-endian; on a little-endian host (every Neuron host)
/// `words[0]` is `len_ctrl`, `words[1]` `meta_ctrl` (TX) and `words[2..4]` the buffer
/// address, low half first. 16-byte aligned, like every ring slot.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct al_udma_desc {
    /// The four words.
    pub words: [u32; 4],
}

const _: () = {
    assert!(size_of::<al_udma_desc>() == DESC_BYTES);
    assert!(size_of::<al_udma_desc>() == size_of::<Descriptor>());
    assert!(align_of::<al_udma_desc>() == align_of::<Descriptor>());
};

impl al_udma_desc {
    /// The descriptor whose memory image this is.
    pub(crate) fn from_descriptor(d: Descriptor) -> Self {
        Self::from_le_bytes(d.to_le_bytes())
    }

    fn from_le_bytes(bytes: [u8; DESC_BYTES]) -> Self {
        let mut words = [0u32; 4];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(4)) {
            let mut b = [0u8; 4];
            b.copy_from_slice(chunk);
            // The memory image: the bytes as they lie, read in host order.
            *w = u32::from_ne_bytes(b);
        }
        Self { words }
    }
}

/// 32-bit register access callback: returns the register at byte `offset` of the block.
pub type neuron_hal_read32_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, offset: usize) -> u32>;
/// 32-bit register access callback: writes `value` to the register at byte `offset`.
pub type neuron_hal_write32_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, offset: usize, value: u32)>;

/// A register block reached through two C callbacks (a mapped BAR, a recording fake, a
/// simulator). Every access the HAL makes is exactly one call, in program order, with
/// `base + offset` as the offset (`base` lets one block stand for a window inside a larger
/// one). This project's design: KaenaHal takes a `regs_base` pointer and uses
/// `al_reg_read32`/`al_reg_write32` on it (seed 004 §2); a callback pair lets the caller
/// decide how a register is reached.
///
/// Both callbacks are required; they must not unwind into the HAL (a C callback cannot)
/// and must be callable from the thread that calls the HAL.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct neuron_hal_regs {
    /// Passed unchanged to both callbacks; owned by the caller.
    pub ctx: *mut c_void,
    /// Reads one 32-bit register.
    pub read32: neuron_hal_read32_fn,
    /// Writes one 32-bit register.
    pub write32: neuron_hal_write32_fn,
    /// Added to every offset before a callback.
    pub base: usize,
}

/// Engine parameters of `al_udma_init_vN` (seed 004 §2 `al_udma_init(udma, params)`):
/// the register block of the whole UDMA unit and the queue count. The seed's
/// `iofic_mode` (`al_udma_iofic_config_ex`) is not offered: its body is in no source.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct al_udma_params {
    /// The unit's register block (offset 0 = the unit base: M2S at 0, S2M at 0x20000).
    pub regs: neuron_hal_regs,
    /// Queues to use, 1..=16, or 0xFF for all 16 (the seed's `num_of_queues`).
    pub num_of_queues: u8,
}

/// One ring of a queue: caller-owned descriptor memory and where the device sees it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct al_udma_q_params {
    /// `size` slots of caller memory, 16-byte aligned; owned by the caller, which keeps it
    /// alive and does not write it while the engine handle uses it.
    pub ring: *mut al_udma_desc,
    /// Slots: a power of two in 32..=2^23 (ring rules of `reference/dma-path.md` step 2).
    pub size: u32,
    /// Bus address of the ring, 256-byte aligned: programmed into the queue by an engine
    /// with registers; checked but not written on an attached engine (the driver programs
    /// it from DMA_QUEUE_INIT).
    pub bus_addr: u64,
}

/// One copy of a batch (`al_udma_m2m_copy_prepare_batch_vN`): the arguments of the
/// kernel's pair builder (`udma_m2m_build_descriptor`, the golden vectors' columns).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct al_udma_m2m_copy_req {
    /// Source bus address (TX descriptor).
    pub src: u64,
    /// Destination bus address (RX descriptor).
    pub dst: u64,
    /// Bytes, 1..=65536.
    pub size: u32,
    /// `AL_UDMA_BARRIER_*`.
    pub barrier: u32,
    /// Non-zero: raise the destination (RX) interrupt.
    pub dst_int: u32,
}

/// The batch path reads C requests in place (`RingPair::copy_prepare_batch_from`):
/// no second pass to convert the array first. The barrier number is checked by the batch
/// (above 3: `-EINVAL`).
impl udma_desc::CopySource for al_udma_m2m_copy_req {
    #[inline(always)]
    fn src(&self) -> u64 {
        self.src
    }
    #[inline(always)]
    fn dst(&self) -> u64 {
        self.dst
    }
    #[inline(always)]
    fn size(&self) -> u32 {
        self.size
    }
    #[inline(always)]
    fn barrier_raw(&self) -> u32 {
        self.barrier
    }
    #[inline(always)]
    fn dst_interrupt_raw(&self) -> u32 {
        self.dst_int
    }
}

/// One block of a packet (`al_udma_m2m_build_packet_vN`): what the seed's `fetch_block`
/// callback returns per block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct al_udma_m2m_block {
    /// Source bus address.
    pub src: u64,
    /// Destination bus address.
    pub dst: u64,
    /// Bytes, 1..=65536.
    pub size: u32,
}

/// Packet options of `al_udma_m2m_build_packet_vN` (seed 004 §1 `build_cme_packet` /
/// `build_packet`: `cme`, `want_notif`, `want_sow`, and the flags word's barrier).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct al_udma_m2m_packet_opts {
    /// `AL_UDMA_BARRIER_*` for every data descriptor (SOW: every RX descriptor).
    pub barrier: u32,
    /// Non-zero: INT_EN on the last RX descriptor.
    pub dst_int: u32,
    /// Non-zero: prepend the CME meta descriptor with `cme_index`.
    pub cme: u32,
    /// CME index, 0..=3.
    pub cme_index: u32,
    /// Notification mask (V4 only; its bit positions are in no source, so any non-zero
    /// mask is refused).
    pub notification_mask: u32,
}

/// A CRC request of `al_udma_m2m_crc_prepare_one_vN` (two TX slots, one RX slot; layout
/// in `udma_desc::CrcRequest`, a project choice: no source gives the CRC descriptors).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct al_udma_m2m_crc_req {
    /// Source bus address.
    pub src: u64,
    /// Destination of the 4-byte result.
    pub dst: u64,
    /// Source bytes, 1..=65536.
    pub size: u32,
    /// Initial CRC value, used when `use_seed` is non-zero.
    pub seed: u32,
    /// Non-zero: start from `seed`; zero: from the cached seed `iv_index`.
    pub use_seed: u32,
    /// Cached seed slot, 0..=7.
    pub iv_index: u32,
    /// `meta_ctrl` op type, 0..=7.
    pub op_type: u32,
    /// Non-zero: also store the result in the cached slot.
    pub store_result: u32,
    /// Non-zero: raise the destination interrupt.
    pub dst_int: u32,
}

/// Where descriptors went: the first slot and the count on each ring (each run may wrap).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct al_udma_slots {
    /// First TX slot.
    pub tx_start: u32,
    /// TX slots used.
    pub tx_count: u32,
    /// First RX slot.
    pub rx_start: u32,
    /// RX slots used.
    pub rx_count: u32,
}

/// No ordering bits (the kernel's barrier type 0).
pub const AL_UDMA_BARRIER_NONE: u32 = 0;
/// TX `len_ctrl` DMB, bit 30 (type 1).
pub const AL_UDMA_BARRIER_DMB: u32 = 1;
/// TX `meta_ctrl` write barrier, bit 26 (type 2).
pub const AL_UDMA_BARRIER_WRITE: u32 = 2;
/// RX strong-ordered write, bit 29 (type 3; not on V2).
pub const AL_UDMA_BARRIER_SOW: u32 = 3;

const _: () = {
    assert!(AL_UDMA_BARRIER_NONE == Barrier::None.raw());
    assert!(AL_UDMA_BARRIER_DMB == Barrier::Dmb.raw());
    assert!(AL_UDMA_BARRIER_WRITE == Barrier::WriteBarrier.raw());
    assert!(AL_UDMA_BARRIER_SOW == Barrier::Sow.raw());
};

/// `num_of_queues` meaning all 16 queues (seed 004 §2).
pub const AL_UDMA_NUM_QUEUES_ALL: u8 = 0xFF;
const _: () = assert!(AL_UDMA_NUM_QUEUES_ALL == khal::udma::QUEUE_COUNT_ALL);

/// `block` of `ndl_mmap_resource`: a NeuronCore (`reference/mmap-README.md`, the driver's
/// `NEURON_DM_BLOCK_TPB`).
pub const NEURON_DM_BLOCK_TPB: u32 = 0;
/// `block` of `ndl_mmap_resource`: a TOP_SP block (`NEURON_DM_BLOCK_TOPSP`).
pub const NEURON_DM_BLOCK_TOPSP: u32 = 1;
/// `block` of `ndl_mmap_resource`: an HBM channel (`NEURON_DM_BLOCK_HBM`).
pub const NEURON_DM_BLOCK_HBM: u32 = 2;
/// `resource` of `ndl_mmap_resource`: the event and semaphore window
/// (`NEURON_DM_RESOURCE_SEMAPHORE`).
pub const NEURON_DM_RESOURCE_SEMAPHORE: u32 = 0;
/// `resource` of `ndl_mmap_resource`: the whole block, mapped read-only by the driver
/// (`NEURON_DM_RESOURCE_ALL`).
pub const NEURON_DM_RESOURCE_ALL: u32 = 1;
/// `resource` of `ndl_mmap_resource`: the state buffer (`NEURON_DM_RESOURCE_SBUF`).
pub const NEURON_DM_RESOURCE_SBUF: u32 = 2;
/// `resource` of `ndl_mmap_resource`: a whole HBM channel (`NEURON_DM_RESOURCE_DMEM`).
pub const NEURON_DM_RESOURCE_DMEM: u32 = 3;
