//! `cargo xtask bench main-job [BYTES] [ROUNDS]`: the README's main job beside its floor, as
//! whole processes taking turns (issue 23: `neuron-tool copy --size N` at most 1.05× the
//! floor). The floor is `bench/copy_floor.c` (a verbatim copy of the shared bench peer, gcc
//! `-O3 -march=native` as its README builds it): one process that allocates N fresh bytes
//! twice, fills the source with the tool's pattern, memcpys it and verifies every byte.
//! Rounds alternate so a load swing on a shared machine hits both alike; the minimum and
//! median wall time of each side are printed with the ratio of the medians and the median
//! of the per-round ratios.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::{cargo, run};

/// 64 MiB and 15 rounds unless told.
const BYTES: u64 = 64 << 20;
const ROUNDS: usize = 15;

/// Builds both sides, then times `rounds` alternating runs of each.
pub fn main_job(bytes: Option<&str>, rounds: Option<&str>) -> Result<(), String> {
    let bytes = parse(bytes, BYTES, "BYTES")?;
    let rounds = parse(rounds, ROUNDS as u64, "ROUNDS")?.max(1);
    let mut c = cargo();
    c.args(["build", "--release", "-p", "neuron-tool"]);
    run("build neuron-tool", c)?;
    let dir = Path::new("target/xtask");
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let floor = dir.join("copy_floor");
    let mut c = Command::new(std::env::var("CC").unwrap_or_else(|_| "gcc".into()));
    c.args(["-O3", "-march=native", "-o"])
        .arg(&floor)
        .arg("bench/copy_floor.c");
    run("build the floor", c)?;
    let size = bytes.to_string();
    let mut floor_cmd = Command::new(&floor);
    floor_cmd.arg(&size);
    let mut tool_cmd = Command::new("target/release/neuron-tool");
    tool_cmd.args(["copy", "--size", &size]);
    let (mut f, mut t) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        f.push(time(&mut floor_cmd)?);
        t.push(time(&mut tool_cmd)?);
    }
    let mut ratios: Vec<f64> = t.iter().zip(&f).map(|(t, f)| t / f).collect();
    let (fm, tm, rm) = (median(&mut f), median(&mut t), median(&mut ratios));
    println!(
        "main job, {bytes} bytes, {rounds} rounds: floor min {:.1} med {:.1} ms | \
         neuron-tool copy min {:.1} med {:.1} ms | tool/floor {:.2} (medians), \
         {rm:.2} (median of per-round ratios; goal <= 1.05)",
        f[0] * 1e3,
        fm * 1e3,
        t[0] * 1e3,
        tm * 1e3,
        tm / fm,
    );
    Ok(())
}

fn parse(arg: Option<&str>, default: u64, what: &str) -> Result<u64, String> {
    arg.map_or(Ok(default), |a| {
        a.parse()
            .map_err(|e| format!("bench main-job: {what} {a:?}: {e}"))
    })
}

/// One whole run's wall time in seconds; a failed run is an error.
fn time(c: &mut Command) -> Result<f64, String> {
    let start = Instant::now();
    let status = c
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("{c:?}: {e}"))?;
    let secs = start.elapsed().as_secs_f64();
    if status.success() {
        Ok(secs)
    } else {
        Err(format!("{c:?} failed ({status})"))
    }
}

/// Sorts `v` and returns its median (`v` is never empty: at least one round).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
