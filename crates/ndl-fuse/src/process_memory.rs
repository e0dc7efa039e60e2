//! The calling process's memory, reached from the server with `process_vm_readv` /
//! `process_vm_writev` — the server's `copy_from_user` / `copy_to_user`.
//!
//! FUSE copies only `_IOC_SIZE` bytes of a restricted ioctl's argument, and the pointer-form
//! Neuron commands encode 8 there; the driver instead copies the whole struct from the
//! argument address and follows the user pointers inside it. The server does the same at
//! the address FUSE reports (`fuse_ioctl_in.arg`), in the process FUSE reports.

use rustix::io::Errno;

/// Another process's address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessMemory {
    pid: u32,
}

impl ProcessMemory {
    /// The memory of process (or thread) `pid`.
    pub const fn new(pid: u32) -> Self {
        Self { pid }
    }

    /// The process.
    pub const fn pid(&self) -> u32 {
        self.pid
    }

    /// Copies `dst.len()` bytes from `addr` in the process. EFAULT when any byte of the
    /// range is not mapped readable there (like a faulting `copy_from_user`); ESRCH when the
    /// process is gone.
    pub fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
        self.transfer(addr, dst.as_mut_ptr(), dst.len(), Direction::Read)
    }

    /// Copies `src` to `addr` in the process; errors as for [`ProcessMemory::read`].
    pub fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno> {
        // The local buffer is only read by process_vm_writev.
        self.transfer(addr, src.as_ptr().cast_mut(), src.len(), Direction::Write)
    }

    fn transfer(&self, addr: u64, local: *mut u8, len: usize, dir: Direction) -> Result<(), Errno> {
        if len == 0 {
            return Ok(());
        }
        if addr == 0 {
            return Err(Errno::FAULT);
        }
        let pid = libc::pid_t::try_from(self.pid).map_err(|_| Errno::SRCH)?;
        let remote_base = usize::try_from(addr).map_err(|_| Errno::FAULT)?;
        let mut done = 0usize;
        while done < len {
            let local_iov = libc::iovec {
                iov_base: local.wrapping_add(done).cast(),
                iov_len: len - done,
            };
            let remote_iov = libc::iovec {
                iov_base: remote_base.checked_add(done).ok_or(Errno::FAULT)? as *mut libc::c_void,
                iov_len: len - done,
            };
            // SAFETY: the local iovec covers `len - done` bytes of the caller's buffer
            // (`dst` for reads, `src` for writes, which process_vm_writev only reads); the
            // remote iovec names memory of another process, which the kernel checks.
            let n = unsafe {
                match dir {
                    Direction::Read => {
                        libc::process_vm_readv(pid, &local_iov, 1, &remote_iov, 1, 0)
                    }
                    Direction::Write => {
                        libc::process_vm_writev(pid, &local_iov, 1, &remote_iov, 1, 0)
                    }
                }
            };
            match usize::try_from(n) {
                // A partial transfer stops at the first unmapped page.
                Ok(0) => return Err(Errno::FAULT),
                Ok(n) => done += n,
                Err(_) => {
                    let e = Errno::from_io_error(&std::io::Error::last_os_error())
                        .unwrap_or(Errno::FAULT);
                    if e != Errno::INTR {
                        return Err(e);
                    }
                }
            }
        }
        Ok(())
    }
}

impl ndl_emu::UserMemory for ProcessMemory {
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
        ProcessMemory::read(self, addr, dst)
    }
    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno> {
        ProcessMemory::write(self, addr, src)
    }
}

#[derive(Clone, Copy)]
enum Direction {
    Read,
    Write,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_own_memory_through_the_syscalls() {
        let me = ProcessMemory::new(std::process::id());
        let src = *b"neuron-fuse";
        let mut dst = [0u8; 11];
        me.read(src.as_ptr() as u64, &mut dst).unwrap();
        assert_eq!(dst, src);
        let mut target = [0u8; 4];
        me.write(target.as_mut_ptr() as u64, b"abcd").unwrap();
        assert_eq!(std::hint::black_box(target), *b"abcd");
    }

    #[test]
    fn null_and_unmapped_addresses_fault() {
        let me = ProcessMemory::new(std::process::id());
        let mut b = [0u8; 8];
        assert_eq!(me.read(0, &mut b), Err(Errno::FAULT));
        // The first page is never mapped.
        assert_eq!(me.read(16, &mut b), Err(Errno::FAULT));
        assert_eq!(me.write(16, &b), Err(Errno::FAULT));
    }
}
