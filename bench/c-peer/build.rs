//! Compiles the C peer with the C compiler's `-O2`, as a straightforward C user would.
fn main() {
    println!("cargo::rerun-if-changed=c/peer.c");
    println!("cargo::rerun-if-changed=c/peer.h");
    cc::Build::new()
        .file("c/peer.c")
        .opt_level(2)
        .warnings(true)
        .extra_warnings(true)
        .compile("udma_c_peer");
}
