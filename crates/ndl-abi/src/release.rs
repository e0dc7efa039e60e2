//! One driver release's ABI as data ([`Abi`]), for code that picks the release at run time
//! (a tool listing or comparing releases, an emulated kernel answering as one of them), and
//! the request decoder.

use core::fmt;

use crate::driver::{CompatWindow, DriverArch, DriverVersion};
use crate::layout::StructLayout;
use crate::request::{Command, Dir, nr_of, size_of_code, type_of};
use crate::routing::{self, Lane, Route, Routing};
use crate::{Release, Returns};

/// Everything one release's tables say, as static data. Each release module has one
/// (`ABI`); [`Release::abi`] finds it.
#[derive(Debug)]
pub struct Abi {
    /// The release.
    pub release: Release,
    /// Every command, in table order.
    pub catalog: &'static [Command],
    /// The routing facts of every command, in the same order (kernel side).
    pub routing: &'static [Routing],
    /// Every struct's layout, in table order.
    pub structs: &'static [StructLayout],
    /// The compatible-version window of every arch the release supports.
    pub compat: &'static [CompatWindow],
    /// The release's version strings.
    pub version: DriverVersion,
}

impl Abi {
    /// The catalog entry whose request number is exactly `code`.
    pub fn lookup(&self, code: u32) -> Option<&'static Command> {
        self.catalog.iter().find(|c| c.code() == code)
    }

    /// Looks a command up by macro name, with or without the `NEURON_IOCTL_` prefix.
    pub fn find(&self, name: &str) -> Option<&'static Command> {
        let short = name.strip_prefix("NEURON_IOCTL_").unwrap_or(name);
        self.catalog.iter().find(|c| c.short_name() == short)
    }

    /// The routing row of the command whose request number is exactly `code`.
    pub fn routing_of(&self, code: u32) -> Option<&'static Routing> {
        self.routing.iter().find(|r| r.code == code)
    }

    /// The return convention of `code` (`None` outside the catalog).
    pub fn returns_of(&self, code: u32) -> Option<Returns> {
        self.lookup(code).map(Command::returns)
    }

    /// The layout of the struct with C tag `c_name`.
    pub fn struct_layout(&self, c_name: &str) -> Option<&'static StructLayout> {
        self.structs.iter().find(|s| s.c_name == c_name)
    }

    /// The window COMPATIBLE_VERSION reports on `arch` (`None`: the release does not support
    /// the arch).
    pub fn compat(&self, arch: DriverArch) -> Option<CompatWindow> {
        self.compat.iter().copied().find(|w| w.arch == arch)
    }

    /// The driver's route for `code` (see [`routing::route`]).
    pub fn route(&'static self, code: u32, free_access: bool) -> Option<Route> {
        routing::route(self, code, free_access)
    }

    /// Takes `code` apart against this release's catalog.
    pub const fn decode(&'static self, code: u32) -> Decoded {
        Decoded { code, abi: self }
    }
}

/// A request number taken apart: its bit fields and the catalog entries it names in one
/// release.
#[derive(Clone, Copy, Debug)]
pub struct Decoded {
    code: u32,
    abi: &'static Abi,
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
    /// The release decoded against.
    pub const fn release(&self) -> Release {
        self.abi.release
    }
    /// The catalog entry with exactly this request number.
    pub fn exact(&self) -> Option<&'static Command> {
        self.abi.lookup(self.code)
    }
    /// The kernel's route for this code on a privileged fd (`None`: -EINVAL).
    pub fn route(&self) -> Option<Route> {
        routing::route(self.abi, self.code, false)
    }
    /// The lane a privileged fd's call ends in, or `None` when nothing handles the code.
    pub fn lane(&self) -> Option<Lane> {
        self.route().map(|r| r.lane())
    }
    /// Catalog entries this code names (see [`routing::names`]).
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<> {
        routing::names(self.abi, self.code)
    }
}

/// A release name that is none of the seven releases the crate carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownRelease;

impl fmt::Display for UnknownRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a driver release this crate carries (")?;
        for (i, r) in Release::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(r.as_str())?;
        }
        f.write_str(")")
    }
}

impl core::error::Error for UnknownRelease {}

impl Release {
    /// The release named `name` (e.g. `2.27.4.0`).
    pub fn parse(name: &str) -> Result<Self, UnknownRelease> {
        Self::ALL
            .iter()
            .copied()
            .find(|r| r.as_str() == name.trim())
            .ok_or(UnknownRelease)
    }

    /// The release before this one, if the crate carries it.
    pub fn previous(self) -> Option<Self> {
        let i = Self::ALL.iter().position(|r| *r == self)?;
        i.checked_sub(1).and_then(|p| Self::ALL.get(p)).copied()
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
