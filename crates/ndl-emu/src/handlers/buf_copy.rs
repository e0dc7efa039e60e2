//! Copies between a user buffer and an allocation: MEM_BUF_COPY, MEM_BUF_COPY64 and the
//! zero-copy MEM_BUF_ZEROCOPY64 in the layouts of each release. Every layout names the same
//! five things (handle, offset, user buffer, size, direction), so one handler serves all of
//! them through [`BufCopyArgs`]; the batched zero-copy reuses [`buf_copy`] per operation.

use ndl_abi::v2_29_0_0::MemBufCopy64zc as MemBufCopy64zcSeq;
use ndl_abi::{MemBufCopy, MemBufCopy64, MemBufCopy64zc};
use ndl_std::Errno;

use super::{Answer, DONE, len};
use crate::state::{Call, DeviceState};

/// One buffer copy as an argument layout spells it.
pub(crate) struct BufCopy {
    /// The allocation and the offset in it.
    pub(crate) at: (u64, u64),
    /// The user buffer's address and the byte count.
    pub(crate) user: (u64, u64),
    /// User buffer to allocation (else allocation to user buffer).
    pub(crate) to_device: bool,
}

/// An argument layout of the buffer-copy family.
pub(crate) trait BufCopyArgs {
    /// What the layout asks for.
    fn request(&self) -> BufCopy;
}

/// The handler of every layout: the copy, then 0.
pub(crate) fn buf_copy_ioctl<A: BufCopyArgs>(
    d: &mut DeviceState,
    call: &Call<'_>,
    a: &mut A,
) -> Answer {
    let r = a.request();
    buf_copy(d, call, r.at, r.user, r.to_device)?;
    DONE
}

/// Copies between a user buffer and an allocation, straight between the user's bytes and
/// the model's (the driver's `copy_from_user`/`copy_to_user` into the chunk): no buffer of
/// the copy's size is made. Like `copy_from_user`, a user fault may leave the chunk partly
/// written.
pub(crate) fn buf_copy(
    d: &DeviceState,
    call: &Call<'_>,
    (handle, offset): (u64, u64),
    (buffer, size): (u64, u64),
    to_device: bool,
) -> Result<(), Errno> {
    let at = d.mem(handle)?.span(offset, size)?;
    let n = len(size)?;
    let mem = call.mem;
    d.emu.with_memory(|space| {
        if to_device {
            let chunk = space.slice_mut(at, n).map_err(|_| Errno::FAULT)?;
            mem.read(buffer, chunk)
        } else {
            let chunk = space.slice(at, n).map_err(|_| Errno::FAULT)?;
            mem.write(buffer, chunk)
        }
    })
}

/// [`BufCopyArgs`] for a layout whose handle, offset, buffer and size fields carry these
/// names and whose direction flag is `$to_device`; `.into()` widens the 32-bit offset and
/// size of MEM_BUF_COPY (the identity on the 64-bit layouts).
macro_rules! buf_copy_args {
    ($($layout:ty => $to_device:ident),+ $(,)?) => {$(
        impl BufCopyArgs for $layout {
            fn request(&self) -> BufCopy {
                BufCopy {
                    at: (self.mem_handle, self.offset.into()),
                    user: (self.buffer.addr(), self.size.into()),
                    to_device: self.$to_device != 0,
                }
            }
        }
    )+};
}

// MEM_BUF_COPY (32-bit sizes and offsets); MEM_BUF_COPY64, also MEM_BUF_ZEROCOPY64 of
// 2.24.7.0 ("the argument is the 40-byte mem_buf_copy64 layout ... and the size is not
// checked"); MEM_BUF_ZEROCOPY64 (48 bytes, 2.25.4.0-2.28.0.0: the BAR4 threshold and H2T
// queue choice change how the driver moves the bytes, not which); MEM_BUF_ZEROCOPY64 (64
// bytes, 2.29.0.0 and newer: completion entries for a non-zero `sequence_num` and the
// 2.30.2.0 H2T queue check are not modelled).
buf_copy_args!(
    MemBufCopy => copy_to_mem_handle,
    MemBufCopy64 => copy_to_mem_handle,
    MemBufCopy64zc => is_copy_to_device,
    MemBufCopy64zcSeq => is_copy_to_device,
);
