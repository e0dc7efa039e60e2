//! Placeholder until the C-ABI bench lands in the next commit.
fn main() {}
