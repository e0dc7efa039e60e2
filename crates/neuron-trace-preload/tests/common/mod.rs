//! Shared by the integration tests.

use std::path::PathBuf;

/// `libneuron_trace.so` as cargo built it for these tests (in `deps/`, or uplifted beside it).
pub fn library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    [deps.to_path_buf(), deps.parent().unwrap().to_path_buf()]
        .into_iter()
        .map(|d| d.join("libneuron_trace.so"))
        .find(|p| p.is_file())
        .expect("libneuron_trace.so is built with the tests")
}
