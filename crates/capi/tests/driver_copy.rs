//! The driver-style DMA copy from C through the `ndl_*` ABI against the FUSE-served
//! emulated driver (real open/ioctl/close syscalls), for every generation, every byte
//! verified by the C program, and the mmap pairing refused at mmap(2) with -ENODEV (a served
//! node cannot be mapped shared; `mmap.rs` maps over the emulated kernel instead). Needs root
//! and /dev/fuse (CI has both); elsewhere it prints why it skipped.

mod common;

use khal::Generation;
use ndl_emu::EmulatedKernel;
use ndl_fuse::{EmulatedBackend, Server};

use common::{Cc, c_source, run_c};

#[test]
fn driver_style_copy_from_c_over_fuse_on_every_generation() {
    let cc = Cc::find();
    let tmp = tempfile::tempdir().unwrap();
    for g in Generation::ALL {
        let dir = tempfile::tempdir().unwrap();
        let kernel = EmulatedKernel::new(g, 1).unwrap();
        let server = match Server::start(dir.path(), EmulatedBackend::new(kernel)) {
            Ok(s) => s,
            Err(e) if e.is_unavailable() => {
                println!("SKIP: FUSE unavailable here ({e})");
                return;
            }
            Err(e) => panic!("{e}"),
        };
        let arch = g.number();
        let exe = tmp.path().join(format!("driver_copy_v{arch}"));
        cc.build(&exe, &[c_source("driver_copy.c")], Some(arch), false);
        let stdout = run_c(&exe, [dir.path()], &format!("V{arch}"));
        let engine = if g == Generation::V2 { 32 } else { 128 };
        assert!(
            stdout.starts_with(&format!("copied 263144 x 12 on engine {engine} queue ")),
            "{stdout}"
        );
        server.stop().unwrap();
    }
}
