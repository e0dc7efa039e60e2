//! Request numbers: the Linux `_IOC` encoding, one catalog entry ([`Command`]) and the typed
//! request ([`Request`]) that ties a command to the Rust type of its argument.
//!
//! A request number is `dir << 30 | size << 16 | 'N' << 8 | nr` (`ioctl-README.md`, "Request
//! encoding"). Each generated constant is built by [`Request`]'s constructors from its direction,
//! nr and the size the C macro encodes — 8 (`sizeof` a pointer) for pointer-form commands, the
//! argument size for value-form commands, 0 for `_IO` — and a compile-time assert compares the
//! result with the table's `request_hex`, so a layout and its request number cannot drift.

use core::fmt;
use core::marker::PhantomData;

use crate::returns::Returns;

/// The ioctl type byte of every Neuron command (`'N'`, `ioctl-README.md`: "The type byte is
/// `'N'` (0x4E) for every command").
pub const TYPE: u8 = b'N';

const NR_SHIFT: u32 = 0;
const TYPE_SHIFT: u32 = 8;
const SIZE_SHIFT: u32 = 16;
const DIR_SHIFT: u32 = 30;
/// The size field is 14 bits wide on x86_64/arm64 Linux (`ioctl-README.md`: "size 14 bits").
pub const MAX_SIZE: usize = (1 << 14) - 1;

/// `as_str` and `Display` for an enum that stands for one column of `ioctl-commands.tsv`: each
/// variant's spelling in that column, given once.
macro_rules! spelled {
    ($ty:ident, $column:literal, { $($variant:ident => $text:literal),* $(,)? }) => {
        impl $ty {
            #[doc = concat!(
                "The reference table's spelling (`ioctl-commands.tsv` column `", $column, "`): ",
                $("`", $text, "` ",)*
            )]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)*
                }
            }
        }

        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use spelled;

/// Data direction bits of a request (`_IOC_DIR`), as the caller sees them. The driver ignores
/// them except for DRIVER_INFO, so they often disagree with the real data flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// `_IO`: no argument.
    None = 0,
    /// `_IOW`: user to kernel.
    Write = 1,
    /// `_IOR`: kernel to user.
    Read = 2,
    /// `_IOWR`: both ways.
    ReadWrite = 3,
}

impl Dir {
    /// The two direction bits of `code`.
    pub const fn of(code: u32) -> Self {
        match code >> DIR_SHIFT {
            0 => Self::None,
            1 => Self::Write,
            2 => Self::Read,
            _ => Self::ReadWrite,
        }
    }
}

spelled!(Dir, "dir", { None => "none", Write => "W", Read => "R", ReadWrite => "WR" });

/// How the C macro names the argument type, which decides the encoded size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `_IOx(.., struct s *)`: encodes 8, but the driver copies the whole struct from the
    /// argument address (the argument is the struct's address, not a pointer to a pointer).
    Pointer,
    /// `_IOx(.., struct s)`: encodes and copies the struct size.
    Struct,
    /// `_IO`: no argument.
    None,
}

spelled!(Form, "form", { Pointer => "pointer", Struct => "struct", None => "none" });

/// Builds a request number the way Linux `_IOC(dir, type, nr, size)` does.
///
/// Panics (a compile error in const context) when `size` does not fit the 14-bit field.
#[allow(
    clippy::cast_possible_truncation,
    reason = "size is at most MAX_SIZE, asserted first"
)]
pub const fn ioc(dir: Dir, ty: u8, nr: u8, size: usize) -> u32 {
    assert!(
        size <= MAX_SIZE,
        "ioctl argument size does not fit the 14-bit size field"
    );
    ((dir as u32) << DIR_SHIFT)
        | ((size as u32) << SIZE_SHIFT)
        | ((ty as u32) << TYPE_SHIFT)
        | ((nr as u32) << NR_SHIFT)
}

/// The `_IOC_NR` byte of a request.
pub const fn nr_of(code: u32) -> u8 {
    code.to_le_bytes()[0]
}

/// The `_IOC_TYPE` byte of a request.
pub const fn type_of(code: u32) -> u8 {
    code.to_le_bytes()[1]
}

/// The 14-bit `_IOC_SIZE` of a request.
pub const fn size_of_code(code: u32) -> u16 {
    // Masked to 14 bits, so the value always fits.
    ((code >> SIZE_SHIFT) & 0x3FFF) as u16
}

/// One catalog entry, untyped: the facts of one row of `ioctl-commands.tsv` that user space
/// needs. How the driver routes it is kernel-side, in [`crate::routing`] and each release's
/// `kernel` module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Command {
    name: &'static str,
    code: u32,
    form: Form,
    arg: Option<(usize, usize)>,
    arg_type: &'static str,
    returns: Returns,
}

impl Command {
    /// The header's macro name, e.g. `NEURON_IOCTL_MEM_COPY64`.
    pub const fn name(&self) -> &'static str {
        self.name
    }
    /// The macro name without the `NEURON_IOCTL_` prefix.
    pub fn short_name(&self) -> &'static str {
        self.name.strip_prefix("NEURON_IOCTL_").unwrap_or(self.name)
    }
    /// The 32-bit request number.
    pub const fn code(&self) -> u32 {
        self.code
    }
    /// Direction bits.
    pub const fn dir(&self) -> Dir {
        Dir::of(self.code)
    }
    /// Command number (`_IOC_NR`).
    pub const fn nr(&self) -> u8 {
        nr_of(self.code)
    }
    /// Encoded size (`_IOC_SIZE`): 8 for pointer form, the struct size for value form.
    pub const fn size(&self) -> u16 {
        size_of_code(self.code)
    }
    /// Argument form.
    pub const fn form(&self) -> Form {
        self.form
    }
    /// Bytes the driver copies from the argument address (`sizeof` the struct, or of the
    /// pointee for pointer form); `None` for `_IO` commands and for DMA_QUIESCE_QUEUES, whose
    /// macro names an undefined struct.
    pub const fn arg_size(&self) -> Option<usize> {
        match self.arg {
            Some((size, _)) => Some(size),
            None => None,
        }
    }
    /// Alignment of the argument struct (same `None` cases as [`Command::arg_size`]).
    pub const fn arg_align(&self) -> Option<usize> {
        match self.arg {
            Some((_, align)) => Some(align),
            None => None,
        }
    }
    /// The argument type as the header's macro spells it (`ioctl-commands.tsv` column
    /// `arg_type`, e.g. `struct neuron_ioctl_mem_copy64`); `-` for `_IO` commands.
    pub const fn arg_type(&self) -> &'static str {
        self.arg_type
    }
    /// The C struct tag of the argument (`arg_type` without `struct ` and ` *`), `None` for
    /// `_IO` commands and scalar arguments.
    pub fn arg_struct(&self) -> Option<&'static str> {
        let t = self.arg_type.strip_prefix("struct ")?;
        Some(t.strip_suffix(" *").unwrap_or(t))
    }
    /// How the handler's return value reads.
    pub const fn returns(&self) -> Returns {
        self.returns
    }
}

/// A typed request: the catalog entry plus the argument type `A` whose address is passed.
///
/// The type ties each command to its argument layout, so a wrapper cannot hand
/// `MEM_COPY64` a `MemCopy` (the size overload would make the kernel read 40 bytes from a
/// 32-byte object).
pub struct Request<A> {
    cmd: Command,
    _arg: PhantomData<fn(&mut A)>,
}

impl<A> Clone for Request<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for Request<A> {}
impl<A> fmt::Debug for Request<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Request").field(&self.cmd).finish()
    }
}

impl<A> Request<A> {
    const fn build(
        name: &'static str,
        dir: Dir,
        nr: u8,
        form: Form,
        arg: Option<(usize, usize)>,
        arg_type: &'static str,
        returns: Returns,
    ) -> Self {
        let size = match form {
            // `sizeof(struct s *)`: what the C macro encodes for pointer-form commands.
            Form::Pointer => size_of::<*mut A>(),
            Form::Struct => size_of::<A>(),
            Form::None => 0,
        };
        Self {
            cmd: Command {
                name,
                code: ioc(dir, TYPE, nr, size),
                form,
                arg,
                arg_type,
                returns,
            },
            _arg: PhantomData,
        }
    }

    /// A pointer-form command (`_IOx('N', nr, A *)`): encodes size 8; the driver copies
    /// `size_of::<A>()` bytes from the argument address.
    pub const fn pointer(
        name: &'static str,
        dir: Dir,
        nr: u8,
        arg_type: &'static str,
        returns: Returns,
    ) -> Self {
        let arg = Some((size_of::<A>(), align_of::<A>()));
        Self::build(name, dir, nr, Form::Pointer, arg, arg_type, returns)
    }

    /// A pointer-form command whose macro names a struct the header never defines
    /// (DMA_QUIESCE_QUEUES): the driver rejects it before copying anything.
    pub const fn pointer_undefined(
        name: &'static str,
        dir: Dir,
        nr: u8,
        arg_type: &'static str,
        returns: Returns,
    ) -> Self {
        Self::build(name, dir, nr, Form::Pointer, None, arg_type, returns)
    }

    /// A value-form command (`_IOx('N', nr, A)`): encodes and copies `size_of::<A>()`.
    pub const fn value(
        name: &'static str,
        dir: Dir,
        nr: u8,
        arg_type: &'static str,
        returns: Returns,
    ) -> Self {
        let arg = Some((size_of::<A>(), align_of::<A>()));
        Self::build(name, dir, nr, Form::Struct, arg, arg_type, returns)
    }

    /// The untyped catalog entry.
    pub const fn command(&self) -> Command {
        self.cmd
    }
    /// The 32-bit request number.
    pub const fn code(&self) -> u32 {
        self.cmd.code
    }
    /// The header's macro name.
    pub const fn name(&self) -> &'static str {
        self.cmd.name
    }
}

impl Request<()> {
    /// An `_IO('N', nr)` command: no argument, size 0.
    pub const fn none(
        name: &'static str,
        dir: Dir,
        nr: u8,
        arg_type: &'static str,
        returns: Returns,
    ) -> Self {
        Self::build(name, dir, nr, Form::None, None, arg_type, returns)
    }
}

/// Declares a release's catalog, one line per opcode:
///
/// `NAME: Arg = ctor(Dir, nr) => 0xREQUEST, Returns, "arg_type", "handler note";`
///
/// Each line becomes a typed [`Request`] constant (macro name `NEURON_IOCTL_` + `NAME`) and a
/// compile-time assert that the request number re-encoded from the direction, nr and
/// `size_of::<Arg>()` is the table's `request_hex`; `CATALOG` lists the lines in table order.
macro_rules! requests {
    ($(
        $name:ident : $arg:ty = $ctor:ident($dir:ident, $nr:literal) => $hex:literal,
            $ret:ident $(($errno:ident))?, $arg_type:literal, $note:literal;
    )*) => {
        $(
            #[doc = concat!(
                "`NEURON_IOCTL_", stringify!($name), "` (`", stringify!($hex), "`, `",
                $arg_type, "`): ", $note
            )]
            pub const $name: $crate::Request<$arg> = $crate::Request::<$arg>::$ctor(
                concat!("NEURON_IOCTL_", stringify!($name)),
                $crate::Dir::$dir,
                $nr,
                $arg_type,
                $crate::Returns::$ret $(($crate::errno::$errno))?,
            );
            const _: () = assert!($name.code() == $hex);
        )*

        /// Every command of this release's table, in table order.
        pub const CATALOG: [$crate::Command; [$(stringify!($name)),*].len()] =
            [$($name.command(),)*];
    };
}
pub(crate) use requests;
