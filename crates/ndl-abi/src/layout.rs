//! Struct layouts as the compiler laid them out, and the [`NoUserPtr`] marker.
//!
//! Every generated struct is `#[repr(C)]` with the header's field names. Implicit C padding is
//! spelled out as zero-filled `_padN` fields (N = its offset), so the structs have no padding
//! bytes at all — which `zerocopy::IntoBytes` proves — and the kernel never copies
//! uninitialised bytes. Size, alignment and every field offset are asserted at compile time
//! with the numbers of the release's `ioctl-structs.tsv` (and `ioctl-commands.tsv` for
//! argument sizes).

/// Offset and size of one field, computed by the compiler (`offset_of!`, `size_of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldLayout {
    /// Field name (the header's; `_padN` for spelled-out padding).
    pub name: &'static str,
    /// The header's C type (`_padN`: `-`).
    pub c_type: &'static str,
    /// Byte offset.
    pub offset: usize,
    /// Byte size (whole array for array fields, 0 for flexible array members).
    pub size: usize,
}

impl FieldLayout {
    /// True for a `_padN` field that spells out implicit C padding.
    pub fn is_padding(&self) -> bool {
        self.name.starts_with("_pad")
    }
}

/// The compiler's view of one ABI struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StructLayout {
    /// The C struct tag, e.g. `neuron_ioctl_mem_copy64` (`OWNER.FIELD` for a nested
    /// anonymous struct, as the tables name it).
    pub c_name: &'static str,
    /// `size_of` the Rust type.
    pub size: usize,
    /// `align_of` the Rust type.
    pub align: usize,
    /// True when the driver may follow a user address held in the struct (a field with
    /// `user_ptr = yes`, in the struct or a struct nested in it by value) or access a
    /// flexible array member's entries past its end: the struct is not [`NoUserPtr`].
    pub user_memory: bool,
    /// Every field in declaration order, padding included.
    pub fields: &'static [FieldLayout],
}

impl StructLayout {
    /// The header's fields (padding left out).
    pub fn declared(&self) -> impl Iterator<Item = &'static FieldLayout> + use<> {
        self.fields.iter().filter(|f| !f.is_padding())
    }
    /// The declared field named `name`.
    pub fn field(&self, name: &str) -> Option<&'static FieldLayout> {
        self.fields
            .iter()
            .find(|f| f.name.trim_start_matches("r#") == name)
    }
}

/// Implemented by every ABI struct: its layout as the compiler laid it out.
pub trait AbiLayout {
    /// The layout record.
    const LAYOUT: StructLayout;
}

/// An ioctl argument the driver reads and writes only in place: no field holds a user
/// address (`user_ptr = no` on every row of `ioctl-structs.tsv`, nested structs included) and
/// there is no flexible array member whose entries live past the struct. Issuing a command
/// with such an argument touches no user memory but the argument itself, so a shim can offer
/// it as a safe call.
///
/// ```
/// use ndl_abi::{DmaQueueInitBatch, MemFree, NoUserPtr};
///
/// fn in_place<T: NoUserPtr>() {}
/// in_place::<MemFree>(); // a handle only
/// in_place::<DmaQueueInitBatch>(); // 256 nested queue inits, none with an address
/// ```
///
/// ```compile_fail
/// # fn in_place<T: ndl_abi::NoUserPtr>() {}
/// in_place::<ndl_abi::MemAlloc>(); // mem_handle is a `__u64 *` the driver writes through
/// ```
///
/// ```compile_fail
/// # fn in_place<T: ndl_abi::NoUserPtr>() {}
/// in_place::<ndl_abi::GetAppsInfo>(); // app_data[] entries follow the 16-byte header
/// ```
///
/// # Safety
/// Implement it only for types whose every byte pattern is a valid argument and that carry
/// no address the kernel follows. The generator implements it from the tables; the scalar
/// impls below cover the three commands whose argument is a bare `__u8` or `__s32`, and `()`
/// the `_IO` commands (no argument at all).
pub unsafe trait NoUserPtr {}

// SAFETY: a plain byte: DEVICE_READY / DEVICE_RESET_STATUS write exactly one byte.
unsafe impl NoUserPtr for u8 {}
// SAFETY: a plain int: DEVICE_APP_PID writes exactly four bytes.
unsafe impl NoUserPtr for i32 {}
// SAFETY: `_IO` commands pass no argument; the kernel touches no user memory.
unsafe impl NoUserPtr for () {}

/// Declares ABI structs: `#[repr(C)]`, the zerocopy derives, compile-time asserts of size,
/// alignment and every offset, the [`AbiLayout`] record, and [`NoUserPtr`] for the structs
/// marked `in_place`.
macro_rules! abi_structs {
    ($(
        $(#[$sm:meta])*
        pub struct $name:ident = $cname:literal, size $size:literal, align $align:literal,
            $memory:ident {
            $( $(#[$fm:meta])* pub $field:ident : $ty:ty = $off:literal, $ctype:literal; )*
        }
    )*) => {
        $(
            $(#[$sm])*
            #[repr(C)]
            #[derive(
                Clone, Copy, Debug, PartialEq, Eq,
                zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::Immutable,
                zerocopy::KnownLayout,
            )]
            pub struct $name {
                $( $(#[$fm])* pub $field: $ty, )*
            }

            const _: () = assert!(size_of::<$name>() == $size);
            const _: () = assert!(align_of::<$name>() == $align);
            $( const _: () = assert!(core::mem::offset_of!($name, $field) == $off); )*

            impl $crate::AbiLayout for $name {
                const LAYOUT: $crate::StructLayout = $crate::StructLayout {
                    c_name: $cname,
                    size: size_of::<$name>(),
                    align: align_of::<$name>(),
                    user_memory: $crate::layout::abi_structs!(@user_memory $memory),
                    fields: &[$($crate::FieldLayout {
                        name: stringify!($field),
                        c_type: $ctype,
                        offset: core::mem::offset_of!($name, $field),
                        size: size_of::<$ty>(),
                    },)*],
                };
            }

            $crate::layout::abi_structs!(@marker $name $memory);
        )*
    };
    (@user_memory in_place) => { false };
    (@user_memory user_memory) => { true };
    (@marker $name:ident in_place) => {
        // SAFETY: the generator marks a struct `in_place` only when no row of it (nor of a
        // struct nested in it by value) has `user_ptr = yes` and it has no flexible array
        // member (`NoUserPtr`'s contract).
        unsafe impl $crate::NoUserPtr for $name {}
    };
    (@marker $name:ident user_memory) => {};
}
pub(crate) use abi_structs;
