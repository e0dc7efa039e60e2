//! Compiles both C peers with the C compiler's `-O2`, as a straightforward C user would (the
//! shared peer's README builds it with `gcc -O2`).
fn main() {
    for f in [
        "c/peer.c",
        "c/peer.h",
        "c/c_peer_build.c",
        "c/build_run.c",
        "c/build_run.h",
    ] {
        println!("cargo::rerun-if-changed={f}");
    }
    cc::Build::new()
        .file("c/peer.c")
        .file("c/build_run.c")
        .opt_level(2)
        // `gcc -O2` as the shared peer's README builds it: no forced frame pointer (cc's
        // default with debug info), which would take a register from the loop.
        .force_frame_pointer(false)
        .warnings(true)
        .extra_warnings(true)
        .compile("udma_c_peer");
}
