//! The command catalog: every `NEURON_IOCTL_*` request of the driver as a typed constant, plus
//! the decoder and the kernel's routing walk.
//!
//! A request number is `dir << 30 | size << 16 | 'N' << 8 | nr` (the Linux `_IOC` layout).
//! Each constant is built by [`ioc`] from its direction, nr and the size the C macro would
//! encode: 8 (`sizeof` a pointer) for pointer-form commands, the struct size for value-form
//! commands, 0 for `_IO` commands. That is why size-overloaded siblings such as
//! [`MEM_COPY`] (8) and [`MEM_COPY64`] (40) share an nr but get distinct request numbers.
//!
//! ```
//! use ndl_std::ioctl_codes::{self, Dir, Lane, MEM_COPY64, PROGRAM_ENGINE_NC};
//!
//! assert_eq!(MEM_COPY64.code(), 0x8028_4E17);
//! let d = ioctl_codes::decode(0xC008_4E69);
//! assert_eq!(d.names().next(), Some(PROGRAM_ENGINE_NC.name()));
//! assert_eq!((d.dir(), d.nr(), d.size(), d.lane()), (Dir::ReadWrite, 105, 8, Some(Lane::Device)));
//! ```

use core::fmt;
use core::marker::PhantomData;

#[allow(clippy::wildcard_imports)]
use crate::ioctl_structs::*;

/// The ioctl type byte of every Neuron command (`'N'`).
pub const TYPE: u8 = b'N';

const NR_SHIFT: u32 = 0;
const TYPE_SHIFT: u32 = 8;
const SIZE_SHIFT: u32 = 16;
const DIR_SHIFT: u32 = 30;
/// The size field is 14 bits wide on x86_64/arm64 Linux.
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

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

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

/// Which of the driver's ioctl paths serves a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The device chain: reached only from fds whose access mode has bit 0 clear
    /// (O_RDONLY, O_RDWR), which attached the process at open.
    Device,
    /// The device chain, after the attach check: -EACCES unless the caller's tgid is attached.
    DeviceAttach,
    /// The misc handler: the only path of write-only (free-access) fds, and the fall-back of
    /// the device chain, so these commands work on every fd.
    Misc,
}

spelled!(Lane, "lane", { Device => "device", DeviceAttach => "device+attach", Misc => "misc" });

/// How the driver's if/else chain recognises a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Match {
    /// `cmd == NEURON_IOCTL_X`: all 32 bits must match.
    Exact,
    /// `_IOC_NR(cmd) == n`: any request whose low byte is `n` reaches the handler, which then
    /// picks a layout by exact cmd or by `_IOC_SIZE`.
    Nr,
}

spelled!(Match, "match", { Exact => "exact", Nr => "nr" });

/// Builds a request number the way Linux `_IOC(dir, type, nr, size)` does.
///
/// Panics (a compile error in const context) when `size` does not fit the 14-bit field.
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

/// One catalog entry, untyped: the facts the CLI prints and the kernel model routes by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Command {
    name: &'static str,
    code: u32,
    form: Form,
    arg_size: Option<usize>,
    arg_align: Option<usize>,
    lane: Lane,
    matching: Match,
    attach_checked: bool,
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
        self.arg_size
    }
    /// Alignment of the argument struct (same `None` cases as [`Command::arg_size`]).
    pub const fn arg_align(&self) -> Option<usize> {
        self.arg_align
    }
    /// The path that serves the command on a privileged fd.
    pub const fn lane(&self) -> Lane {
        self.lane
    }
    /// Exact-cmd or nr matching in the driver's chain.
    pub const fn matching(&self) -> Match {
        self.matching
    }
    /// True when the privileged path runs the attach check (-EACCES for a non-attached
    /// process) before dispatch. All `device+attach` commands, plus DRIVER_INFO_SET, which
    /// the misc handler serves.
    pub const fn attach_checked(&self) -> bool {
        self.attach_checked
    }
    /// The chain that serves the command.
    pub const fn chain(&self) -> Chain {
        match self.lane {
            Lane::Device | Lane::DeviceAttach => Chain::Device,
            Lane::Misc => Chain::Misc,
        }
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
    #[allow(clippy::too_many_arguments)]
    const fn build(
        name: &'static str,
        dir: Dir,
        nr: u8,
        form: Form,
        lane: Lane,
        matching: Match,
        attach_checked: bool,
        arg: Option<(usize, usize)>,
    ) -> Self {
        let size = match form {
            // `sizeof(struct s *)`: what the C macro encodes for pointer-form commands.
            Form::Pointer => size_of::<*mut A>(),
            Form::Struct => size_of::<A>(),
            Form::None => 0,
        };
        let (arg_size, arg_align) = match arg {
            Some((s, a)) => (Some(s), Some(a)),
            None => (None, None),
        };
        Self {
            cmd: Command {
                name,
                code: ioc(dir, TYPE, nr, size),
                form,
                arg_size,
                arg_align,
                lane,
                matching,
                attach_checked,
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
        lane: Lane,
        matching: Match,
        attach_checked: bool,
    ) -> Self {
        let arg = Some((size_of::<A>(), align_of::<A>()));
        Self::build(
            name,
            dir,
            nr,
            Form::Pointer,
            lane,
            matching,
            attach_checked,
            arg,
        )
    }

    /// A pointer-form command whose macro names a struct the header never defines
    /// (DMA_QUIESCE_QUEUES): the driver rejects it before copying anything.
    pub const fn pointer_undefined(
        name: &'static str,
        dir: Dir,
        nr: u8,
        lane: Lane,
        matching: Match,
        attach_checked: bool,
    ) -> Self {
        Self::build(
            name,
            dir,
            nr,
            Form::Pointer,
            lane,
            matching,
            attach_checked,
            None,
        )
    }

    /// A value-form command (`_IOx('N', nr, A)`): encodes and copies `size_of::<A>()`.
    pub const fn value(
        name: &'static str,
        dir: Dir,
        nr: u8,
        lane: Lane,
        matching: Match,
        attach_checked: bool,
    ) -> Self {
        let arg = Some((size_of::<A>(), align_of::<A>()));
        Self::build(
            name,
            dir,
            nr,
            Form::Struct,
            lane,
            matching,
            attach_checked,
            arg,
        )
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
        lane: Lane,
        matching: Match,
        attach_checked: bool,
    ) -> Self {
        Self::build(
            name,
            dir,
            nr,
            Form::None,
            lane,
            matching,
            attach_checked,
            None,
        )
    }
}

/// Iterates over the whole catalog in reference-table order.
pub fn catalog() -> core::slice::Iter<'static, Command> {
    CATALOG.iter()
}

/// Looks a command up by macro name, with or without the `NEURON_IOCTL_` prefix.
pub fn find(name: &str) -> Option<&'static Command> {
    let short = name.strip_prefix("NEURON_IOCTL_").unwrap_or(name);
    CATALOG.iter().find(|c| c.short_name() == short)
}

/// The catalog entry whose request number is exactly `code`.
pub fn lookup(code: u32) -> Option<&'static Command> {
    CATALOG.iter().find(|c| c.code == code)
}

/// Which of the driver's two if/else chains handles a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chain {
    /// `ncdev_ioctl`, the privileged path.
    Device,
    /// `ncdev_misc_ioctl`: free-access fds, and the fall-back of the device chain.
    Misc,
}

/// Where the driver sends a request: the result of walking its dispatch chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The chain whose handler runs.
    pub chain: Chain,
    /// Matched by exact cmd or by nr.
    pub by: Match,
    /// Handler nr (the family for nr matches).
    pub nr: u8,
    /// The catalog entry whose request equals the code, if any (an nr-routed code may be a
    /// size the family does not know; its handler then answers -EINVAL).
    pub exact: Option<&'static Command>,
    /// True when the attach check runs first (privileged fds only, exact cmd list).
    pub attach_check: bool,
}

impl Route {
    /// The lane the walk ends in, in the reference table's terms.
    pub const fn lane(&self) -> Lane {
        match (self.chain, self.attach_check) {
            (Chain::Device, true) => Lane::DeviceAttach,
            (Chain::Device, false) => Lane::Device,
            (Chain::Misc, _) => Lane::Misc,
        }
    }
}

fn walk_chain(code: u32, chain: Chain) -> Option<(Match, Option<&'static Command>)> {
    let on_chain = |c: &&'static Command| c.chain() == chain;
    if let Some(c) = CATALOG
        .iter()
        .filter(on_chain)
        .find(|c| c.matching == Match::Exact && c.code == code)
    {
        return Some((Match::Exact, Some(c)));
    }
    let nr = nr_of(code);
    if CATALOG
        .iter()
        .filter(on_chain)
        .any(|c| c.matching == Match::Nr && c.nr() == nr)
    {
        let exact = CATALOG.iter().find(|c| c.code == code);
        return Some((Match::Nr, exact));
    }
    None
}

/// Walks the driver's dispatch for `code` on an fd of the given kind.
///
/// Free-access fds (access mode bit 0 set) reach only the misc chain. Privileged fds run the
/// attach check for the exact cmds that have it, then the device chain, then fall back to
/// the misc chain. `None` means no handler claims the code: the driver answers -EINVAL.
pub fn route(code: u32, free_access: bool) -> Option<Route> {
    let attach_check = !free_access && CATALOG.iter().any(|c| c.attach_checked && c.code == code);
    let chains: &[Chain] = if free_access {
        &[Chain::Misc]
    } else {
        &[Chain::Device, Chain::Misc]
    };
    chains.iter().find_map(|&chain| {
        walk_chain(code, chain).map(|(by, exact)| Route {
            chain,
            by,
            nr: nr_of(code),
            exact,
            attach_check,
        })
    })
}

/// A request number taken apart: its bit fields and the catalog entries it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    code: u32,
}

/// Decodes any 32-bit request number (it need not be in the catalog).
pub const fn decode(code: u32) -> Decoded {
    Decoded { code }
}

impl Decoded {
    /// The raw request number.
    pub const fn code(&self) -> u32 {
        self.code
    }
    /// Direction bits.
    pub const fn dir(&self) -> Dir {
        Dir::of(self.code)
    }
    /// Type byte (`'N'` for Neuron commands).
    pub const fn ty(&self) -> u8 {
        type_of(self.code)
    }
    /// Command number.
    pub const fn nr(&self) -> u8 {
        nr_of(self.code)
    }
    /// Encoded argument size.
    pub const fn size(&self) -> u16 {
        size_of_code(self.code)
    }
    /// The catalog entry with exactly this request number.
    pub fn exact(&self) -> Option<&'static Command> {
        lookup(self.code)
    }
    /// The kernel's route for this code on a privileged fd (`None`: -EINVAL).
    pub fn route(&self) -> Option<Route> {
        route(self.code, false)
    }
    /// The lane a privileged fd's call ends in, or `None` when nothing handles the code.
    pub fn lane(&self) -> Option<Lane> {
        self.route().map(|r| r.lane())
    }
    /// Catalog entries this code names: the exact entry if there is one; otherwise the
    /// members of the nr family whose handler the kernel would route it to (a `'N'` code of
    /// unknown size reaches the family's handler, which rejects it); otherwise nothing.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<> {
        let code = self.code;
        let exact = lookup(code);
        let family = match (exact, route(code, false)) {
            (None, Some(r)) if r.by == Match::Nr && type_of(code) == TYPE => Some(r),
            _ => None,
        };
        CATALOG
            .iter()
            .filter(move |c| match (exact, family) {
                (Some(e), _) => c.code == e.code,
                (None, Some(r)) => {
                    c.matching == Match::Nr && c.nr() == r.nr && c.chain() == r.chain
                }
                (None, None) => false,
            })
            .map(|c| c.name)
    }
}

impl fmt::Display for Command {
    /// `NAME 0xXXXXXXXX DIR NR SIZE LANE`, the CLI's `ioctl list` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:#010X} {} {} {} {}",
            self.name,
            self.code,
            self.dir(),
            self.nr(),
            self.size(),
            self.lane
        )
    }
}

/// Declares the catalog from one table: each row is a typed [`Request`] constant, built by the
/// named constructor (`pointer`, `value`, `none`, `pointer_undefined`) from the direction, nr,
/// lane, match kind and attach check; its macro name is `NEURON_IOCTL_` + the constant's name.
/// [`CATALOG`] lists the rows in table order.
macro_rules! catalog {
    ($(
        $(#[$doc:meta])*
        pub const $name:ident: Request<$arg:ty> =
            $ctor:ident($dir:expr, $nr:literal, $lane:expr, $matching:expr, $attach:literal);
    )*) => {
        $(
            $(#[$doc])*
            pub const $name: Request<$arg> = Request::<$arg>::$ctor(
                concat!("NEURON_IOCTL_", stringify!($name)),
                $dir,
                $nr,
                $lane,
                $matching,
                $attach,
            );
        )*

        /// Number of commands in the reference table.
        const COMMANDS: usize = [$(stringify!($name)),*].len();

        /// Every command of the reference table, in table order.
        pub const CATALOG: [Command; COMMANDS] = [$($name.command(),)*];
    };
}

catalog! {
    /// `NEURON_IOCTL_DEVICE_RESET` (`0x00004E01`, no argument): deprecated; still tears down DMA rings and starts a whole-device reset; returns 0.
    pub const DEVICE_RESET: Request<()> = none(Dir::None, 1, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_READY` (`0x80014E02`, `__u8`): scalar value type (not a struct); deprecated; waits for the caller's own reset and writes 1 byte (1=ok 0=fail); tested before RESET_STATUS.
    pub const DEVICE_READY: Request<u8> = value(Dir::Read, 2, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_RESET_STATUS` (`0x80014E6A`, `__u8`): scalar value type (not a struct); deprecated; always writes the byte 1; same nr 106 as DEVICE_BDF_EXT but size 1 vs 8 so cmd differs.
    pub const DEVICE_RESET_STATUS: Request<u8> = value(Dir::Read, 106, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_INFO` (`0x80084E03`, `struct neuron_ioctl_device_info *`): writes arch/revision, connected device list and BAR addresses/sizes.
    pub const DEVICE_INFO: Request<DeviceInfo> = pointer(Dir::Read, 3, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_INIT` (`0x80084E04`, `struct neuron_ioctl_device_init *`): deprecated no-op; returns 0 and ignores the argument.
    pub const DEVICE_INIT: Request<DeviceInit> = pointer(Dir::Read, 4, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_RELEASE` (`0x00004E05`, no argument): deprecated no-op; returns 0.
    pub const DEVICE_RELEASE: Request<()> = none(Dir::None, 5, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_APP_PID` (`0x80044E06`, `__s32`): scalar value type (not a struct); deprecated; writes the pid (int) held in attached-process slot 0.
    pub const DEVICE_APP_PID: Request<i32> = value(Dir::Read, 6, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_GET_ALL_APPS_INFO` (`0x80084E07`, `struct neuron_ioctl_get_apps_info *`): variable length: reads the 16-byte header, writes header plus size entries of 152 bytes (buffer must hold capacity entries).
    pub const DEVICE_GET_ALL_APPS_INFO: Request<GetAppsInfo> = pointer(Dir::Read, 7, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_BAR_READ` (`0x80084E0B`, `struct neuron_ioctl_bar_rw *`): reads count 32-bit registers; address and data are user arrays.
    pub const BAR_READ: Request<BarRw> = pointer(Dir::Read, 11, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_BAR_WRITE` (`0x40084E0C`, `struct neuron_ioctl_bar_rw *`): writes count 32-bit registers from user arrays.
    pub const BAR_WRITE: Request<BarRw> = pointer(Dir::Write, 12, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_POST_METRIC` (`0x40084E0D`, `struct neuron_ioctl_post_metric *`): copies data_size bytes from the user buffer and posts them to firmware.
    pub const POST_METRIC: Request<PostMetric> = pointer(Dir::Write, 13, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_MEM_ALLOC` (`0x80084E15`, `struct neuron_ioctl_mem_alloc *`): legacy allocation (no align); handle stored through the user pointer field.
    pub const MEM_ALLOC: Request<MemAlloc> = pointer(Dir::Read, 21, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_MEM_ALLOC_V2` (`0x80084E66`, `struct neuron_ioctl_mem_alloc_v2 *`): nr-102 family, handler picks layout by exact cmd; no mem_type; not attach-checked.
    pub const MEM_ALLOC_V2: Request<MemAllocV2> = pointer(Dir::Read, 102, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_ALLOC_V2MT` (`0x80304E66`, `struct neuron_ioctl_mem_alloc_v2_mem_type`): nr-102 family, picked by exact cmd; adds mem_type; not attach-checked.
    pub const MEM_ALLOC_V2MT: Request<MemAllocV2MemType> = value(Dir::Read, 102, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_ALLOC_V2MT64` (`0x80384E66`, `struct neuron_ioctl_mem_alloc_v2_mem_type64`): nr-102 family, picked by exact cmd; trailing pad only changes size (signals 64-bit size support); not attach-checked.
    pub const MEM_ALLOC_V2MT64: Request<MemAllocV2MemType64> = value(Dir::Read, 102, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_FREE` (`0x80084E16`, `struct neuron_ioctl_mem_free *`): frees the handle; input only despite dir R.
    pub const MEM_FREE: Request<MemFree> = pointer(Dir::Read, 22, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_MEM_COPY` (`0x80084E17`, `struct neuron_ioctl_mem_copy *`): nr-23 family, picked by exact cmd; 32-bit size/offsets; the only member that is attach-checked.
    pub const MEM_COPY: Request<MemCopy> = pointer(Dir::Read, 23, Lane::DeviceAttach, Match::Nr, true);
    /// `NEURON_IOCTL_MEM_COPY64` (`0x80284E17`, `struct neuron_ioctl_mem_copy64`): nr-23 family, picked by exact cmd; 64-bit size/offsets; not attach-checked.
    pub const MEM_COPY64: Request<MemCopy64> = value(Dir::Read, 23, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_BUF_COPY` (`0xC0084E18`, `struct neuron_ioctl_mem_buf_copy *`): nr-24 family, picked by exact cmd; copies between user buffer and a handle.
    pub const MEM_BUF_COPY: Request<MemBufCopy> = pointer(Dir::ReadWrite, 24, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_BUF_COPY64` (`0xC0284E18`, `struct neuron_ioctl_mem_buf_copy64`): nr-24 family, picked by exact cmd; 64-bit size/offset.
    pub const MEM_BUF_COPY64: Request<MemBufCopy64> = value(Dir::ReadWrite, 24, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_GET_PA` (`0x80084E19`, `struct neuron_ioctl_mem_get_pa *`): deprecated (header points to EXTENDED_INFO); pa written through user pointer.
    pub const MEM_GET_PA: Request<MemGetPa> = pointer(Dir::Read, 25, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_MEM_GET_INFO` (`0x80084E1A`, `struct neuron_ioctl_mem_get_info *`): deprecated (header points to EXTENDED_INFO); pa and optional mmap offset written through user pointers.
    pub const MEM_GET_INFO: Request<MemGetInfo> = pointer(Dir::Read, 26, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_PROGRAM_ENGINE` (`0xC0084E1B`, `struct neuron_ioctl_program_engine *`): DMAs a user buffer to an engine address after a region check.
    pub const PROGRAM_ENGINE: Request<ProgramEngine> = pointer(Dir::ReadWrite, 27, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_MEMSET` (`0x80084E1C`, `struct neuron_ioctl_memset *`): nr-28 family, picked by exact cmd; 32-bit size.
    pub const MEMSET: Request<Memset> = pointer(Dir::Read, 28, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEMSET64` (`0x80204E1C`, `struct neuron_ioctl_memset64`): nr-28 family, picked by exact cmd; 64-bit size.
    pub const MEMSET64: Request<Memset64> = value(Dir::Read, 28, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_GET_EXTENDED_INFO` (`0x80084E1D`, `struct neuron_ioctl_mem_get_extended_info *`): writes whole struct back; bad handle returns +EINVAL (positive, not an errno).
    pub const MEM_GET_EXTENDED_INFO: Request<MemGetExtendedInfo> = pointer(Dir::Read, 29, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DMA_ENG_INIT` (`0x80084E1E`, `struct neuron_ioctl_dma_eng_init *`): deprecated no-op; returns 0 (after the attach check).
    pub const DMA_ENG_INIT: Request<DmaEngInit> = pointer(Dir::Read, 30, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_DMA_ENG_SET_STATE` (`0x80084E1F`, `struct neuron_ioctl_dma_eng_set_state *`): sets engine state.
    pub const DMA_ENG_SET_STATE: Request<DmaEngSetState> = pointer(Dir::Read, 31, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_DMA_ENG_GET_STATE` (`0xC0084E20`, `struct neuron_ioctl_dma_eng_get_state *`): engine state written through the user pointer field.
    pub const DMA_ENG_GET_STATE: Request<DmaEngGetState> = pointer(Dir::ReadWrite, 32, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DMA_QUEUE_INIT` (`0x80084E21`, `struct neuron_ioctl_dma_queue_init *`): initialises one queue.
    pub const DMA_QUEUE_INIT: Request<DmaQueueInit> = pointer(Dir::Read, 33, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_DMA_QUEUE_INIT_BATCH` (`0xB0084E85`, `struct neuron_ioctl_dma_queue_init_batch`): count must be < 256; not attach-checked; failed copy-in returns -EACCES.
    pub const DMA_QUEUE_INIT_BATCH: Request<DmaQueueInitBatch> = value(Dir::Read, 133, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DMA_QUEUE_RELEASE` (`0x80084E22`, `struct neuron_ioctl_dma_queue_release *`): releases one queue.
    pub const DMA_QUEUE_RELEASE: Request<DmaQueueRelease> = pointer(Dir::Read, 34, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_DMA_QUEUE_COPY_START` (`0x80084E23`, `struct neuron_ioctl_dma_queue_copy_start *`): starts transfer of the given descriptor counts; not attach-checked.
    pub const DMA_QUEUE_COPY_START: Request<DmaQueueCopyStart> = pointer(Dir::Read, 35, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DMA_ACK_COMPLETED` (`0x80084E24`, `struct neuron_ioctl_dma_ack_completed *`): acks completed descriptors.
    pub const DMA_ACK_COMPLETED: Request<DmaAckCompleted> = pointer(Dir::Read, 36, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_DMA_QUEUE_GET_STATE` (`0xC0084E25`, `struct neuron_ioctl_dma_queue_get_state *`): tx and rx state written through user pointer fields.
    pub const DMA_QUEUE_GET_STATE: Request<DmaQueueGetState> = pointer(Dir::ReadWrite, 37, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DMA_COPY_DESCRIPTORS` (`0x80084E26`, `struct neuron_ioctl_dma_copy_descriptors *`): nr-38 family, picked by exact cmd; the only member that is attach-checked.
    pub const DMA_COPY_DESCRIPTORS: Request<DmaCopyDescriptors> = pointer(Dir::Read, 38, Lane::DeviceAttach, Match::Nr, true);
    /// `NEURON_IOCTL_DMA_COPY_DESCRIPTORS64` (`0x80284E26`, `struct neuron_ioctl_dma_copy_descriptors64`): nr-38 family, picked by exact cmd; 64-bit offset; not attach-checked.
    pub const DMA_COPY_DESCRIPTORS64: Request<DmaCopyDescriptors64> = value(Dir::Read, 38, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_DMA_DESCRIPTOR_COPYOUT` (`0xC0084E27`, `struct neuron_ioctl_dma_descriptor_copyout *`): copies queue descriptors out to the user buffer.
    pub const DMA_DESCRIPTOR_COPYOUT: Request<DmaDescriptorCopyout> = pointer(Dir::ReadWrite, 39, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_DMA_QUIESCE_QUEUES` (`0x80084E28`, `struct neuron_ioctl_dma_quiesce_all *`): unsupported: returns -ENOIOCTLCMD; macro names an undefined struct type.
    pub const DMA_QUIESCE_QUEUES: Request<DmaQuiesceQueues> = pointer_undefined(Dir::Read, 40, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_SEMAPHORE_INCREMENT` (`0x80084E29`, `struct neuron_ioctl_semaphore *`): shared semaphore handler.
    pub const SEMAPHORE_INCREMENT: Request<Semaphore> = pointer(Dir::Read, 41, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_SEMAPHORE_DECREMENT` (`0x80084E2A`, `struct neuron_ioctl_semaphore *`): shared semaphore handler.
    pub const SEMAPHORE_DECREMENT: Request<Semaphore> = pointer(Dir::Read, 42, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_SEMAPHORE_READ` (`0xC0084E2B`, `struct neuron_ioctl_semaphore *`): shared semaphore handler; struct written back with value.
    pub const SEMAPHORE_READ: Request<Semaphore> = pointer(Dir::ReadWrite, 43, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_SEMAPHORE_WRITE` (`0x80084E2C`, `struct neuron_ioctl_semaphore *`): shared semaphore handler.
    pub const SEMAPHORE_WRITE: Request<Semaphore> = pointer(Dir::Read, 44, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_EVENT_SET` (`0x80084E2D`, `struct neuron_ioctl_semaphore *`): macro names the semaphore struct; handler reads the event struct (same 12-byte layout).
    pub const EVENT_SET: Request<Event> = pointer(Dir::Read, 45, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_EVENT_GET` (`0xC0084E2E`, `struct neuron_ioctl_semaphore *`): macro names the semaphore struct; handler uses the event struct (same layout) and writes it back.
    pub const EVENT_GET: Request<Event> = pointer(Dir::ReadWrite, 46, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_NOTIFICATIONS_INIT_V1` (`0x80084E33`, `struct neuron_ioctl_notifications_init_v1 *`): deprecated v1 layout, still functional.
    pub const NOTIFICATIONS_INIT_V1: Request<NotificationsInitV1> = pointer(Dir::Read, 51, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_NOTIFICATIONS_DESTROY_V1` (`0x80084E34`, `struct neuron_ioctl_notifications_destroy *`): no-op; returns 0.
    pub const NOTIFICATIONS_DESTROY_V1: Request<NotificationsDestroy> = pointer(Dir::Read, 52, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_NOTIFICATIONS_INIT_V2` (`0x80084E35`, `struct neuron_ioctl_notifications_init_v2 *`): allocates NQ; mmap offset and handle written back.
    pub const NOTIFICATIONS_INIT_V2: Request<NotificationsInitV2> = pointer(Dir::Read, 53, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_NOTIFICATIONS_INIT_WITH_REALLOC_V2` (`0x80084E36`, `struct neuron_ioctl_notifications_init_with_realloc_v2 *`): like INIT_V2 with optional forced re-allocation.
    pub const NOTIFICATIONS_INIT_WITH_REALLOC_V2: Request<NotificationsInitWithReallocV2> = pointer(Dir::Read, 54, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_NOTIFICATIONS_QUEUE_INFO` (`0x80084E3A`, `struct neuron_ioctl_notifications_queue_info *`): stub: returns -1 without work (caller sees EPERM).
    pub const NOTIFICATIONS_QUEUE_INFO: Request<NotificationsQueueInfo> = pointer(Dir::Read, 58, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_READ_HW_COUNTERS` (`0x80084E3D`, `struct neuron_ioctl_read_hw_counters *`): address and data are user arrays of count entries.
    pub const READ_HW_COUNTERS: Request<ReadHwCounters> = pointer(Dir::Read, 61, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_ACQUIRE_NEURON_DS` (`0x80084E47`, `struct neuron_ioctl_neuron_ds_info *`): pid 0 means a new datastore for the caller; writes mmap offset and size.
    pub const ACQUIRE_NEURON_DS: Request<NeuronDsInfo> = pointer(Dir::Read, 71, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_RELEASE_NEURON_DS` (`0x80084E48`, `struct neuron_ioctl_neuron_ds_info *`): releases datastore of pid; returns 0.
    pub const RELEASE_NEURON_DS: Request<NeuronDsInfo> = pointer(Dir::Read, 72, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_READER_ENTER` (`0x40084E51`, `struct neuron_ioctl_crwl *`): core lock op.
    pub const CRWL_READER_ENTER: Request<Crwl> = pointer(Dir::Write, 81, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_READER_EXIT` (`0x40084E52`, `struct neuron_ioctl_crwl *`): core lock op.
    pub const CRWL_READER_EXIT: Request<Crwl> = pointer(Dir::Write, 82, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_WRITER_ENTER` (`0x40084E53`, `struct neuron_ioctl_crwl *`): core lock op.
    pub const CRWL_WRITER_ENTER: Request<Crwl> = pointer(Dir::Write, 83, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_WRITER_DOWNGRADE` (`0x40084E54`, `struct neuron_ioctl_crwl *`): core lock op.
    pub const CRWL_WRITER_DOWNGRADE: Request<Crwl> = pointer(Dir::Write, 84, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_NC_RANGE_MARK` (`0x40084E55`, `struct neuron_ioctl_crwl_nc_map *`): handler switches on `_IOC_SIZE`: 8 means the 24-byte legacy struct; writes result back although dir W.
    pub const CRWL_NC_RANGE_MARK: Request<CrwlNcMap> = pointer(Dir::Write, 85, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_NC_RANGE_MARK_EXT0` (`0xC0504E55`, `struct neuron_ioctl_crwl_nc_map_ext`): handler switches on `_IOC_SIZE`: 80 means the ext layout (`bitmap[8]`).
    pub const CRWL_NC_RANGE_MARK_EXT0: Request<CrwlNcMapExt> = value(Dir::ReadWrite, 85, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_NC_RANGE_UNMARK` (`0x40084E56`, `struct neuron_ioctl_crwl_nc_map *`): handler switches on `_IOC_SIZE`: 8 means the 24-byte legacy struct; returns 0.
    pub const CRWL_NC_RANGE_UNMARK: Request<CrwlNcMap> = pointer(Dir::Write, 86, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_CRWL_NC_RANGE_UNMARK_EXT0` (`0x40504E56`, `struct neuron_ioctl_crwl_nc_map_ext`): handler switches on `_IOC_SIZE`: 80 means the ext layout; returns 0.
    pub const CRWL_NC_RANGE_UNMARK_EXT0: Request<CrwlNcMapExt> = value(Dir::Write, 86, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_CINIT_SET_STATE` (`0x40084E5B`, `struct neuron_ioctl_cinit_set *`): writes new_state back although dir W.
    pub const CINIT_SET_STATE: Request<CinitSet> = pointer(Dir::Write, 91, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_NC_MODEL_STARTED_COUNT` (`0x40084E5C`, `struct neuron_ioctl_nc_model_started_count *`): writes started_count back although dir W.
    pub const NC_MODEL_STARTED_COUNT: Request<NcModelStartedCount> = pointer(Dir::Write, 92, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_COMPATIBLE_VERSION` (`0x40084E5D`, `struct neuron_ioctl_compatible_version *`): output only although dir W.
    pub const COMPATIBLE_VERSION: Request<CompatibleVersion> = pointer(Dir::Write, 93, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_BASIC_INFO` (`0x40084E64`, `struct neuron_ioctl_device_basic_info *`): output only although dir W.
    pub const DEVICE_BASIC_INFO: Request<DeviceBasicInfo> = pointer(Dir::Write, 100, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_DEVICE_BDF` (`0x80084E65`, `struct neuron_ioctl_device_bdf *`): header calls it deprecated; only on the device path.
    pub const DEVICE_BDF: Request<DeviceBdf> = pointer(Dir::Read, 101, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_NC_RESET` (`0x80084E67`, `struct neuron_ioctl_device_reset *`): resets the cores in nc_map; request_id set to caller tgid and written back.
    pub const NC_RESET: Request<DeviceReset> = pointer(Dir::Read, 103, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_NC_RESET_READY` (`0x80084E68`, `struct neuron_ioctl_device_ready *`): waits for request_id; result written back.
    pub const NC_RESET_READY: Request<DeviceReady> = pointer(Dir::Read, 104, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_PROGRAM_ENGINE_NC` (`0xC0084E69`, `struct neuron_ioctl_program_engine_nc *`): nr-105 family, picked by exact cmd.
    pub const PROGRAM_ENGINE_NC: Request<ProgramEngineNc> = pointer(Dir::ReadWrite, 105, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_PROGRAM_ENGINE_NC64` (`0xC0284E69`, `struct neuron_ioctl_program_engine_nc64`): nr-105 family, picked by exact cmd; 64-bit size/offset.
    pub const PROGRAM_ENGINE_NC64: Request<ProgramEngineNc64> = value(Dir::ReadWrite, 105, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_DEVICE_BDF_EXT` (`0x80084E6A`, `struct neuron_ioctl_device_bdf_ext *`): nd_index is relative to the opened device; same nr 106 as RESET_STATUS.
    pub const DEVICE_BDF_EXT: Request<DeviceBdfExt> = pointer(Dir::Read, 106, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_DMABUF_FD` (`0x80084E6B`, `struct neuron_ioctl_dmabuf_fd *`): fd written through the user pointer field; va is a user mapping address.
    pub const DMABUF_FD: Request<DmabufFd> = pointer(Dir::Read, 107, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_MEM_COPY_ASYNC` (`0xC0304E6C`, `struct neuron_ioctl_mem_copy_async`): nr-108 family, picked by exact cmd; the only member that is attach-checked.
    pub const MEM_COPY_ASYNC: Request<MemCopyAsync> = value(Dir::ReadWrite, 108, Lane::DeviceAttach, Match::Nr, true);
    /// `NEURON_IOCTL_MEM_COPY_ASYNC64` (`0xC0384E6C`, `struct neuron_ioctl_mem_copy_async64`): nr-108 family, picked by exact cmd; not attach-checked.
    pub const MEM_COPY_ASYNC64: Request<MemCopyAsync64> = value(Dir::ReadWrite, 108, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_COPY_ASYNC_WAIT` (`0x40184E6D`, `struct neuron_ioctl_mem_copy_async_wait`): pwait_handle must be 1 or 2.
    pub const MEM_COPY_ASYNC_WAIT: Request<MemCopyAsyncWait> = value(Dir::Write, 109, Lane::DeviceAttach, Match::Exact, true);
    /// `NEURON_IOCTL_DRIVER_INFO_GET` (`0x80184E6E`, `struct neuron_ioctl_device_driver_info`): nr-110; handler checks dir and size: dir R with size >= 24 succeeds (24 bytes written), else -EINVAL.
    pub const DRIVER_INFO_GET: Request<DeviceDriverInfo> = value(Dir::Read, 110, Lane::Misc, Match::Nr, false);
    /// `NEURON_IOCTL_DRIVER_INFO_SET` (`0x40184E6E`, `struct neuron_ioctl_device_driver_info`): nr-110; dir W always -ENOTSUPP; on a privileged fd the attach check runs first.
    pub const DRIVER_INFO_SET: Request<DeviceDriverInfo> = value(Dir::Write, 110, Lane::Misc, Match::Nr, true);
    /// `NEURON_IOCTL_MEM_MC_GET_INFO` (`0xC0184E6F`, `struct neuron_ioctl_mem_get_mc_mmap_info`): nr-111 family, handler switches on `_IOC_SIZE` (24).
    pub const MEM_MC_GET_INFO: Request<MemGetMcMmapInfo> = value(Dir::ReadWrite, 111, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_MC_GET_INFO_V2` (`0xC0204E6F`, `struct neuron_ioctl_mem_get_mc_mmap_info_v2`): nr-111 family, handler switches on `_IOC_SIZE` (32 adds mem_handle).
    pub const MEM_MC_GET_INFO_V2: Request<MemGetMcMmapInfoV2> = value(Dir::ReadWrite, 111, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_RESOURCE_MMAP_INFO` (`0xC0204E70`, `struct neuron_ioctl_resource_mmap_info`): writes mmap offset and size back.
    pub const RESOURCE_MMAP_INFO: Request<ResourceMmapInfo> = value(Dir::ReadWrite, 112, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_PRINTK` (`0x40104E71`, `struct neuron_ioctl_printk`): size must be <= 512 incl. terminating NUL (-EFAULT / -EBADMSG otherwise).
    pub const PRINTK: Request<Printk> = value(Dir::Write, 113, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_HOST_DEVICE_ID` (`0x80044E72`, `struct neuron_ioctl_host_device_id`): writes the host device index.
    pub const HOST_DEVICE_ID: Request<HostDeviceId> = value(Dir::Read, 114, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_HOST_DEVICE_ID_TO_RID_MAP` (`0xC1044E73`, `struct neuron_ioctl_host_device_id_to_rid_map`): nr-115; `_IOC_SIZE` must be 260.
    pub const HOST_DEVICE_ID_TO_RID_MAP: Request<HostDeviceIdToRidMap> = value(Dir::ReadWrite, 115, Lane::Misc, Match::Nr, false);
    /// `NEURON_IOCTL_DUMP_MEM_CHUNKS` (`0x80084E74`, `struct neuron_ioctl_dump_mem_chunks *`): -EAGAIN when num_entries_in is too small (num_entries_out holds the need).
    pub const DUMP_MEM_CHUNKS: Request<DumpMemChunks> = pointer(Dir::Read, 116, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_NC_PID_STATE_DUMP` (`0xC0104E75`, `struct neuron_ioctl_nc_pid_state_dump`): logs state of the pid owning nc_id.
    pub const NC_PID_STATE_DUMP: Request<NcPidStateDump> = value(Dir::ReadWrite, 117, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_HBM_SCRUB_START` (`0xC0104E76`, `struct neuron_ioctl_hbm_scrub_start`): starts HBM scrub.
    pub const HBM_SCRUB_START: Request<HbmScrubStart> = value(Dir::ReadWrite, 118, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_HBM_SCRUB_WAIT` (`0xC0084E77`, `struct neuron_ioctl_hbm_scrub_wait`): waits for HBM scrub completion.
    pub const HBM_SCRUB_WAIT: Request<HbmScrubWait> = value(Dir::ReadWrite, 119, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_GET_LOGICAL_TO_PHYSICAL_NC_MAP` (`0xC0104E78`, `struct neuron_ioctl_get_logical_to_physical_nc_map`): max_map_entries <= 128; -ENOTSUPP where the arch has no map.
    pub const GET_LOGICAL_TO_PHYSICAL_NC_MAP: Request<GetLogicalToPhysicalNcMap> = value(Dir::ReadWrite, 120, Lane::Misc, Match::Exact, false);
    /// `NEURON_IOCTL_POD_INFO` (`0xC1044E79`, `struct neuron_ioctl_pod_info`): nr-121; cmd must match exactly and sz field must be 260.
    pub const POD_INFO: Request<PodInfo> = value(Dir::ReadWrite, 121, Lane::Misc, Match::Nr, false);
    /// `NEURON_IOCTL_POD_STATUS` (`0xC10C4E7A`, `struct neuron_ioctl_pod_status`): nr-122 family, picked by exact cmd; sz field must be 268.
    pub const POD_STATUS: Request<PodStatus> = value(Dir::ReadWrite, 122, Lane::Misc, Match::Nr, false);
    /// `NEURON_IOCTL_POD_STATUS_V2` (`0xC1144E7A`, `struct neuron_ioctl_pod_status_v2`): nr-122 family, picked by exact cmd; sz field must be 276.
    pub const POD_STATUS_V2: Request<PodStatusV2> = value(Dir::ReadWrite, 122, Lane::Misc, Match::Nr, false);
    /// `NEURON_IOCTL_POD_CTRL` (`0xC0104E7B`, `struct neuron_ioctl_pod_ctrl`): nr-123 family, picked by exact cmd; sz field must be 16.
    pub const POD_CTRL: Request<PodCtrl> = value(Dir::ReadWrite, 123, Lane::Misc, Match::Nr, false);
    /// `NEURON_IOCTL_POD_CTRL_V2` (`0xC0144E7B`, `struct neuron_ioctl_pod_ctrl_v2`): nr-123 family, picked by exact cmd; sz field must be 20.
    pub const POD_CTRL_V2: Request<PodCtrlV2> = value(Dir::ReadWrite, 123, Lane::Misc, Match::Nr, false);
    /// `NEURON_IOCTL_MEM_BUF_ZEROCOPY64` (`0xC0304E7C`, `struct neuron_ioctl_mem_buf_copy64zc`): nr-124; any other `_IOC_SIZE` (older experimental layout) gives -EINVAL.
    pub const MEM_BUF_ZEROCOPY64: Request<MemBufCopy64zc> = value(Dir::ReadWrite, 124, Lane::Device, Match::Nr, false);
    /// `NEURON_IOCTL_H2T_DMA_ALLOC_QUEUES` (`0xC0144E7D`, `struct neuron_ioctl_h2t_dma_alloc_queues`): allocates H2T DMA queues; bitmaps and default queue written back.
    pub const H2T_DMA_ALLOC_QUEUES: Request<H2tDmaAllocQueues> = value(Dir::ReadWrite, 125, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_H2T_DMA_FREE_QUEUES` (`0xC0084E7E`, `struct neuron_ioctl_h2t_dma_free_queues`): frees queues in queue_bmap.
    pub const H2T_DMA_FREE_QUEUES: Request<H2tDmaFreeQueues> = value(Dir::ReadWrite, 126, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_POWER_PROFILE` (`0x40084E7F`, `struct neuron_ioctl_power_profile`): only ctrl=0 (set) supported, otherwise -ENOTSUPP.
    pub const POWER_PROFILE: Request<PowerProfile> = value(Dir::Write, 127, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_METRICS_CTRL` (`0x40044E80`, `struct neuron_ioctl_metrics_ctrl`): sets metric posting mode; returns 0.
    pub const METRICS_CTRL: Request<MetricsCtrl> = value(Dir::Write, 128, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_MEM_BUF_ZEROCOPY64_BATCHES` (`0xC0204E81`, `struct neuron_ioctl_mem_buf_copy64zc_batches`): batched zero-copy; batches and ops are user arrays.
    pub const MEM_BUF_ZEROCOPY64_BATCHES: Request<MemBufCopy64zcBatches> = value(Dir::ReadWrite, 129, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_THROTTLING_NOTIFICATIONS` (`0x40044E82`, `struct neuron_ioctl_throttling_notifications`): new in 2.26.5.0; enable non-zero sends firmware command 5 with feature bit 0, 0 sends an empty feature set; firmware API below 7 gives -ENOTSUPP, 'unknown command' -1 (EPERM); not attach-checked.
    pub const THROTTLING_NOTIFICATIONS: Request<ThrottlingNotifications> = value(Dir::Write, 130, Lane::Device, Match::Exact, false);
    /// `NEURON_IOCTL_GET_VA_PLACEMENT` (`0x40104E83`, `struct neuron_ioctl_get_va_placement`): new in 2.26.5.0; misc chain by nr 131 (any size or dir); encoded _IOW but writes device_index/hbm_index back; not found -> -ENXIO with both -1.
    pub const GET_VA_PLACEMENT: Request<GetVaPlacement> = value(Dir::Write, 131, Lane::Misc, Match::Nr, false);
}
