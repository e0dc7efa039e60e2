//! The kernel behind the `ndl_*` functions: the real one (`/dev/neuronN` or a root given to
//! `ndl_set_device_root`), or, in a library built with the `emulator` feature, the emulated
//! driver in the process (`ndl_use_emulated_kernel`). The choice is process-wide and made
//! once, like the NDL's own globals (seed 000 §2: one fd cache per process): the first
//! `ndl_*` call that needs a kernel takes the real one unless a choice came first.

use core::ffi::{c_int, c_void};
use std::sync::OnceLock;

use ndl_std::{Kernel, Ndl, RawFd, RealKernel};

use crate::failure::Failure;
use crate::handle::Kind;

/// A kernel the C ABI can run the NDL over: one ioctl(2) with a request known only at run
/// time (the C caller's `cmd`), and the handle kinds of its devices and mappings (one pair
/// per kernel, so a handle is only ever taken back as the type it was made with).
pub(crate) trait CKernel: Kernel + 'static {
    /// Slot kind of an open device over this kernel.
    const DEVICE: Kind;
    /// Slot kind of a mapping made over this kernel.
    const MAPPING: Kind;

    /// One ioctl with request `cmd` on `fd`: the handler's value, or the errno as a failure.
    ///
    /// # Safety
    /// `fd` is open across the call; `arg` is valid for what `cmd` reads and writes.
    unsafe fn ioctl_raw(&self, fd: RawFd, cmd: u32, arg: *mut c_void) -> Result<c_int, Failure>;
}

impl CKernel for RealKernel {
    const DEVICE: Kind = Kind::Device;
    const MAPPING: Kind = Kind::Mapping;

    unsafe fn ioctl_raw(&self, fd: RawFd, cmd: u32, arg: *mut c_void) -> Result<c_int, Failure> {
        // SAFETY: `fd` is open (the caller pins it); the caller vouches for `arg`.
        let rc = unsafe { libc::ioctl(fd, cmd as libc::Ioctl, arg) };
        if rc < 0 {
            let errno = std::io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO);
            return Err(Failure::Ioctl { cmd, errno });
        }
        Ok(rc)
    }
}

#[cfg(feature = "emulator")]
impl CKernel for ndl_emu::EmulatedKernel {
    const DEVICE: Kind = Kind::EmulatedDevice;
    const MAPPING: Kind = Kind::EmulatedMapping;

    unsafe fn ioctl_raw(&self, fd: RawFd, cmd: u32, arg: *mut c_void) -> Result<c_int, Failure> {
        // SAFETY: the caller's contract on `arg` (valid for the command's accesses, and every
        // user address in it) is `InProcessMemory`'s.
        let mem = unsafe { ndl_emu::InProcessMemory::new() };
        self.ioctl_from(fd, cmd, arg as usize as u64, &mem, std::process::id())
            .map_err(|e| Failure::Ioctl {
                cmd,
                errno: e.raw_os_error(),
            })
    }
}

/// The process's NDL.
pub(crate) enum Backend {
    /// `ndl-std`'s process-wide NDL over Linux.
    Real(&'static Ndl<RealKernel>),
    /// The emulated driver, in this process (made once, kept for the process's life).
    #[cfg(feature = "emulator")]
    Emulated(&'static Ndl<ndl_emu::EmulatedKernel>),
}

static BACKEND: OnceLock<Backend> = OnceLock::new();

/// The process's NDL, the real one unless another was chosen first.
pub(crate) fn backend() -> &'static Backend {
    BACKEND.get_or_init(|| Backend::Real(Ndl::global()))
}

/// Runs `$body` with `$ndl` bound to the process's `&'static Ndl<K>`, for each kernel `K`
/// this build has (the body is generic code, monomorphised per kernel).
macro_rules! with_ndl {
    (|$ndl:ident| $body:expr) => {
        match $crate::ndl_backend::backend() {
            $crate::ndl_backend::Backend::Real(n) => {
                let $ndl: &'static ndl_std::Ndl<ndl_std::RealKernel> = *n;
                $body
            }
            #[cfg(feature = "emulator")]
            $crate::ndl_backend::Backend::Emulated(n) => {
                let $ndl: &'static ndl_std::Ndl<ndl_emu::EmulatedKernel> = *n;
                $body
            }
        }
    };
}
pub(crate) use with_ndl;

/// Whether the process's NDL is the emulated one.
fn emulated() -> bool {
    match BACKEND.get() {
        None | Some(Backend::Real(_)) => false,
        #[cfg(feature = "emulator")]
        Some(Backend::Emulated(_)) => true,
    }
}

fn busy_emulated() -> Failure {
    Failure::Refused {
        errno: libc::EBUSY,
        what: "the NDL already runs over the emulated kernel (ndl_use_emulated_kernel)",
    }
}

/// `ndl_set_device_root`: the real NDL with device nodes under `root`.
pub(crate) fn use_root(root: &str) -> Result<(), Failure> {
    if emulated() {
        return Err(busy_emulated());
    }
    let ndl = Ndl::init_global(root).map_err(|e| match e {
        ndl_std::Error::GlobalRoot { .. } => Failure::Refused {
            errno: libc::EBUSY,
            what: "the NDL already uses another device root (set it before any other ndl_* call)",
        },
        other => Failure::Ndl(other),
    })?;
    BACKEND.get_or_init(|| Backend::Real(ndl));
    if emulated() {
        return Err(busy_emulated());
    }
    Ok(())
}

/// `ndl_use_emulated_kernel`: the emulated driver with `devices` devices of `generation`.
#[cfg(feature = "emulator")]
pub(crate) fn use_emulated(generation: u32, devices: u32) -> Result<(), Failure> {
    let g = u8::try_from(generation)
        .ok()
        .and_then(|g| khal::Generation::from_number(g).ok())
        .ok_or(Failure::invalid(
            "generation is not 2, 3 or 4",
            generation.into(),
        ))?;
    let max = u32::try_from(ndl_std::MAX_DEVICES).unwrap_or(u32::MAX);
    if devices == 0 || devices > max {
        return Err(Failure::invalid(
            "device count outside 1..=64 (the NDL's device nodes)",
            devices.into(),
        ));
    }
    if BACKEND.get().is_some() {
        return Err(Failure::Refused {
            errno: libc::EBUSY,
            what: "the NDL already chose its kernel (call ndl_use_emulated_kernel before any \
                   other ndl_* call)",
        });
    }
    let kernel = ndl_emu::EmulatedKernel::new(g, devices).map_err(|_| Failure::Arg {
        errno: libc::ENOMEM,
        what: "the emulated kernel could not build its devices",
        value: devices.into(),
    })?;
    let mut ours = false;
    BACKEND.get_or_init(|| {
        ours = true;
        Backend::Emulated(Box::leak(Box::new(Ndl::with_kernel(kernel))))
    });
    if ours {
        Ok(())
    } else {
        Err(Failure::Refused {
            errno: libc::EBUSY,
            what: "the NDL chose its kernel in another thread meanwhile",
        })
    }
}
