//! `cargo xtask package`: every crate can be published, one by one, in dependency order.
//!
//! 1. **Self-contained**: no file of a crate reaches outside its directory (`include_str!` of
//!    `../..`), and every table a crate carries is byte-identical to the project's
//!    `reference/` copy.
//! 2. **The no-panic rule**: every `#![no_std]` crate root denies unwrap, expect, panic,
//!    indexing and truncating casts outside tests (Cargo lints cannot say "outside tests",
//!    so the rule is an attribute in the crate root, and this checks that none lacks it).
//! 3. **Metadata**: every crate inherits the workspace lints, and every publishable crate has
//!    a description, a licence, a repository, a readme, keywords and categories.
//! 4. **Order**: from `cargo metadata`, the workspace crates form a graph of normal, build
//!    and versioned dev-dependencies; it must be acyclic (a versioned dev-dependency cycle
//!    makes the publication of either side fail first; a path-only dev-dependency is dropped
//!    by `cargo publish`), and no publishable crate may depend on an unpublishable one or on a
//!    workspace crate without a version.
//! 5. **Dry runs**: `cargo publish --dry-run` of every crate, in that order (cargo packages
//!    and dry-run uploads each against a local overlay of the crates before it).
//!
//! Crates are found from `cargo metadata`, so a crate added to the workspace is covered
//! without a list here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{cargo, run};

/// The lints a `#![no_std]` crate root denies outside tests.
const NO_STD_DENIES: [&str; 5] = [
    "clippy::unwrap_used",
    "clippy::expect_used",
    "clippy::panic",
    "clippy::indexing_slicing",
    "clippy::cast_possible_truncation",
];

/// What kind of edge a dependency is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    Dev,
    Build,
}

/// A dependency on another workspace crate.
#[derive(Debug)]
struct LocalDep {
    name: String,
    kind: Kind,
    /// False for a path-only dependency (`req` is `*`).
    versioned: bool,
}

/// One workspace crate, as `cargo metadata` describes it.
#[derive(Debug)]
struct Crate {
    name: String,
    dir: PathBuf,
    publishable: bool,
    /// The metadata fields that are missing.
    missing: Vec<&'static str>,
    deps: Vec<LocalDep>,
}

/// The workspace crates, by name.
fn workspace() -> Result<BTreeMap<String, Crate>, String> {
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let meta: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let packages = meta["packages"].as_array().cloned().unwrap_or_default();
    let names: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    let mut crates = BTreeMap::new();
    for p in &packages {
        let name = p["name"].as_str().unwrap_or_default().to_string();
        let dir = Path::new(p["manifest_path"].as_str().unwrap_or_default())
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // `publish`: null = any registry, [] = none.
        let publishable = !matches!(&p["publish"], Value::Array(a) if a.is_empty());
        let mut missing = Vec::new();
        let text = |k: &str| p[k].as_str().is_some_and(|s| !s.trim().is_empty());
        let list = |k: &str| p[k].as_array().is_some_and(|a| !a.is_empty());
        for (field, present) in [
            ("description", text("description")),
            ("license", text("license") || text("license_file")),
            ("repository", text("repository")),
            ("readme", text("readme")),
            ("keywords", list("keywords")),
            ("categories", list("categories")),
        ] {
            if !present {
                missing.push(field);
            }
        }
        let deps = p["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["path"].is_string())
            .filter_map(|d| {
                let dep = d["name"].as_str()?.to_string();
                names.contains(&dep).then(|| LocalDep {
                    name: dep,
                    kind: match d["kind"].as_str() {
                        Some("dev") => Kind::Dev,
                        Some("build") => Kind::Build,
                        _ => Kind::Normal,
                    },
                    versioned: d["req"].as_str().is_some_and(|r| r != "*"),
                })
            })
            .filter(|d| d.name != name)
            .collect();
        crates.insert(
            name.clone(),
            Crate {
                name,
                dir,
                publishable,
                missing,
                deps,
            },
        );
    }
    Ok(crates)
}

/// The publishing order of the publishable crates (dependencies first, ties by name), or
/// every problem that prevents one.
fn order(crates: &BTreeMap<String, Crate>) -> Result<Vec<String>, Vec<String>> {
    let mut problems = Vec::new();
    // Edges: crate -> the workspace crates that must be on the registry before it.
    let mut needs: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for c in crates.values().filter(|c| c.publishable) {
        let mut before = BTreeSet::new();
        for d in &c.deps {
            let Some(target) = crates.get(&d.name) else {
                continue;
            };
            let kept = d.kind != Kind::Dev || d.versioned;
            if d.kind != Kind::Dev && !d.versioned {
                problems.push(format!(
                    "{}: depends on {} by path only (a published crate needs a version)",
                    c.name, d.name
                ));
            }
            if kept && !target.publishable {
                problems.push(format!(
                    "{}: depends on {}, which has `publish = false`",
                    c.name, d.name
                ));
            }
            if kept && target.publishable {
                before.insert(target.name.as_str());
            }
        }
        needs.insert(c.name.as_str(), before);
    }
    let mut done: Vec<String> = Vec::new();
    let mut left = needs;
    while !left.is_empty() {
        let ready: Vec<&str> = left
            .iter()
            .filter(|(_, before)| before.iter().all(|b| done.iter().any(|d| d == b)))
            .map(|(name, _)| *name)
            .collect();
        if ready.is_empty() {
            let stuck: Vec<&str> = left.keys().copied().collect();
            problems.push(format!(
                "no publishing order for {}: a dependency cycle among them (a versioned \
                 dev-dependency in a cycle must be path-only)",
                stuck.join(", ")
            ));
            break;
        }
        for name in ready {
            left.remove(name);
            done.push(name.to_string());
        }
    }
    if problems.is_empty() {
        Ok(done)
    } else {
        Err(problems)
    }
}

/// Every crate must inherit the workspace lints (`[lints]` with `workspace = true`): Cargo
/// does not apply them to a crate that leaves the table out.
fn lints_inherited(crates: &BTreeMap<String, Crate>) -> Vec<String> {
    let mut problems = Vec::new();
    for c in crates.values() {
        let manifest = c.dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap_or_default();
        let mut lines = text.lines().map(str::trim).skip_while(|l| *l != "[lints]");
        let inherits = lines.next().is_some()
            && lines
                .take_while(|l| !l.starts_with('['))
                .any(|l| l.replace(' ', "") == "workspace=true");
        if !inherits {
            problems.push(format!(
                "{}: no `[lints] workspace = true`",
                manifest.display()
            ));
        }
    }
    problems
}

/// Every `#![no_std]` crate root must carry the no-panic rule.
fn no_std_rule(crates: &BTreeMap<String, Crate>) -> Vec<String> {
    let mut problems = Vec::new();
    for c in crates.values() {
        let root = c.dir.join("src/lib.rs");
        let Ok(text) = std::fs::read_to_string(&root) else {
            continue;
        };
        if !text.lines().any(|l| l.trim() == "#![no_std]") {
            continue;
        }
        let flat: String = text.split_whitespace().collect();
        let Some(start) = flat.find("#![cfg_attr(not(test),deny(") else {
            problems.push(format!(
                "{}: a #![no_std] crate without #![cfg_attr(not(test), deny(...))]",
                root.display()
            ));
            continue;
        };
        let block = flat[start..].split(")]").next().unwrap_or_default();
        for lint in NO_STD_DENIES {
            if !block.contains(lint) {
                problems.push(format!(
                    "{}: the no_std rule does not deny {lint}",
                    root.display()
                ));
            }
        }
    }
    problems
}

/// The crate directories of the workspace (`crates/*`).
fn crate_dirs() -> Result<Vec<PathBuf>, String> {
    let mut dirs: Vec<_> = std::fs::read_dir("crates")
        .map_err(|e| format!("cannot list crates/: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Every file below `dir`, skipping build output.
fn files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == "target") {
            continue;
        }
        if path.is_dir() {
            files_below(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The `reference/` file a crate's table copies: the one named by the longest tail of the
/// table's path inside the crate (`tests/data/ioctl-commands.tsv` -> `reference/ioctl-commands.tsv`,
/// `tables/abi/2.27.4.0/ioctl-commands.tsv` -> `reference/abi/2.27.4.0/ioctl-commands.tsv`).
fn reference_of(dir: &Path, file: &Path) -> Option<PathBuf> {
    let parts: Vec<_> = file.strip_prefix(dir).ok()?.components().collect();
    (0..parts.len())
        .map(|skip| {
            let tail: PathBuf = parts.iter().skip(skip).collect();
            Path::new("reference").join(tail)
        })
        .find(|p| p.is_file())
}

/// A crate is packaged from its own directory: a source that includes `../..` would not build
/// from the published tarball, and a table copied into a crate must stay the reference's bytes.
fn self_contained() -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    for dir in crate_dirs()? {
        let mut files = Vec::new();
        files_below(&dir, &mut files);
        for file in files {
            let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext == "rs" {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                for (i, line) in text.lines().enumerate() {
                    if line.contains("\"/../") || line.contains("#[path = \"../") {
                        problems.push(format!(
                            "{}:{}: reaches outside the crate: {}",
                            file.display(),
                            i + 1,
                            line.trim()
                        ));
                    }
                }
            } else if matches!(ext, "tsv" | "md") {
                let Some(reference) = reference_of(&dir, &file) else {
                    continue;
                };
                if std::fs::read(&reference).ok() != std::fs::read(&file).ok() {
                    problems.push(format!(
                        "{}: differs from {} (copy the reference table again)",
                        file.display(),
                        reference.display()
                    ));
                }
            }
        }
    }
    Ok(problems)
}

/// The whole task. `verify`: also compile each crate from its packaged sources (what
/// `cargo publish` does before an upload) — off in `ci`, which has just compiled the same
/// sources from the workspace: the packaged file lists are checked either way, and the
/// verification builds every crate a second time (minutes on CI's two cores).
pub fn package(verify: bool) -> Result<(), String> {
    let crates = workspace()?;
    let mut problems = self_contained()?;
    problems.extend(no_std_rule(&crates));
    problems.extend(lints_inherited(&crates));
    for c in crates
        .values()
        .filter(|c| c.publishable && !c.missing.is_empty())
    {
        problems.push(format!(
            "{}: no {} in Cargo.toml",
            c.name,
            c.missing.join(", ")
        ));
    }
    let order = match order(&crates) {
        Ok(o) => o,
        Err(p) => {
            problems.extend(p);
            Vec::new()
        }
    };
    if !problems.is_empty() {
        return Err(format!("not publishable:\n{}", problems.join("\n")));
    }
    eprintln!("xtask: package: publishing order: {}", order.join(", "));
    // One `cargo publish --dry-run` over every crate, in that order: cargo packages and
    // dry-run uploads each in turn against a local overlay of the ones before it (as they
    // would be on the registry by then). One invocation per crate, each repackaging the
    // crates it needs, costs minutes for the same answer.
    let mut c = cargo();
    c.args(["publish", "--dry-run", "--allow-dirty", "--quiet"]);
    if !verify {
        c.arg("--no-verify");
    }
    for name in &order {
        c.args(["-p", name]);
    }
    run("dry runs", c)?;
    Ok(())
}
