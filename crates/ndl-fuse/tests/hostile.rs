//! A hostile client on a served node (issue 25): caller-sized counts are bounded before the
//! server allocates or loops, the server's memory stays where it was, and a fresh client is
//! served afterwards. Through real syscalls; the server runs in this test process, so its
//! resident memory is this process's.

mod common;

use std::fs::OpenOptions;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::process::Stdio;
use std::time::Duration;

use khal::Generation;
use ndl_abi::{BAR_READ, BAR_WRITE, MEM_ALLOC_V2, MEM_BUF_ZEROCOPY64_BATCHES, PRINTK};
use ndl_abi::{
    BarRw, MemAllocV2, MemBufCopy64zcBatches, MemcpyBatch, Printk, TensorBatchOp, UserPtr,
};
use ndl_emu::{DeviceConfig, EmulatedKernel};
use ndl_std::{Errno, MemHandle, MemLocation, Ndl};
use zerocopy::FromZeros;

/// This process's resident set in KiB (`VmRSS` of `/proc/self/status`).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// A BAR_READ/BAR_WRITE argument with null user pointers.
fn bar_rw(bar: u32, count: u32) -> BarRw {
    let mut a = BarRw::new_zeroed();
    a.bar = bar;
    a.count = count;
    a
}

#[test]
fn huge_counts_are_refused_before_any_allocation_and_the_server_lives_on() {
    let Some((dir, server)) = common::serve(Generation::V3, 1) else {
        return;
    };
    let before = rss_kib();
    // O_RDONLY: the device lane (access mode bit 0 clear), which attaches this process.
    let node = OpenOptions::new().read(true).open(server.node(0)).unwrap();
    let ioctl = |code: u32, arg: &mut BarRw| {
        // SAFETY: `arg` is the 32-byte `neuron_ioctl_bar_rw`; its user pointers are null,
        // which the server refuses rather than dereferences.
        unsafe { common::ioctl(&node, code, (arg as *mut BarRw) as u64) }
    };
    // BAR_READ: more than 100 registers is EINVAL on either bar (bar-README.md, the
    // driver's cap on hardware), before the address array is read or the results sized.
    for bar in [0, 2] {
        for count in [101, u32::MAX] {
            assert_eq!(
                ioctl(BAR_READ.code(), &mut bar_rw(bar, count)),
                Err(Errno::INVAL),
                "bar {bar} count {count}"
            );
        }
        // At the cap the count is accepted and the null address array faults.
        assert_eq!(
            ioctl(BAR_READ.code(), &mut bar_rw(bar, 100)),
            Err(Errno::FAULT)
        );
    }
    // BAR_WRITE: the driver's allocation of a huge count fails with ENOMEM (bar-README.md);
    // so does the model's, before anything is allocated.
    assert_eq!(
        ioctl(BAR_WRITE.code(), &mut bar_rw(0, u32::MAX)),
        Err(Errno::NOMEM)
    );
    assert_eq!(
        ioctl(BAR_WRITE.code(), &mut bar_rw(0, 1 << 20)),
        Err(Errno::NOMEM)
    );
    assert_eq!(
        ioctl(BAR_WRITE.code(), &mut bar_rw(0, 16)),
        Err(Errno::FAULT)
    );
    let after = rss_kib();
    println!("server process VmRSS: {before} KiB before, {after} KiB after the huge counts");
    // One u32::MAX-entry array would be 32 GiB: the server allocated none of it.
    assert!(after < before + 64 * 1024, "{before} KiB -> {after} KiB");

    // A fresh client is served.
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.open_device(0).unwrap();
    let c = dev.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    dev.mem_buf_copy_to(c, 0, b"still here").unwrap();
}

/// MEM_BUF_ZEROCOPY64_BATCHES with `batches` batches of `ops` operations of `size` bytes
/// each, every batch naming the same operation array and every operation the same buffer.
fn batches_of(
    node: &std::fs::File,
    handle: u64,
    (batches, ops, size): (u32, u32, u64),
) -> Result<i32, Errno> {
    let buffer = vec![0u8; usize::try_from(size).unwrap()];
    let mut op = TensorBatchOp::new_zeroed();
    op.size = size;
    op.buffer = UserPtr::from_addr(buffer.as_ptr() as u64);
    let op_array = vec![op; ops as usize];
    let mut batch = MemcpyBatch::new_zeroed();
    batch.mem_handle = handle;
    batch.ops_ptr = UserPtr::from_addr(op_array.as_ptr() as u64);
    batch.num_ops = ops;
    let batch_array = vec![batch; batches as usize];
    let mut arg = MemBufCopy64zcBatches::new_zeroed();
    arg.batches_ptr = UserPtr::from_addr(batch_array.as_ptr() as u64);
    arg.num_batches = batches;
    arg.is_copy_to_device = 1;
    // SAFETY: `arg` is the 32-byte argument; the batch and operation arrays and the
    // buffer they point to are live for the call and as long as their counts say.
    unsafe {
        common::ioctl(
            node,
            MEM_BUF_ZEROCOPY64_BATCHES.code(),
            (&raw mut arg) as u64,
        )
    }
}

#[test]
fn a_batch_call_carries_at_most_65536_operations() {
    let Some((dir, server)) = common::serve(Generation::V3, 1) else {
        return;
    };
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.open_device(0).unwrap();
    let chunk = dev.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    let node = OpenOptions::new()
        .read(true)
        .write(true)
        .open(server.node(0))
        .unwrap();
    // 2^16 batches sharing one array of 2^16 operations would be 2^32 operations under the
    // server's one lock; the count is refused (E2BIG) before any of them runs.
    assert_eq!(
        batches_of(&node, chunk.0, (1 << 16, 1 << 16, 0)),
        Err(Errno::TOOBIG)
    );
    assert_eq!(
        batches_of(&node, chunk.0, ((1 << 16) + 1, 0, 0)),
        Err(Errno::TOOBIG)
    );
    assert_eq!(
        batches_of(&node, chunk.0, (2, (1 << 15) + 1, 0)),
        Err(Errno::TOOBIG)
    );
    // The bound itself is served.
    assert_eq!(batches_of(&node, chunk.0, (2, 1 << 15, 0)), Ok(0));
    // 2^16 copies of 64 KiB each from one small buffer would move 4 GiB under the lock,
    // more than the whole model holds (16 MiB x 4 channels + 16 MiB host): E2BIG before
    // any byte moves.
    assert_eq!(
        batches_of(&node, chunk.0, (1, 1 << 16, 64 << 10)),
        Err(Errno::TOOBIG)
    );
    // Within the memory, a real copy: 64 bytes, 16 times, into the chunk.
    assert_eq!(batches_of(&node, chunk.0, (1, 16, 64)), Ok(0));
    // And the server answers another call at once.
    dev.mem_buf_copy_to(chunk, 0, b"after").unwrap();
}

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn a_printk_flood_leaves_the_server_where_it_started() {
    let Some((_dir, server)) = common::serve(Generation::V3, 1) else {
        return;
    };
    // The misc lane: a write-only fd is enough.
    let node = OpenOptions::new().write(true).open(server.node(0)).unwrap();
    let mut text = [b'x'; 512];
    text[511] = 0;
    let mut flood = |n: usize| {
        for _ in 0..n {
            let mut p = Printk::new_zeroed();
            p.buffer = UserPtr::from_addr(text.as_mut_ptr() as u64);
            p.size = 512;
            // SAFETY: `p` is PRINTK's argument, pointing at 512 live bytes.
            let r = unsafe { common::ioctl(&node, PRINTK.code(), (&raw mut p) as u64) };
            assert_eq!(r, Ok(0));
        }
    };
    // Fill the log once, then measure a flood ten times its size.
    flood(300);
    let before = rss_kib();
    flood(3000);
    let after = rss_kib();
    let log = server.backend().kernel().printk_log();
    let kept: usize = log.iter().map(String::len).sum();
    println!(
        "PRINTK flood of {} KiB: server VmRSS {before} KiB before, {after} KiB after; log keeps {} KiB",
        3000 * 511 / 1024,
        kept / 1024
    );
    // The model keeps the newest 128 KiB (printk_log.rs, the kernel log ring's size).
    assert!(kept <= 128 << 10, "{kept}");
    assert_eq!(log.len(), (128 << 10) / 511);
    assert!(after < before + 4 * 1024, "{before} KiB -> {after} KiB");
}

fn role() -> Option<String> {
    std::env::var(common::CHILD_ROLE).ok()
}

/// The child of [`a_forked_child_s_memory_goes_with_its_last_fd`]: allocates host memory
/// through its parent's descriptor (MEM_ALLOC_V2 is not attach-checked) and exits without
/// freeing it or opening the device itself.
fn inherited_alloc_child() {
    let fd: i32 = std::env::var("NDL_INHERITED_FD").unwrap().parse().unwrap();
    // SAFETY: the parent passed this descriptor open and without close-on-exec; it is owned
    // here from now on.
    let inherited = unsafe { OwnedFd::from_raw_fd(fd) };
    for _ in 0..4 {
        let mut handle = 0u64;
        let mut a = MemAllocV2::new_zeroed();
        a.size = 4096;
        a.host_memory = 1;
        a.mem_handle = UserPtr::from_addr((&raw mut handle) as u64);
        // SAFETY: `a` is MEM_ALLOC_V2's argument; the handle pointer is live.
        let r = unsafe { common::ioctl(&inherited, MEM_ALLOC_V2.code(), (&raw mut a) as u64) };
        assert_eq!(r, Ok(0));
        assert_ne!(handle, 0);
    }
    println!("child-allocated");
}

#[test]
fn a_forked_child_s_memory_goes_with_its_last_fd() {
    if role().as_deref() == Some("inherited-alloc") {
        return inherited_alloc_child();
    }
    let Some((_dir, server)) = common::serve(Generation::V3, 1) else {
        return;
    };
    let node = OpenOptions::new()
        .read(true)
        .write(true)
        .open(server.node(0))
        .unwrap();
    // SAFETY: duplicating an open descriptor (no close-on-exec); closed below.
    let dup = unsafe { libc::dup(node.as_raw_fd()) };
    assert!(dup >= 0);
    let mut child = common::child(
        "a_forked_child_s_memory_goes_with_its_last_fd",
        "inherited-alloc",
    )
    .env("NDL_INHERITED_FD", dup.to_string())
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    // SAFETY: `dup` is ours and not used again.
    drop(unsafe { OwnedFd::from_raw_fd(dup) });
    let status = common::wait_limited(&mut child, LIMIT);
    assert!(status.success());
    let kernel = server.backend().kernel();
    // The child's close was a FLUSH by a process that never attached: its four chunks are
    // freed then, though the file (our descriptor) stays open.
    assert!(
        common::eventually(LIMIT, || kernel.allocations(0) == 0),
        "{} chunks outlived the child",
        kernel.allocations(0)
    );
    assert_eq!(kernel.open_fds(), 1);
    // The opener still allocates through the same file.
    let mut handle = 0u64;
    let mut a = MemAllocV2::new_zeroed();
    a.size = 4096;
    a.host_memory = 1;
    a.mem_handle = UserPtr::from_addr((&raw mut handle) as u64);
    // SAFETY: as in the child.
    let r = unsafe { common::ioctl(&node, MEM_ALLOC_V2.code(), (&raw mut a) as u64) };
    assert_eq!(r, Ok(0));
    assert_eq!(kernel.allocations(0), 1);
}

/// The child of [`an_isolated_server_refuses_every_foreign_handle`]: every use of the
/// parent's chunk, through a descriptor of its own, answers as an unknown handle.
fn foreign_handle_child() {
    let dir = std::path::PathBuf::from(std::env::var("NDL_DIR").unwrap());
    let chunk = MemHandle(std::env::var("NDL_PARENT_CHUNK").unwrap().parse().unwrap());
    let ndl = Ndl::new().with_root(&dir);
    let dev = ndl.open_device(0).unwrap();
    let errno = |r: Result<(), ndl_std::Error>| r.err().and_then(|e| e.errno());
    let mut b = [0u8; 4];
    let answers = [
        errno(dev.mem_get_extended_info(chunk, 1).map(|_| ())),
        errno(dev.mem_buf_copy_from(chunk, 0, &mut b)),
        errno(dev.mem_buf_copy_to(chunk, 0, b"evil")),
        errno(dev.memset(chunk, 0, 0x45, 4)),
        errno(dev.mem_free(chunk)),
    ];
    assert_eq!(answers, [Some(Errno::INVAL); 5]);
    // Its own memory works as ever.
    let mine = dev.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    dev.mem_buf_copy_to(mine, 0, b"child").unwrap();
    println!("child-refused");
}

#[test]
fn an_isolated_server_refuses_every_foreign_handle() {
    if role().as_deref() == Some("foreign-handle") {
        return foreign_handle_child();
    }
    let kernel = EmulatedKernel::with_devices(vec![
        DeviceConfig::numbered(Generation::V3, 0).with_isolate(true),
    ])
    .unwrap();
    let Some((dir, server)) = common::serve_kernel(kernel) else {
        return;
    };
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.open_device(0).unwrap();
    let chunk = dev.mem_alloc(4096, 0, MemLocation::Host, 0).unwrap();
    dev.mem_buf_copy_to(chunk, 0, b"mine").unwrap();
    let mut child = common::child(
        "an_isolated_server_refuses_every_foreign_handle",
        "foreign-handle",
    )
    .env("NDL_DIR", dir.path())
    .env("NDL_PARENT_CHUNK", chunk.0.to_string())
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    let status = common::wait_limited(&mut child, LIMIT);
    assert!(status.success());
    // Ours is untouched; the child's chunk went with the child.
    let mut b = [0u8; 4];
    dev.mem_buf_copy_from(chunk, 0, &mut b).unwrap();
    assert_eq!(&b, b"mine");
    let kernel = server.backend().kernel();
    assert!(common::eventually(LIMIT, || kernel.allocations(0) == 1));
}
