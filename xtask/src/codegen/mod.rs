//! `cargo xtask codegen [--check]`: writes `crates/ndl-abi/src/generated/` from the tables in
//! `crates/ndl-abi/tables/` (the driver's per-release tables, copied from `reference/abi/`,
//! and the project's own tables under `tables/project/`). With `--check` it regenerates in
//! memory and fails on any difference, including a stale file left in the directory.
//!
//! Every file goes through `rustfmt` (the workspace's `rustfmt.toml`), so the output is what
//! `cargo fmt --check` accepts.

mod emit;
mod model;
mod tsv;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The crate the generator writes.
const CRATE: &str = "crates/ndl-abi";
/// The release the crate root re-exports and the emulated kernel follows: the project's
/// choice (issue 22: "2.26.5.0 stays the default release"), the release of `reference/`.
const DEFAULT_RELEASE: &str = "2.26.5.0";

fn tables(root: &Path) -> PathBuf {
    root.join(CRATE).join("tables")
}

fn out_dir(root: &Path) -> PathBuf {
    root.join(CRATE).join("src/generated")
}

/// `2.26.5.0`-shaped directory names under `tables/abi/`, oldest first.
fn release_names(root: &Path) -> Result<Vec<String>, String> {
    let dir = tables(root).join("abi");
    let mut names: Vec<(Vec<u32>, String)> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| {
            let parts: Option<Vec<u32>> = n.split('.').map(|p| p.parse().ok()).collect();
            parts.filter(|p| p.len() == 4).map(|p| (p, n))
        })
        .collect();
    names.sort();
    Ok(names.into_iter().map(|(_, n)| n).collect())
}

fn keyed(path: &Path, columns: &[&str]) -> Result<model::Keyed, String> {
    let mut out = BTreeMap::new();
    for row in tsv::read(path, columns)? {
        let key = tsv::cell(&row, columns[0])?.to_string();
        if out.insert(key.clone(), row).is_some() {
            return Err(format!("{}: `{key}` twice", path.display()));
        }
    }
    Ok(out)
}

fn inputs(root: &Path) -> Result<model::Inputs, String> {
    let t = tables(root);
    let abi = t.join("abi");
    let project = t.join("project");
    let mut releases = Vec::new();
    for name in release_names(root)? {
        let commands = tsv::read(
            &abi.join(&name).join("ioctl-commands.tsv"),
            &[
                "name",
                "request_hex",
                "dir",
                "nr",
                "ioc_size",
                "arg_type",
                "form",
                "struct_size",
                "struct_align",
                "lane",
                "match",
                "handler_note",
            ],
        )?;
        let structs = tsv::read(
            &abi.join(&name).join("ioctl-structs.tsv"),
            &[
                "struct",
                "field",
                "c_type",
                "offset",
                "size",
                "array_len",
                "io",
                "user_ptr",
            ],
        )?;
        releases.push((name, commands, structs));
    }
    if !releases.iter().any(|(n, _, _)| n == DEFAULT_RELEASE) {
        return Err(format!(
            "the default release {DEFAULT_RELEASE} has no tables"
        ));
    }
    Ok(model::Inputs {
        releases,
        facts: keyed(
            &project.join("command-facts.tsv"),
            &["name", "returns", "attach", "arg"],
        )?,
        ctypes: keyed(&project.join("c-types.tsv"), &["c_type", "rust", "source"])?,
        names: keyed(
            &project.join("struct-names.tsv"),
            &["c_name", "rust", "source"],
        )?,
        errno: tsv::read(&project.join("errno.tsv"), &["name", "value", "source"])?,
        limits: tsv::read(
            &project.join("limits.tsv"),
            &["name", "type", "value", "source"],
        )?,
        compat: tsv::read(&abi.join("compat.tsv"), &["release", "arch", "min", "max"])?,
        versions: tsv::read(
            &abi.join("driver-version.tsv"),
            &[
                "release",
                "module_version",
                "driver_version",
                "driver_revision",
            ],
        )?,
    })
}

/// Every generated file: path relative to `src/generated/` -> formatted text.
fn generate(root: &Path) -> Result<BTreeMap<PathBuf, String>, String> {
    let inputs = inputs(root)?;
    let releases = model::build(&inputs)?;
    let mut files = BTreeMap::new();
    files.insert(
        PathBuf::from("mod.rs"),
        emit::root(&releases, DEFAULT_RELEASE),
    );
    files.insert(PathBuf::from("errno.rs"), emit::errno(&inputs.errno));
    files.insert(PathBuf::from("limits.rs"), emit::limits(&inputs.limits));
    files.insert(
        PathBuf::from("releases.rs"),
        emit::releases(&releases, DEFAULT_RELEASE),
    );
    for r in &releases {
        let dir = PathBuf::from(&r.module);
        files.insert(dir.join("mod.rs"), emit::release_mod(r, DEFAULT_RELEASE));
        files.insert(dir.join("requests.rs"), emit::requests(r));
        files.insert(dir.join("structs.rs"), emit::structs(r));
        files.insert(dir.join("kernel.rs"), emit::kernel(r));
    }
    files
        .into_iter()
        .map(|(path, text)| {
            let formatted = rustfmt(root, &text).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((path, formatted))
        })
        .collect()
}

/// `text` formatted by `rustfmt` with the workspace's configuration.
fn rustfmt(root: &Path, text: &str) -> Result<String, String> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--config-path"])
        .arg(root.join("rustfmt.toml"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start rustfmt: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("rustfmt has no stdin")?
        .write_all(text.as_bytes())
        .map_err(|e| format!("rustfmt stdin: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "rustfmt refused the generated text:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("rustfmt output: {e}"))
}

/// Every file below `dir`, relative to it.
fn existing(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir.join(rel)) else {
        return;
    };
    for e in entries.flatten() {
        let rel = rel.join(e.file_name());
        if e.path().is_dir() {
            existing(dir, &rel, out);
        } else {
            out.push(rel);
        }
    }
}

/// Writes the generated files of the workspace at `root` (`check`: compares instead and fails
/// on any difference).
pub fn run(root: &Path, check: bool) -> Result<(), String> {
    let files = generate(root)?;
    let dir = out_dir(root);
    let mut on_disk = Vec::new();
    existing(&dir, Path::new(""), &mut on_disk);
    let stale: Vec<&PathBuf> = on_disk.iter().filter(|p| !files.contains_key(*p)).collect();
    if check {
        let mut problems: Vec<String> = files
            .iter()
            .filter(|(p, text)| std::fs::read_to_string(dir.join(p)).ok().as_ref() != Some(*text))
            .map(|(p, _)| {
                format!(
                    "{} differs from what the tables give",
                    dir.join(p).display()
                )
            })
            .collect();
        problems.extend(
            stale
                .iter()
                .map(|p| format!("{} is not generated any more", dir.join(p).display())),
        );
        if problems.is_empty() {
            eprintln!("xtask: codegen: {} files up to date", files.len());
            return Ok(());
        }
        return Err(format!(
            "generated code is stale (run `cargo xtask codegen`):\n{}",
            problems.join("\n")
        ));
    }
    for p in stale {
        std::fs::remove_file(dir.join(p)).map_err(|e| format!("remove {}: {e}", p.display()))?;
    }
    for (p, text) in &files {
        let path = dir.join(p);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("create {}: {e}", parent.display()))?;
        }
        if std::fs::read_to_string(&path).ok().as_ref() != Some(text) {
            std::fs::write(&path, text).map_err(|e| format!("write {}: {e}", path.display()))?;
        }
    }
    eprintln!(
        "xtask: codegen: wrote {} files to {}",
        files.len(),
        dir.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The codegen round trip: regenerating from the tables changes nothing.
    #[test]
    fn the_generated_crate_is_what_the_tables_give() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        super::run(&root, true).unwrap();
    }
}
