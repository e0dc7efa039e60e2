//! Pairs built through the C ABI beside the C peer (`benches/c/c_peer_build.c`, a verbatim
//! copy of the project's bench peer), in one process and one run: ns per pair for the
//! peer's own loop, `al_udma_m2m_copy_prepare_one` per pair and
//! `al_udma_m2m_copy_prepare_batch` per ring-full (issue 19's goal: the batch at least as
//! fast as the peer's loop). Both C files are compiled with gcc `-O2`; the library is the
//! static one of this build. `cargo bench -p neuron-hal-capi` (under `cargo test` it runs a
//! short smoke of the same program).

use std::path::{Path, PathBuf};
use std::process::Command;

fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let up = deps.parent().unwrap().to_path_buf();
    if up.join("libneuron_hal.a").is_file() {
        up
    } else {
        deps.to_path_buf()
    }
}

fn run(c: &mut Command) {
    let out = c.output().expect("run the C compiler");
    assert!(
        out.status.success(),
        "{c:?}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn build(dir: &Path) -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let peer = dir.join("peer.o");
    run(Command::new(&cc)
        .args(["-O2", "-c", "-Dmain=c_peer_main"])
        .arg(here.join("benches/c/c_peer_build.c"))
        .arg("-o")
        .arg(&peer));
    let exe = dir.join("capi_build");
    run(Command::new(&cc)
        .args(["-O2", "-std=c11", "-Wall", "-Wextra", "-I"])
        .arg(here.join("include"))
        .arg(here.join("benches/c/capi_build.c"))
        .arg(&peer)
        .arg(lib_dir().join("libneuron_hal.a"))
        .args([
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ])
        .arg("-o")
        .arg(&exe));
    exe
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let tmp = std::env::temp_dir().join(format!("capi-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let exe = build(&tmp);
    let pairs = if bench { "50000000" } else { "100000" };
    let out = Command::new(&exe).arg(pairs).output().unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The peer prints its own "pairs checksum" line first; ours follow.
    for line in text
        .lines()
        .filter(|l| l.starts_with("c_peer") || l.starts_with("capi"))
    {
        let (name, ns) = line.split_once(' ').unwrap();
        println!("c_abi/{name}: {ns} ns/pair ({pairs} pairs, 4096-entry rings, best of 5)");
    }
}
