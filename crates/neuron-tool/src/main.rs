//! neuron-tool (work in progress).
fn main() {}
