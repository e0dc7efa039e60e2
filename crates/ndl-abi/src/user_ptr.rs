//! [`UserPtr`]: a user-space address inside an ioctl struct, typed by its pointee.

use core::fmt;
use core::marker::PhantomData;

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// A user-space address inside an ioctl struct (a C pointer field), typed by its pointee.
///
/// It is a plain 64-bit value (the LP64 pointer the header declares), not a Rust pointer:
/// building one is safe, and only the ioctl that hands it to the kernel is `unsafe`. The
/// constructors say which way the kernel may access the pointee: [`UserPtr::output`] and
/// [`UserPtr::output_slice`] take `&mut` because the kernel writes there, so a read-only
/// borrow can never be passed where the kernel writes.
#[repr(transparent)]
#[derive(FromBytes, IntoBytes, Immutable, KnownLayout)]
pub struct UserPtr<T> {
    addr: u64,
    _to: PhantomData<fn() -> T>,
}

impl<T> UserPtr<T> {
    /// The null pointer (the driver's "not given" for optional outputs).
    pub const fn null() -> Self {
        Self::from_addr(0)
    }
    /// A pointer from a raw address (for example one read back from the kernel).
    pub const fn from_addr(addr: u64) -> Self {
        Self {
            addr,
            _to: PhantomData,
        }
    }
    /// Address of an object the kernel only reads.
    pub fn input(value: &T) -> Self {
        Self::from_addr(value as *const T as usize as u64)
    }
    /// Address of an object the kernel writes (or reads and writes).
    pub fn output(value: &mut T) -> Self {
        Self::from_addr(value as *mut T as usize as u64)
    }
    /// Address of the first element of a slice the kernel only reads.
    pub fn input_slice(values: &[T]) -> Self {
        Self::from_addr(values.as_ptr() as usize as u64)
    }
    /// Address of the first element of a slice the kernel writes.
    pub fn output_slice(values: &mut [T]) -> Self {
        Self::from_addr(values.as_mut_ptr() as usize as u64)
    }
    /// The same address, viewed as pointing to a `U` (for C structs that are a header plus
    /// a flexible array, built in a buffer of another element type).
    pub const fn cast<U>(self) -> UserPtr<U> {
        UserPtr::from_addr(self.addr)
    }
    /// The address value.
    pub const fn addr(&self) -> u64 {
        self.addr
    }
    /// True for the null pointer.
    pub const fn is_null(&self) -> bool {
        self.addr == 0
    }
}

impl<T> Clone for UserPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for UserPtr<T> {}
impl<T> PartialEq for UserPtr<T> {
    fn eq(&self, other: &Self) -> bool {
        self.addr == other.addr
    }
}
impl<T> Eq for UserPtr<T> {}
impl<T> fmt::Debug for UserPtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UserPtr({:#x})", self.addr)
    }
}
impl<T> Default for UserPtr<T> {
    fn default() -> Self {
        Self::null()
    }
}
