//! How a call fails: an errno for the return value, one sentence for the thread's last
//! error, and the guard every entry point runs in (no panic crosses the boundary).

use core::ffi::{c_char, c_int};
use core::fmt;
use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{AssertUnwindSafe, catch_unwind};

use khal::udma::UdmaError;

/// Why a call was refused. Formatting happens only on the error path: the success path
/// carries no string.
#[derive(Debug)]
pub(crate) enum Failure {
    /// A descriptor, ring or request refused by `udma-desc`.
    Desc(udma_desc::Error),
    /// An engine or queue operation refused by `khal`.
    Udma(UdmaError),
    /// A device call refused by `ndl-std` (the kernel's errno when there is one).
    Ndl(ndl_std::Error),
    /// A raw ioctl the kernel answered with an errno.
    Ioctl {
        /// The request code.
        cmd: u32,
        /// The errno.
        errno: c_int,
    },
    /// A bad argument: which one and its value.
    Arg {
        /// The errno to return.
        errno: c_int,
        /// The argument and what is wrong with it.
        what: &'static str,
        /// Its value.
        value: u64,
    },
    /// A refusal that names no value (a NULL pointer, a state).
    Refused {
        /// The errno to return.
        errno: c_int,
        /// What is wrong.
        what: &'static str,
    },
    /// A handle that is not (or no longer) one of ours.
    Handle(crate::handle::HandleError),
    /// A register operation on an engine handle that has no register block.
    NoRegisters,
}

impl Failure {
    /// The negative errno this failure returns.
    pub(crate) fn errno(&self) -> c_int {
        match self {
            Failure::Desc(udma_desc::Error::RingFull { .. }) => -libc::ENOMEM,
            Failure::Desc(_) => -libc::EINVAL,
            Failure::Udma(UdmaError::IoficConfigFailed { rc }) => *rc,
            Failure::Udma(_) => -libc::EINVAL,
            Failure::Ndl(e) => e.errno().map_or(-libc::EINVAL, |e| -e.raw_os_error()),
            Failure::Ioctl { errno, .. } => -errno,
            Failure::Arg { errno, .. } | Failure::Refused { errno, .. } => -errno,
            Failure::Handle(h) => h.errno(),
            Failure::NoRegisters => -libc::EOPNOTSUPP,
        }
    }

    /// A NULL pointer argument.
    pub(crate) fn null(what: &'static str) -> Self {
        Failure::Refused {
            errno: libc::EINVAL,
            what,
        }
    }

    /// An out-of-range or misaligned argument.
    pub(crate) fn invalid(what: &'static str, value: u64) -> Self {
        Failure::Arg {
            errno: libc::EINVAL,
            what,
            value,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Desc(e) => write!(f, "{e}"),
            Failure::Udma(e) => write!(f, "{e}"),
            Failure::Ndl(e) => write!(f, "{e}"),
            Failure::Ioctl { cmd, errno } => write!(
                f,
                "ioctl {cmd:#010x} failed: {}",
                std::io::Error::from_raw_os_error(*errno)
            ),
            Failure::Refused { what, .. } => f.write_str(what),
            Failure::Arg { what, value, .. } => write!(f, "{what} ({value:#x})"),
            Failure::Handle(h) => write!(f, "{h}"),
            Failure::NoRegisters => f.write_str(
                "this engine handle has no register block (made by al_udma_attach: the driver \
                 owns the queue registers)",
            ),
        }
    }
}

impl From<udma_desc::Error> for Failure {
    fn from(e: udma_desc::Error) -> Self {
        Failure::Desc(e)
    }
}

impl From<UdmaError> for Failure {
    fn from(e: UdmaError) -> Self {
        Failure::Udma(e)
    }
}

impl From<ndl_std::Error> for Failure {
    fn from(e: ndl_std::Error) -> Self {
        Failure::Ndl(e)
    }
}

impl From<crate::handle::HandleError> for Failure {
    fn from(e: crate::handle::HandleError) -> Self {
        Failure::Handle(e)
    }
}

thread_local! {
    /// The last failure of this thread, as one NUL-terminated sentence.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `sentence` as this thread's last error (an interior NUL, which no message has,
/// would end it early).
fn set_last_error(sentence: String) {
    let c = CString::new(sentence).unwrap_or_else(|e| {
        let end = e.nul_position();
        let mut bytes = e.into_vec();
        bytes.truncate(end);
        CString::new(bytes).unwrap_or_default()
    });
    // A thread being torn down has no slot left; the sentence is then dropped.
    let _ = LAST_ERROR.try_with(|slot| *slot.borrow_mut() = c);
}

/// This thread's last error sentence (empty before the first failure). The pointer stays
/// valid until the next failing call on this thread.
pub(crate) fn last_error() -> *const c_char {
    LAST_ERROR
        .try_with(|slot| slot.borrow().as_ptr())
        .unwrap_or(c"".as_ptr())
}

/// Runs one entry point: its value on success; on failure the negative errno, with
/// "`func`: sentence." recorded for the thread; a panic (none is expected: the crates below
/// are panic-free by lint) is caught here and reported as -EIO.
#[inline]
pub(crate) fn guard(func: &'static str, f: impl FnOnce() -> Result<c_int, Failure>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => fail(func, &e),
        Err(_) => {
            set_last_error(format!(
                "{func}: internal error (a panic was stopped at the C boundary)"
            ));
            -libc::EIO
        }
    }
}

#[cold]
#[inline(never)]
fn fail(func: &'static str, e: &Failure) -> c_int {
    set_last_error(format!("{func}: {e}"));
    e.errno()
}
