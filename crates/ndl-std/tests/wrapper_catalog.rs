//! Every catalog command has a wrapper on the gateway the seed assigns, and every command
//! has a return convention that follows its handler note. (The seed's wrapper shape itself,
//! §1-§3, is pinned in `seed_000_ndl.rs`.)

use ndl_std::ioctl_codes::{CATALOG, Lane};
use ndl_std::returns::{self, ENOTSUPP, RETURNS, Returns};
use ndl_std::{Errno, Gateway, WRAPPERS, wrappers_of};

const COMMANDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/ioctl-commands.tsv"
));

/// `(name, handler_note)` of every table row, in table order.
fn notes() -> Vec<(&'static str, &'static str)> {
    COMMANDS
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells[0], cells[11])
        })
        .collect()
}

#[test]
fn every_catalog_command_has_a_wrapper_on_the_gateway_of_its_lane() {
    assert_eq!(CATALOG.len(), 101);
    for cmd in &CATALOG {
        let ws: Vec<_> = wrappers_of(cmd).collect();
        assert!(!ws.is_empty(), "{} has no wrapper", cmd.name());
        for w in ws {
            match cmd.lane() {
                Lane::Misc => assert_eq!(w.gateway, Gateway::Misc, "{}", w.name),
                Lane::Device | Lane::DeviceAttach => assert_ne!(w.gateway, Gateway::Misc),
            }
        }
    }
    for w in WRAPPERS {
        // Named after the command it sends (without a compat or direction suffix).
        let stem = w.name.trim_end_matches("_cm");
        let stem = stem
            .strip_suffix("_to")
            .or_else(|| stem.strip_suffix("_from"))
            .unwrap_or(stem);
        let first = w.commands[0].short_name().to_lowercase();
        assert!(first.starts_with(stem), "{} vs {first}", w.name);
        // Fallbacks are the same nr family (a size overload), older member last.
        for c in &w.commands[1..] {
            assert_eq!(c.nr(), w.commands[0].nr(), "{}", w.name);
            assert!(c.size() < w.commands[0].size(), "{}", w.name);
        }
        // The seed's handle-cached path: copy, memset and buffer copy commands only.
        let copy_like = w.commands.iter().all(|c| {
            let n = c.short_name();
            n.starts_with("MEM_COPY") || n.starts_with("MEM_BUF_") || n.starts_with("MEMSET")
        });
        assert_eq!(w.gateway == Gateway::DeviceHandle, copy_like, "{}", w.name);
    }
}

#[test]
fn return_conventions_follow_the_handler_notes() {
    let notes = notes();
    assert_eq!(RETURNS.len(), notes.len());
    for ((cmd, conv), (name, note)) in RETURNS.iter().zip(&notes) {
        assert_eq!(cmd.name(), *name, "table order");
        assert_eq!(returns::of(cmd.code()), *conv);
        let expect = if note.contains("returns +EINVAL") {
            Returns::PositiveErrno
        } else if note.contains("-ENOIOCTLCMD") {
            // The VFS turns ENOIOCTLCMD into ENOTTY on the way out.
            Returns::Refused(Errno::NOTTY)
        } else if note.contains("returns -1 without work") {
            Returns::Refused(Errno::PERM)
        } else if note.contains("always -ENOTSUPP") {
            Returns::Refused(ENOTSUPP)
        } else if note.ends_with("returns 0")
            || note.contains("no-op; returns 0")
            || note.contains("and return 0")
        {
            Returns::Zero
        } else {
            Returns::Status
        };
        assert_eq!(*conv, expect, "{name}: {note}");
    }
}
