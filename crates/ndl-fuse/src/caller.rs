//! Thread id to thread-group id: FUSE reports the calling thread, the driver keys
//! per-process state (attach slots, chunk ownership) on the thread group.
//!
//! Reading `/proc/<tid>/status` costs about as much as a whole FUSE round trip, so answers
//! are cached and re-validated with one `stat` of `/proc/<tgid>/task/<tid>`, which exists
//! exactly while `tid` is a thread of `tgid` (a reused thread id in another process fails
//! the check and is looked up afresh).

use std::collections::HashMap;
use std::fs;
use std::sync::Mutex;

/// Cache entries kept at most (then the cache starts over).
const CACHE_LIMIT: usize = 4096;

/// The thread group of thread `tid`, read from `/proc/<tid>/status` (`Tgid:`); `tid` itself
/// when the thread is gone or the file cannot be read.
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

/// A validated tid → tgid cache.
#[derive(Debug, Default)]
pub(crate) struct TgidCache {
    map: Mutex<HashMap<u32, u32>>,
}

impl TgidCache {
    pub(crate) fn tgid(&self, tid: u32) -> u32 {
        let cached = self.lock().get(&tid).copied();
        if let Some(tgid) = cached {
            if fs::metadata(format!("/proc/{tgid}/task/{tid}")).is_ok() {
                return tgid;
            }
        }
        let tgid = tgid_of(tid);
        let mut map = self.lock();
        if map.len() >= CACHE_LIMIT {
            map.clear();
        }
        map.insert(tid, tgid);
        tgid
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u32, u32>> {
        self.map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_maps_to_its_process() {
        let pid = std::process::id();
        assert_eq!(tgid_of(pid), pid);
        let cache = TgidCache::default();
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let h = std::thread::spawn(move || {
            tx.send(rustix::thread::gettid().as_raw_nonzero().get())
                .unwrap();
            done_rx.recv().unwrap();
        });
        let live = u32::try_from(rx.recv().unwrap()).unwrap();
        // A live thread of this process maps to the process, from /proc and from the cache.
        assert_ne!(live, pid);
        assert_eq!(tgid_of(live), pid);
        assert_eq!(cache.tgid(live), pid);
        assert_eq!(cache.tgid(live), pid);
        done_tx.send(()).unwrap();
        h.join().unwrap();
    }

    #[test]
    fn a_stale_entry_is_looked_up_again() {
        let cache = TgidCache::default();
        let pid = std::process::id();
        // Pretend our pid once belonged to another process (1): the check fails, so the
        // real answer replaces it.
        cache.lock().insert(pid, 1);
        assert_eq!(cache.tgid(pid), pid);
    }
}
