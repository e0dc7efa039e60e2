//! iofic (work in progress).
#![no_std]

pub mod caps;
