//! Several processes on one served device: per-process ownership and the attach gate as
//! the driver keys them (by thread group), and cleanup when a client dies mid-copy.
//!
//! Child processes are this test binary re-executed (see `common::child`); each test first
//! checks whether it runs as such a child.

mod common;

use std::io::{BufRead, BufReader};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use khal::Generation;
use ndl_abi::MEM_FREE;
use ndl_abi::MemFree;
use ndl_std::{Errno, MemHandle, MemLocation, Ndl};

const LIMIT: Duration = Duration::from_secs(60);

fn role() -> Option<String> {
    std::env::var(common::CHILD_ROLE).ok()
}

fn env_u64(name: &str) -> u64 {
    std::env::var(name).unwrap().parse().unwrap()
}

/// The child of [`two_processes_share_a_device`].
fn share_child() {
    let dir = PathBuf::from(std::env::var("NDL_DIR").unwrap());
    let parent_chunk = MemHandle(env_u64("NDL_PARENT_CHUNK"));
    let parent_pid = env_u64("NDL_PARENT_PID");
    let inherited = i32::try_from(env_u64("NDL_INHERITED_FD")).unwrap();
    let me = u64::from(std::process::id());

    // The parent's privileged fd, inherited: this process is not attached through it, so
    // attach-checked requests are refused (EACCES), the driver's forked-child rule.
    // SAFETY: the parent passed this descriptor number open and without close-on-exec; it
    // is owned here from now on.
    let inherited = unsafe { OwnedFd::from_raw_fd(inherited) };
    let mut free = MemFree {
        mem_handle: parent_chunk.0,
    };
    // SAFETY: `free` is MEM_FREE's 8-byte argument struct.
    let r = unsafe { common::ioctl(&inherited, MEM_FREE.code(), (&raw mut free) as u64) };
    assert_eq!(r, Err(Errno::ACCESS));
    drop(inherited);

    let ndl = Ndl::new().with_root(&dir);
    let dev = ndl.open_device(0).unwrap();
    // Ownership is per process: the parent's chunk reports the parent, ours reports us.
    let info = dev.mem_get_extended_info(parent_chunk, 1).unwrap();
    assert_eq!(info.pid, parent_pid);
    let mine = dev.mem_alloc(8192, 0, MemLocation::Host, 0).unwrap();
    assert_eq!(dev.mem_get_extended_info(mine, 1).unwrap().pid, me);
    // The chunk is the driver's, not the process's: another process can copy into it.
    dev.mem_buf_copy_to(parent_chunk, 16, b"from the child")
        .unwrap();
    dev.mem_buf_copy_to(mine, 0, b"child's own").unwrap();
    println!("child-chunk {}", mine.0);
    // Exiting closes the node: the driver frees this process's chunks.
}

#[test]
fn two_processes_share_a_device() {
    if role().as_deref() == Some("share") {
        return share_child();
    }
    let Some((dir, server)) = common::serve(Generation::V3, 1) else {
        return;
    };
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.open_device(0).unwrap();
    let chunk = dev.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    let me = u64::from(std::process::id());
    assert_eq!(dev.mem_get_extended_info(chunk, 1).unwrap().pid, me);

    // A privileged fd for the child to inherit (dup: no close-on-exec).
    let node = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(server.node(0))
        .unwrap();
    // SAFETY: duplicating an open descriptor; the duplicate is closed below.
    let dup = unsafe { libc::dup(node.as_raw_fd()) };
    assert!(dup >= 0);
    let mut child = common::child("two_processes_share_a_device", "share")
        .env("NDL_DIR", dir.path())
        .env("NDL_PARENT_CHUNK", chunk.0.to_string())
        .env("NDL_PARENT_PID", me.to_string())
        .env("NDL_INHERITED_FD", dup.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // SAFETY: `dup` is ours and not used again.
    drop(unsafe { OwnedFd::from_raw_fd(dup) });
    let stdout = child.stdout.take().unwrap();
    let status = common::wait_limited(&mut child, LIMIT);
    let out: Vec<String> = BufReader::new(stdout).lines().map(Result::unwrap).collect();
    assert!(status.success(), "child failed: {out:?}");
    let child_chunk = out
        .iter()
        .find_map(|l| l.split_once("child-chunk ").map(|(_, v)| v))
        .map(|v| MemHandle(v.parse().unwrap()))
        .unwrap_or_else(|| panic!("no chunk reported: {out:?}"));

    // What the child wrote into our chunk is there.
    let mut back = [0u8; 14];
    dev.mem_buf_copy_from(chunk, 16, &mut back).unwrap();
    assert_eq!(&back, b"from the child");
    // The child's chunk went with the child (its close is a RELEASE, sent asynchronously):
    // the handle is unknown now.
    let freed = common::eventually(LIMIT, || {
        server.backend().kernel().allocations(0) == 1
            && dev.mem_get_extended_info(child_chunk, 1).is_err()
    });
    assert!(freed, "the child's chunk outlived the child");
    // Ours stays.
    assert_eq!(dev.mem_get_extended_info(chunk, 1).unwrap().pid, me);
    assert_eq!(server.backend().kernel().allocations(0), 1);
}

/// The child of [`killed_client_mid_copy_is_cleaned_up`]: copies 64 MiB in and out for ever.
fn copy_forever_child() {
    let dir = PathBuf::from(std::env::var("NDL_DIR").unwrap());
    let ndl = Ndl::new().with_root(&dir);
    let dev = ndl.open_device(0).unwrap();
    const SIZE: usize = 64 << 20;
    let chunk = dev
        .mem_alloc(
            SIZE as u64,
            0,
            MemLocation::Device {
                channel: 0,
                region: 0,
            },
            0,
        )
        .unwrap();
    let data: Vec<u8> = (0..SIZE).map(|i| (i * 7) as u8).collect();
    let mut back = vec![0u8; SIZE];
    println!("child-ready");
    loop {
        dev.mem_buf_copy_to(chunk, 0, &data).unwrap();
        dev.mem_buf_copy_from(chunk, 0, &mut back).unwrap();
    }
}

#[test]
fn killed_client_mid_copy_is_cleaned_up() {
    if role().as_deref() == Some("copy-forever") {
        return copy_forever_child();
    }
    let Some((dir, server)) = common::serve_big(Generation::V3, 128 << 20) else {
        return;
    };
    let mut child = common::child("killed_client_mid_copy_is_cleaned_up", "copy-forever")
        .env("NDL_DIR", dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line.contains("child-ready") {
                let _ = tx.send(());
            }
        }
    });
    let ready = rx.recv_timeout(LIMIT);
    if ready.is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("the child never got ready");
    }
    let backend = server.backend();
    assert_eq!(backend.kernel().allocations(0), 1);
    assert_eq!(backend.open_handles(), 1);
    // Let it get into its copies, then kill it in the middle of one.
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    let status = common::wait_limited(&mut child, LIMIT);
    assert!(!status.success());
    let cleaned = common::eventually(LIMIT, || {
        backend.open_handles() == 0
            && backend.kernel().open_fds() == 0
            && backend.kernel().allocations(0) == 0
    });
    assert!(
        cleaned,
        "left behind: {} handles, {} fds, {} chunks",
        backend.open_handles(),
        backend.kernel().open_fds(),
        backend.kernel().allocations(0)
    );
    // The device still serves new clients.
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.open_device(0).unwrap();
    let c = dev.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    dev.mem_buf_copy_to(c, 0, b"after").unwrap();
}
