//! Waiting for Ctrl-C / SIGTERM without a signal handler: the signals are blocked in the
//! calling thread (and so in every thread it starts afterwards) and taken with `sigwait`,
//! so the foreground server can unmount cleanly instead of dying with the mount in place.

use rustix::io::Errno;

/// SIGINT and SIGTERM, blocked for the calling thread and the threads it starts later.
#[derive(Debug)]
pub struct Termination {
    set: libc::sigset_t,
}

impl Termination {
    /// Blocks SIGINT and SIGTERM in the calling thread. Call it before starting the server,
    /// so its worker threads inherit the mask and the signals wait for [`Termination::wait`].
    pub fn block() -> Result<Self, Errno> {
        // SAFETY: `sigset_t` is plain data; sigemptyset initialises it before any other use.
        let mut set: libc::sigset_t = unsafe { core::mem::zeroed() };
        // SAFETY: `set` is a valid, exclusively borrowed sigset; the signal numbers are valid.
        let rc = unsafe {
            libc::sigemptyset(&mut set)
                | libc::sigaddset(&mut set, libc::SIGINT)
                | libc::sigaddset(&mut set, libc::SIGTERM)
        };
        if rc != 0 {
            return Err(Errno::INVAL);
        }
        // SAFETY: `set` is initialised; the old mask is not asked for (null).
        let rc = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, core::ptr::null_mut()) };
        if rc != 0 {
            return Err(Errno::from_raw_os_error(rc));
        }
        Ok(Self { set })
    }

    /// Waits until SIGINT or SIGTERM arrives; returns its number.
    pub fn wait(&self) -> Result<i32, Errno> {
        let mut sig: libc::c_int = 0;
        // SAFETY: `self.set` is an initialised sigset and `sig` a valid out-pointer.
        let rc = unsafe { libc::sigwait(&self.set, &mut sig) };
        if rc != 0 {
            return Err(Errno::from_raw_os_error(rc));
        }
        Ok(sig)
    }
}
