//! Asynchronous copies and the single zero-copy buffer copy, on the handle-cached gateway
//! (the seed's §3: copy, memset and buffer-copy commands go to the fd the device handle
//! captured, not through the per-device cache).

use zerocopy::FromZeros;

use crate::compat::Family;
use crate::error::{Error, Result};
use crate::gateway::{DeviceHandle, ioctl, ioctl_ptr};
use crate::kernel::Kernel;
use crate::wrappers::types::{MemHandle, u32_arg};
use ndl_abi::{MEM_BUF_ZEROCOPY64, MEM_COPY_ASYNC, MEM_COPY_ASYNC_WAIT, MEM_COPY_ASYNC64};
use ndl_abi::{MemBufCopy64zc, MemCopyAsync, MemCopyAsync64, MemCopyAsyncWait, UserPtr};

/// The two wait slots MEM_COPY_ASYNC_WAIT accepts (`pwait_handle` must be 1 or 2).
pub const ASYNC_WAIT_HANDLES: [u32; 2] = [1, 2];

/// One asynchronous device-side copy: `size` bytes from `src + src_offset` to
/// `dst + dst_offset`.
#[derive(Clone, Copy, Debug)]
pub struct AsyncCopy<'a> {
    /// Source allocation.
    pub src: MemHandle,
    /// Byte offset in `src`.
    pub src_offset: u64,
    /// Destination allocation.
    pub dst: MemHandle,
    /// Byte offset in `dst`.
    pub dst_offset: u64,
    /// Bytes to copy.
    pub size: u64,
    /// Host memory the driver may prefetch (its address goes to `host_prefetch_addr`).
    pub host_prefetch: Option<&'a [u8]>,
    /// The wait slot of the previous copy to chain after (`pwait_handle`).
    pub pwait_handle: u32,
}

/// Where a MEM_BUF_ZEROCOPY64 copy goes (or comes from), and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroCopyAt {
    /// The allocation.
    pub mem: MemHandle,
    /// Byte offset inside it.
    pub offset: u64,
    /// Copies below this many bytes go through BAR4 instead of DMA.
    pub bar4_wr_threshold: u32,
    /// The H2T queue to use (`h2t_qid`, as H2T_DMA_ALLOC_QUEUES granted it).
    pub h2t_qid: i32,
}

impl<K: Kernel> DeviceHandle<'_, K> {
    /// MEM_COPY_ASYNC64 (falling back to MEM_COPY_ASYNC on EINVAL): starts `copy`; returns
    /// the wait handle the driver assigned.
    pub fn mem_copy_async(&self, copy: &AsyncCopy<'_>) -> Result<u32> {
        let prefetch = copy
            .host_prefetch
            .map_or(0, |b| UserPtr::input_slice(b).addr());
        self.compat(
            Family::MemCopyAsync,
            || {
                let mut arg = MemCopyAsync64 {
                    src_mem_handle: copy.src.0,
                    dst_mem_handle: copy.dst.0,
                    size: copy.size,
                    src_offset: copy.src_offset,
                    dst_offset: copy.dst_offset,
                    host_prefetch_addr: prefetch,
                    pwait_handle: copy.pwait_handle,
                    wait_handle: 0,
                };
                // SAFETY: `host_prefetch_addr` is 0 or the address of a borrowed slice.
                unsafe { ioctl_ptr!(self, MEM_COPY_ASYNC64, &mut arg) }?;
                Ok(arg.wait_handle)
            },
            || {
                let cmd = MEM_COPY_ASYNC.name();
                let mut arg = MemCopyAsync::new_zeroed();
                arg.src_mem_handle = copy.src.0;
                arg.dst_mem_handle = copy.dst.0;
                arg.size = u32_arg(cmd, "size", copy.size)?;
                arg.src_offset = u32_arg(cmd, "src_offset", copy.src_offset)?;
                arg.dst_offset = u32_arg(cmd, "dst_offset", copy.dst_offset)?;
                arg.host_prefetch_addr = prefetch;
                arg.pwait_handle = copy.pwait_handle;
                // SAFETY: as above.
                unsafe { ioctl_ptr!(self, MEM_COPY_ASYNC, &mut arg) }?;
                Ok(arg.wait_handle)
            },
        )
    }

    /// MEM_COPY_ASYNC_WAIT: waits for the copy in slot `pwait_handle` (1 or 2) between
    /// `src` and `dst`.
    pub fn mem_copy_async_wait(
        &self,
        src: MemHandle,
        dst: MemHandle,
        pwait_handle: u32,
    ) -> Result<()> {
        if !ASYNC_WAIT_HANDLES.contains(&pwait_handle) {
            return Err(Error::OutOfRange {
                cmd: MEM_COPY_ASYNC_WAIT.name(),
                what: "pwait_handle (1 or 2)",
                value: pwait_handle.into(),
            });
        }
        let mut arg = MemCopyAsyncWait::new_zeroed();
        arg.src_mem_handle = src.0;
        arg.dst_mem_handle = dst.0;
        arg.pwait_handle = pwait_handle;
        ioctl!(self, MEM_COPY_ASYNC_WAIT, &mut arg)
    }

    fn zerocopy64(
        &self,
        at: &ZeroCopyAt,
        buffer: UserPtr<u8>,
        len: usize,
        to_device: bool,
    ) -> Result<()> {
        let mut arg = MemBufCopy64zc::new_zeroed();
        arg.mem_handle = at.mem.0;
        arg.buffer = buffer;
        arg.size = len as u64;
        arg.offset = at.offset;
        arg.is_copy_to_device = u32::from(to_device);
        arg.bar4_wr_threshold = at.bar4_wr_threshold;
        arg.h2t_qid = at.h2t_qid;
        // SAFETY: the callers pass `buffer` as a borrowed slice of `len` bytes, shared when
        // the driver reads it (to device) and exclusive when it writes it.
        unsafe { ioctl_ptr!(self, MEM_BUF_ZEROCOPY64, &mut arg) }
    }

    /// MEM_BUF_ZEROCOPY64, host to device: `data` to the place `at` names.
    pub fn mem_buf_zerocopy64_to(&self, at: &ZeroCopyAt, data: &[u8]) -> Result<()> {
        self.zerocopy64(at, UserPtr::input_slice(data), data.len(), true)
    }

    /// MEM_BUF_ZEROCOPY64, device to host: fills `out` from the place `at` names.
    pub fn mem_buf_zerocopy64_from(&self, at: &ZeroCopyAt, out: &mut [u8]) -> Result<()> {
        let len = out.len();
        self.zerocopy64(at, UserPtr::output_slice(out), len, false)
    }
}
