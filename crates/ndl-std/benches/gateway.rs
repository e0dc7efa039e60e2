//! Placeholder; replaced by the gateway benchmark.
fn main() {}
