//! `ioctl diff` against the release notes of `abi/README.md` ("Changes between consecutive
//! releases"), for every pair of consecutive releases: the commands and structs it reports
//! added, the request numbers it reports changed, the fields it reports renamed or added, and
//! nothing else — no removal and no lane or match change, as the notes say of every step.

use std::collections::BTreeSet;

use assert_cmd::Command;
use ndl_abi::Release;
use neuron_tool::abi_diff::{AbiDiff, CommandChange, FieldChange, StructChange};

const README: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/abi/README.md"
));

/// `(from, to, bullets)` of every section, each bullet joined onto one line.
fn sections() -> Vec<(Release, Release, Vec<String>)> {
    let body = README
        .split_once("## Changes between consecutive releases")
        .unwrap()
        .1
        .split_once("\n## ")
        .unwrap()
        .0;
    let mut out: Vec<(Release, Release, Vec<String>)> = Vec::new();
    for line in body.lines() {
        if let Some((a, b)) = line.split_once(" -> ") {
            if let (Ok(a), Ok(b)) = (Release::parse(a), Release::parse(b)) {
                out.push((a, b, Vec::new()));
                continue;
            }
        }
        let Some((_, _, bullets)) = out.last_mut() else {
            continue;
        };
        if let Some(b) = line.strip_prefix("- ") {
            bullets.push(b.to_string());
        } else if let (Some(text), Some(last)) = (line.strip_prefix("  "), bullets.last_mut()) {
            last.push(' ');
            last.push_str(text.trim());
        }
    }
    out
}

/// Words of `text` made of identifier characters, with the position after each.
fn words(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        let ident = c.is_ascii_alphanumeric() || c == '_' || c == '.';
        match (ident, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((text[s..i].trim_end_matches('.'), i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

fn hex(w: &str) -> Option<u32> {
    u32::from_str_radix(w.strip_prefix("0x")?, 16).ok()
}

/// `NAME (nr, 0xREQUEST` / `NAME (nr N, 0xREQUEST` of a "New command(s)" bullet.
fn new_commands(bullet: &str) -> BTreeSet<(String, u8, u32)> {
    let mut out = BTreeSet::new();
    for (name, end) in words(bullet) {
        let rest = &bullet[end..];
        let Some(inner) = rest.strip_prefix(" (") else {
            continue;
        };
        let mut w = words(inner).into_iter().map(|(w, _)| w);
        let mut first = w.next().unwrap_or("");
        if first == "nr" {
            first = w.next().unwrap_or("");
        }
        if let (Ok(nr), Some(code)) = (first.parse(), w.next().and_then(hex)) {
            if name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            {
                out.insert((format!("NEURON_IOCTL_{name}"), nr, code));
            }
        }
    }
    out
}

/// Every `request 0xA -> 0xB` of the section.
fn request_changes(text: &str) -> BTreeSet<(u32, u32)> {
    text.split("request ")
        .skip(1)
        .filter_map(|s| {
            let w: Vec<&str> = s.split_whitespace().take(3).collect();
            match w.as_slice() {
                [a, "->", b] => Some((hex(a)?, hex(b.trim_end_matches(['.', ';', ',']))?)),
                _ => None,
            }
        })
        .collect()
}

/// `(struct, old, new)` of "Renames at unchanged offsets" bullets, in both spellings the
/// notes use (`s.old -> new (offset N` and `in s1, .. and sN: old -> new, old -> new`).
fn renames(bullet: &str) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    let Some(rest) = bullet.strip_prefix("Renames at unchanged offsets") else {
        return out;
    };
    if let Some(list) = rest.strip_prefix(" in ") {
        let (structs, pairs) = list.split_once(':').unwrap();
        let structs: Vec<&str> = words(structs)
            .into_iter()
            .map(|(w, _)| w)
            .filter(|w| *w != "and")
            .collect();
        for pair in pairs.split(", ") {
            let w: Vec<&str> = words(pair).into_iter().map(|(w, _)| w).collect();
            if let [old, new, ..] = w.as_slice() {
                for s in &structs {
                    out.insert((s.to_string(), old.to_string(), new.to_string()));
                }
            }
        }
    } else {
        for part in rest.split(" -> ").collect::<Vec<_>>().windows(2) {
            let before = words(part[0]).last().map(|(w, _)| *w).unwrap_or("");
            let after = words(part[1]).first().map(|(w, _)| *w).unwrap_or("");
            if let Some((s, old)) = before.split_once('.') {
                out.insert((s.to_string(), old.to_string(), after.to_string()));
            }
        }
    }
    out
}

/// `(command, size, [(field, offset)])`.
type Growth = (String, usize, Vec<(String, usize)>);

/// The [`Growth`] of "X grew to N bytes (f at o, g at p)".
fn growth(bullet: &str) -> Option<Growth> {
    let (name, rest) = bullet.split_once(" grew to ")?;
    let (size, rest) = rest.split_once(" bytes (")?;
    let fields = rest
        .split_once(')')?
        .0
        .split(", ")
        .filter_map(|f| {
            let (n, o) = f.split_once(" at ")?;
            Some((n.to_string(), o.parse().ok()?))
        })
        .collect();
    Some((format!("NEURON_IOCTL_{name}"), size.parse().ok()?, fields))
}

fn short(c_name: &str) -> &str {
    let tail = c_name.rsplit('.').next().unwrap_or(c_name);
    tail.strip_prefix("neuron_ioctl_").unwrap_or(tail)
}

#[test]
fn every_step_of_the_release_notes_is_what_ioctl_diff_reports() {
    let sections = sections();
    assert_eq!(sections.len(), 6, "six steps between seven releases");
    for (from, to, bullets) in &sections {
        assert_eq!(to.previous(), Some(*from), "consecutive");
        let text = bullets.join(" ");
        let diff = AbiDiff::between(*from, *to);
        let step = format!("{from} -> {to}");

        // Commands: the notes' new ones, with their numbers; any other addition is a new
        // name the notes give an old request value ("is now named X", "is now X").
        let listed: BTreeSet<_> = bullets
            .iter()
            .filter(|b| b.starts_with("New command"))
            .flat_map(|b| new_commands(b))
            .collect();
        assert!(!listed.is_empty(), "{step}: the notes list new commands");
        let added: BTreeSet<_> = diff
            .commands
            .iter()
            .filter_map(|c| match c {
                CommandChange::Added(c, _) => Some((c.name().to_string(), c.nr(), c.code())),
                _ => None,
            })
            .collect();
        assert!(
            added.is_superset(&listed),
            "{step}: {listed:?} not all in {added:?}"
        );
        for (name, _, _) in added.difference(&listed) {
            let bare = name.trim_start_matches("NEURON_IOCTL_");
            let named = [format!("now named {bare}"), format!("now {bare}")];
            assert!(
                named.iter().any(|n| text.contains(n.as_str())),
                "{step}: {name} unexplained"
            );
        }
        // "No command of an earlier release was removed in any step, and no existing command
        // changed lane or match."
        let mut requests = BTreeSet::new();
        for c in &diff.commands {
            match c {
                CommandChange::Removed(c, _) => panic!("{step}: {} removed", c.name()),
                CommandChange::Changed {
                    name,
                    request,
                    lane,
                    matching,
                    ..
                } => {
                    assert_eq!((lane, matching), (&None, &None), "{step}: {name}");
                    requests.extend(*request);
                }
                CommandChange::Added(..) => {}
            }
        }
        assert_eq!(requests, request_changes(&text), "{step}: request numbers");

        // Structs: every one added is named in the notes or is a new command's argument.
        let arg_of_new: BTreeSet<&str> = diff
            .commands
            .iter()
            .filter_map(|c| match c {
                CommandChange::Added(c, _) => c.arg_struct(),
                _ => None,
            })
            .collect();
        let mut changed = BTreeSet::new();
        let mut renamed = BTreeSet::new();
        let mut grown = BTreeSet::new();
        for s in &diff.structs {
            match s {
                StructChange::Added(s) => assert!(
                    text.contains(short(s.c_name)) || arg_of_new.contains(s.c_name),
                    "{step}: struct {} unexplained",
                    s.c_name
                ),
                StructChange::Removed(s) => panic!("{step}: struct {} removed", s.c_name),
                StructChange::Changed {
                    c_name,
                    size,
                    fields,
                    ..
                } => {
                    changed.insert(c_name.to_string());
                    for f in fields {
                        match f {
                            FieldChange::Renamed { from, to, .. } => {
                                renamed.insert((
                                    short(c_name).to_string(),
                                    from.to_string(),
                                    to.to_string(),
                                ));
                            }
                            FieldChange::Added(f) => {
                                grown.insert((c_name.to_string(), f.name.to_string(), f.offset));
                            }
                            other => panic!("{step}: {c_name}: {other} unexplained"),
                        }
                    }
                    if let Some((_, new)) = size {
                        grown.insert((c_name.to_string(), String::new(), *new));
                    }
                }
            }
        }
        // The notes' "New structs" are all added.
        for b in bullets.iter().filter(|b| b.starts_with("New structs")) {
            for (w, _) in words(b) {
                let named = [w.to_string(), format!("neuron_ioctl_{w}")];
                if let Some(n) = named.iter().find(|n| to.abi().struct_layout(n).is_some()) {
                    let new = from.abi().struct_layout(n).is_none();
                    assert!(new, "{step}: {n} is listed as new");
                }
            }
        }
        // Renames are exactly the notes' renames.
        let noted: BTreeSet<_> = bullets.iter().flat_map(|b| renames(b)).collect();
        assert_eq!(renamed, noted, "{step}: renames");
        // Growth: "X grew to N bytes (f at o, ...)" is X's argument struct's size and its new
        // fields.
        let mut expected = BTreeSet::new();
        for (name, size, fields) in bullets.iter().filter_map(|b| growth(b)) {
            let arg = to.abi().find(&name).and_then(|c| c.arg_struct()).unwrap();
            expected.insert((arg.to_string(), String::new(), size));
            for (f, o) in fields {
                expected.insert((arg.to_string(), f, o));
            }
        }
        assert_eq!(grown, expected, "{step}: growth");
        // Nothing changed that the notes do not mention.
        let explained: BTreeSet<String> = noted
            .iter()
            .map(|(s, _, _)| format!("neuron_ioctl_{s}"))
            .chain(expected.iter().map(|(s, _, _)| s.clone()))
            .collect();
        assert_eq!(changed, explained, "{step}: changed structs");
    }
}

#[test]
fn the_diff_prints_one_line_per_change_under_a_summary() {
    let out = Command::cargo_bin("neuron-tool")
        .unwrap()
        .args(["ioctl", "diff", "2.26.5.0", "2.27.4.0"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "driver 2.26.5.0 -> 2.27.4.0: 3 commands added, 0 removed, 0 changed; 5 structs added, \
         0 removed, 0 changed"
    );
    // abi/README.md: "GET_PERFORMANCE_PROFILE (132, 0xC0084E84, reuses power_profile)".
    assert_eq!(
        lines[1],
        "command added NEURON_IOCTL_GET_PERFORMANCE_PROFILE 0xC0084E84 WR 132 8 device exact"
    );
    assert!(
        lines.contains(&"struct added neuron_ioctl_available_perf_profiles: 36 bytes, align 2")
    );
    assert_eq!(lines.len(), 1 + 3 + 5);
    // A release against itself: nothing.
    let same = AbiDiff::between(Release::DEFAULT, Release::DEFAULT);
    assert!(same.commands.is_empty() && same.structs.is_empty());
}
