//! A FUSE-served emulated kernel for the tests that drive the tool against a node, or one
//! SKIP line where FUSE cannot be mounted (no `/dev/fuse`, no permission).

#![allow(dead_code)]

use ndl_emu::EmulatedKernel;
use ndl_fuse::{EmulatedBackend, Server};

/// The server and its mount directory (the server first, so it is unmounted before the
/// directory goes).
pub struct Served {
    /// The FUSE server.
    pub server: Server<EmulatedBackend>,
    /// Where it is mounted.
    pub dir: tempfile::TempDir,
}

/// Serves `kernel` on a fresh directory, or `None` after printing why FUSE is unavailable.
pub fn serve(kernel: EmulatedKernel) -> Option<Served> {
    let dir = tempfile::tempdir().unwrap();
    match Server::start(dir.path(), EmulatedBackend::new(kernel)) {
        Ok(server) => Some(Served { server, dir }),
        Err(e) if e.is_unavailable() => {
            println!("SKIP: FUSE unavailable here ({e})");
            None
        }
        Err(e) => panic!("{e}"),
    }
}
