//! Thread id to thread-group id: FUSE reports the calling thread, the driver keys
//! per-process state (attach slots, chunk ownership) on the thread group.

use std::fs;

/// The thread group of thread `tid`, read from `/proc/<tid>/status` (`Tgid:`); `tid` itself
/// when the thread is gone or the file cannot be read (a single-threaded process).
pub fn tgid_of(tid: u32) -> u32 {
    if tid == 0 {
        return 0;
    }
    fs::read_to_string(format!("/proc/{tid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Tgid:"))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(tid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_maps_to_its_process() {
        let pid = std::process::id();
        assert_eq!(tgid_of(pid), pid);
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let h = std::thread::spawn(move || {
            tx.send(rustix::thread::gettid().as_raw_nonzero().get())
                .unwrap();
            done_rx.recv().unwrap();
        });
        let live = u32::try_from(rx.recv().unwrap()).unwrap();
        // A live thread of this process maps to the process.
        assert_ne!(live, pid);
        assert_eq!(tgid_of(live), pid);
        done_tx.send(()).unwrap();
        h.join().unwrap();
    }
}
