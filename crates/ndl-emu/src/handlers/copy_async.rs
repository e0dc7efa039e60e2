//! Asynchronous copies (`ndl-std` family `copy_async`): the wait. The model completes
//! every copy before the ioctl returns: MEM_COPY_ASYNC(64) is in
//! [`mem_copy`](super::mem_copy), the family's zero-copy MEM_BUF_ZEROCOPY64 a buffer copy
//! ([`buf_copy`](super::buf_copy)).

use ndl_abi::MemCopyAsyncWait;
use ndl_std::Errno;

use super::{Answer, DONE};
use crate::state::{Call, DeviceState};

/// MEM_COPY_ASYNC_WAIT: wait slot 1 or 2 and two live handles; the copy is already done.
pub(crate) fn wait(d: &mut DeviceState, _: &Call<'_>, a: &mut MemCopyAsyncWait) -> Answer {
    if a.pwait_handle != 1 && a.pwait_handle != 2 {
        return Err(Errno::INVAL);
    }
    d.mem(a.src_mem_handle)?;
    d.mem(a.dst_mem_handle)?;
    DONE
}
