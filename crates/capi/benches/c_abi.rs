//! Pairs built through the C ABI beside the C peer (`benches/c/c_peer_build.c`, a verbatim
//! copy of the project's bench peer, run through a verbatim copy of `build_run.c`), in one
//! process, interleaved: each round runs one cycle of 65,536 pairs through the peer's own
//! loop, `al_udma_m2m_copy_prepare_one` per pair, `al_udma_m2m_copy_prepare_batch` per
//! ring-full (the caller filling its request array, timed) and two plain-C floors (the
//! stores alone, and the batch caller's request fill plus the stores), and ns per pair is
//! printed as the minimum and median of the rounds with the ratio to the peer (issue 19's
//! goal: the batch at least as fast as the peer's loop). The C files are compiled with gcc
//! `-O2`; the library is the static one of this build. `cargo bench -p neuron-hal-capi`
//! (under `cargo test` it runs a short smoke of the same program).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The bench binary's own `deps/`, where this build's `libneuron_hal.a` is (the copy one
/// directory up is refreshed only by a full build and can be stale).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_path_buf()
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
        .args(["-O2", "-c"])
        .arg(here.join("benches/c/build_run.c"))
        .arg("-o")
        .arg(&peer));
    let exe = dir.join("capi_build");
    run(Command::new(&cc)
        .args(["-O2", "-std=c11", "-Wall", "-Wextra", "-I"])
        .arg(here.join("include"))
        .arg("-I")
        .arg(here.join("benches/c"))
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
    let rounds = if bench { "300" } else { "3" };
    let out = Command::new(&exe).arg(rounds).output().unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // "name min MIN med MED" a path, the peer first.
    let rows: Vec<(&str, f64, f64)> = text
        .lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [name, "min", min, "med", med] => Some((name, min.parse().ok()?, med.parse().ok()?)),
            _ => None,
        })
        .collect();
    let Some(&(_, peer_min, peer_med)) = rows.first() else {
        panic!("no figures in:\n{text}");
    };
    for (name, min, med) in &rows {
        println!(
            "c_abi/{name:16} min {min:.2} med {med:.2} ns/pair | peer/this min {:.2} med {:.2} \
             ({rounds} rounds of 65,536 pairs, 4096-entry rings)",
            peer_min / min,
            peer_med / med
        );
    }
}
