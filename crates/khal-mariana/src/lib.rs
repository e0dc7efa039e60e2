//! khal-mariana (work in progress).
#![no_std]
