//! Every argument struct of the command catalog, `#[repr(C)]`, byte-identical to the x86_64
//! layout of the driver header.
//!
//! Each struct's size, alignment and every field offset are asserted at compile time with
//! the numbers of `reference/ioctl-structs.tsv`. Implicit C padding is spelled out as
//! zero-filled `_padN` fields (N = its offset): the structs then have no padding bytes at all,
//! which `zerocopy::IntoBytes` proves, so the kernel never copies uninitialised bytes.
//! Field names are the header's.
//!
//! ```
//! use ndl_std::ioctl_structs::{AbiLayout, MemCopy64};
//! use zerocopy::FromZeros;
//!
//! let mut arg = MemCopy64::new_zeroed();
//! arg.size = 1 << 33; // 64-bit sizes are what MEM_COPY64 is for
//! assert_eq!(size_of::<MemCopy64>(), 40);
//! assert_eq!(MemCopy64::LAYOUT.c_name, "neuron_ioctl_mem_copy64");
//! ```

use core::fmt;
use core::marker::PhantomData;
use core::mem::offset_of;

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

/// Offset and size of one field, computed by the compiler (`offset_of!`, `size_of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    /// Field name (the header's; `_padN` for spelled-out padding).
    pub name: &'static str,
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

/// The compiler's view of one ABI struct, for cross-checking against the reference table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StructLayout {
    /// The C struct tag, e.g. `neuron_ioctl_mem_copy64`.
    pub c_name: &'static str,
    /// `size_of` the Rust type.
    pub size: usize,
    /// `align_of` the Rust type.
    pub align: usize,
    /// Every field in declaration order.
    pub fields: &'static [FieldLayout],
}

/// Implemented by every ABI struct: its layout as the compiler laid it out.
pub trait AbiLayout {
    /// The layout record.
    const LAYOUT: StructLayout;
}

macro_rules! abi_structs {
    ($(
        $(#[$sm:meta])*
        pub struct $name:ident = $cname:literal, size $size:literal, align $align:literal {
            $( $(#[$fm:meta])* pub $field:ident : $ty:ty = $off:literal, )*
        }
    )*) => {
        $(
            $(#[$sm])*
            #[repr(C)]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, Immutable, KnownLayout)]
            pub struct $name {
                $( $(#[$fm])* pub $field: $ty, )*
            }

            const _: () = assert!(size_of::<$name>() == $size);
            const _: () = assert!(align_of::<$name>() == $align);
            $( const _: () = assert!(offset_of!($name, $field) == $off); )*

            impl AbiLayout for $name {
                const LAYOUT: StructLayout = StructLayout {
                    c_name: $cname,
                    size: size_of::<$name>(),
                    align: align_of::<$name>(),
                    fields: &[$(FieldLayout {
                        name: stringify!($field),
                        offset: offset_of!($name, $field),
                        size: size_of::<$ty>(),
                    },)*],
                };
            }
        )*

        /// Every ABI struct's layout, in reference-table order.
        pub const STRUCT_LAYOUTS: &[StructLayout] = &[$(<$name as AbiLayout>::LAYOUT,)*];
    };
}

abi_structs! {
    /// `struct neuron_ioctl_mem_alloc`: Argument of [`MEM_ALLOC`](crate::ioctl_codes::MEM_ALLOC).
    pub struct MemAlloc = "neuron_ioctl_mem_alloc", size 32, align 8 {
        /// Input; `__u64` in the header.
        pub size: u64 = 0,
        /// Input; `__u32` in the header.
        pub host_memory: u32 = 8,
        /// Input; `__u32` in the header.
        pub dram_channel: u32 = 12,
        /// Input; `__u32` in the header.
        pub dram_region: u32 = 16,
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 20,
        /// User address of the pointee (output); `__u64 *` in the header.
        pub mem_handle: UserPtr<u64> = 24,
    }
    /// `struct neuron_ioctl_mem_alloc_v2`: Argument of [`MEM_ALLOC_V2`](crate::ioctl_codes::MEM_ALLOC_V2).
    pub struct MemAllocV2 = "neuron_ioctl_mem_alloc_v2", size 40, align 8 {
        /// Input; `__u64` in the header.
        pub size: u64 = 0,
        /// Input; `__u64` in the header.
        pub align: u64 = 8,
        /// Input; `__u32` in the header.
        pub host_memory: u32 = 16,
        /// Input; `__u32` in the header.
        pub dram_channel: u32 = 20,
        /// Input; `__u32` in the header.
        pub dram_region: u32 = 24,
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 28,
        /// User address of the pointee (output); `__u64 *` in the header.
        pub mem_handle: UserPtr<u64> = 32,
    }
    /// `struct neuron_ioctl_mem_alloc_v2_mem_type`: Argument of [`MEM_ALLOC_V2MT`](crate::ioctl_codes::MEM_ALLOC_V2MT).
    pub struct MemAllocV2MemType = "neuron_ioctl_mem_alloc_v2_mem_type", size 48, align 8 {
        /// Input; `__u64` in the header.
        pub size: u64 = 0,
        /// Input; `__u64` in the header.
        pub align: u64 = 8,
        /// Input; `__u32` in the header.
        pub host_memory: u32 = 16,
        /// Input; `__u32` in the header.
        pub dram_channel: u32 = 20,
        /// Input; `__u32` in the header.
        pub dram_region: u32 = 24,
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 28,
        /// Input; `__u32` in the header.
        pub mem_type: u32 = 32,
        /// Implicit padding of the C layout (kept zero).
        pub _pad36: [u8; 4] = 36,
        /// User address of the pointee (output); `__u64 *` in the header.
        pub mem_handle: UserPtr<u64> = 40,
    }
    /// `struct neuron_ioctl_mem_alloc_v2_mem_type64`: Argument of [`MEM_ALLOC_V2MT64`](crate::ioctl_codes::MEM_ALLOC_V2MT64).
    pub struct MemAllocV2MemType64 = "neuron_ioctl_mem_alloc_v2_mem_type64", size 56, align 8 {
        /// Input; `__u64` in the header.
        pub size: u64 = 0,
        /// Input; `__u64` in the header.
        pub align: u64 = 8,
        /// Input; `__u32` in the header.
        pub host_memory: u32 = 16,
        /// Input; `__u32` in the header.
        pub dram_channel: u32 = 20,
        /// Input; `__u32` in the header.
        pub dram_region: u32 = 24,
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 28,
        /// Input; `__u32` in the header.
        pub mem_type: u32 = 32,
        /// Implicit padding of the C layout (kept zero).
        pub _pad36: [u8; 4] = 36,
        /// User address of the pointee (output); `__u64 *` in the header.
        pub mem_handle: UserPtr<u64> = 40,
        /// Direction not marked in the header; `__u32` in the header.
        pub pad: u32 = 48,
        /// Tail padding of the C layout (kept zero).
        pub _pad52: [u8; 4] = 52,
    }
    /// `struct neuron_ioctl_device_init`: Argument of [`DEVICE_INIT`](crate::ioctl_codes::DEVICE_INIT).
    pub struct DeviceInit = "neuron_ioctl_device_init", size 4, align 4 {
        /// Input; `__u32` in the header.
        pub mem_regions: u32 = 0,
    }
    /// `struct neuron_ioctl_device_reset`: Argument of [`NC_RESET`](crate::ioctl_codes::NC_RESET).
    pub struct DeviceReset = "neuron_ioctl_device_reset", size 8, align 4 {
        /// Input; `__u32` in the header.
        pub nc_map: u32 = 0,
        /// Output; `__u32` in the header.
        pub request_id: u32 = 4,
    }
    /// `struct neuron_ioctl_device_ready`: Argument of [`NC_RESET_READY`](crate::ioctl_codes::NC_RESET_READY).
    pub struct DeviceReady = "neuron_ioctl_device_ready", size 8, align 4 {
        /// Input; `__u32` in the header.
        pub request_id: u32 = 0,
        /// Output; `__s32` in the header.
        pub result: i32 = 4,
    }
    /// `struct neuron_ioctl_mem_get_info`: Argument of [`MEM_GET_INFO`](crate::ioctl_codes::MEM_GET_INFO).
    pub struct MemGetInfo = "neuron_ioctl_mem_get_info", size 24, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// User address of the pointee (output); `__u64 *` in the header.
        pub mmap_offset: UserPtr<u64> = 8,
        /// User address of the pointee (output); `__u64 *` in the header.
        pub pa: UserPtr<u64> = 16,
    }
    /// `struct neuron_ioctl_get_apps_info`: Argument of [`DEVICE_GET_ALL_APPS_INFO`](crate::ioctl_codes::DEVICE_GET_ALL_APPS_INFO).
    pub struct GetAppsInfo = "neuron_ioctl_get_apps_info", size 16, align 8 {
        /// Direction not marked in the header; `__u16` in the header.
        pub apps_info_flags: u16 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad2: [u8; 2] = 2,
        /// Input; `__u32` in the header.
        pub capacity: u32 = 4,
        /// Output; `__u32` in the header.
        pub size: u32 = 8,
        /// Implicit padding of the C layout (kept zero).
        pub _pad12: [u8; 4] = 12,
        /// Output; `struct neuron_app_info` in the header.
        pub app_data: [AppInfo; 0] = 16,
    }
    /// `struct neuron_ioctl_mem_get_pa`: Argument of [`MEM_GET_PA`](crate::ioctl_codes::MEM_GET_PA).
    pub struct MemGetPa = "neuron_ioctl_mem_get_pa", size 16, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// User address of the pointee (output); `__u64 *` in the header.
        pub pa: UserPtr<u64> = 8,
    }
    /// `struct neuron_ioctl_mem_get_extended_info`: Argument of [`MEM_GET_EXTENDED_INFO`](crate::ioctl_codes::MEM_GET_EXTENDED_INFO).
    pub struct MemGetExtendedInfo = "neuron_ioctl_mem_get_extended_info", size 48, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// Input; `__u32` in the header.
        pub version: u32 = 8,
        /// Output; `__u32` in the header.
        pub host_memory: u32 = 12,
        /// Output; `__u64` in the header.
        pub mmap_offset: u64 = 16,
        /// Output; `__u64` in the header.
        pub pa: u64 = 24,
        /// Output; `__u64` in the header.
        pub pid: u64 = 32,
        /// Output; `__u64` in the header.
        pub size: u64 = 40,
    }
    /// `struct neuron_ioctl_mem_free`: Argument of [`MEM_FREE`](crate::ioctl_codes::MEM_FREE).
    pub struct MemFree = "neuron_ioctl_mem_free", size 8, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
    }
    /// `struct neuron_ioctl_mem_copy`: Argument of [`MEM_COPY`](crate::ioctl_codes::MEM_COPY).
    pub struct MemCopy = "neuron_ioctl_mem_copy", size 32, align 8 {
        /// Input; `__u64` in the header.
        pub src_mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub dst_mem_handle: u64 = 8,
        /// Input; `__u32` in the header.
        pub size: u32 = 16,
        /// Input; `__u32` in the header.
        pub src_offset: u32 = 20,
        /// Input; `__u32` in the header.
        pub dst_offset: u32 = 24,
        /// Tail padding of the C layout (kept zero).
        pub _pad28: [u8; 4] = 28,
    }
    /// `struct neuron_ioctl_mem_copy64`: Argument of [`MEM_COPY64`](crate::ioctl_codes::MEM_COPY64).
    pub struct MemCopy64 = "neuron_ioctl_mem_copy64", size 40, align 8 {
        /// Input; `__u64` in the header.
        pub src_mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub dst_mem_handle: u64 = 8,
        /// Input; `__u64` in the header.
        pub size: u64 = 16,
        /// Input; `__u64` in the header.
        pub src_offset: u64 = 24,
        /// Input; `__u64` in the header.
        pub dst_offset: u64 = 32,
    }
    /// `struct neuron_ioctl_mem_copy_async`: Argument of [`MEM_COPY_ASYNC`](crate::ioctl_codes::MEM_COPY_ASYNC).
    pub struct MemCopyAsync = "neuron_ioctl_mem_copy_async", size 48, align 8 {
        /// Input; `__u64` in the header.
        pub src_mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub dst_mem_handle: u64 = 8,
        /// Input; `__u32` in the header.
        pub size: u32 = 16,
        /// Input; `__u32` in the header.
        pub src_offset: u32 = 20,
        /// Input; `__u32` in the header.
        pub dst_offset: u32 = 24,
        /// Implicit padding of the C layout (kept zero).
        pub _pad28: [u8; 4] = 28,
        /// Input; `__u64` in the header.
        pub host_prefetch_addr: u64 = 32,
        /// Input; `__u32` in the header.
        pub pwait_handle: u32 = 40,
        /// Output; `__u32` in the header.
        pub wait_handle: u32 = 44,
    }
    /// `struct neuron_ioctl_mem_copy_async64`: Argument of [`MEM_COPY_ASYNC64`](crate::ioctl_codes::MEM_COPY_ASYNC64).
    pub struct MemCopyAsync64 = "neuron_ioctl_mem_copy_async64", size 56, align 8 {
        /// Input; `__u64` in the header.
        pub src_mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub dst_mem_handle: u64 = 8,
        /// Input; `__u64` in the header.
        pub size: u64 = 16,
        /// Input; `__u64` in the header.
        pub src_offset: u64 = 24,
        /// Input; `__u64` in the header.
        pub dst_offset: u64 = 32,
        /// Input; `__u64` in the header.
        pub host_prefetch_addr: u64 = 40,
        /// Input; `__u32` in the header.
        pub pwait_handle: u32 = 48,
        /// Output; `__u32` in the header.
        pub wait_handle: u32 = 52,
    }
    /// `struct neuron_ioctl_mem_copy_async_wait`: Argument of [`MEM_COPY_ASYNC_WAIT`](crate::ioctl_codes::MEM_COPY_ASYNC_WAIT).
    pub struct MemCopyAsyncWait = "neuron_ioctl_mem_copy_async_wait", size 24, align 8 {
        /// Input; `__u64` in the header.
        pub src_mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub dst_mem_handle: u64 = 8,
        /// Input; `__u32` in the header.
        pub pwait_handle: u32 = 16,
        /// Tail padding of the C layout (kept zero).
        pub _pad20: [u8; 4] = 20,
    }
    /// `struct neuron_ioctl_memset`: Argument of [`MEMSET`](crate::ioctl_codes::MEMSET).
    pub struct Memset = "neuron_ioctl_memset", size 24, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub offset: u64 = 8,
        /// Input; `__u32` in the header.
        pub value: u32 = 16,
        /// Input; `__u32` in the header.
        pub size: u32 = 20,
    }
    /// `struct neuron_ioctl_memset64`: Argument of [`MEMSET64`](crate::ioctl_codes::MEMSET64).
    pub struct Memset64 = "neuron_ioctl_memset64", size 32, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub offset: u64 = 8,
        /// Input; `__u32` in the header.
        pub value: u32 = 16,
        /// Implicit padding of the C layout (kept zero).
        pub _pad20: [u8; 4] = 20,
        /// Input; `__u64` in the header.
        pub size: u64 = 24,
    }
    /// `struct neuron_ioctl_mem_buf_copy`: Argument of [`MEM_BUF_COPY`](crate::ioctl_codes::MEM_BUF_COPY).
    pub struct MemBufCopy = "neuron_ioctl_mem_buf_copy", size 32, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 8,
        /// Input; `__u32` in the header.
        pub size: u32 = 16,
        /// Input; `__u32` in the header.
        pub offset: u32 = 20,
        /// Input; `__u32` in the header.
        pub copy_to_mem_handle: u32 = 24,
        /// Tail padding of the C layout (kept zero).
        pub _pad28: [u8; 4] = 28,
    }
    /// `struct neuron_ioctl_mem_buf_copy64`: Argument of [`MEM_BUF_COPY64`](crate::ioctl_codes::MEM_BUF_COPY64).
    pub struct MemBufCopy64 = "neuron_ioctl_mem_buf_copy64", size 40, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 8,
        /// Input; `__u64` in the header.
        pub size: u64 = 16,
        /// Input; `__u64` in the header.
        pub offset: u64 = 24,
        /// Input; `__u32` in the header.
        pub copy_to_mem_handle: u32 = 32,
        /// Tail padding of the C layout (kept zero).
        pub _pad36: [u8; 4] = 36,
    }
    /// `struct neuron_ioctl_mem_buf_copy64zc`: Argument of [`MEM_BUF_ZEROCOPY64`](crate::ioctl_codes::MEM_BUF_ZEROCOPY64).
    pub struct MemBufCopy64zc = "neuron_ioctl_mem_buf_copy64zc", size 48, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 8,
        /// Input; `__u64` in the header.
        pub size: u64 = 16,
        /// Input; `__u64` in the header.
        pub offset: u64 = 24,
        /// Input; `__u32` in the header.
        pub is_copy_to_device: u32 = 32,
        /// Input; `__u32` in the header.
        pub bar4_wr_threshold: u32 = 36,
        /// Input; `__s32` in the header.
        pub h2t_qid: i32 = 40,
        /// Direction not marked in the header; `__u32` in the header.
        pub dummy: u32 = 44,
    }
    /// `struct neuron_ioctl_mem_buf_copy64zc_batches`: Argument of [`MEM_BUF_ZEROCOPY64_BATCHES`](crate::ioctl_codes::MEM_BUF_ZEROCOPY64_BATCHES).
    pub struct MemBufCopy64zcBatches = "neuron_ioctl_mem_buf_copy64zc_batches", size 32, align 8 {
        /// Input; `__u64` in the header.
        pub sequence_num: u64 = 0,
        /// User address of the pointee (input); `neuron_memcpy_batch_t *` in the header.
        pub batches_ptr: UserPtr<MemcpyBatch> = 8,
        /// Input; `__u32` in the header.
        pub num_batches: u32 = 16,
        /// Input; `__u16` in the header.
        pub is_copy_to_device: u16 = 20,
        /// Implicit padding of the C layout (kept zero).
        pub _pad22: [u8; 2] = 22,
        /// Input; `__s32` in the header.
        pub h2t_qid: i32 = 24,
        /// Input; `__u16` in the header.
        pub flags: u16 = 28,
        /// Tail padding of the C layout (kept zero).
        pub _pad30: [u8; 2] = 30,
    }
    /// `struct neuron_ioctl_program_engine`: Argument of [`PROGRAM_ENGINE`](crate::ioctl_codes::PROGRAM_ENGINE).
    pub struct ProgramEngine = "neuron_ioctl_program_engine", size 24, align 8 {
        /// Input; `__u64` in the header.
        pub dst: u64 = 0,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 8,
        /// Input; `__u32` in the header.
        pub size: u32 = 16,
        /// Input; `__u32` in the header.
        pub offset: u32 = 20,
    }
    /// `struct neuron_ioctl_program_engine_nc`: Argument of [`PROGRAM_ENGINE_NC`](crate::ioctl_codes::PROGRAM_ENGINE_NC).
    pub struct ProgramEngineNc = "neuron_ioctl_program_engine_nc", size 32, align 8 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad4: [u8; 4] = 4,
        /// Input; `__u64` in the header.
        pub dst: u64 = 8,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 16,
        /// Input; `__u32` in the header.
        pub size: u32 = 24,
        /// Input; `__u32` in the header.
        pub offset: u32 = 28,
    }
    /// `struct neuron_ioctl_program_engine_nc64`: Argument of [`PROGRAM_ENGINE_NC64`](crate::ioctl_codes::PROGRAM_ENGINE_NC64).
    pub struct ProgramEngineNc64 = "neuron_ioctl_program_engine_nc64", size 40, align 8 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad4: [u8; 4] = 4,
        /// Input; `__u64` in the header.
        pub dst: u64 = 8,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 16,
        /// Input; `__u64` in the header.
        pub size: u64 = 24,
        /// Input; `__u64` in the header.
        pub offset: u64 = 32,
    }
    /// `struct neuron_ioctl_bar_rw`: Argument of [`BAR_READ`](crate::ioctl_codes::BAR_READ), [`BAR_WRITE`](crate::ioctl_codes::BAR_WRITE).
    pub struct BarRw = "neuron_ioctl_bar_rw", size 32, align 8 {
        /// Input; `__u32` in the header.
        pub bar: u32 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad4: [u8; 4] = 4,
        /// User address of the pointee (input); `__u64 *` in the header.
        pub address: UserPtr<u64> = 8,
        /// User address of the pointee (input and output); `__u32 *` in the header.
        pub data: UserPtr<u32> = 16,
        /// Input; `__u32` in the header.
        pub count: u32 = 24,
        /// Tail padding of the C layout (kept zero).
        pub _pad28: [u8; 4] = 28,
    }
    /// `struct neuron_ioctl_post_metric`: Argument of [`POST_METRIC`](crate::ioctl_codes::POST_METRIC).
    pub struct PostMetric = "neuron_ioctl_post_metric", size 16, align 8 {
        /// User address of the pointee (input); `__u32 *` in the header.
        pub data: UserPtr<u32> = 0,
        /// Input; `__u32` in the header.
        pub data_size: u32 = 8,
        /// Tail padding of the C layout (kept zero).
        pub _pad12: [u8; 4] = 12,
    }
    /// `struct neuron_ioctl_dma_copy_descriptors`: Argument of [`DMA_COPY_DESCRIPTORS`](crate::ioctl_codes::DMA_COPY_DESCRIPTORS).
    pub struct DmaCopyDescriptors = "neuron_ioctl_dma_copy_descriptors", size 32, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 8,
        /// Input; `__u32` in the header.
        pub num_descs: u32 = 16,
        /// Input; `__u32` in the header.
        pub offset: u32 = 20,
        /// Input; `enum neuron_dma_queue_type` in the header.
        pub queue_type: u32 = 24,
        /// Tail padding of the C layout (kept zero).
        pub _pad28: [u8; 4] = 28,
    }
    /// `struct neuron_ioctl_dma_copy_descriptors64`: Argument of [`DMA_COPY_DESCRIPTORS64`](crate::ioctl_codes::DMA_COPY_DESCRIPTORS64).
    pub struct DmaCopyDescriptors64 = "neuron_ioctl_dma_copy_descriptors64", size 40, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 8,
        /// Input; `__u32` in the header.
        pub num_descs: u32 = 16,
        /// Implicit padding of the C layout (kept zero).
        pub _pad20: [u8; 4] = 20,
        /// Input; `__u64` in the header.
        pub offset: u64 = 24,
        /// Input; `enum neuron_dma_queue_type` in the header.
        pub queue_type: u32 = 32,
        /// Tail padding of the C layout (kept zero).
        pub _pad36: [u8; 4] = 36,
    }
    /// `struct neuron_ioctl_dma_queue_init`: Argument of [`DMA_QUEUE_INIT`](crate::ioctl_codes::DMA_QUEUE_INIT).
    pub struct DmaQueueInit = "neuron_ioctl_dma_queue_init", size 48, align 8 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub qid: u32 = 4,
        /// Input; `__u32` in the header.
        pub tx_desc_count: u32 = 8,
        /// Input; `__u32` in the header.
        pub rx_desc_count: u32 = 12,
        /// Input; `__u64` in the header.
        pub tx_handle: u64 = 16,
        /// Input; `__u64` in the header.
        pub rx_handle: u64 = 24,
        /// Input; `__u64` in the header.
        pub rxc_handle: u64 = 32,
        /// Input; `__u32` in the header.
        pub axi_port: u32 = 40,
        /// Tail padding of the C layout (kept zero).
        pub _pad44: [u8; 4] = 44,
    }
    /// `struct neuron_ioctl_dma_queue_init_batch`: Argument of [`DMA_QUEUE_INIT_BATCH`](crate::ioctl_codes::DMA_QUEUE_INIT_BATCH).
    pub struct DmaQueueInitBatch = "neuron_ioctl_dma_queue_init_batch", size 12296, align 8 {
        /// Direction not marked in the header; `__u32` in the header.
        pub count: u32 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad4: [u8; 4] = 4,
        /// Direction not marked in the header; `struct neuron_ioctl_dma_queue_init` in the header.
        pub entries: [DmaQueueInit; 256] = 8,
    }
    /// `struct neuron_ioctl_dma_queue_release`: Argument of [`DMA_QUEUE_RELEASE`](crate::ioctl_codes::DMA_QUEUE_RELEASE).
    pub struct DmaQueueRelease = "neuron_ioctl_dma_queue_release", size 8, align 4 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub qid: u32 = 4,
    }
    /// `struct neuron_ioctl_dma_quiesce_queues`: Reached from a command argument (nested or behind a pointer field).
    pub struct DmaQuiesceQueues = "neuron_ioctl_dma_quiesce_queues", size 264, align 4 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub engine_count: u32 = 4,
        /// Input; `__u32` in the header.
        pub queue_mask: [u32; 64] = 8,
    }
    /// `struct neuron_ioctl_dma_ack_completed`: Argument of [`DMA_ACK_COMPLETED`](crate::ioctl_codes::DMA_ACK_COMPLETED).
    pub struct DmaAckCompleted = "neuron_ioctl_dma_ack_completed", size 12, align 4 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub qid: u32 = 4,
        /// Input; `__u32` in the header.
        pub count: u32 = 8,
    }
    /// `struct neuron_ioctl_dma_queue_copy_start`: Argument of [`DMA_QUEUE_COPY_START`](crate::ioctl_codes::DMA_QUEUE_COPY_START).
    pub struct DmaQueueCopyStart = "neuron_ioctl_dma_queue_copy_start", size 16, align 4 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub qid: u32 = 4,
        /// Input; `__u32` in the header.
        pub tx_desc_count: u32 = 8,
        /// Input; `__u32` in the header.
        pub rx_desc_count: u32 = 12,
    }
    /// `struct neuron_ioctl_dma_eng_init`: Argument of [`DMA_ENG_INIT`](crate::ioctl_codes::DMA_ENG_INIT).
    pub struct DmaEngInit = "neuron_ioctl_dma_eng_init", size 4, align 4 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
    }
    /// `struct neuron_ioctl_dma_eng_set_state`: Argument of [`DMA_ENG_SET_STATE`](crate::ioctl_codes::DMA_ENG_SET_STATE).
    pub struct DmaEngSetState = "neuron_ioctl_dma_eng_set_state", size 8, align 4 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub state: u32 = 4,
    }
    /// `struct neuron_ioctl_dma_eng_get_state`: Argument of [`DMA_ENG_GET_STATE`](crate::ioctl_codes::DMA_ENG_GET_STATE).
    pub struct DmaEngGetState = "neuron_ioctl_dma_eng_get_state", size 16, align 8 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad4: [u8; 4] = 4,
        /// User address of the pointee (output); `struct neuron_dma_eng_state *` in the header.
        pub state: UserPtr<DmaEngState> = 8,
    }
    /// `struct neuron_ioctl_dma_queue_get_state`: Argument of [`DMA_QUEUE_GET_STATE`](crate::ioctl_codes::DMA_QUEUE_GET_STATE).
    pub struct DmaQueueGetState = "neuron_ioctl_dma_queue_get_state", size 24, align 8 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub qid: u32 = 4,
        /// User address of the pointee (output); `struct neuron_dma_queue_state *` in the header.
        pub tx: UserPtr<DmaQueueState> = 8,
        /// User address of the pointee (output); `struct neuron_dma_queue_state *` in the header.
        pub rx: UserPtr<DmaQueueState> = 16,
    }
    /// `struct neuron_ioctl_dma_descriptor_copyout`: Argument of [`DMA_DESCRIPTOR_COPYOUT`](crate::ioctl_codes::DMA_DESCRIPTOR_COPYOUT).
    pub struct DmaDescriptorCopyout = "neuron_ioctl_dma_descriptor_copyout", size 32, align 8 {
        /// Input; `__u32` in the header.
        pub eng_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub qid: u32 = 4,
        /// Input; `enum neuron_dma_queue_type` in the header.
        pub r#type: u32 = 8,
        /// Input; `__u32` in the header.
        pub start_index: u32 = 12,
        /// Input; `__u32` in the header.
        pub count: u32 = 16,
        /// Implicit padding of the C layout (kept zero).
        pub _pad20: [u8; 4] = 20,
        /// User address of the pointee (output); `void *` in the header.
        pub buffer: UserPtr<u8> = 24,
    }
    /// `struct neuron_ioctl_semaphore`: Argument of [`SEMAPHORE_INCREMENT`](crate::ioctl_codes::SEMAPHORE_INCREMENT), [`SEMAPHORE_DECREMENT`](crate::ioctl_codes::SEMAPHORE_DECREMENT), [`SEMAPHORE_READ`](crate::ioctl_codes::SEMAPHORE_READ), [`SEMAPHORE_WRITE`](crate::ioctl_codes::SEMAPHORE_WRITE), [`EVENT_SET`](crate::ioctl_codes::EVENT_SET), [`EVENT_GET`](crate::ioctl_codes::EVENT_GET).
    pub struct Semaphore = "neuron_ioctl_semaphore", size 12, align 4 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub semaphore_index: u32 = 4,
        /// Input and output; `__u32` in the header.
        pub value: u32 = 8,
    }
    /// `struct neuron_ioctl_event`: Argument of [`EVENT_SET`](crate::ioctl_codes::EVENT_SET), [`EVENT_GET`](crate::ioctl_codes::EVENT_GET).
    pub struct Event = "neuron_ioctl_event", size 12, align 4 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub event_index: u32 = 4,
        /// Input and output; `__u32` in the header.
        pub value: u32 = 8,
    }
    /// `struct neuron_ioctl_notifications_init_v1`: Argument of [`NOTIFICATIONS_INIT_V1`](crate::ioctl_codes::NOTIFICATIONS_INIT_V1).
    pub struct NotificationsInitV1 = "neuron_ioctl_notifications_init_v1", size 24, align 8 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub nq_type: u32 = 4,
        /// Input; `__u32` in the header.
        pub engine_index: u32 = 8,
        /// Input; `__u32` in the header.
        pub size: u32 = 12,
        /// Output; `__u64` in the header.
        pub mmap_offset: u64 = 16,
    }
    /// `struct neuron_ioctl_notifications_init_v2`: Argument of [`NOTIFICATIONS_INIT_V2`](crate::ioctl_codes::NOTIFICATIONS_INIT_V2).
    pub struct NotificationsInitV2 = "neuron_ioctl_notifications_init_v2", size 48, align 8 {
        /// Input; `__u32` in the header.
        pub nq_dev_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub nq_dev_type: u32 = 4,
        /// Input; `__u32` in the header.
        pub nq_type: u32 = 8,
        /// Input; `__u32` in the header.
        pub engine_index: u32 = 12,
        /// Input; `__u32` in the header.
        pub size: u32 = 16,
        /// Input; `__u32` in the header.
        pub on_host_memory: u32 = 20,
        /// Input; `__u32` in the header.
        pub dram_channel: u32 = 24,
        /// Input; `__u32` in the header.
        pub dram_region: u32 = 28,
        /// Output; `__u64` in the header.
        pub mmap_offset: u64 = 32,
        /// Output; `__u64` in the header.
        pub mem_handle: u64 = 40,
    }
    /// `struct neuron_ioctl_notifications_init_with_realloc_v2`: Argument of [`NOTIFICATIONS_INIT_WITH_REALLOC_V2`](crate::ioctl_codes::NOTIFICATIONS_INIT_WITH_REALLOC_V2).
    pub struct NotificationsInitWithReallocV2 = "neuron_ioctl_notifications_init_with_realloc_v2", size 56, align 8 {
        /// Input; `__u32` in the header.
        pub nq_dev_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub nq_dev_type: u32 = 4,
        /// Input; `__u32` in the header.
        pub nq_type: u32 = 8,
        /// Input; `__u32` in the header.
        pub engine_index: u32 = 12,
        /// Input; `__u32` in the header.
        pub size: u32 = 16,
        /// Input; `__u32` in the header.
        pub on_host_memory: u32 = 20,
        /// Input; `__u32` in the header.
        pub dram_channel: u32 = 24,
        /// Input; `__u32` in the header.
        pub dram_region: u32 = 28,
        /// Direction not marked in the header; `__u32` in the header.
        pub force_alloc_mem: u32 = 32,
        /// Implicit padding of the C layout (kept zero).
        pub _pad36: [u8; 4] = 36,
        /// Output; `__u64` in the header.
        pub mmap_offset: u64 = 40,
        /// Output; `__u64` in the header.
        pub mem_handle: u64 = 48,
    }
    /// `struct neuron_ioctl_neuron_ds_info`: Argument of [`ACQUIRE_NEURON_DS`](crate::ioctl_codes::ACQUIRE_NEURON_DS), [`RELEASE_NEURON_DS`](crate::ioctl_codes::RELEASE_NEURON_DS).
    pub struct NeuronDsInfo = "neuron_ioctl_neuron_ds_info", size 24, align 8 {
        /// Input; `pid_t` in the header.
        pub pid: i32 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad4: [u8; 4] = 4,
        /// Output; `__u64` in the header.
        pub mmap_offset: u64 = 8,
        /// Output; `__u32` in the header.
        pub size: u32 = 16,
        /// Tail padding of the C layout (kept zero).
        pub _pad20: [u8; 4] = 20,
    }
    /// `struct neuron_ioctl_notifications_destroy`: Argument of [`NOTIFICATIONS_DESTROY_V1`](crate::ioctl_codes::NOTIFICATIONS_DESTROY_V1).
    pub struct NotificationsDestroy = "neuron_ioctl_notifications_destroy", size 8, align 8 {
        /// Input; `__u64` in the header.
        pub mmap_offset: u64 = 0,
    }
    /// `struct neuron_ioctl_notifications_destroy_nq`: Reached from a command argument (nested or behind a pointer field).
    pub struct NotificationsDestroyNq = "neuron_ioctl_notifications_destroy_nq", size 12, align 4 {
        /// Input; `__u32` in the header.
        pub nq_dev_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub nq_type: u32 = 4,
        /// Input; `__u32` in the header.
        pub engine_index: u32 = 8,
    }
    /// `struct neuron_ioctl_notifications_queue_info`: Argument of [`NOTIFICATIONS_QUEUE_INFO`](crate::ioctl_codes::NOTIFICATIONS_QUEUE_INFO).
    pub struct NotificationsQueueInfo = "neuron_ioctl_notifications_queue_info", size 12, align 4 {
        /// Input; `__u8` in the header.
        pub nq_dev_id: u8 = 0,
        /// Input; `__u8` in the header.
        pub nq_dev_type: u8 = 1,
        /// Input; `__u8` in the header.
        pub nq_type: u8 = 2,
        /// Input; `__u8` in the header.
        pub engine_index: u8 = 3,
        /// Output; `__u32` in the header.
        pub head: u32 = 4,
        /// Output; `__u32` in the header.
        pub phase_bit: u32 = 8,
    }
    /// `struct neuron_ioctl_read_hw_counters`: Argument of [`READ_HW_COUNTERS`](crate::ioctl_codes::READ_HW_COUNTERS).
    pub struct ReadHwCounters = "neuron_ioctl_read_hw_counters", size 24, align 8 {
        /// User address of the pointee (input); `__u64 *` in the header.
        pub address: UserPtr<u64> = 0,
        /// User address of the pointee (input and output); `__u32 *` in the header.
        pub data: UserPtr<u32> = 8,
        /// Input; `__u32` in the header.
        pub count: u32 = 16,
        /// Tail padding of the C layout (kept zero).
        pub _pad20: [u8; 4] = 20,
    }
    /// `struct neuron_ioctl_crwl`: Argument of [`CRWL_READER_ENTER`](crate::ioctl_codes::CRWL_READER_ENTER), [`CRWL_READER_EXIT`](crate::ioctl_codes::CRWL_READER_EXIT), [`CRWL_WRITER_ENTER`](crate::ioctl_codes::CRWL_WRITER_ENTER), [`CRWL_WRITER_DOWNGRADE`](crate::ioctl_codes::CRWL_WRITER_DOWNGRADE).
    pub struct Crwl = "neuron_ioctl_crwl", size 36, align 4 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Input; `struct neuron_uuid` in the header.
        pub uuid: Uuid = 4,
    }
    /// `struct neuron_ioctl_crwl_nc_map`: Argument of [`CRWL_NC_RANGE_MARK`](crate::ioctl_codes::CRWL_NC_RANGE_MARK), [`CRWL_NC_RANGE_UNMARK`](crate::ioctl_codes::CRWL_NC_RANGE_UNMARK).
    pub struct CrwlNcMap = "neuron_ioctl_crwl_nc_map", size 24, align 8 {
        /// Input; `__u32` in the header.
        pub nc_count: u32 = 0,
        /// Input; `__u32` in the header.
        pub start_nc_index: u32 = 4,
        /// Input; `__u32` in the header.
        pub end_nc_index: u32 = 8,
        /// Output; `__u32` in the header.
        pub max_nc_available: u32 = 12,
        /// Input and output; `volatile long unsigned int` in the header.
        pub bitmap: u64 = 16,
    }
    /// `struct neuron_ioctl_crwl_nc_map_ext`: Argument of [`CRWL_NC_RANGE_MARK_EXT0`](crate::ioctl_codes::CRWL_NC_RANGE_MARK_EXT0), [`CRWL_NC_RANGE_UNMARK_EXT0`](crate::ioctl_codes::CRWL_NC_RANGE_UNMARK_EXT0).
    pub struct CrwlNcMapExt = "neuron_ioctl_crwl_nc_map_ext", size 80, align 8 {
        /// Input; `__u32` in the header.
        pub nc_count: u32 = 0,
        /// Input; `__u32` in the header.
        pub start_nc_index: u32 = 4,
        /// Input; `__u32` in the header.
        pub end_nc_index: u32 = 8,
        /// Output; `__u32` in the header.
        pub max_nc_available: u32 = 12,
        /// Input and output; `long unsigned int` in the header.
        pub bitmap: [u64; 8] = 16,
    }
    /// `struct neuron_ioctl_cinit_set`: Argument of [`CINIT_SET_STATE`](crate::ioctl_codes::CINIT_SET_STATE).
    pub struct CinitSet = "neuron_ioctl_cinit_set", size 12, align 4 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Input; `__u32` in the header.
        pub state: u32 = 4,
        /// Output; `__u32` in the header.
        pub new_state: u32 = 8,
    }
    /// `struct neuron_ioctl_nc_model_started_count`: Argument of [`NC_MODEL_STARTED_COUNT`](crate::ioctl_codes::NC_MODEL_STARTED_COUNT).
    pub struct NcModelStartedCount = "neuron_ioctl_nc_model_started_count", size 16, align 8 {
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad4: [u8; 4] = 4,
        /// Output; `__u64` in the header.
        pub started_count: u64 = 8,
    }
    /// `struct neuron_ioctl_compatible_version`: Argument of [`COMPATIBLE_VERSION`](crate::ioctl_codes::COMPATIBLE_VERSION).
    pub struct CompatibleVersion = "neuron_ioctl_compatible_version", size 8, align 4 {
        /// Output; `__u32` in the header.
        pub max: u32 = 0,
        /// Output; `__u32` in the header.
        pub min: u32 = 4,
    }
    /// `struct neuron_ioctl_device_basic_info`: Argument of [`DEVICE_BASIC_INFO`](crate::ioctl_codes::DEVICE_BASIC_INFO).
    pub struct DeviceBasicInfo = "neuron_ioctl_device_basic_info", size 8, align 4 {
        /// Output; `__u32` in the header.
        pub architecture: u32 = 0,
        /// Output; `__u32` in the header.
        pub revision: u32 = 4,
    }
    /// `struct neuron_ioctl_device_bdf`: Argument of [`DEVICE_BDF`](crate::ioctl_codes::DEVICE_BDF).
    pub struct DeviceBdf = "neuron_ioctl_device_bdf", size 8, align 4 {
        /// Direction not marked in the header; `__u32` in the header.
        pub bus_number: u32 = 0,
        /// Direction not marked in the header; `__u8` in the header.
        pub slot: u8 = 4,
        /// Direction not marked in the header; `__u8` in the header.
        pub func: u8 = 5,
        /// Tail padding of the C layout (kept zero).
        pub _pad6: [u8; 2] = 6,
    }
    /// `struct neuron_ioctl_device_bdf_ext`: Argument of [`DEVICE_BDF_EXT`](crate::ioctl_codes::DEVICE_BDF_EXT).
    pub struct DeviceBdfExt = "neuron_ioctl_device_bdf_ext", size 16, align 4 {
        /// Input; `__u32` in the header.
        pub nd_index: u32 = 0,
        /// Output; `__u32` in the header.
        pub domain: u32 = 4,
        /// Output; `__u32` in the header.
        pub bus_number: u32 = 8,
        /// Output; `__u8` in the header.
        pub slot: u8 = 12,
        /// Output; `__u8` in the header.
        pub func: u8 = 13,
        /// Tail padding of the C layout (kept zero).
        pub _pad14: [u8; 2] = 14,
    }
    /// `struct neuron_ioctl_resource_mmap_info`: Argument of [`RESOURCE_MMAP_INFO`](crate::ioctl_codes::RESOURCE_MMAP_INFO).
    pub struct ResourceMmapInfo = "neuron_ioctl_resource_mmap_info", size 32, align 8 {
        /// Input; `__u32` in the header.
        pub block: u32 = 0,
        /// Input; `__u32` in the header.
        pub block_id: u32 = 4,
        /// Input; `__u32` in the header.
        pub resource: u32 = 8,
        /// Implicit padding of the C layout (kept zero).
        pub _pad12: [u8; 4] = 12,
        /// Output; `__u64` in the header.
        pub offset: u64 = 16,
        /// Output; `__u64` in the header.
        pub size: u64 = 24,
    }
    /// `struct neuron_ioctl_device_info`: Argument of [`DEVICE_INFO`](crate::ioctl_codes::DEVICE_INFO).
    pub struct DeviceInfo = "neuron_ioctl_device_info", size 80, align 8 {
        /// Output; `__u32` in the header.
        pub architecture: u32 = 0,
        /// Output; `__u32` in the header.
        pub revision: u32 = 4,
        /// Output; `__u32` in the header.
        pub connected_device_count: u32 = 8,
        /// Output; `__u32` in the header.
        pub connected_devices: [u32; 8] = 12,
        /// Implicit padding of the C layout (kept zero).
        pub _pad44: [u8; 4] = 44,
        /// Output; `__u64` in the header.
        pub bar_address: [u64; 2] = 48,
        /// Output; `__u64` in the header.
        pub bar_size: [u64; 2] = 64,
    }
    /// `struct neuron_ioctl_dmabuf_fd`: Argument of [`DMABUF_FD`](crate::ioctl_codes::DMABUF_FD).
    pub struct DmabufFd = "neuron_ioctl_dmabuf_fd", size 24, align 8 {
        /// Direction not marked in the header; `__u64` in the header.
        pub va: u64 = 0,
        /// Direction not marked in the header; `__u64` in the header.
        pub size: u64 = 8,
        /// User address of the pointee (direction not marked in the header); `__s32 *` in the header.
        pub fd: UserPtr<i32> = 16,
    }
    /// `struct neuron_ioctl_device_driver_info`: Argument of [`DRIVER_INFO_GET`](crate::ioctl_codes::DRIVER_INFO_GET), [`DRIVER_INFO_SET`](crate::ioctl_codes::DRIVER_INFO_SET).
    pub struct DeviceDriverInfo = "neuron_ioctl_device_driver_info", size 24, align 8 {
        /// Output; `__u32` in the header.
        pub architecture: u32 = 0,
        /// Output; `__u32` in the header.
        pub revision: u32 = 4,
        /// Output; `__u32` in the header.
        pub version: u32 = 8,
        /// Output; `__u32` in the header.
        pub size: u32 = 12,
        /// Output; `__u64` in the header.
        pub feature_flags1: u64 = 16,
    }
    /// `struct neuron_ioctl_mem_get_mc_mmap_info`: Argument of [`MEM_MC_GET_INFO`](crate::ioctl_codes::MEM_MC_GET_INFO).
    pub struct MemGetMcMmapInfo = "neuron_ioctl_mem_get_mc_mmap_info", size 24, align 8 {
        /// Input; `__u64` in the header.
        pub pa: u64 = 0,
        /// Output; `__u64` in the header.
        pub mmap_offset: u64 = 8,
        /// Output; `__u64` in the header.
        pub size: u64 = 16,
    }
    /// `struct neuron_ioctl_mem_get_mc_mmap_info_v2`: Argument of [`MEM_MC_GET_INFO_V2`](crate::ioctl_codes::MEM_MC_GET_INFO_V2).
    pub struct MemGetMcMmapInfoV2 = "neuron_ioctl_mem_get_mc_mmap_info_v2", size 32, align 8 {
        /// Input; `__u64` in the header.
        pub pa: u64 = 0,
        /// Output; `__u64` in the header.
        pub mmap_offset: u64 = 8,
        /// Output; `__u64` in the header.
        pub size: u64 = 16,
        /// Output; `__u64` in the header.
        pub mem_handle: u64 = 24,
    }
    /// `struct neuron_ioctl_printk`: Argument of [`PRINTK`](crate::ioctl_codes::PRINTK).
    pub struct Printk = "neuron_ioctl_printk", size 16, align 8 {
        /// User address of the pointee (input); `void *` in the header.
        pub buffer: UserPtr<u8> = 0,
        /// Input; `__u32` in the header.
        pub size: u32 = 8,
        /// Input; `__u32` in the header.
        pub action: u32 = 12,
    }
    /// `struct neuron_ioctl_host_device_id`: Argument of [`HOST_DEVICE_ID`](crate::ioctl_codes::HOST_DEVICE_ID).
    pub struct HostDeviceId = "neuron_ioctl_host_device_id", size 4, align 4 {
        /// Output; `__u32` in the header.
        pub host_device_id: u32 = 0,
    }
    /// `struct neuron_ioctl_dump_mem_chunks`: Argument of [`DUMP_MEM_CHUNKS`](crate::ioctl_codes::DUMP_MEM_CHUNKS).
    pub struct DumpMemChunks = "neuron_ioctl_dump_mem_chunks", size 24, align 8 {
        /// Direction not marked in the header; `__u32` in the header.
        pub hbm_index: u32 = 0,
        /// Direction not marked in the header; `__u32` in the header.
        pub num_entries_in: u32 = 4,
        /// Direction not marked in the header; `__u32` in the header.
        pub num_entries_out: u32 = 8,
        /// Implicit padding of the C layout (kept zero).
        pub _pad12: [u8; 4] = 12,
        /// User address of the pointee (direction not marked in the header); `struct neuron_ioctl_mem_chunk_info *` in the header.
        pub data: UserPtr<MemChunkInfo> = 16,
    }
    /// `struct neuron_ioctl_nc_pid_state_dump`: Argument of [`NC_PID_STATE_DUMP`](crate::ioctl_codes::NC_PID_STATE_DUMP).
    pub struct NcPidStateDump = "neuron_ioctl_nc_pid_state_dump", size 16, align 4 {
        /// Input; `__u32` in the header.
        pub size: u32 = 0,
        /// Input; `__u32` in the header.
        pub nc_id: u32 = 4,
        /// Input; `__u32` in the header.
        pub filter_log_owner: u32 = 8,
        /// Input; `__u32` in the header.
        pub log_dump_limit: u32 = 12,
    }
    /// `struct neuron_ioctl_host_device_id_to_rid_map`: Argument of [`HOST_DEVICE_ID_TO_RID_MAP`](crate::ioctl_codes::HOST_DEVICE_ID_TO_RID_MAP).
    pub struct HostDeviceIdToRidMap = "neuron_ioctl_host_device_id_to_rid_map", size 260, align 4 {
        /// Output; `__u32` in the header.
        pub count: u32 = 0,
        /// Output; `__u32` in the header.
        pub host_did_to_rid_map: [u32; 64] = 4,
    }
    /// `struct neuron_ioctl_hbm_scrub_start`: Argument of [`HBM_SCRUB_START`](crate::ioctl_codes::HBM_SCRUB_START).
    pub struct HbmScrubStart = "neuron_ioctl_hbm_scrub_start", size 16, align 4 {
        /// Direction not marked in the header; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Direction not marked in the header; `__u32` in the header.
        pub hbm_index: u32 = 4,
        /// Direction not marked in the header; `__u32` in the header.
        pub axi_port: u32 = 8,
        /// Direction not marked in the header; `__u32` in the header.
        pub init_val: u32 = 12,
    }
    /// `struct neuron_ioctl_hbm_scrub_wait`: Argument of [`HBM_SCRUB_WAIT`](crate::ioctl_codes::HBM_SCRUB_WAIT).
    pub struct HbmScrubWait = "neuron_ioctl_hbm_scrub_wait", size 8, align 4 {
        /// Direction not marked in the header; `__u32` in the header.
        pub nc_id: u32 = 0,
        /// Direction not marked in the header; `__u32` in the header.
        pub hbm_index: u32 = 4,
    }
    /// `struct neuron_ioctl_get_logical_to_physical_nc_map`: Argument of [`GET_LOGICAL_TO_PHYSICAL_NC_MAP`](crate::ioctl_codes::GET_LOGICAL_TO_PHYSICAL_NC_MAP).
    pub struct GetLogicalToPhysicalNcMap = "neuron_ioctl_get_logical_to_physical_nc_map", size 16, align 8 {
        /// User address of the pointee (direction not marked in the header); `struct neuron_ioctl_nc_map *` in the header.
        pub map: UserPtr<NcMap> = 0,
        /// Direction not marked in the header; `__u32` in the header.
        pub max_map_entries: u32 = 8,
        /// Direction not marked in the header; `__u32` in the header.
        pub mapping_version: u32 = 12,
    }
    /// `struct neuron_ioctl_pod_info`: Argument of [`POD_INFO`](crate::ioctl_codes::POD_INFO).
    pub struct PodInfo = "neuron_ioctl_pod_info", size 260, align 2 {
        /// Input; `__u16` in the header.
        pub sz: u16 = 0,
        /// Output; `__u8` in the header.
        pub pod_type: u8 = 2,
        /// Output; `__u8` in the header.
        pub pod_id: [u8; 256] = 3,
        /// Output; `__u8` in the header.
        pub pod_sz: u8 = 259,
    }
    /// `struct neuron_ioctl_pod_status`: Argument of [`POD_STATUS`](crate::ioctl_codes::POD_STATUS).
    pub struct PodStatus = "neuron_ioctl_pod_status", size 268, align 4 {
        /// Input; `__u16` in the header.
        pub sz: u16 = 0,
        /// Output; `__u8` in the header.
        pub pod_id: [u8; 256] = 2,
        /// Implicit padding of the C layout (kept zero).
        pub _pad258: [u8; 2] = 258,
        /// Output; `__u32` in the header.
        pub state: u32 = 260,
        /// Output; `__u8` in the header.
        pub pod_type: u8 = 264,
        /// Output; `__u8` in the header.
        pub pod_sz: u8 = 265,
        /// Output; `__s8` in the header.
        pub node_id: i8 = 266,
        /// Tail padding of the C layout (kept zero).
        pub _pad267: [u8; 1] = 267,
    }
    /// `struct neuron_ioctl_pod_status_v2`: Argument of [`POD_STATUS_V2`](crate::ioctl_codes::POD_STATUS_V2).
    pub struct PodStatusV2 = "neuron_ioctl_pod_status_v2", size 276, align 4 {
        /// Direction not marked in the header; `struct neuron_ioctl_pod_status` in the header.
        pub v1: PodStatus = 0,
        /// Output; `__u32` in the header.
        pub mode: u32 = 268,
        /// Output; `__u32` in the header.
        pub modes_supported: u32 = 272,
    }
    /// `struct neuron_ioctl_pod_ctrl`: Argument of [`POD_CTRL`](crate::ioctl_codes::POD_CTRL).
    pub struct PodCtrl = "neuron_ioctl_pod_ctrl", size 16, align 4 {
        /// Input; `__u16` in the header.
        pub sz: u16 = 0,
        /// Implicit padding of the C layout (kept zero).
        pub _pad2: [u8; 2] = 2,
        /// Input; `__u32` in the header.
        pub ctrl: u32 = 4,
        /// Input; `__u32` in the header.
        pub timeout: u32 = 8,
        /// Output; `__u32` in the header.
        pub state: u32 = 12,
    }
    /// `struct neuron_ioctl_pod_ctrl_v2`: Argument of [`POD_CTRL_V2`](crate::ioctl_codes::POD_CTRL_V2).
    pub struct PodCtrlV2 = "neuron_ioctl_pod_ctrl_v2", size 20, align 4 {
        /// Direction not marked in the header; `struct neuron_ioctl_pod_ctrl` in the header.
        pub v1: PodCtrl = 0,
        /// Input; `__u32` in the header.
        pub mode: u32 = 16,
    }
    /// `struct neuron_ioctl_h2t_dma_alloc_queues`: Argument of [`H2T_DMA_ALLOC_QUEUES`](crate::ioctl_codes::H2T_DMA_ALLOC_QUEUES).
    pub struct H2tDmaAllocQueues = "neuron_ioctl_h2t_dma_alloc_queues", size 20, align 4 {
        /// Input; `__u16` in the header.
        pub sz: u16 = 0,
        /// Input; `__u16` in the header.
        pub nc_id: u16 = 2,
        /// Input; `__u16` in the header.
        pub copy_queue_cnt: u16 = 4,
        /// Input; `__u16` in the header.
        pub service_queue_cnt: u16 = 6,
        /// Output; `__u32` in the header.
        pub copy_queue_bmap: u32 = 8,
        /// Output; `__u32` in the header.
        pub service_queue_bmap: u32 = 12,
        /// Output; `__u32` in the header.
        pub copy_default_queue: u32 = 16,
    }
    /// `struct neuron_ioctl_h2t_dma_free_queues`: Argument of [`H2T_DMA_FREE_QUEUES`](crate::ioctl_codes::H2T_DMA_FREE_QUEUES).
    pub struct H2tDmaFreeQueues = "neuron_ioctl_h2t_dma_free_queues", size 8, align 4 {
        /// Input; `__u16` in the header.
        pub sz: u16 = 0,
        /// Input; `__u8` in the header.
        pub nc_id: u8 = 2,
        /// Input; `__u8` in the header.
        pub fill0: u8 = 3,
        /// Input; `__u32` in the header.
        pub queue_bmap: u32 = 4,
    }
    /// `struct neuron_ioctl_power_profile`: Argument of [`POWER_PROFILE`](crate::ioctl_codes::POWER_PROFILE).
    pub struct PowerProfile = "neuron_ioctl_power_profile", size 8, align 4 {
        /// Input; `__u16` in the header.
        pub sz: u16 = 0,
        /// Input; `__u16` in the header.
        pub ctrl: u16 = 2,
        /// Input; `__u32` in the header.
        pub profile: u32 = 4,
    }
    /// `struct neuron_ioctl_metrics_ctrl`: Argument of [`METRICS_CTRL`](crate::ioctl_codes::METRICS_CTRL).
    pub struct MetricsCtrl = "neuron_ioctl_metrics_ctrl", size 4, align 4 {
        /// Input; `__u32` in the header.
        pub mode: u32 = 0,
    }
    /// `struct neuron_ioctl_throttling_notifications` (new in 2.26.5.0): Argument of [`THROTTLING_NOTIFICATIONS`](crate::ioctl_codes::THROTTLING_NOTIFICATIONS).
    pub struct ThrottlingNotifications = "neuron_ioctl_throttling_notifications", size 4, align 4 {
        /// Input; `__u32` in the header (non-zero enables, 0 clears every firmware feature).
        pub enable: u32 = 0,
    }
    /// `struct neuron_ioctl_get_va_placement` (new in 2.26.5.0): Argument of [`GET_VA_PLACEMENT`](crate::ioctl_codes::GET_VA_PLACEMENT).
    pub struct GetVaPlacement = "neuron_ioctl_get_va_placement", size 16, align 8 {
        /// User virtual address to look up (input); `__u64` in the header.
        pub va: u64 = 0,
        /// Output; `__s32` in the header (-1 when not found).
        pub device_index: i32 = 8,
        /// Output; `__s32` in the header (-1 when not found).
        pub hbm_index: i32 = 12,
    }
    /// `struct nrt_tensor_batch_op`: Reached from a command argument (nested or behind a pointer field).
    pub struct TensorBatchOp = "nrt_tensor_batch_op", size 24, align 8 {
        /// Direction not marked in the header; `nrt_tensor_batch_offset_t` in the header.
        pub offset: u64 = 0,
        /// Direction not marked in the header; `nrt_tensor_batch_size_t` in the header.
        pub size: u64 = 8,
        /// User address of the pointee (direction not marked in the header); `void *` in the header.
        pub buffer: UserPtr<u8> = 16,
    }
    /// `struct neuron_dma_eng_state`: Reached from a command argument (nested or behind a pointer field).
    pub struct DmaEngState = "neuron_dma_eng_state", size 20, align 4 {
        /// Direction not marked in the header; `__u32` in the header.
        pub revision_id: u32 = 0,
        /// Direction not marked in the header; `__u32` in the header.
        pub max_queues: u32 = 4,
        /// Direction not marked in the header; `__u32` in the header.
        pub num_queues: u32 = 8,
        /// Direction not marked in the header; `__u32` in the header.
        pub tx_state: u32 = 12,
        /// Direction not marked in the header; `__u32` in the header.
        pub rx_state: u32 = 16,
    }
    /// `struct neuron_dma_queue_state`: Reached from a command argument (nested or behind a pointer field).
    pub struct DmaQueueState = "neuron_dma_queue_state", size 48, align 8 {
        /// Direction not marked in the header; `__u32` in the header.
        pub hw_status: u32 = 0,
        /// Direction not marked in the header; `__u32` in the header.
        pub sw_status: u32 = 4,
        /// Direction not marked in the header; `__u64` in the header.
        pub base_addr: u64 = 8,
        /// Direction not marked in the header; `__u32` in the header.
        pub length: u32 = 16,
        /// Direction not marked in the header; `__u32` in the header.
        pub head_pointer: u32 = 20,
        /// Direction not marked in the header; `__u32` in the header.
        pub tail_pointer: u32 = 24,
        /// Implicit padding of the C layout (kept zero).
        pub _pad28: [u8; 4] = 28,
        /// Direction not marked in the header; `__u64` in the header.
        pub completion_base_addr: u64 = 32,
        /// Direction not marked in the header; `__u32` in the header.
        pub completion_head: u32 = 40,
        /// Tail padding of the C layout (kept zero).
        pub _pad44: [u8; 4] = 44,
    }
    /// `struct neuron_uuid`: Reached from a command argument (nested or behind a pointer field).
    pub struct Uuid = "neuron_uuid", size 32, align 1 {
        /// Direction not marked in the header; `__u8` in the header.
        pub value: [u8; 32] = 0,
    }
    /// `struct neuron_app_info`: Reached from a command argument (nested or behind a pointer field).
    pub struct AppInfo = "neuron_app_info", size 152, align 8 {
        /// Direction not marked in the header; `__s32` in the header.
        pub pid: i32 = 0,
        /// Direction not marked in the header; `__u8` in the header.
        pub nc_lock_map: u8 = 4,
        /// Direction not marked in the header; `struct neuron_uuid` in the header.
        pub uuid_data: [Uuid; 4] = 5,
        /// Implicit padding of the C layout (kept zero).
        pub _pad133: [u8; 3] = 133,
        /// Direction not marked in the header; `size_t` in the header.
        pub host_mem_size: u64 = 136,
        /// Direction not marked in the header; `size_t` in the header.
        pub device_mem_size: u64 = 144,
    }
    /// `struct neuron_ioctl_mem_chunk_info`: Reached from a command argument (nested or behind a pointer field).
    pub struct MemChunkInfo = "neuron_ioctl_mem_chunk_info", size 24, align 8 {
        /// Direction not marked in the header; `__u64` in the header.
        pub pa: u64 = 0,
        /// Direction not marked in the header; `__u64` in the header.
        pub size: u64 = 8,
        /// Direction not marked in the header; `__u32` in the header.
        pub mem_type: u32 = 16,
        /// Tail padding of the C layout (kept zero).
        pub _pad20: [u8; 4] = 20,
    }
    /// `struct neuron_ioctl_nc_map_entry`: Reached from a command argument (nested or behind a pointer field).
    pub struct NcMapEntry = "neuron_ioctl_nc_map_entry", size 8, align 4 {
        /// Direction not marked in the header; `__u32` in the header.
        pub device_id: u32 = 0,
        /// Direction not marked in the header; `__u32` in the header.
        pub device_nc_idx: u32 = 4,
    }
    /// `struct neuron_ioctl_nc_map`: Reached from a command argument (nested or behind a pointer field).
    pub struct NcMap = "neuron_ioctl_nc_map", size 4, align 4 {
        /// Direction not marked in the header; `__u32` in the header.
        pub num_entries: u32 = 0,
        /// Direction not marked in the header; `struct neuron_ioctl_nc_map_entry` in the header.
        pub mappings: [NcMapEntry; 0] = 4,
    }
    /// `struct neuron_memcpy_batch`: Reached from a command argument (nested or behind a pointer field).
    pub struct MemcpyBatch = "neuron_memcpy_batch", size 40, align 8 {
        /// Input; `__u64` in the header.
        pub mem_handle: u64 = 0,
        /// Input; `__u64` in the header.
        pub mem_handle_offset: u64 = 8,
        /// User address of the pointee (input); `const nrt_tensor_batch_op_t *` in the header.
        pub ops_ptr: UserPtr<TensorBatchOp> = 16,
        /// Input; `__u32` in the header.
        pub num_ops: u32 = 24,
        /// Input; `__u16` in the header.
        pub bar4_wr_threshold: u16 = 28,
        /// Input; `__u16` in the header.
        pub flags: u16 = 30,
        /// User address of the pointee (input); `void *` in the header.
        pub context: UserPtr<u8> = 32,
    }
}
