//! `copy_from_user` / `copy_to_user` of the model: the one place that touches user memory.
//!
//! Every handler of the emulated driver is safe code: it reads its argument struct and any
//! user buffer through a [`UserMemory`] and writes results back the same way, exactly as
//! the driver's handlers go through `copy_from_user`/`copy_to_user`. A failed copy is
//! EFAULT (handlers that answer something else for a failed copy-in map it themselves).
//!
//! Two implementations are expected: [`InProcessMemory`], for callers in the model's own
//! address space (the [`ndl_std::Kernel`] implementation, whose `ioctl` contract makes the
//! caller vouch for every address), and one reading another process's memory (a FUSE/CUSE
//! front end implements [`UserMemory`] with `process_vm_readv`/`process_vm_writev` and calls
//! [`crate::EmulatedKernel::ioctl_from`] with the caller's pid).

use zerocopy::{FromBytes, Immutable, IntoBytes};

use ndl_std::Errno;

/// The calling process's memory, as a driver handler sees it: byte copies in and out at
/// user addresses.
///
/// Implementations must fail (EFAULT) rather than touch memory the caller does not own;
/// a copy may have been partly done when it fails, like `copy_to_user`.
pub trait UserMemory {
    /// Copies `dst.len()` bytes from user address `addr` into `dst`.
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno>;

    /// Copies `src` to user address `addr`.
    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno>;
}

impl dyn UserMemory + '_ {
    /// Reads a `T` at `addr` (the driver's whole-struct `copy_from_user`).
    pub fn copy_in<T: FromBytes + IntoBytes>(&self, addr: u64) -> Result<T, Errno> {
        let mut value = T::new_zeroed();
        self.read(addr, value.as_mut_bytes())?;
        Ok(value)
    }

    /// Writes `value` at `addr` (the driver's `copy_to_user` of a struct or scalar).
    pub fn copy_out<T: IntoBytes + Immutable + ?Sized>(
        &self,
        addr: u64,
        value: &T,
    ) -> Result<(), Errno> {
        self.write(addr, value.as_bytes())
    }

    /// Reads `len` bytes at `addr` into a new buffer. The buffer is allocated fallibly: a
    /// length the host cannot hold answers ENOMEM (as a failed kernel allocation does)
    /// instead of aborting the process that serves every client.
    pub fn copy_in_bytes(&self, addr: u64, len: usize) -> Result<Vec<u8>, Errno> {
        let mut out = Vec::new();
        out.try_reserve_exact(len).map_err(|_| Errno::NOMEM)?;
        out.resize(len, 0);
        self.read(addr, &mut out)?;
        Ok(out)
    }

    /// Reads element `index` of an array of `T` at `addr` (`addr + index * size_of::<T>()`).
    pub fn copy_in_at<T: FromBytes + IntoBytes>(&self, addr: u64, index: u64) -> Result<T, Errno> {
        let offset = index
            .checked_mul(size_of::<T>() as u64)
            .and_then(|o| addr.checked_add(o))
            .ok_or(Errno::FAULT)?;
        self.copy_in(offset)
    }
}

/// User memory that is this process's own memory (the model is called in-process).
///
/// Address 0 fails with EFAULT, like a faulting copy; every other address is trusted, which
/// is why building one is `unsafe`.
#[derive(Debug)]
pub struct InProcessMemory {
    _private: (),
}

impl InProcessMemory {
    /// Memory of the calling process.
    ///
    /// # Safety
    /// For as long as the value is used, every non-zero address and length handed to
    /// [`UserMemory::read`] must be valid for reads, and to [`UserMemory::write`] valid for
    /// writes, and not aliased by a Rust reference that is live across the access (the
    /// [`ndl_std::Kernel::ioctl`] contract on the argument and the user addresses in it).
    pub unsafe fn new() -> Self {
        Self { _private: () }
    }
}

/// The address as a pointer, EFAULT for null with a non-empty length.
fn ptr(addr: u64, len: usize) -> Result<Option<usize>, Errno> {
    match (addr, len) {
        (_, 0) => Ok(None),
        (0, _) => Err(Errno::FAULT),
        _ => usize::try_from(addr).map(Some).map_err(|_| Errno::FAULT),
    }
}

impl UserMemory for InProcessMemory {
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
        if let Some(p) = ptr(addr, dst.len())? {
            // SAFETY: the constructor's contract: `addr` is valid for reading `dst.len()`
            // bytes; `dst` is a distinct, exclusively borrowed buffer.
            unsafe {
                std::ptr::copy_nonoverlapping(p as *const u8, dst.as_mut_ptr(), dst.len());
            }
        }
        Ok(())
    }

    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno> {
        if let Some(p) = ptr(addr, src.len())? {
            // SAFETY: the constructor's contract: `addr` is valid for writing `src.len()`
            // bytes; `src` is a distinct buffer.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), p as *mut u8, src.len()) };
        }
        Ok(())
    }
}
