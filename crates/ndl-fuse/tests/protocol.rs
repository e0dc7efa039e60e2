//! The FUSE layer against a small recording backend: mount, directory, open flags, the
//! ioctl argument address and caller, results and errnos through the real syscalls,
//! flush/release on close, unmount.

use std::fs;
use std::os::fd::AsRawFd;
use std::sync::Mutex;

use ndl_fuse::{Backend, Caller, ProcessMemory, Server};
use rustix::io::Errno;

/// Records calls; ioctl 0xC0084E01 (pointer form, `_IOWR` size 8) reverses 32 bytes at the
/// argument address in place and returns the caller's tgid; 0x4E02 (`_IO`) fails with the
/// errno in the low 10 bits of its argument word; 0x4E03 returns 7.
#[derive(Default)]
struct Recorder {
    log: Mutex<Vec<String>>,
}

impl Backend for Recorder {
    fn devices(&self) -> u32 {
        3
    }
    fn open(&self, device: u32, flags: u32, caller: Caller) -> Result<u64, Errno> {
        self.log
            .lock()
            .unwrap()
            .push(format!("open {device} {:o} {}", flags & 3, caller.tgid));
        Ok(100 + u64::from(device))
    }
    fn ioctl(
        &self,
        fh: u64,
        request: u32,
        arg: u64,
        memory: &ProcessMemory,
        caller: Caller,
    ) -> Result<i32, Errno> {
        self.log
            .lock()
            .unwrap()
            .push(format!("ioctl {fh} {request:#x}"));
        match request {
            0xC008_4E01 => {
                let mut b = [0u8; 32];
                memory.read(arg, &mut b)?;
                b.reverse();
                memory.write(arg, &b)?;
                Ok(i32::try_from(caller.tgid).unwrap())
            }
            0x4E02 => Err(Errno::from_raw_os_error(
                i32::try_from(arg & 0x3ff).unwrap(),
            )),
            0x4E03 => Ok(7),
            _ => Err(Errno::INVAL),
        }
    }
    fn flush(&self, fh: u64, caller: Caller) {
        self.log
            .lock()
            .unwrap()
            .push(format!("flush {fh} {}", caller.tgid));
    }
    fn release(&self, fh: u64) {
        self.log.lock().unwrap().push(format!("release {fh}"));
    }
}

fn serve<B: Backend>(backend: B) -> Option<(tempfile::TempDir, Server<B>)> {
    let dir = tempfile::tempdir().unwrap();
    match Server::start(dir.path(), backend) {
        Ok(s) => Some((dir, s)),
        Err(e) if e.is_unavailable() => {
            println!("SKIP: FUSE unavailable here ({e})");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn ioctl(fd: &fs::File, request: u32, arg: u64) -> Result<i32, Errno> {
    // SAFETY: the requests of this test either take no argument or point at 32 live bytes.
    let r = unsafe { libc::ioctl(fd.as_raw_fd(), libc::c_ulong::from(request), arg) };
    if r < 0 {
        Err(Errno::from_io_error(&std::io::Error::last_os_error()).unwrap())
    } else {
        Ok(r)
    }
}

#[test]
fn directory_lists_the_device_nodes() {
    let Some((_dir, server)) = serve(Recorder::default()) else {
        return;
    };
    let mut names: Vec<_> = fs::read_dir(server.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["neuron0", "neuron1", "neuron2"]);
    assert!(server.node(1).is_file());
    assert!(!server.dir().join("neuron3").exists());
    assert!(!server.dir().join("neuron01").exists());
}

#[test]
fn ioctl_reaches_the_argument_address_of_the_calling_process() {
    let Some((_dir, server)) = serve(Recorder::default()) else {
        return;
    };
    let f = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(server.node(2))
        .unwrap();
    let mut buf: [u8; 32] = core::array::from_fn(|i| u8::try_from(i).unwrap());
    // The kernel copies only 8 bytes (`_IOC_SIZE`); the backend reads and writes all 32.
    let r = ioctl(&f, 0xC008_4E01, buf.as_mut_ptr() as u64).unwrap();
    assert_eq!(u32::try_from(r).unwrap(), std::process::id());
    let want: [u8; 32] = core::array::from_fn(|i| u8::try_from(31 - i).unwrap());
    assert_eq!(buf, want);
    // Errors come back as the backend's errno, kernel-internal ones included (ENOTSUPP,
    // 524), except ENOSYS, which Linux's FUSE ioctl path turns into ENOTTY; a positive
    // result passes through.
    assert_eq!(ioctl(&f, 0x4E02, 22), Err(Errno::INVAL));
    assert_eq!(ioctl(&f, 0x4E02, 12), Err(Errno::NOMEM));
    assert_eq!(ioctl(&f, 0x4E02, 524), Err(Errno::from_raw_os_error(524)));
    assert_eq!(ioctl(&f, 0x4E02, 38), Err(Errno::NOTTY));
    assert_eq!(ioctl(&f, 0x4E03, 0), Ok(7));
    drop(f);
    let log = server.backend().log.lock().unwrap().clone();
    let me = std::process::id();
    assert_eq!(log[0], format!("open 2 2 {me}"));
    assert_eq!(log[1], "ioctl 102 0xc0084e01");
    // close(2) flushes; the release follows asynchronously.
    assert!(log.contains(&format!("flush 102 {me}")), "{log:?}");
}

#[test]
fn open_passes_the_access_mode_and_close_releases() {
    let Some((_dir, server)) = serve(Recorder::default()) else {
        return;
    };
    let w = fs::OpenOptions::new()
        .write(true)
        .open(server.node(0))
        .unwrap();
    let r = fs::File::open(server.node(1)).unwrap();
    drop((w, r));
    // RELEASE is sent asynchronously after close(2): wait for it (bounded).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let log = server.backend().log.lock().unwrap().clone();
        if log.iter().filter(|l| l.starts_with("release")).count() == 2 {
            let me = std::process::id();
            assert!(log.contains(&format!("open 0 1 {me}")), "{log:?}");
            assert!(log.contains(&format!("open 1 0 {me}")), "{log:?}");
            assert!(log.contains(&"release 100".to_owned()));
            assert!(log.contains(&"release 101".to_owned()));
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no release: {log:?}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn stop_unmounts() {
    let Some((dir, server)) = serve(Recorder::default()) else {
        return;
    };
    assert!(server.node(0).exists());
    server.stop().unwrap();
    assert!(!dir.path().join("neuron0").exists());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn shared_mappings_and_reads_are_refused() {
    let Some((_dir, server)) = serve(Recorder::default()) else {
        return;
    };
    let f = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(server.node(0))
        .unwrap();
    // SAFETY: a fresh mapping at a kernel-chosen address; it is expected to fail.
    let r = unsafe {
        rustix::mm::mmap(
            core::ptr::null_mut(),
            4096,
            rustix::mm::ProtFlags::READ | rustix::mm::ProtFlags::WRITE,
            rustix::mm::MapFlags::SHARED,
            &f,
            0,
        )
    };
    // FOPEN_DIRECT_IO: FUSE refuses MAP_SHARED rather than map incoherent page-cache pages.
    assert_eq!(r.err(), Some(Errno::NODEV));
    // The driver has no read or write.
    let mut b = [0u8; 8];
    assert_eq!(rustix::io::read(&f, &mut b), Err(Errno::INVAL));
    assert_eq!(rustix::io::write(&f, &b), Err(Errno::INVAL));
}

#[test]
fn stop_returns_while_a_file_is_open_and_the_file_then_fails() {
    let Some((dir, server)) = serve(Recorder::default()) else {
        return;
    };
    let f = fs::File::open(server.node(0)).unwrap();
    assert_eq!(ioctl(&f, 0x4E03, 0), Ok(7));
    // The workers block in read(2); stop must wake and end them although the file keeps
    // the connection alive.
    server.stop().unwrap();
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    // The channel is closed: the connection is gone.
    assert_eq!(ioctl(&f, 0x4E03, 0), Err(Errno::NOTCONN));
}

#[test]
fn a_call_from_another_thread_is_the_same_process() {
    let Some((_dir, server)) = serve(Recorder::default()) else {
        return;
    };
    let f = std::sync::Arc::new(fs::File::open(server.node(1)).unwrap());
    let me = std::process::id();
    // FUSE names the calling thread; the backend sees the thread group, like the driver.
    let results: Vec<u32> = (0..4)
        .map(|_| {
            let f = std::sync::Arc::clone(&f);
            std::thread::spawn(move || {
                let tid = rustix::thread::gettid().as_raw_nonzero().get();
                let mut buf = [0u8; 32];
                let r = ioctl(&f, 0xC008_4E01, buf.as_mut_ptr() as u64).unwrap();
                assert_ne!(u32::try_from(tid).unwrap(), me);
                u32::try_from(r).unwrap()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    assert_eq!(results, [me; 4]);
}
