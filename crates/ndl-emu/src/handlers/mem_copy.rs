//! Copies between two allocations: MEM_COPY, MEM_COPY64 in the layouts of each release, and
//! the asynchronous MEM_COPY_ASYNC(64), which the model completes before the ioctl returns.
//! Every layout names the same two (handle, offset) places and a size, so one handler
//! serves the synchronous layouts and one the asynchronous ones, through [`MemCopyArgs`].

use ndl_abi::v2_30_2_0::{MemCopy64 as MemCopy64Seq, MemCopy64Deprecated};
use ndl_abi::{MemCopy, MemCopy64, MemCopyAsync, MemCopyAsync64};
use ndl_std::Errno;

use super::{Answer, DONE, len};
use crate::state::{Call, DeviceState};

/// One copy between allocations as an argument layout spells it.
pub(crate) struct HandleCopy {
    /// Source handle and offset.
    pub(crate) src: (u64, u64),
    /// Destination handle and offset.
    pub(crate) dst: (u64, u64),
    /// Bytes.
    pub(crate) size: u64,
}

/// An argument layout of the handle-to-handle copy family.
pub(crate) trait MemCopyArgs {
    /// What the layout asks for.
    fn request(&self) -> HandleCopy;
}

/// An asynchronous layout: it also receives the wait slot.
pub(crate) trait AsyncCopyArgs: MemCopyArgs {
    /// Stores the wait slot the caller waits on.
    fn set_wait_handle(&mut self, slot: u32);
}

/// Copies `size` bytes between two handles' memory.
pub(crate) fn mem_copy(
    d: &DeviceState,
    (src, src_off): (u64, u64),
    (dst, dst_off): (u64, u64),
    size: u64,
) -> Result<(), Errno> {
    let from = d.mem(src)?.span(src_off, size)?;
    let to = d.mem(dst)?.span(dst_off, size)?;
    let n = len(size)?;
    d.emu
        .with_memory(|m| m.copy(from, to, n))
        .map_err(|_| Errno::FAULT)
}

/// The handler of every synchronous layout: the copy, then 0.
pub(crate) fn mem_copy_ioctl<A: MemCopyArgs>(
    d: &mut DeviceState,
    _: &Call<'_>,
    a: &mut A,
) -> Answer {
    let r = a.request();
    mem_copy(d, r.src, r.dst, r.size)?;
    DONE
}

/// The handler of every asynchronous layout: copies at once and hands out the next wait
/// slot (1 and 2 alternate).
pub(crate) fn copy_async_ioctl<A: AsyncCopyArgs>(
    d: &mut DeviceState,
    _: &Call<'_>,
    a: &mut A,
) -> Answer {
    let r = a.request();
    mem_copy(d, r.src, r.dst, r.size)?;
    let slot = d.next_wait_slot;
    d.next_wait_slot = 3 - slot;
    a.set_wait_handle(slot);
    DONE
}

/// [`MemCopyArgs`] for layouts whose five fields carry these names; `.into()` widens the
/// 32-bit offsets and size of the older layouts (and is the identity on the 64-bit ones).
macro_rules! mem_copy_args {
    ($($layout:ty),+) => {$(
        impl MemCopyArgs for $layout {
            fn request(&self) -> HandleCopy {
                HandleCopy {
                    src: (self.src_mem_handle, self.src_offset.into()),
                    dst: (self.dst_mem_handle, self.dst_offset.into()),
                    size: self.size.into(),
                }
            }
        }
    )+};
}

// MEM_COPY (32-bit sizes and offsets; the family's only attach-checked member); MEM_COPY64
// (40 bytes; 2.30.2.0 names this request MEM_COPY64_DEPRECATED); MEM_COPY64_DEPRECATED
// (2.30.2.0: "plain synchronous copy, posts nothing"); MEM_COPY64 (56 bytes, 2.30.2.0: the
// driver then posts a completed entry for a non-zero `sequence_num` to "the core's default
// H2T async completion queue"; which core is not stated, so the model posts nothing, not
// modelled); MEM_COPY_ASYNC (32-bit sizes) and MEM_COPY_ASYNC64.
mem_copy_args!(
    MemCopy,
    MemCopy64,
    MemCopy64Deprecated,
    MemCopy64Seq,
    MemCopyAsync,
    MemCopyAsync64
);

impl AsyncCopyArgs for MemCopyAsync {
    fn set_wait_handle(&mut self, slot: u32) {
        self.wait_handle = slot;
    }
}

impl AsyncCopyArgs for MemCopyAsync64 {
    fn set_wait_handle(&mut self, slot: u32) {
        self.wait_handle = slot;
    }
}
