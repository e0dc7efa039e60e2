//! khal-sunda (work in progress).
#![no_std]
