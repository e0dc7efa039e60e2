//! The three gateways: per-device cached fd, device-global misc fd, handle-owned fd.
//!
//! Each wrapper is a method of the gateway whose lane the reference table gives its command:
//! `device`/`device+attach` commands on [`Device`] (and through it on [`DeviceHandle`]),
//! `misc` commands on [`Misc`].

use core::ffi::c_void;
use core::ops::Deref;
use core::ptr;

use crate::compat::Family;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::fd_slot::{FdSlot, PinnedFd};
use crate::kernel::{AccessMode, Kernel, RawFd};
use crate::returns;
use ndl_abi::{Form, NoUserPtr, Request};

/// Issues `REQ` whose argument reaches no user memory but itself: a safe call.
/// `ioctl!(gate, MEM_COPY64, &mut arg)`.
///
/// The argument type must be [`NoUserPtr`] (the ABI crate marks it from the tables'
/// `user_ptr` column), so a struct with a user address does not compile here. The const
/// opcode and the typed request come from the same catalog constant, so the code the kernel
/// sees and the argument type cannot disagree.
macro_rules! ioctl {
    ($gate:expr, $req:path, $arg:expr) => {
        $gate.call_in_place::<{ $req.code() }, _>(&$req, $arg)
    };
}
pub(crate) use ioctl;

/// Issues `REQ` whose argument carries user addresses: `unsafe`, the caller vouches for
/// every address in it. `unsafe { ioctl_ptr!(gate, MEM_BUF_COPY64, &mut arg) }`.
macro_rules! ioctl_ptr {
    ($gate:expr, $req:path, $arg:expr) => {
        $gate.call::<{ $req.code() }, _>(&$req, $arg)
    };
}
pub(crate) use ioctl_ptr;

/// Calls `REQ` on a pinned fd with `arg` as the argument word.
///
/// # Safety
/// `arg` is null for `_IO` commands, otherwise valid for reads and writes of the bytes the
/// command copies; every user address inside it must be valid for the accesses the command
/// makes.
unsafe fn call_raw<const REQ: u32, A, K: Kernel + ?Sized>(
    kernel: &K,
    fd: &PinnedFd<'_, K>,
    req: &Request<A>,
    arg: *mut c_void,
) -> Result<()> {
    debug_assert_eq!(
        REQ,
        req.code(),
        "ioctl! pairs a const opcode with its own request"
    );
    let arg = match req.command().form() {
        Form::None => ptr::null_mut(),
        Form::Pointer | Form::Struct => arg,
    };
    // SAFETY: `fd` is pinned open for the call; the caller vouches for `arg`.
    let ret = unsafe { kernel.ioctl::<REQ>(fd.fd(), arg) };
    // The command's return convention, from the ABI crate.
    returns::check(req.name(), req.command().returns(), ret)
}

/// The two calls every gateway offers on top of its `pin`: one ioctl on the pinned fd, and
/// the 64-bit-then-legacy fallback. Written once for [`Device`] and [`Misc`].
macro_rules! gateway_calls {
    ($gate:ident) => {
        impl<K: Kernel> $gate<'_, K> {
            /// Issues a catalog request on this gateway's fd (use through `ioctl_ptr!`).
            ///
            /// # Safety
            /// Every user address inside `arg` must be valid for the accesses the command
            /// makes.
            pub(crate) unsafe fn call<const REQ: u32, A>(
                &self,
                req: &Request<A>,
                arg: &mut A,
            ) -> Result<()> {
                let fd = self.pin()?;
                // The struct's own address, mutable: the driver copies the whole struct in
                // (for pointer form too, although the encoded size is 8) and may write it
                // back.
                let arg: *mut c_void = (arg as *mut A).cast();
                // SAFETY: `arg` is a live, exclusively borrowed `A`, the struct `REQ` copies
                // (tied by `Request<A>`); the caller vouches for the user addresses in it.
                unsafe { call_raw::<REQ, A, K>(self.ndl.kernel(), &fd, req, arg) }
            }

            /// Issues a catalog request whose argument reaches no user memory (use through
            /// `ioctl!`).
            pub(crate) fn call_in_place<const REQ: u32, A: NoUserPtr>(
                &self,
                req: &Request<A>,
                arg: &mut A,
            ) -> Result<()> {
                // SAFETY: `A: NoUserPtr`: no field holds a user address and nothing follows
                // the struct, so the only memory the command touches is `arg` itself.
                unsafe { self.call::<REQ, A>(req, arg) }
            }

            #[allow(dead_code, reason = "no misc command has a variable-length argument")]
            /// Issues a request whose argument is a header `A` followed by a variable-length
            /// tail (a C flexible array member): `buf` holds both, 8-byte aligned.
            ///
            /// # Safety
            /// `buf` must be as long as the command reads and writes (the caller sized it
            /// from the header's capacity field); user addresses inside it must be valid.
            pub(crate) unsafe fn call_with_tail<const REQ: u32, A>(
                &self,
                req: &Request<A>,
                buf: &mut [u64],
            ) -> Result<()> {
                const { assert!(align_of::<A>() <= align_of::<u64>()) };
                if size_of_val(buf) < size_of::<A>() {
                    return Err(Error::OutOfRange {
                        cmd: req.name(),
                        what: "buffer bytes",
                        value: size_of_val(buf) as u64,
                    });
                }
                let fd = self.pin()?;
                // SAFETY: `buf` is exclusively borrowed, aligned for `A` and at least as
                // long as `A`; the caller sized it for the tail the command touches.
                unsafe {
                    call_raw::<REQ, A, K>(self.ndl.kernel(), &fd, req, buf.as_mut_ptr().cast())
                }
            }

            /// Runs the 64-bit form, falling back to the legacy form as [`crate::compat`]
            /// describes.
            pub(crate) fn compat<T>(
                &self,
                family: Family,
                modern: impl FnOnce() -> Result<T>,
                legacy: impl FnOnce() -> Result<T>,
            ) -> Result<T> {
                crate::compat::with_fallback(self.ndl.compat(), family, modern, legacy)
            }
        }
    };
}

#[derive(Debug, Clone, Copy)]
enum Source<'a> {
    Slot(&'a FdSlot),
    Owned(RawFd),
}

/// The per-device gateway: device `index`'s read-only fd, cached in its [`Ndl`](crate::Ndl)
/// context's table (process-wide for [`Ndl::global`](crate::Ndl::global); or, behind a
/// [`DeviceHandle`], the handle's own read-write fd).
#[derive(Debug)]
pub struct Device<'a, K: Kernel> {
    ndl: &'a Context<K>,
    index: u32,
    source: Source<'a>,
}

impl<'a, K: Kernel> Device<'a, K> {
    pub(crate) fn cached(ndl: &'a Context<K>, index: u32, slot: &'a FdSlot) -> Self {
        Self {
            ndl,
            index,
            source: Source::Slot(slot),
        }
    }

    /// The device index.
    pub fn index(&self) -> u32 {
        self.index
    }

    pub(crate) fn ndl(&self) -> &'a Context<K> {
        self.ndl
    }

    /// Pins this gateway's fd for one call (opening the cached fd on first use).
    ///
    /// The guard borrows the gateway: behind a [`DeviceHandle`] the fd is the handle's own,
    /// closed when the handle drops, so a guard must not outlive it.
    #[inline]
    pub fn pin(&self) -> Result<PinnedFd<'_, K>> {
        let ndl = self.ndl;
        match self.source {
            Source::Slot(slot) => slot
                .pin(ndl.kernel(), || {
                    ndl.kernel()
                        .open(&ndl.device_path(self.index), AccessMode::ReadOnly)
                })
                .map_err(|errno| Error::Open {
                    path: ndl.device_path(self.index),
                    errno,
                }),
            Source::Owned(fd) => Ok(PinnedFd::borrowed(fd, ndl.kernel())),
        }
    }
}

gateway_calls!(Device);

/// The device-global gateway: one fd per [`Ndl`](crate::Ndl) context (process-wide for
/// [`Ndl::global`](crate::Ndl::global)), opened write-only, which is what selects the
/// driver's free-access lane (seed 000 §1 `ndl_misc_ioctl`).
///
/// Its node is `neuron0` by default: **the project's choice**. Neither seed 000 ("lazily
/// opens one process-wide fd O_WRONLY") nor the driver reference names the node the NDL
/// opens; the lane is selected by the O_WRONLY mode (seed 000 §1), not by the node.
/// [`Ndl::with_misc_device`](crate::Ndl::with_misc_device) picks another node.
#[derive(Debug)]
pub struct Misc<'a, K: Kernel> {
    ndl: &'a Context<K>,
}

impl<'a, K: Kernel> Misc<'a, K> {
    pub(crate) fn new(ndl: &'a Context<K>) -> Self {
        Self { ndl }
    }

    /// Pins the misc fd for one call (opening it write-only on first use).
    pub fn pin(&self) -> Result<PinnedFd<'a, K>> {
        let ndl = self.ndl;
        let index = ndl.misc_device();
        ndl.misc_slot()
            .pin(ndl.kernel(), || {
                ndl.kernel()
                    .open(&ndl.device_path(index), AccessMode::WriteOnly)
            })
            .map_err(|errno| Error::Open {
                path: ndl.device_path(index),
                errno,
            })
    }
}

gateway_calls!(Misc);

/// A device opened read-write whose fd lives in the handle (the copy/memset paths and
/// mmap use it). It dereferences to [`Device`], so every device command works on it.
///
/// A pinned fd borrows the handle, so it cannot outlive the fd it names:
///
/// ```
/// # use ndl_std::Ndl;
/// // Any file stands in for the node here: opening it is all the example needs.
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("neuron0"), b"")?;
/// let ndl = Ndl::new().with_root(dir.path());
/// let handle = ndl.open_device(0)?;
/// assert_eq!(handle.pin()?.fd(), handle.fd());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```compile_fail
/// # use ndl_std::Ndl;
/// let ndl = Ndl::new();
/// let pinned = {
///     let handle = ndl.open_device(0)?;
///     handle.pin()? // error: `handle` does not live long enough (its drop closes the fd)
/// };
/// # drop(pinned);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct DeviceHandle<'a, K: Kernel> {
    dev: Device<'a, K>,
    fd: RawFd,
}

impl<'a, K: Kernel> DeviceHandle<'a, K> {
    pub(crate) fn new(ndl: &'a Context<K>, index: u32, fd: RawFd) -> Self {
        Self {
            dev: Device {
                ndl,
                index,
                source: Source::Owned(fd),
            },
            fd,
        }
    }

    /// The handle's fd (open until the handle drops).
    pub fn fd(&self) -> RawFd {
        self.fd
    }
}

impl<'a, K: Kernel> Deref for DeviceHandle<'a, K> {
    type Target = Device<'a, K>;
    fn deref(&self) -> &Device<'a, K> {
        &self.dev
    }
}

impl<K: Kernel> Drop for DeviceHandle<'_, K> {
    fn drop(&mut self) {
        // SAFETY: the handle opened `fd` and owns it; every use borrowed the handle, so none
        // outlives this drop.
        unsafe { self.dev.ndl.kernel().close(self.fd) };
    }
}
