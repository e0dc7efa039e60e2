//! One FUSE connection: reads requests from the channel, answers them from the [`Backend`].
//!
//! The tree is fixed: the root directory (node 1) holds `neuron0` .. `neuron{N-1}`
//! (node 2 + index), regular files of size 0. Requests on them map to the driver's file
//! operations: OPEN (the caller's flags and process), IOCTL, FLUSH (every close(2)),
//! RELEASE (last reference). The driver has no read/write/fsync, so those answer EINVAL.

use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicU32, Ordering};

use rustix::io::Errno;
use zerocopy::{FromBytes, Immutable, IntoBytes};

use crate::abi::{self, opcode};
use crate::backend::{Backend, Caller};
use crate::caller::TgidCache;
use crate::process_memory::ProcessMemory;

/// Read buffer per worker: the largest request is an IOCTL carrying `_IOC_SIZE` bytes
/// (at most 16383, the 14-bit size field) after its headers; WRITE is capped at 4 KiB.
pub(crate) const BUFFER: usize = 64 * 1024;
/// Largest WRITE payload offered at INIT (the smallest value the kernel accepts).
const MAX_WRITE: u32 = 4096;
/// Cache lifetime of names and attributes: the tree never changes while mounted.
const TTL_SECS: u64 = 3600;
/// First node id of the device files (`neuron0`).
const FIRST_DEVICE_NODE: u64 = 2;

/// A connection's shared state: the channel, the backend, and the stop flag.
pub(crate) struct Session<B> {
    channel: OwnedFd,
    backend: B,
    /// Thread that is stopping the server (0 while serving): its STATFS requests end workers.
    stopper: AtomicU32,
    tgids: TgidCache,
    uid: u32,
    gid: u32,
}

/// What a worker does after one request.
enum Next {
    Continue,
    Exit,
}

impl<B: Backend> Session<B> {
    pub(crate) fn new(channel: OwnedFd, backend: B) -> Self {
        Self {
            channel,
            backend,
            stopper: AtomicU32::new(0),
            tgids: TgidCache::default(),
            uid: rustix::process::getuid().as_raw(),
            gid: rustix::process::getgid().as_raw(),
        }
    }

    pub(crate) fn backend(&self) -> &B {
        &self.backend
    }

    /// From now on, every STATFS that thread `tid` sends ends the worker that answers it.
    pub(crate) fn request_stop(&self, tid: u32) {
        self.stopper.store(tid, Ordering::Release);
    }

    /// A worker: serves requests until asked to stop or the connection ends.
    ///
    /// Reads block; Linux wakes one reader per request (no thundering herd across workers).
    /// A worker ends when it answers a STATFS of the stopping thread (one per worker, see
    /// [`crate::Server::stop`]), or when the connection is gone.
    pub(crate) fn run(&self) {
        let mut buf = vec![0u8; BUFFER];
        loop {
            let n = match rustix::io::read(&self.channel, &mut buf[..]) {
                Ok(n) => n,
                // Interrupted, or the request was withdrawn before we read it.
                Err(Errno::AGAIN | Errno::INTR | Errno::NOENT) => continue,
                // ENODEV: unmounted and the connection ended.
                Err(_) => return,
            };
            if let Next::Exit = self.serve(buf.get(..n).unwrap_or_default()) {
                return;
            }
        }
    }

    /// One request; a panicking handler answers EIO instead of leaving its caller (and
    /// [`crate::Server::stop`]) waiting for ever.
    fn serve(&self, req: &[u8]) -> Next {
        let Ok((h, _)) = abi::InHeader::read_from_prefix(req) else {
            return Next::Continue;
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.handle(req))) {
            Ok(next) => next,
            Err(_) => self.error(&h, Errno::IO),
        }
    }

    fn handle(&self, req: &[u8]) -> Next {
        let Ok((h, body)) = abi::InHeader::read_from_prefix(req) else {
            return Next::Continue;
        };
        let caller = Caller {
            tid: h.pid,
            tgid: self.tgids.tgid(h.pid),
        };
        match h.opcode {
            opcode::INIT => self.init(&h, body),
            opcode::LOOKUP => self.lookup(&h, body),
            opcode::GETATTR | opcode::SETATTR => match self.attr(h.nodeid) {
                Some(attr) => self.reply(
                    &h,
                    &abi::AttrOut {
                        attr_valid: TTL_SECS,
                        attr,
                        ..Default::default()
                    },
                ),
                None => self.error(&h, Errno::NOENT),
            },
            opcode::OPEN => self.open(&h, body, caller),
            opcode::IOCTL => self.ioctl(&h, body, caller),
            opcode::FLUSH => {
                if let Ok((f, _)) = abi::FlushIn::read_from_prefix(body) {
                    self.backend.flush(f.fh, caller);
                }
                self.ok(&h)
            }
            opcode::RELEASE => {
                if let Ok((r, _)) = abi::ReleaseIn::read_from_prefix(body) {
                    self.backend.release(r.fh);
                }
                self.ok(&h)
            }
            // The driver has no read/write/fsync file operations.
            opcode::READ | opcode::WRITE | opcode::FSYNC => self.error(&h, Errno::INVAL),
            opcode::OPENDIR if h.nodeid == abi::ROOT_ID => self.reply(&h, &abi::OpenOut::default()),
            opcode::OPENDIR => self.error(&h, Errno::NOTDIR),
            opcode::READDIR => self.readdir(&h, body),
            opcode::RELEASEDIR | opcode::ACCESS => self.ok(&h),
            opcode::STATFS => {
                self.reply(
                    &h,
                    &abi::StatfsOut {
                        bsize: 4096,
                        frsize: 4096,
                        namelen: 255,
                        files: u64::from(self.backend.devices()) + 1,
                        ..Default::default()
                    },
                );
                let stopper = self.stopper.load(Ordering::Acquire);
                if stopper != 0 && stopper == h.pid {
                    Next::Exit
                } else {
                    Next::Continue
                }
            }
            // No reply: FORGET/BATCH_FORGET by definition; INTERRUPT because every request
            // is answered when its handler returns (the kernel drops answers it no longer
            // waits for).
            opcode::FORGET | opcode::BATCH_FORGET | opcode::INTERRUPT => Next::Continue,
            opcode::DESTROY => {
                self.ok(&h);
                Next::Exit
            }
            _ => self.error(&h, Errno::NOSYS),
        }
    }

    fn init(&self, h: &abi::InHeader, body: &[u8]) -> Next {
        let Ok((init, _)) = abi::InitIn::read_from_prefix(body) else {
            return self.error(h, Errno::INVAL);
        };
        if init.major != abi::KERNEL_VERSION {
            // Another major: the kernel retries with ours when it can.
            return self.reply(
                h,
                &abi::InitOut {
                    major: abi::KERNEL_VERSION,
                    minor: abi::KERNEL_MINOR_VERSION,
                    ..Default::default()
                },
            );
        }
        self.reply(
            h,
            &abi::InitOut {
                major: abi::KERNEL_VERSION,
                minor: init.minor.min(abi::KERNEL_MINOR_VERSION),
                max_readahead: init.max_readahead,
                flags: 0,
                max_background: 16,
                congestion_threshold: 12,
                max_write: MAX_WRITE,
                time_gran: 1,
                ..Default::default()
            },
        )
    }

    fn device_of_node(&self, node: u64) -> Option<u32> {
        let index = u32::try_from(node.checked_sub(FIRST_DEVICE_NODE)?).ok()?;
        (index < self.backend.devices()).then_some(index)
    }

    fn attr(&self, node: u64) -> Option<abi::Attr> {
        let (mode, nlink) = if node == abi::ROOT_ID {
            (abi::S_IFDIR | 0o755, 2)
        } else {
            self.device_of_node(node)?;
            (abi::S_IFREG | 0o666, 1)
        };
        Some(abi::Attr {
            ino: node,
            mode,
            nlink,
            uid: self.uid,
            gid: self.gid,
            blksize: 4096,
            ..Default::default()
        })
    }

    fn lookup(&self, h: &abi::InHeader, body: &[u8]) -> Next {
        let name = body.split(|&b| b == 0).next().unwrap_or_default();
        let index = (h.nodeid == abi::ROOT_ID)
            .then(|| parse_device_name(name))
            .flatten()
            .filter(|&i| i < self.backend.devices());
        let Some(index) = index else {
            return self.error(h, Errno::NOENT);
        };
        let node = FIRST_DEVICE_NODE + u64::from(index);
        let Some(attr) = self.attr(node) else {
            return self.error(h, Errno::NOENT);
        };
        self.reply(
            h,
            &abi::EntryOut {
                nodeid: node,
                generation: 1,
                entry_valid: TTL_SECS,
                attr_valid: TTL_SECS,
                attr,
                ..Default::default()
            },
        )
    }

    fn readdir(&self, h: &abi::InHeader, body: &[u8]) -> Next {
        let Ok((r, _)) = abi::ReadIn::read_from_prefix(body) else {
            return self.error(h, Errno::INVAL);
        };
        let limit = usize::try_from(r.size).unwrap_or(usize::MAX);
        let mut out = Vec::new();
        let devices = self.backend.devices();
        // Entry i: 0 ".", 1 "..", 2.. the devices; `off` is the cookie of the next entry.
        let total = 2 + u64::from(devices);
        for i in r.offset..total {
            let (name, ino, typ) = match i {
                0 => (".".to_owned(), abi::ROOT_ID, abi::DT_DIR),
                1 => ("..".to_owned(), abi::ROOT_ID, abi::DT_DIR),
                _ => (
                    format!("neuron{}", i - 2),
                    FIRST_DEVICE_NODE + (i - 2),
                    abi::DT_REG,
                ),
            };
            let namelen = u32::try_from(name.len()).unwrap_or(u32::MAX);
            let rec = size_of::<abi::Dirent>() + name.len();
            let padded = rec.next_multiple_of(8);
            if out.len() + padded > limit {
                break;
            }
            let d = abi::Dirent {
                ino,
                off: i + 1,
                namelen,
                typ,
            };
            out.extend_from_slice(d.as_bytes());
            out.extend_from_slice(name.as_bytes());
            out.resize(out.len() + (padded - rec), 0);
        }
        self.reply_bytes(h, 0, &out)
    }

    fn open(&self, h: &abi::InHeader, body: &[u8], caller: Caller) -> Next {
        let Ok((o, _)) = abi::OpenIn::read_from_prefix(body) else {
            return self.error(h, Errno::INVAL);
        };
        let Some(device) = self.device_of_node(h.nodeid) else {
            return self.error(h, Errno::NOENT);
        };
        match self.backend.open(device, o.flags, caller) {
            Ok(fh) => self.reply(
                h,
                &abi::OpenOut {
                    fh,
                    open_flags: abi::FOPEN_DIRECT_IO,
                    padding: 0,
                },
            ),
            Err(e) => self.error(h, e),
        }
    }

    fn ioctl(&self, h: &abi::InHeader, body: &[u8], caller: Caller) -> Next {
        let Ok((io, _)) = abi::IoctlIn::read_from_prefix(body) else {
            return self.error(h, Errno::INVAL);
        };
        let memory = ProcessMemory::new(caller.tid);
        let result = match self.backend.ioctl(io.fh, io.cmd, io.arg, &memory, caller) {
            Ok(n) => n,
            // The syscall's result is -errno; Linux passes it through unchanged (also the
            // kernel-internal ENOTSUPP), except ENOSYS, which FUSE's ioctl path turns into
            // ENOTTY.
            Err(e) => -e.raw_os_error(),
        };
        // No out data: the handler already wrote the caller's memory, and FUSE copies back
        // only as many bytes as the reply carries (here none), so it cannot overwrite them.
        self.reply(
            h,
            &abi::IoctlOut {
                result,
                ..Default::default()
            },
        )
    }

    fn ok(&self, h: &abi::InHeader) -> Next {
        self.reply_bytes(h, 0, &[])
    }

    fn error(&self, h: &abi::InHeader, e: Errno) -> Next {
        self.reply_bytes(h, -e.raw_os_error(), &[])
    }

    fn reply<T: IntoBytes + Immutable>(&self, h: &abi::InHeader, body: &T) -> Next {
        self.reply_bytes(h, 0, body.as_bytes())
    }

    fn reply_bytes(&self, h: &abi::InHeader, error: i32, body: &[u8]) -> Next {
        let len = size_of::<abi::OutHeader>() + body.len();
        let out = abi::OutHeader {
            len: u32::try_from(len).unwrap_or(u32::MAX),
            error,
            unique: h.unique,
        };
        let mut msg = Vec::with_capacity(len);
        msg.extend_from_slice(out.as_bytes());
        msg.extend_from_slice(body);
        // ENOENT: the request was interrupted/aborted meanwhile; nothing waits for it.
        let _ = rustix::io::write(self.channel.as_fd(), &msg);
        Next::Continue
    }
}

/// `neuron<decimal>` without leading zeros (the spelling the directory lists).
fn parse_device_name(name: &[u8]) -> Option<u32> {
    let digits = name.strip_prefix(b"neuron")?;
    let s = std::str::from_utf8(digits).ok()?;
    let n: u32 = s.parse().ok()?;
    (n.to_string() == s).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::parse_device_name;

    #[test]
    fn device_names_are_canonical_decimal() {
        assert_eq!(parse_device_name(b"neuron0"), Some(0));
        assert_eq!(parse_device_name(b"neuron15"), Some(15));
        assert_eq!(parse_device_name(b"neuron01"), None);
        assert_eq!(parse_device_name(b"neuron"), None);
        assert_eq!(parse_device_name(b"neuron+1"), None);
        assert_eq!(parse_device_name(b"nvme0"), None);
    }
}
