//! Kernel side: how the driver's dispatcher routes a request (`ioctl-README.md`, "Lanes").
//!
//! Each release's `kernel` module holds its [`Routing`] rows (the `lane` and `match` columns
//! of its `ioctl-commands.tsv`, which come from walking that release's two dispatcher chains);
//! [`route`] walks them the way the driver does, for any 32-bit request.

use crate::Command;
use crate::release::Abi;
use crate::request::{TYPE, nr_of, spelled, type_of};

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

/// Which of the driver's two if/else chains handles a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chain {
    /// `ncdev_ioctl`, the privileged path.
    Device,
    /// `ncdev_misc_ioctl`: free-access fds, and the fall-back of the device chain.
    Misc,
}

/// The routing facts of one catalog command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Routing {
    /// The request number the row is about.
    pub code: u32,
    /// The path that serves the command on a privileged fd.
    pub lane: Lane,
    /// Exact-cmd or nr matching in the driver's chain.
    pub matching: Match,
    /// True when the privileged path runs the attach check (-EACCES for a non-attached
    /// process) before dispatch: every `device+attach` command, plus DRIVER_INFO_SET, which
    /// the misc handler serves (`ioctl-README.md`, "Lanes").
    pub attach_checked: bool,
}

impl Routing {
    /// A row.
    pub const fn new(code: u32, lane: Lane, matching: Match, attach_checked: bool) -> Self {
        Self {
            code,
            lane,
            matching,
            attach_checked,
        }
    }

    /// The chain that serves the command.
    pub const fn chain(&self) -> Chain {
        match self.lane {
            Lane::Device | Lane::DeviceAttach => Chain::Device,
            Lane::Misc => Chain::Misc,
        }
    }
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

/// The catalog rows of `abi` beside their routing.
fn rows(abi: &'static Abi) -> impl Iterator<Item = (&'static Command, &'static Routing)> {
    abi.catalog.iter().zip(abi.routing)
}

fn walk_chain(
    abi: &'static Abi,
    code: u32,
    chain: Chain,
) -> Option<(Match, Option<&'static Command>)> {
    let on_chain = |(_, r): &(&Command, &Routing)| r.chain() == chain;
    if let Some((c, _)) = rows(abi)
        .filter(on_chain)
        .find(|(c, r)| r.matching == Match::Exact && c.code() == code)
    {
        return Some((Match::Exact, Some(c)));
    }
    let nr = nr_of(code);
    if rows(abi)
        .filter(on_chain)
        .any(|(c, r)| r.matching == Match::Nr && c.nr() == nr)
    {
        return Some((Match::Nr, abi.lookup(code)));
    }
    None
}

/// Walks `abi`'s driver dispatch for `code` on an fd of the given kind.
///
/// Free-access fds (access mode bit 0 set) reach only the misc chain. Privileged fds run the
/// attach check for the exact cmds that have it, then the device chain, then fall back to
/// the misc chain. `None` means no handler claims the code: the driver answers -EINVAL.
pub fn route(abi: &'static Abi, code: u32, free_access: bool) -> Option<Route> {
    let attach_check = !free_access
        && abi
            .routing
            .iter()
            .any(|r| r.attach_checked && r.code == code);
    let chains: &[Chain] = if free_access {
        &[Chain::Misc]
    } else {
        &[Chain::Device, Chain::Misc]
    };
    chains.iter().find_map(|&chain| {
        walk_chain(abi, code, chain).map(|(by, exact)| Route {
            chain,
            by,
            nr: nr_of(code),
            exact,
            attach_check,
        })
    })
}

/// The catalog entries `code` names in `abi`: the exact entry if there is one; otherwise the
/// members of the nr family whose handler the kernel would route it to on a privileged fd (a
/// `'N'` code of unknown size reaches the family's handler, which rejects it); otherwise
/// nothing.
pub fn names(abi: &'static Abi, code: u32) -> impl Iterator<Item = &'static str> + use<> {
    let exact = abi.lookup(code);
    let family = match (exact, route(abi, code, false)) {
        (None, Some(r)) if r.by == Match::Nr && type_of(code) == TYPE => Some(r),
        _ => None,
    };
    rows(abi)
        .filter(move |(c, r)| match (exact, family) {
            (Some(e), _) => c.code() == e.code(),
            (None, Some(f)) => r.matching == Match::Nr && c.nr() == f.nr && r.chain() == f.chain,
            (None, None) => false,
        })
        .map(|(c, _)| c.name())
}
