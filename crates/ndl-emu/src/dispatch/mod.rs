//! The driver's ioctl entry (`ncdev_ioctl`, falling back to `ncdev_misc_ioctl`) over the
//! handler table: the lane by the file's access mode, the attach check by pid, the
//! emulated release's routing (`ndl_abi::routing`), then the table row, which copies the
//! argument in, runs the handler and copies it out ([`copy`]).
//!
//! A request no chain claims answers EINVAL, as the driver's chains end; so does a request
//! an nr family routes but none of its layouts matches ("unknown sizes answer EINVAL"). A
//! command of the emulated release the model does not serve answers ENOSYS
//! ([`table::NOT_MODELLED`]).

use core::ffi::c_int;
use std::collections::HashMap;
use std::sync::OnceLock;

use ndl_abi::kernel::{Chain, Match, Route};
use ndl_abi::{Abi, Release};
use ndl_std::{Errno, RawFd};

use crate::hardware_only;
use crate::state::{Call, FileKind, State};
use crate::user::UserMemory;

pub(crate) mod copy;
pub(crate) mod table;

use table::{Entry, NOT_MODELLED_ERRNO, TABLE};

/// The rows one release reaches: exact-match commands by request number, nr families by
/// (chain, nr) in table order.
#[derive(Debug, Default)]
struct Index {
    exact: HashMap<u32, &'static Entry>,
    families: HashMap<(bool, u8), Vec<&'static Entry>>,
}

impl Index {
    fn of(abi: &'static Abi) -> Self {
        let mut index = Self::default();
        for e in TABLE {
            let code = e.command.code();
            // The row applies when the release has a command of its name and number.
            if abi
                .lookup(code)
                .is_none_or(|c| c.name() != e.command.name())
            {
                continue;
            }
            let Some(routing) = abi.routing_of(code) else {
                continue;
            };
            match routing.matching {
                Match::Exact => {
                    index.exact.entry(code).or_insert(e);
                }
                Match::Nr => {
                    let device = routing.chain() == Chain::Device;
                    let family = index.families.entry((device, e.command.nr()));
                    family.or_default().push(e);
                }
            }
        }
        index
    }

    /// The index of `release`, built at its first use.
    fn get(release: Release) -> &'static Self {
        static INDEX: [OnceLock<Index>; Release::ALL.len()] =
            [const { OnceLock::new() }; Release::ALL.len()];
        let slot = Release::ALL
            .iter()
            .position(|r| *r == release)
            .and_then(|i| INDEX.get(i));
        match slot {
            Some(s) => s.get_or_init(|| Self::of(release.abi())),
            None => {
                static EMPTY: OnceLock<Index> = OnceLock::new();
                EMPTY.get_or_init(Index::default)
            }
        }
    }

    /// The row `route` leads `code` to.
    fn find(&self, route: &Route, code: u32) -> Result<&'static Entry, Errno> {
        match route.by {
            Match::Exact => self.exact.get(&code).copied().ok_or(NOT_MODELLED_ERRNO),
            Match::Nr => self
                .families
                .get(&(route.chain == Chain::Device, route.nr))
                .and_then(|rows| rows.iter().copied().find(|e| e.accepts(code)))
                .ok_or(Errno::INVAL),
        }
    }
}

/// The driver's ioctl entry for process `pid` on open file `fd` (see the module docs).
pub(crate) fn ioctl(
    st: &mut State,
    fd: RawFd,
    (request, arg): (u32, u64),
    mem: &dyn UserMemory,
    pid: u32,
) -> Result<c_int, Errno> {
    let file = *st.files.get(&fd).ok_or(Errno::BADF)?;
    let FileKind::Node { mode } = file.kind else {
        return Err(Errno::NOTTY);
    };
    let release = st.release;
    let route = release
        .abi()
        .route(request, mode.is_free_access())
        .ok_or(Errno::INVAL)?;
    if route.attach_check && !st.device(file.device).is_some_and(|d| d.is_attached(pid)) {
        return Err(Errno::ACCESS);
    }
    if st.retired.contains(&request) {
        // An older driver: an exact cmd it lacks falls through to misc, which rejects it;
        // an unknown size in an nr family is rejected by the family's handler.
        return Err(Errno::INVAL);
    }
    if let Some(errno) = hardware_only::refusal(request) {
        return Err(errno);
    }
    let entry = Index::get(release).find(&route, request)?;
    if let Some(d) = st.device_mut(file.device) {
        d.caller = pid;
    }
    let call = Call {
        device: file.device,
        code: request,
        arg,
        tgid: pid,
        mem,
    };
    (entry.run)(st, &call)
}

#[cfg(test)]
mod tests {
    use ndl_abi::{Command, Release, Returns};

    use super::table::{NOT_MODELLED, TABLE};
    use super::{Index, Match};
    use crate::hardware_only;

    /// How the model answers `cmd` of `release`, as a word for the assertion message.
    fn coverage(release: Release, cmd: &Command) -> Result<&'static str, String> {
        let abi = release.abi();
        let route = abi
            .route(cmd.code(), false)
            .ok_or_else(|| format!("{} is not routed", cmd.name()))?;
        let found = Index::get(release).find(&route, cmd.code());
        let stated = |errno: i32| cmd.returns() == Returns::Refused(errno);
        match found {
            Ok(row) if row.command.nr() == cmd.nr() => Ok("a row"),
            Ok(_) => Err(format!("{} reaches a row of another nr", cmd.name())),
            Err(_) if hardware_only::refusal(cmd.code()).is_some() => Ok("hardware-only"),
            Err(_) if NOT_MODELLED.iter().any(|(n, _)| *n == cmd.name()) => Ok("not modelled"),
            // An nr family's layout the handler rejects (MEM_BUF_ZEROCOPY64_DEPRECATED).
            Err(e) if route.by == Match::Nr && stated(e.raw_os_error()) => Ok("refused"),
            Err(e) => Err(format!("{} {release}: no row ({e})", cmd.name())),
        }
    }

    #[test]
    fn every_command_of_every_release_has_a_row_or_a_stated_answer() {
        for release in Release::ALL {
            for cmd in release.abi().catalog {
                if let Err(e) = coverage(release, cmd) {
                    panic!("{e}");
                }
            }
        }
    }

    #[test]
    fn every_row_names_a_command_of_some_release_once() {
        for (i, row) in TABLE.iter().enumerate() {
            let c = row.command;
            let known = Release::ALL.iter().any(|r| {
                r.abi()
                    .lookup(c.code())
                    .is_some_and(|k| k.name() == c.name())
            });
            assert!(known, "{} {:#x} is in no catalog", c.name(), c.code());
            let twice = TABLE[..i]
                .iter()
                .any(|o| (o.command.name(), o.command.code()) == (c.name(), c.code()));
            assert!(!twice, "{} listed twice", c.name());
        }
        for (name, why) in NOT_MODELLED {
            assert!(why.len() > 20 && Release::ALL.iter().any(|r| r.abi().find(name).is_some()));
        }
    }

    #[test]
    fn the_2_27_commands_have_rows_from_2_27_4_0_only() {
        use ndl_abi::v2_27_4_0::{
            AVAILABLE_PERF_PROFILES, GET_ASYNC_H2T_DMA_COMPL_QUEUES, GET_PERFORMANCE_PROFILE,
        };
        for cmd in [
            GET_PERFORMANCE_PROFILE.command(),
            AVAILABLE_PERF_PROFILES.command(),
            GET_ASYNC_H2T_DMA_COMPL_QUEUES.command(),
        ] {
            for release in Release::ALL {
                let routed = release.abi().route(cmd.code(), false);
                let has = release >= Release::V2_27_4_0;
                assert_eq!(routed.is_some(), has, "{} {release}", cmd.name());
                if let Some(route) = routed {
                    assert!(Index::get(release).find(&route, cmd.code()).is_ok());
                }
            }
        }
    }
}
