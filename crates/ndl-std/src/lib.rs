//! ndl-std (work in progress).
