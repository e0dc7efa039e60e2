//! The argument struct's copy-in and copy-out: the one place they happen.
//!
//! The driver's handlers `copy_from_user` their whole argument struct first (also for the
//! pointer-form commands, whose encoded size is 8: the struct is at the argument address)
//! and `copy_to_user` it back at the end. [`Copy`] says, per table entry, how much is read
//! before the handler runs and whether the struct goes back after it; the handler only sees
//! the typed value.

use core::ffi::c_int;

use ndl_abi::Request;
use ndl_std::Errno;
use zerocopy::{FromBytes, Immutable, IntoBytes};

use crate::handlers::{OnDevice, OnKernel, Reply};
use crate::state::{Call, State};

/// How much of the argument is read before the handler runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    /// Nothing: the handler starts from a zeroed struct (output-only commands, no-ops).
    Nothing,
    /// The first bytes only (POD_STATUS reads its `sz` field, then writes the whole struct).
    Prefix(usize),
    /// The whole struct.
    Whole,
}

/// How one command's argument struct crosses the boundary.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Copy {
    read: Read,
    /// The struct is written back after the handler (on success, or with
    /// [`Reply::FailAfterWrite`]).
    write_back: bool,
    /// What a failed copy-in answers: EFAULT, or EACCES where the handler note says so.
    in_fault: Errno,
    /// Whether a failed copy-out fails the call (GET_VA_PLACEMENT ignores it).
    out_checked: bool,
}

impl Copy {
    /// No argument is read or written (no-ops, refusals).
    pub(crate) const NONE: Self = Self::new(Read::Nothing, false);
    /// Read the struct; nothing goes back (user buffers it points to may be written).
    pub(crate) const IN: Self = Self::new(Read::Whole, false);
    /// Read the struct, write it back.
    pub(crate) const IN_OUT: Self = Self::new(Read::Whole, true);
    /// Write the struct only (output-only commands, whatever their encoded direction).
    pub(crate) const OUT: Self = Self::new(Read::Nothing, true);

    const fn new(read: Read, write_back: bool) -> Self {
        Self {
            read,
            write_back,
            in_fault: Errno::FAULT,
            out_checked: true,
        }
    }

    /// Read only the first `bytes` bytes, write the whole struct back.
    pub(crate) const fn prefix_out(bytes: usize) -> Self {
        Self::new(Read::Prefix(bytes), true)
    }

    /// A failed copy-in answers `errno` instead of EFAULT.
    pub(crate) const fn in_fault(self, errno: Errno) -> Self {
        Self {
            in_fault: errno,
            ..self
        }
    }

    /// The copy-out's result is ignored.
    pub(crate) const fn out_unchecked(self) -> Self {
        Self {
            out_checked: false,
            ..self
        }
    }

    /// The argument as the handler starts from it.
    fn copy_in<T: FromBytes + IntoBytes>(&self, call: &Call<'_>) -> Result<T, Errno> {
        let mut value = T::new_zeroed();
        let bytes = value.as_mut_bytes();
        let wanted = match self.read {
            Read::Nothing => return Ok(value),
            Read::Prefix(n) => bytes.get_mut(..n).ok_or(Errno::INVAL)?,
            Read::Whole => bytes,
        };
        call.mem.read(call.arg, wanted).map_err(|_| self.in_fault)?;
        Ok(value)
    }

    /// The write-back and the ioctl's result, after the handler answered `reply`.
    fn finish<T: IntoBytes + Immutable>(
        &self,
        call: &Call<'_>,
        arg: &T,
        reply: Reply,
    ) -> Result<c_int, Errno> {
        let write = |errno_after: Option<Errno>, value: c_int| {
            if self.write_back {
                let out = call.mem.copy_out(call.arg, arg);
                if self.out_checked {
                    out?;
                }
            }
            errno_after.map_or(Ok(value), Err)
        };
        match reply {
            Reply::Done(n) => write(None, n),
            Reply::Bare(n) => Ok(n),
            Reply::FailAfterWrite(e) => write(Some(e), 0),
        }
    }
}

/// Runs a device handler: copy-in as `copy` says, the handler on the fd's device, copy-out.
/// `_request` ties the handler's argument type to the command's.
pub(crate) fn on_device<T: FromBytes + IntoBytes + Immutable>(
    _request: Request<T>,
    st: &mut State,
    call: &Call<'_>,
    copy: Copy,
    handler: OnDevice<T>,
) -> Result<c_int, Errno> {
    let mut arg = copy.copy_in::<T>(call)?;
    let d = st.device_mut(call.device).ok_or(Errno::NODEV)?;
    let reply = handler(d, call, &mut arg)?;
    copy.finish(call, &arg, reply)
}

/// Runs a kernel-wide handler, with the same copy rules as [`on_device`].
pub(crate) fn on_kernel<T: FromBytes + IntoBytes + Immutable>(
    _request: Request<T>,
    st: &mut State,
    call: &Call<'_>,
    copy: Copy,
    handler: OnKernel<T>,
) -> Result<c_int, Errno> {
    let mut arg = copy.copy_in::<T>(call)?;
    let reply = handler(st, call, &mut arg)?;
    copy.finish(call, &arg, reply)
}
