//! A served node answering as an older or a newer driver release (issue 22 item 5,
//! `serve --driver R`): the oldest (2.24.7.0) and the newest (2.30.2.0) the ABI crate
//! carries, through real syscalls.

mod common;

use std::fs::{File, OpenOptions};

use khal::Generation;
use ndl_abi::limits::PERF_PROFILE_CTRL_GET;
use ndl_abi::v2_27_4_0::{
    AVAILABLE_PERF_PROFILES, AvailablePerfProfiles, GET_ASYNC_H2T_DMA_COMPL_QUEUES,
    GET_PERFORMANCE_PROFILE, GetAsyncH2tDmaComplQueues,
};
use ndl_abi::{COMPATIBLE_VERSION, CompatibleVersion, DriverArch, PowerProfile, Release};
use ndl_emu::EmulatedKernel;
use ndl_std::Errno;
use zerocopy::{FromZeros, IntoBytes};

/// The window `abi/compat.tsv` (the repository's `reference/abi/compat.tsv`) gives
/// `release` for V3, as (max, min).
fn compat_tsv(release: Release) -> (u32, u32) {
    let table = include_str!("../../../reference/abi/compat.tsv");
    table
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == release.as_str() && f[1] == "v3")
        .map(|f| (f[3].parse().unwrap(), f[2].parse().unwrap()))
        .unwrap()
}

/// A V3 device served as `release`, and a read-write fd of it.
fn serve_as(
    release: Release,
) -> Option<(
    tempfile::TempDir,
    ndl_fuse::Server<ndl_fuse::EmulatedBackend>,
    File,
)> {
    let kernel = EmulatedKernel::new(Generation::V3, 1)
        .unwrap()
        .with_release(release)
        .unwrap();
    let (dir, server) = common::serve_kernel(kernel)?;
    let node = OpenOptions::new()
        .read(true)
        .write(true)
        .open(server.node(0))
        .unwrap();
    Some((dir, server, node))
}

/// `request` with `arg` as its argument struct.
fn call<T: IntoBytes + zerocopy::FromBytes>(
    node: &File,
    request: u32,
    arg: &mut T,
) -> Result<i32, Errno> {
    // SAFETY: `arg` is the argument struct of `request` (the caller picks the pair from
    // the ABI crate), live and exclusively borrowed for the call.
    unsafe { common::ioctl(node, request, arg.as_mut_bytes().as_mut_ptr() as u64) }
}

fn compatible_version(node: &File) -> (u32, u32) {
    let mut v = CompatibleVersion::new_zeroed();
    call(node, COMPATIBLE_VERSION.code(), &mut v).unwrap();
    (v.max, v.min)
}

/// Every command of 2.26.5.0 that `release` neither has nor routes by nr: unknown to that
/// driver, so its misc chain ends with EINVAL (ioctl-README.md, "Lanes": "anything else
/// gets -EINVAL").
fn assert_unknown_commands_answer_einval(node: &File, release: Release) -> usize {
    let mut checked = 0;
    for cmd in Release::DEFAULT.abi().catalog {
        if release.abi().route(cmd.code(), false).is_some() {
            continue;
        }
        let mut arg = [0u64; 2048];
        // SAFETY: 16 KiB of zeros, more than any argument struct; a routed handler would
        // meet null user pointers, which it refuses.
        let got = unsafe { common::ioctl(node, cmd.code(), arg.as_mut_ptr() as u64) };
        assert_eq!(got, Err(Errno::INVAL), "{} on {release}", cmd.name());
        checked += 1;
    }
    checked
}

#[test]
fn served_as_2_24_7_0_lacks_the_later_commands() {
    let release = Release::parse("2.24.7.0").unwrap();
    let Some((_dir, server, node)) = serve_as(release) else {
        return;
    };
    assert_eq!(server.backend().kernel().driver_release(), release);
    assert_eq!(compatible_version(&node), compat_tsv(release));
    // 2.24.7.0 predates nine of 2.26.5.0's commands (abi/README.md); at least the
    // 2.25/2.26 additions outside any nr family are unknown here.
    let unknown = assert_unknown_commands_answer_einval(&node, release);
    assert!(unknown > 0, "2.26.5.0 has no command 2.24.7.0 lacks");
    // The 2.27.4.0 commands are unknown too.
    let mut p = PowerProfile::new_zeroed();
    p.sz = 8;
    p.ctrl = PERF_PROFILE_CTRL_GET;
    assert_eq!(
        call(&node, GET_PERFORMANCE_PROFILE.code(), &mut p),
        Err(Errno::INVAL)
    );
    // V4 did not exist for 2.24.7.0 (compat.tsv has no v4 row): the kernel refuses it.
    assert!(release.abi().compat(DriverArch::V4).is_none());
    assert!(
        EmulatedKernel::new(Generation::V4, 1)
            .unwrap()
            .with_release(release)
            .is_err()
    );
}

#[test]
fn served_as_2_30_2_0_answers_the_2_27_commands() {
    let release = Release::parse("2.30.2.0").unwrap();
    let Some((_dir, _server, node)) = serve_as(release) else {
        return;
    };
    assert_eq!(compatible_version(&node), compat_tsv(release));
    assert_unknown_commands_answer_einval(&node, release);

    // GET_PERFORMANCE_PROFILE: "sz must be 8 (else -ENXIO) and ctrl must be 1 = get"
    // (abi/2.27.4.0/ioctl-commands.tsv).
    let mut p = PowerProfile::new_zeroed();
    p.ctrl = PERF_PROFILE_CTRL_GET;
    assert_eq!(
        call(&node, GET_PERFORMANCE_PROFILE.code(), &mut p),
        Err(Errno::NXIO)
    );
    p.sz = 8;
    assert_eq!(call(&node, GET_PERFORMANCE_PROFILE.code(), &mut p), Ok(0));

    // AVAILABLE_PERF_PROFILES: written back (the model reports no profiles).
    let mut a = AvailablePerfProfiles::new_zeroed();
    a.num_profiles = 0xff;
    a.bitmap = [0xff; 32];
    assert_eq!(call(&node, AVAILABLE_PERF_PROFILES.code(), &mut a), Ok(0));
    assert_eq!((a.num_profiles, a.bitmap), (0, [0; 32]));

    // GET_ASYNC_H2T_DMA_COMPL_QUEUES: a core the device lacks is EINVAL; of core 0's
    // sixteen queues, the model gives a completion queue to its default H2T queue only,
    // one page (16-byte header + 170 x 24-byte entries).
    let mut q = GetAsyncH2tDmaComplQueues::new_zeroed();
    q.nc_id = 1000;
    q.qid_bitmap = 1;
    assert_eq!(
        call(&node, GET_ASYNC_H2T_DMA_COMPL_QUEUES.code(), &mut q),
        Err(Errno::INVAL)
    );
    let mut served = Vec::new();
    for qid in 0..16 {
        let mut q = GetAsyncH2tDmaComplQueues::new_zeroed();
        q.qid_bitmap = 1 << qid;
        if call(&node, GET_ASYNC_H2T_DMA_COMPL_QUEUES.code(), &mut q) == Ok(0) {
            let info = q.compl_queue_info[qid];
            assert_ne!(info.mmap_offset, 0);
            assert_eq!(info.mmap_size, 4096);
            served.push(qid);
        }
    }
    assert_eq!(served.len(), 1, "{served:?}");
}
