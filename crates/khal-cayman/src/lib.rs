//! khal-cayman (work in progress).
#![no_std]
