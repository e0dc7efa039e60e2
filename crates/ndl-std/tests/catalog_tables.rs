//! Cross-checks the catalog and the ABI structs against the reference tables, value by value.
//!
//! The compile-time asserts in `ioctl_structs.rs` pin each layout to literal numbers; this test
//! reads the tables themselves and compares every request code, size, alignment and field
//! offset with what the compiler computed, so the literals, the Rust definitions and the
//! tables cannot drift apart.

use std::collections::{BTreeMap, BTreeSet};

use ndl_std::ioctl_codes::{self, CATALOG, Chain, Dir, Form, Lane, Match};
use ndl_std::ioctl_structs::STRUCT_LAYOUTS;

const COMMANDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reference/ioctl-commands.tsv"
));
const STRUCTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reference/ioctl-structs.tsv"
));
const README: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../reference/ioctl-README.md"
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

#[test]
fn every_command_matches_its_table_row() {
    let table = rows(COMMANDS);
    assert_eq!(table.len(), 101);
    assert_eq!(CATALOG.len(), table.len());
    for (row, cmd) in table.iter().zip(CATALOG.iter()) {
        let name = row["name"];
        assert_eq!(cmd.name(), name, "catalog order follows the table");
        assert_eq!(ioctl_codes::find(name), Some(cmd));
        assert_eq!(
            u64::from(cmd.code()),
            num(row["request_hex"]),
            "{name} code"
        );
        assert_eq!(cmd.dir().as_str(), row["dir"], "{name} dir");
        assert_eq!(u64::from(cmd.nr()), num(row["nr"]), "{name} nr");
        assert_eq!(u64::from(cmd.size()), num(row["ioc_size"]), "{name} size");
        assert_eq!(cmd.form().as_str(), row["form"], "{name} form");
        assert_eq!(cmd.lane().as_str(), row["lane"], "{name} lane");
        assert_eq!(cmd.matching().as_str(), row["match"], "{name} match");
        let size = cmd.arg_size().map_or("-".to_string(), |s| s.to_string());
        let align = cmd.arg_align().map_or("-".to_string(), |s| s.to_string());
        if cmd.form() == Form::None {
            assert_eq!(row["struct_size"], "-", "{name}");
            assert_eq!(cmd.arg_size(), None);
        } else {
            assert_eq!(size, row["struct_size"], "{name} struct size");
            assert_eq!(align, row["struct_align"], "{name} struct align");
        }
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
            "{name} table self-check"
        );
        // Attach check: every device+attach command, plus the misc command whose note says so.
        let attach = row["lane"] == "device+attach"
            || row["handler_note"].contains("attach check runs first");
        assert_eq!(cmd.attach_checked(), attach, "{name} attach");
    }
    let codes: BTreeSet<u32> = CATALOG.iter().map(|c| c.code()).collect();
    assert_eq!(codes.len(), CATALOG.len(), "request codes are unique");
    assert_eq!(CATALOG.iter().filter(|c| c.attach_checked()).count(), 19);
}

#[test]
fn routing_walk_reproduces_the_lane_and_match_columns() {
    for cmd in &CATALOG {
        let r = ioctl_codes::route(cmd.code(), false).expect("every catalog code is routed");
        assert_eq!(r.lane(), cmd.lane(), "{}", cmd.name());
        assert_eq!(r.by, cmd.matching(), "{}", cmd.name());
        assert_eq!(r.exact, Some(cmd));
        // Free-access fds reach only the misc chain.
        let free = ioctl_codes::route(cmd.code(), true);
        assert_eq!(free.is_some(), cmd.lane() == Lane::Misc, "{}", cmd.name());
        if let Some(f) = free {
            assert_eq!(f.chain, Chain::Misc);
            assert!(!f.attach_check, "free-access fds skip the attach check");
        }
    }
    // An unknown size inside an nr family still reaches the family's handler ...
    let odd = ioctl_codes::ioc(Dir::Read, b'N', 23, 16);
    let r = ioctl_codes::route(odd, false).unwrap();
    assert_eq!((r.by, r.exact, r.lane()), (Match::Nr, None, Lane::Device));
    // ... and an unknown exact-matched nr reaches nothing.
    assert_eq!(
        ioctl_codes::route(ioctl_codes::ioc(Dir::Read, b'N', 200, 8), false),
        None
    );
}

#[test]
fn decoder_names_exact_codes_and_nr_families() {
    for cmd in &CATALOG {
        let d = ioctl_codes::decode(cmd.code());
        assert_eq!(d.names().collect::<Vec<_>>(), [cmd.name()]);
        assert_eq!(
            (d.dir(), d.nr(), d.size(), d.ty()),
            (cmd.dir(), cmd.nr(), cmd.size(), b'N')
        );
        assert_eq!(d.lane(), Some(cmd.lane()));
    }
    let d = ioctl_codes::decode(0xC0084E69);
    assert_eq!(
        d.names().collect::<Vec<_>>(),
        ["NEURON_IOCTL_PROGRAM_ENGINE_NC"]
    );
    assert_eq!(d.dir(), Dir::ReadWrite);
    // Size 16 on nr 102: no entry, but the kernel routes it to the MEM_ALLOC_V2 family.
    let d = ioctl_codes::decode(ioctl_codes::ioc(Dir::Read, b'N', 102, 16));
    assert_eq!(
        d.names().collect::<Vec<_>>(),
        [
            "NEURON_IOCTL_MEM_ALLOC_V2",
            "NEURON_IOCTL_MEM_ALLOC_V2MT",
            "NEURON_IOCTL_MEM_ALLOC_V2MT64"
        ]
    );
    assert_eq!(ioctl_codes::decode(0x1234_5678).names().count(), 0);
    assert_eq!(ioctl_codes::decode(0x1234_5678).lane(), None);
    let line = ioctl_codes::find("MEM_COPY64").unwrap().to_string();
    assert_eq!(line, "NEURON_IOCTL_MEM_COPY64 0x80284E17 R 23 40 device");
}

/// Struct sizes: from the command table where a struct is an argument, otherwise from the
/// README's "Sizes of structs that never appear as a command argument" line.
fn table_struct_sizes() -> BTreeMap<String, (u64, u64)> {
    let mut sizes = BTreeMap::new();
    for row in rows(COMMANDS) {
        if row["struct_size"] == "-" {
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
            .find(|n| STRUCTS.contains(&format!("{n}\t")))
            .unwrap_or_else(|| panic!("README struct {name}"));
        sizes.insert(full, (num(s), num(a)));
    }
    sizes
}

#[test]
fn every_struct_size_and_field_offset_matches_the_table() {
    let table = rows(STRUCTS);
    assert_eq!(table.len(), 380);
    let mut by_struct: BTreeMap<&str, Vec<&BTreeMap<&str, &str>>> = BTreeMap::new();
    for row in &table {
        by_struct.entry(row["struct"]).or_default().push(row);
    }
    assert_eq!(by_struct.len(), 94);
    assert_eq!(STRUCT_LAYOUTS.len(), 94);
    let sizes = table_struct_sizes();
    for (name, fields) in &by_struct {
        let layout = STRUCT_LAYOUTS
            .iter()
            .find(|l| l.c_name == *name)
            .unwrap_or_else(|| panic!("no Rust struct for {name}"));
        let (size, align) = sizes[*name];
        assert_eq!(layout.size as u64, size, "{name} size");
        assert_eq!(layout.align as u64, align, "{name} align");
        let rust: Vec<_> = layout.fields.iter().filter(|f| !f.is_padding()).collect();
        assert_eq!(rust.len(), fields.len(), "{name}: field count");
        for (f, row) in rust.iter().zip(fields) {
            assert_eq!(
                f.name.trim_start_matches("r#"),
                row["field"],
                "{name}: field order"
            );
            assert_eq!(
                f.offset as u64,
                num(row["offset"]),
                "{name}.{}",
                row["field"]
            );
            assert_eq!(
                f.size as u64,
                num(row["size"]),
                "{name}.{} size",
                row["field"]
            );
        }
        // Fields and spelled-out padding tile the struct exactly: no implicit padding left.
        let mut end = 0;
        for f in layout.fields {
            assert_eq!(f.offset, end, "{name}: gap before {}", f.name);
            end = f.offset + f.size;
        }
        assert_eq!(end, layout.size, "{name}: tail");
    }
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
    for layout in STRUCT_LAYOUTS {
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
