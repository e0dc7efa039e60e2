//! Every catalog command, on both lanes, through real syscalls on a served node, answers as
//! the in-process emulated kernel does for the same sequence of calls.

mod common;

use std::fs::OpenOptions;
use std::path::Path;

use khal::Generation;
use ndl_abi::Form;
use ndl_emu::EmulatedKernel;
use ndl_fuse::ProcessMemory;
use ndl_std::{AccessMode, Errno, Kernel};

/// Argument buffer: larger than any argument struct (12296 bytes), zeroed.
const ARG_WORDS: usize = 2048;

#[test]
fn every_command_on_both_lanes_matches_the_in_process_kernel() {
    let Some((_dir, server)) = common::serve(Generation::V3, 1) else {
        return;
    };
    let local = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let me = std::process::id();
    let mut compared = 0;
    let mut wrote = 0usize;
    let mut outcomes = std::collections::HashSet::new();
    for (mode, write_only) in [
        (AccessMode::ReadWrite, false),
        (AccessMode::WriteOnly, true),
    ] {
        let served = OpenOptions::new()
            .read(!write_only)
            .write(true)
            .open(server.node(0))
            .unwrap();
        let fd = local.open(Path::new("/dev/neuron0"), mode).unwrap();
        for cmd in ndl_abi::catalog() {
            let mut a = vec![0u64; ARG_WORDS];
            let mut b = vec![0u64; ARG_WORDS];
            let (pa, pb) = match cmd.form() {
                Form::None => (0, 0),
                _ => (a.as_mut_ptr() as u64, b.as_mut_ptr() as u64),
            };
            // SAFETY: the argument is 16 KiB of zeros, more than any argument struct; the
            // user pointers inside it are null, which handlers refuse (EFAULT).
            let got = unsafe { common::ioctl(&served, cmd.code(), pa) };
            let want = local.ioctl_from(fd, cmd.code(), pb, &ProcessMemory::new(me), me);
            // Linux's FUSE ioctl path turns ENOSYS into ENOTTY.
            let want = want.map_err(|e| if e == Errno::NOSYS { Errno::NOTTY } else { e });
            assert_eq!(got, want, "{} on {mode:?}", cmd.name());
            assert!(a == b, "{} on {mode:?}: argument bytes differ", cmd.name());
            compared += 1;
            wrote += usize::from(a.iter().any(|&w| w != 0));
            outcomes.insert(got);
        }
        // SAFETY: `fd` came from `open` above and is not used again.
        unsafe { local.close(fd) };
    }
    // Every row of the reference table (driver 2.26.5.0), on both lanes.
    let table = include_str!("../../../reference/ioctl-commands.tsv");
    let rows = table.lines().skip(1).filter(|l| !l.is_empty()).count();
    assert_eq!(ndl_abi::catalog().count(), rows);
    assert_eq!(compared, 2 * rows);
    // The comparison is not vacuous: calls succeed, fail in several ways, and write results.
    assert!(outcomes.contains(&Ok(0)), "{outcomes:?}");
    // MEM_GET_EXTENDED_INFO on a bad handle answers +EINVAL as a positive result.
    assert!(outcomes.contains(&Ok(22)), "{outcomes:?}");
    // 524: the driver's kernel-internal ENOTSUPP reaches user space as is.
    let enotsupp = Errno::from_raw_os_error(524);
    for e in [
        Errno::INVAL,
        Errno::FAULT,
        Errno::PERM,
        Errno::NOTTY,
        enotsupp,
    ] {
        assert!(outcomes.contains(&Err(e)), "{e:?} never seen: {outcomes:?}");
    }
    assert!(wrote > 10, "only {wrote} calls wrote results");
}
