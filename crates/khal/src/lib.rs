//! khal (work in progress).
#![no_std]
