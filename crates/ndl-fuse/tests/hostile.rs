//! A hostile client on a served node (issue 25): caller-sized counts are bounded before the
//! server allocates or loops, the server's memory stays where it was, and a fresh client is
//! served afterwards. Through real syscalls; the server runs in this test process, so its
//! resident memory is this process's.

mod common;

use std::fs::OpenOptions;

use khal::Generation;
use ndl_abi::{BAR_READ, BAR_WRITE, MEM_BUF_ZEROCOPY64_BATCHES};
use ndl_abi::{BarRw, MemBufCopy64zcBatches, MemcpyBatch, TensorBatchOp, UserPtr};
use ndl_std::{Errno, MemLocation, Ndl};
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

/// MEM_BUF_ZEROCOPY64_BATCHES with `batches` batches of `ops` zero-length operations, every
/// batch naming the same operation array.
fn zero_length_batches(
    node: &std::fs::File,
    handle: u64,
    batches: u32,
    ops: u32,
) -> Result<i32, Errno> {
    let op_array = vec![TensorBatchOp::new_zeroed(); ops as usize];
    let mut batch = MemcpyBatch::new_zeroed();
    batch.mem_handle = handle;
    batch.ops_ptr = UserPtr::from_addr(op_array.as_ptr() as u64);
    batch.num_ops = ops;
    let batch_array = vec![batch; batches as usize];
    let mut arg = MemBufCopy64zcBatches::new_zeroed();
    arg.batches_ptr = UserPtr::from_addr(batch_array.as_ptr() as u64);
    arg.num_batches = batches;
    arg.is_copy_to_device = 1;
    // SAFETY: `arg` is the 32-byte argument; the batch and operation arrays it points to
    // are live for the call and as long as their counts say.
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
        zero_length_batches(&node, chunk.0, 1 << 16, 1 << 16),
        Err(Errno::TOOBIG)
    );
    assert_eq!(
        zero_length_batches(&node, chunk.0, (1 << 16) + 1, 0),
        Err(Errno::TOOBIG)
    );
    assert_eq!(
        zero_length_batches(&node, chunk.0, 2, (1 << 15) + 1),
        Err(Errno::TOOBIG)
    );
    // The bound itself is served.
    assert_eq!(zero_length_batches(&node, chunk.0, 2, 1 << 15), Ok(0));
    // And the server answers another call at once.
    dev.mem_buf_copy_to(chunk, 0, b"after").unwrap();
}
