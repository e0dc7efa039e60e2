//! The per-device gateway's cost over a raw ioctl on the same fd.
//!
//! Both sides issue HOST_DEVICE_ID on the gateway's cached fd, opened on an ordinary temp
//! file, so the kernel answers ENOTTY at once and the syscall is as cheap as it gets: the
//! gateway's share (index check, pin `fetch_add`, unpin `fetch_sub`, result mapping) is at its
//! most visible. (A profile shows most of it in the unpin's locked RMW right after the
//! syscall returns.)
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ndl_abi::{HOST_DEVICE_ID, HostDeviceId};
use ndl_std::{Errno, Kernel, Ndl, RealKernel};

fn gateway_overhead(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("neuron0"), b"").unwrap();
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.device(0).unwrap();
    assert!(dev.host_device_id().is_err());
    let fd = ndl.cached_fd(0).unwrap();

    let mut g = c.benchmark_group("ioctl_enotty");
    g.bench_function("raw_rustix", |b| {
        b.iter(|| {
            let mut arg = HostDeviceId { host_device_id: 0 };
            // SAFETY: `arg` is the 4-byte struct HOST_DEVICE_ID writes; `fd` stays open.
            let r = unsafe {
                RealKernel.ioctl::<{ HOST_DEVICE_ID.code() }>(black_box(fd), (&raw mut arg).cast())
            };
            assert_eq!(r, Err(Errno::NOTTY));
        })
    });
    g.bench_function("per_device_gateway", |b| {
        b.iter(|| {
            let r = black_box(&dev).host_device_id();
            assert!(r.is_err());
        })
    });
    g.bench_function("per_device_gateway_lookup", |b| {
        b.iter(|| {
            let r = ndl.device(black_box(0)).and_then(|d| d.host_device_id());
            assert!(r.is_err());
        })
    });
    g.finish();

    // The gateway's own work without the syscall: what the ratio above is made of.
    c.bench_function("gateway_pin_unpin_only", |b| {
        b.iter(|| black_box(black_box(&dev).pin().unwrap().fd()))
    });
}

criterion_group!(benches, gateway_overhead);
criterion_main!(benches);
