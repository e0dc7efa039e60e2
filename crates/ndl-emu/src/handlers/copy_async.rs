//! Asynchronous copies (`ndl-std` family `copy_async`): MEM_COPY_ASYNC(64) and its wait.
//! The model completes every copy before the ioctl returns. The family's zero-copy
//! MEM_BUF_ZEROCOPY64 is a buffer copy ([`buf_copy`](super::buf_copy)).

use ndl_abi::{MemCopyAsync, MemCopyAsync64, MemCopyAsyncWait};
use ndl_std::Errno;

use super::memory::mem_copy;
use super::{Answer, DONE};
use crate::state::{Call, DeviceState};

/// The wait slot the next asynchronous copy gets: 1 and 2 alternate.
fn next_slot(d: &mut DeviceState) -> u32 {
    let slot = d.next_wait_slot;
    d.next_wait_slot = 3 - slot;
    slot
}

/// MEM_COPY_ASYNC (32-bit sizes): copies at once and hands out the next wait slot.
pub(crate) fn copy(d: &mut DeviceState, _: &Call<'_>, a: &mut MemCopyAsync) -> Answer {
    let src = (a.src_mem_handle, a.src_offset.into());
    mem_copy(
        d,
        src,
        (a.dst_mem_handle, a.dst_offset.into()),
        a.size.into(),
    )?;
    a.wait_handle = next_slot(d);
    DONE
}

/// MEM_COPY_ASYNC64.
pub(crate) fn copy64(d: &mut DeviceState, _: &Call<'_>, a: &mut MemCopyAsync64) -> Answer {
    let src = (a.src_mem_handle, a.src_offset);
    mem_copy(d, src, (a.dst_mem_handle, a.dst_offset), a.size)?;
    a.wait_handle = next_slot(d);
    DONE
}

/// MEM_COPY_ASYNC_WAIT: wait slot 1 or 2 and two live handles; the copy is already done.
pub(crate) fn wait(d: &mut DeviceState, _: &Call<'_>, a: &mut MemCopyAsyncWait) -> Answer {
    if a.pwait_handle != 1 && a.pwait_handle != 2 {
        return Err(Errno::INVAL);
    }
    d.mem(a.src_mem_handle)?;
    d.mem(a.dst_mem_handle)?;
    DONE
}
