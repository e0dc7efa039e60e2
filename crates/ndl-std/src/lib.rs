//! ndl-std
pub mod ioctl_codes;
pub mod ioctl_structs;
