//! Asynchronous copies (`ndl-std` family `copy_async`): MEM_COPY_ASYNC(64), its wait, and
//! the zero-copy MEM_BUF_ZEROCOPY64 in the layouts of each release. The model completes
//! every copy before the ioctl returns.

use ndl_abi::v2_24_7_0::MemBufCopy64 as MemBufCopy64Old;
use ndl_abi::v2_29_0_0::MemBufCopy64zc as MemBufCopy64zcSeq;
use ndl_abi::{MemBufCopy64zc, MemCopyAsync, MemCopyAsync64, MemCopyAsyncWait};
use ndl_std::Errno;

use super::memory::{buf_copy, mem_copy};
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

/// MEM_BUF_ZEROCOPY64 (48 bytes, 2.25.4.0-2.28.0.0): a buffer copy; the BAR4 threshold and
/// H2T queue choice change how the driver moves the bytes, not which.
pub(crate) fn zerocopy64(d: &mut DeviceState, call: &Call<'_>, a: &mut MemBufCopy64zc) -> Answer {
    let user = (a.buffer.addr(), a.size);
    buf_copy(
        d,
        call,
        (a.mem_handle, a.offset),
        user,
        a.is_copy_to_device != 0,
    )?;
    DONE
}

/// MEM_BUF_ZEROCOPY64 (40 bytes, 2.24.7.0: "the argument is the 40-byte mem_buf_copy64
/// layout ... and the size is not checked").
pub(crate) fn zerocopy64_v2_24(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut MemBufCopy64Old,
) -> Answer {
    let user = (a.buffer.addr(), a.size);
    buf_copy(
        d,
        call,
        (a.mem_handle, a.offset),
        user,
        a.copy_to_mem_handle != 0,
    )?;
    DONE
}

/// MEM_BUF_ZEROCOPY64 (64 bytes, 2.29.0.0 and newer): the buffer copy. Completion entries
/// for a non-zero `sequence_num` and the 2.30.2.0 H2T queue check are not modelled.
pub(crate) fn zerocopy64_seq(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut MemBufCopy64zcSeq,
) -> Answer {
    let user = (a.buffer.addr(), a.size);
    buf_copy(
        d,
        call,
        (a.mem_handle, a.offset),
        user,
        a.is_copy_to_device != 0,
    )?;
    DONE
}
