//! Every release's catalog, routing and structs against its own tables, value by value.
//!
//! The compile-time asserts of the generated code pin each layout and request number to the
//! numbers the generator read; this test reads the tables themselves (the crate's copies of
//! `reference/abi/`) and compares every request code, size, alignment, field offset, lane,
//! match, return convention, window and version string with what the compiler built, so the
//! generator, the Rust definitions and the tables cannot drift apart.

use std::collections::{BTreeMap, BTreeSet};

use ndl_abi::routing::{Chain, Lane, Match};
use ndl_abi::{Abi, DriverArch, Form, Release, Returns, errno};

/// `(commands, structs)` of a release, from the crate's `tables/abi/`.
fn tables(r: Release) -> (&'static str, &'static str) {
    macro_rules! release {
        ($($name:literal),*) => {
            match r.as_str() {
                $($name => (
                    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/abi/", $name, "/ioctl-commands.tsv")),
                    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/abi/", $name, "/ioctl-structs.tsv")),
                ),)*
                other => panic!("no tables listed for {other}"),
            }
        };
    }
    release!(
        "2.24.7.0", "2.25.4.0", "2.26.5.0", "2.27.4.0", "2.28.0.0", "2.29.0.0", "2.30.2.0"
    )
}

const README: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tables/ioctl-README.md"
));
const ABI_README: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/abi/README.md"));
const DMA_PATH: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/dma-path.md"));
const COMPAT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tables/abi/compat.tsv"
));
const VERSIONS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tables/abi/driver-version.tsv"
));

/// Rows of a TSV as column-name -> value maps.
fn rows(tsv: &str) -> Vec<BTreeMap<&str, &str>> {
    let mut lines = tsv.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            assert_eq!(cells.len(), header.len(), "row {l:?}");
            header.iter().copied().zip(cells).collect()
        })
        .collect()
}

fn num(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

/// The command and struct counts `abi/README.md` gives for each release.
fn readme_counts() -> BTreeMap<&'static str, (usize, usize, usize)> {
    ABI_README
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            match cells.as_slice() {
                ["", r, c, s, f, ""] if r.starts_with("2.") => {
                    Some((*r, (c.parse().ok()?, s.parse().ok()?, f.parse().ok()?)))
                }
                _ => None,
            }
        })
        .collect()
}

#[test]
fn the_crate_carries_the_seven_releases_of_the_readme() {
    let counts = readme_counts();
    let names: Vec<&str> = Release::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(names, counts.keys().copied().collect::<Vec<_>>());
    for r in Release::ALL {
        let abi = r.abi();
        let (commands, structs, fields) = counts[r.as_str()];
        assert_eq!(abi.catalog.len(), commands, "{r}");
        assert_eq!(abi.structs.len(), structs, "{r}");
        let declared: usize = abi.structs.iter().map(|s| s.declared().count()).sum();
        assert_eq!(declared, fields, "{r}");
        assert_eq!(abi.release, r);
        assert_eq!(Release::parse(r.as_str()), Ok(r));
    }
    assert_eq!(Release::DEFAULT.as_str(), "2.26.5.0");
    assert!(Release::parse("2.26.5").is_err());
}

#[test]
fn every_command_matches_its_table_row() {
    for r in Release::ALL {
        let abi = r.abi();
        let table = rows(tables(r).0);
        assert_eq!(abi.catalog.len(), table.len());
        for ((row, cmd), routing) in table.iter().zip(abi.catalog).zip(abi.routing) {
            let name = row["name"];
            assert_eq!(cmd.name(), name, "{r}: catalog order follows the table");
            assert_eq!(abi.find(name), Some(cmd), "{r} {name}");
            assert_eq!(u64::from(cmd.code()), num(row["request_hex"]), "{r} {name}");
            assert_eq!(cmd.dir().as_str(), row["dir"], "{r} {name}");
            assert_eq!(u64::from(cmd.nr()), num(row["nr"]), "{r} {name}");
            assert_eq!(u64::from(cmd.size()), num(row["ioc_size"]), "{r} {name}");
            assert_eq!(cmd.form().as_str(), row["form"], "{r} {name}");
            assert_eq!(cmd.arg_type(), row["arg_type"], "{r} {name}");
            let size = cmd.arg_size().map_or("-".to_string(), |s| s.to_string());
            let align = cmd.arg_align().map_or("-".to_string(), |s| s.to_string());
            assert_eq!(size, row["struct_size"], "{r} {name} struct size");
            assert_eq!(align, row["struct_align"], "{r} {name} struct align");
            if cmd.form() == Form::Pointer {
                assert_eq!(
                    cmd.size(),
                    8,
                    "{name}: pointer form encodes sizeof(pointer)"
                );
            }
            // Independent recomputation of the request value from the table's own columns.
            let dir = match row["dir"] {
                "none" => 0u64,
                "W" => 1,
                "R" => 2,
                "WR" => 3,
                d => panic!("dir {d}"),
            };
            let recomputed = dir << 30 | num(row["ioc_size"]) << 16 | 0x4E << 8 | num(row["nr"]);
            assert_eq!(
                recomputed,
                num(row["request_hex"]),
                "{r} {name} table self-check"
            );
            // Kernel side: the lane and match columns, and the attach list (every
            // device+attach command, plus the misc command whose note says so).
            assert_eq!(routing.code, cmd.code());
            assert_eq!(routing.lane.as_str(), row["lane"], "{r} {name}");
            assert_eq!(routing.matching.as_str(), row["match"], "{r} {name}");
            let attach = row["lane"] == "device+attach"
                || row["handler_note"].contains("attach check runs first");
            assert_eq!(routing.attach_checked, attach, "{r} {name}");
        }
        let codes: BTreeSet<u32> = abi.catalog.iter().map(|c| c.code()).collect();
        assert_eq!(
            codes.len(),
            abi.catalog.len(),
            "{r}: request codes are unique"
        );
    }
    // ioctl-README.md "Lanes": the attach list has 19 exact values in 2.26.5.0.
    let default = Release::DEFAULT.abi();
    assert_eq!(
        default.routing.iter().filter(|r| r.attach_checked).count(),
        19
    );
}

#[test]
fn routing_walk_reproduces_the_lane_and_match_columns() {
    for r in Release::ALL {
        let abi: &'static Abi = r.abi();
        for (cmd, row) in abi.catalog.iter().zip(abi.routing) {
            let route = abi
                .route(cmd.code(), false)
                .expect("every catalog code is routed");
            assert_eq!(route.lane(), row.lane, "{r} {}", cmd.name());
            assert_eq!(route.by, row.matching, "{r} {}", cmd.name());
            assert_eq!(route.exact, Some(cmd));
            // Free-access fds reach only the misc chain.
            let free = abi.route(cmd.code(), true);
            assert_eq!(free.is_some(), row.lane == Lane::Misc, "{r} {}", cmd.name());
            if let Some(f) = free {
                assert_eq!(f.chain, Chain::Misc);
                assert!(!f.attach_check, "free-access fds skip the attach check");
            }
        }
    }
    // An unknown size inside an nr family still reaches the family's handler ...
    let odd = ndl_abi::ioc(ndl_abi::Dir::Read, b'N', 23, 16);
    let r = ndl_abi::kernel::route(odd, false).unwrap();
    assert_eq!((r.by, r.exact, r.lane()), (Match::Nr, None, Lane::Device));
    // ... and an unknown exact-matched nr reaches nothing.
    let none = ndl_abi::ioc(ndl_abi::Dir::Read, b'N', 200, 8);
    assert_eq!(ndl_abi::kernel::route(none, false), None);
}

#[test]
fn decoder_names_exact_codes_and_nr_families() {
    for r in Release::ALL {
        let abi: &'static Abi = r.abi();
        for cmd in abi.catalog {
            let d = abi.decode(cmd.code());
            assert_eq!(d.names().collect::<Vec<_>>(), [cmd.name()], "{r}");
            assert_eq!(
                (d.dir(), d.nr(), d.size(), d.ty()),
                (cmd.dir(), cmd.nr(), cmd.size(), b'N')
            );
            assert_eq!(d.lane(), abi.routing_of(cmd.code()).map(|r| r.lane));
        }
    }
    let d = ndl_abi::decode(0xC0084E69);
    assert_eq!(
        d.names().collect::<Vec<_>>(),
        ["NEURON_IOCTL_PROGRAM_ENGINE_NC"]
    );
    // Size 16 on nr 102: no entry, but the kernel routes it to the MEM_ALLOC_V2 family.
    let d = ndl_abi::decode(ndl_abi::ioc(ndl_abi::Dir::Read, b'N', 102, 16));
    assert_eq!(
        d.names().collect::<Vec<_>>(),
        [
            "NEURON_IOCTL_MEM_ALLOC_V2",
            "NEURON_IOCTL_MEM_ALLOC_V2MT",
            "NEURON_IOCTL_MEM_ALLOC_V2MT64"
        ]
    );
    assert_eq!(ndl_abi::decode(0x1234_5678).names().count(), 0);
    assert_eq!(ndl_abi::decode(0x1234_5678).lane(), None);
}

/// Struct sizes of the default release: from the command table where a struct is an argument,
/// otherwise from ioctl-README.md's "Sizes of structs that never appear as a command argument".
fn readme_struct_sizes(structs: &str, commands: &str) -> BTreeMap<String, (u64, u64)> {
    let mut sizes = BTreeMap::new();
    for row in rows(commands) {
        if row["struct_size"] == "-" || !row["arg_type"].starts_with("struct ") {
            continue;
        }
        let ty = row["arg_type"]
            .trim_start_matches("struct ")
            .trim_end_matches(" *")
            .trim();
        sizes.insert(
            ty.to_string(),
            (num(row["struct_size"]), num(row["struct_align"])),
        );
    }
    let line = README
        .lines()
        .skip_while(|l| !l.contains("Sizes of structs that never appear"))
        .enumerate()
        // The item ends at a blank line or at the next bullet.
        .take_while(|(i, l)| !l.trim().is_empty() && (*i == 0 || !l.starts_with("- ")))
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join(" ");
    let list = line.split_once(':').unwrap().1;
    for item in list.split(',') {
        let item = item.trim().trim_end_matches(" (size/align).");
        let mut words = item.split_whitespace();
        let (name, sa) = (words.next().unwrap(), words.next().unwrap());
        let (s, a) = sa.split_once('/').unwrap();
        let full = [format!("neuron_ioctl_{name}"), name.to_string()]
            .into_iter()
            .find(|n| structs.contains(&format!("{n}\t")))
            .unwrap_or_else(|| panic!("README struct {name}"));
        sizes.insert(full, (num(s), num(a)));
    }
    sizes
}

#[test]
fn every_struct_size_and_field_offset_matches_the_table() {
    for r in Release::ALL {
        let abi = r.abi();
        let table = rows(tables(r).1);
        let mut by_struct: BTreeMap<&str, Vec<&BTreeMap<&str, &str>>> = BTreeMap::new();
        for row in &table {
            by_struct.entry(row["struct"]).or_default().push(row);
        }
        assert_eq!(by_struct.len(), abi.structs.len(), "{r}");
        // Argument sizes stated by the release's command table.
        for cmd in abi.catalog {
            if let (Some(tag), Some(size)) = (cmd.arg_struct(), cmd.arg_size()) {
                let layout = abi.struct_layout(tag).unwrap();
                assert_eq!((layout.size, Some(layout.align)), (size, cmd.arg_align()));
            }
        }
        for (name, fields) in &by_struct {
            let layout = abi
                .struct_layout(name)
                .unwrap_or_else(|| panic!("{r}: no Rust struct for {name}"));
            let rust: Vec<_> = layout.declared().collect();
            assert_eq!(rust.len(), fields.len(), "{r} {name}: field count");
            for (f, row) in rust.iter().zip(fields) {
                let field = row["field"];
                assert_eq!(f.name.trim_start_matches("r#"), field, "{r} {name}: order");
                assert_eq!(f.c_type, row["c_type"], "{r} {name}.{field}");
                assert_eq!(f.offset as u64, num(row["offset"]), "{r} {name}.{field}");
                assert_eq!(f.size as u64, num(row["size"]), "{r} {name}.{field} size");
            }
            // Fields and spelled-out padding tile the struct exactly: no implicit padding left.
            let mut end = 0;
            for f in layout.fields {
                assert_eq!(f.offset, end, "{r} {name}: gap before {}", f.name);
                end = f.offset + f.size;
            }
            assert_eq!(end, layout.size, "{r} {name}: tail");
            // Not NoUserPtr exactly when a row (here or in a struct nested by value) carries
            // a user address, or the struct ends in a flexible array.
            let reaches = fields.iter().any(|row| {
                row["user_ptr"] == "yes"
                    || row["array_len"] == "flex"
                    || row["c_type"].strip_prefix("struct ").is_some_and(|t| {
                        abi.struct_layout(if t == "(anonymous)" { name } else { t })
                            .is_some_and(|s| s.c_name != *name && s.user_memory)
                    })
            });
            assert_eq!(layout.user_memory, reaches, "{r} {name}: marker");
        }
    }
    // Sizes of the default release's structs that are no argument, from ioctl-README.md.
    let r = Release::DEFAULT;
    let (commands, structs) = tables(r);
    for (name, (size, align)) in readme_struct_sizes(structs, commands) {
        let layout = r.abi().struct_layout(&name).unwrap();
        assert_eq!(
            (layout.size as u64, layout.align as u64),
            (size, align),
            "{name}"
        );
    }
}

#[test]
fn the_2_27_structs_have_the_sizes_the_release_notes_give() {
    // abi/README.md, 2.26.5.0 -> 2.27.4.0: "available_perf_profiles (36 bytes, align 2),
    // get_async_h2t_dma_compl_queues (264 bytes, with 16 x 16-byte compl_queue_info), ...
    // neuron_h2d_dma_compl_queue (16-byte header: capacity, head, tail; entries from offset 16)
    // and neuron_h2d_dma_compl_queue_entry (24 bytes: sequence_num, compl_ret, context)".
    use ndl_abi::v2_27_4_0 as v;
    assert!(ABI_README.contains("available_perf_profiles (36 bytes, align 2)"));
    assert_eq!(
        (
            size_of::<v::AvailablePerfProfiles>(),
            align_of::<v::AvailablePerfProfiles>()
        ),
        (36, 2)
    );
    assert_eq!(size_of::<v::GetAsyncH2tDmaComplQueues>(), 264);
    assert_eq!(size_of::<v::ComplQueueInfo>(), 16);
    assert_eq!(size_of::<[v::ComplQueueInfo; 16]>(), 256);
    assert_eq!(size_of::<v::H2dDmaComplQueue>(), 16);
    assert_eq!(core::mem::offset_of!(v::H2dDmaComplQueue, entries), 16);
    assert_eq!(size_of::<v::H2dDmaComplQueueEntry>(), 24);
    assert_eq!(v::GET_PERFORMANCE_PROFILE.code(), 0xC008_4E84);
    assert_eq!(v::AVAILABLE_PERF_PROFILES.code(), 0xC024_4E86);
    assert_eq!(v::GET_ASYNC_H2T_DMA_COMPL_QUEUES.code(), 0xC108_4E87);
}

#[test]
fn spelled_out_padding_is_the_readmes_implicit_padding() {
    let text = README
        .lines()
        .skip_while(|l| !l.contains("Implicit padding (offset+bytes)"))
        .take_while(|l| !l.contains("`pod_info` has alignment"))
        .collect::<Vec<_>>()
        .join(" ");
    let list = text.split_once("must reproduce:").unwrap().1;
    let mut expected: BTreeSet<(String, usize, usize)> = BTreeSet::new();
    let mut current = String::new();
    for token in list.split(';').flat_map(|s| s.split(',')) {
        let mut words: Vec<&str> = token.split_whitespace().collect();
        words.retain(|w| *w != "tail" && *w != "tail.");
        for w in words {
            let w = w.trim_end_matches('.');
            if let Some((off, len)) = w.split_once('+') {
                expected.insert((current.clone(), off.parse().unwrap(), len.parse().unwrap()));
            } else {
                current = w.to_string();
            }
        }
    }
    // Expand the README's "program_engine_nc/nc64" and "..64" shorthands.
    let expanded: BTreeSet<(String, usize, usize)> = expected
        .into_iter()
        .flat_map(|(n, o, l)| match n.as_str() {
            "program_engine_nc/nc64" => vec![
                ("program_engine_nc".to_string(), o, l),
                ("program_engine_nc64".to_string(), o, l),
            ],
            "..64" => vec![("dma_copy_descriptors64".to_string(), o, l)],
            "v2_mem_type64" => vec![("mem_alloc_v2_mem_type64".to_string(), o, l)],
            _ => vec![(n, o, l)],
        })
        .collect();
    let mut actual = BTreeSet::new();
    for layout in Release::DEFAULT.abi().structs {
        for f in layout.fields.iter().filter(|f| f.is_padding()) {
            let short = layout
                .c_name
                .trim_start_matches("neuron_ioctl_")
                .to_string();
            actual.insert((short, f.offset, f.size));
        }
    }
    // The README names a padding-like declared field (`mem_alloc_v2_mem_type64.pad`) as
    // implicit padding at 52+4; the header's own `pad` field sits at 48.
    let declared_pad = ("mem_alloc_v2_mem_type64".to_string(), 52, 4);
    assert!(expanded.contains(&declared_pad));
    let missing: Vec<_> = expanded.difference(&actual).collect();
    let extra: Vec<_> = actual.difference(&expanded).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}\nextra {extra:?}"
    );
}

#[test]
fn return_conventions_follow_every_releases_handler_notes() {
    for r in Release::ALL {
        let abi = r.abi();
        let table = rows(tables(r).0);
        for (cmd, row) in abi.catalog.iter().zip(&table) {
            let note = row["handler_note"];
            let expect = if note.contains("returns +EINVAL") {
                Returns::PositiveErrno
            } else if note.contains("-ENOIOCTLCMD") {
                // The VFS turns ENOIOCTLCMD into ENOTTY on the way out.
                Returns::Refused(errno::ENOTTY)
            } else if note.contains("returns -1 without work") {
                Returns::Refused(errno::EPERM)
            } else if note.contains("always -ENOTSUPP") {
                Returns::Refused(errno::ENOTSUPP)
            } else if note.contains("always gives -EINVAL") {
                Returns::Refused(errno::EINVAL)
            } else if note.ends_with("returns 0")
                || note.contains("no-op; returns 0")
                || note.contains("and return 0")
            {
                Returns::Zero
            } else {
                Returns::Status
            };
            assert_eq!(cmd.returns(), expect, "{r} {}: {note}", cmd.name());
            assert_eq!(abi.returns_of(cmd.code()), Some(expect));
        }
    }
    // Linux's numbers (asm-generic/errno-base.h; ENOTSUPP from include/linux/errno.h).
    assert_eq!(
        (errno::EPERM, errno::EINVAL, errno::ENOTTY, errno::ENOTSUPP),
        (1, 22, 25, 524)
    );
}

#[test]
fn every_window_and_version_string_is_the_tables() {
    for row in rows(COMPAT) {
        let r = Release::parse(row["release"]).unwrap();
        let arch = DriverArch::ALL
            .into_iter()
            .find(|a| a.as_str() == row["arch"])
            .unwrap();
        let w = r.abi().compat(arch).unwrap();
        assert_eq!(
            (u64::from(w.min), u64::from(w.max)),
            (num(row["min"]), num(row["max"]))
        );
    }
    for r in Release::ALL {
        let listed = rows(COMPAT)
            .iter()
            .filter(|row| row["release"] == r.as_str())
            .count();
        assert_eq!(r.abi().compat.len(), listed, "{r}");
    }
    // abi/README.md: V4 is present from 2.25.4.0.
    assert_eq!(
        Release::parse("2.24.7.0")
            .unwrap()
            .abi()
            .compat(DriverArch::V4),
        None
    );
    for row in rows(VERSIONS) {
        let v = Release::parse(row["release"]).unwrap().abi().version;
        assert_eq!(
            (v.module_version, v.driver_version, v.driver_revision),
            (
                row["module_version"],
                row["driver_version"],
                row["driver_revision"]
            )
        );
    }
}

#[test]
fn a_struct_unchanged_between_releases_is_one_type() {
    use core::any::TypeId;
    use ndl_abi::{v2_24_7_0, v2_25_4_0, v2_28_0_0, v2_29_0_0};
    // mem_alloc: the same rows in every release.
    assert_eq!(
        TypeId::of::<v2_24_7_0::MemAlloc>(),
        TypeId::of::<ndl_abi::MemAlloc>()
    );
    // mem_buf_copy64zc: 48 bytes up to 2.28.0.0, 64 from 2.29.0.0 (abi/README.md).
    assert_eq!(size_of::<v2_28_0_0::MemBufCopy64zc>(), 48);
    assert_eq!(size_of::<v2_29_0_0::MemBufCopy64zc>(), 64);
    assert_ne!(
        TypeId::of::<v2_28_0_0::MemBufCopy64zc>(),
        TypeId::of::<v2_29_0_0::MemBufCopy64zc>()
    );
    assert_eq!(
        TypeId::of::<v2_25_4_0::MemBufCopy64zc>(),
        TypeId::of::<ndl_abi::MemBufCopy64zc>()
    );
    // The 2.24.7.0 MEM_BUF_ZEROCOPY64 took the 40-byte mem_buf_copy64.
    assert_eq!(v2_24_7_0::MEM_BUF_ZEROCOPY64.code(), 0xC028_4E7C);
    assert_eq!(ndl_abi::MEM_BUF_ZEROCOPY64.code(), 0xC030_4E7C);
}

#[test]
fn the_limits_are_what_the_handler_notes_and_dma_path_say() {
    use ndl_abi::limits::*;
    let note = |r: Release, name: &str| {
        let (commands, _) = tables(r);
        rows(commands)
            .into_iter()
            .find(|row| row["name"] == name)
            .map(|row| row["handler_note"].to_string())
            .unwrap()
    };
    let d = Release::DEFAULT;
    let q = note(d, "NEURON_IOCTL_DMA_QUEUE_INIT_BATCH");
    assert!(q.contains("count must be < 256"), "{q}");
    assert_eq!(QUEUE_INIT_BATCH_MAX, 255);
    assert!(note(d, "NEURON_IOCTL_PRINTK").contains("size must be <= 512 incl. terminating NUL"));
    assert_eq!(PRINTK_MAX, 512);
    assert!(note(d, "NEURON_IOCTL_GET_LOGICAL_TO_PHYSICAL_NC_MAP").contains("<= 128"));
    assert_eq!(NC_MAP_MAX_ENTRIES, 128);
    assert!(note(d, "NEURON_IOCTL_POWER_PROFILE").contains("only ctrl=0 (set)"));
    assert_eq!(POWER_PROFILE_CTRL_SET, 0);
    let r = Release::parse("2.27.4.0").unwrap();
    assert!(note(r, "NEURON_IOCTL_GET_PERFORMANCE_PROFILE").contains("ctrl must be 1 = get"));
    assert_eq!(PERF_PROFILE_CTRL_GET, 1);
    // dma-path.md §5: "one TX descriptor plus one RX descriptor, 16 bytes each"; §6: the
    // kernel "checks offset + 16 x num_descs against the chunk".
    assert!(DMA_PATH.contains("one RX descriptor, 16 bytes each"));
    assert!(DMA_PATH.contains("checks offset + 16 x num_descs against the chunk"));
    assert_eq!(DMA_DESC_BYTES, 16);
}
