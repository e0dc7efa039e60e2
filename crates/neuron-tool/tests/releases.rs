//! Driver releases as a feature users see: `ioctl list --driver R` is release R's table, and
//! `compat --runtime-version V --driver R` answers from the window `abi/compat.tsv` gives R
//! (and without `--driver`, from the built-in model's own COMPATIBLE_VERSION), in one
//! sentence, failing with one sentence when the runtime cannot run there.

use assert_cmd::Command;

fn tool() -> Command {
    Command::cargo_bin("neuron-tool").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let a = tool().args(args).assert().success();
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

/// Fails with exactly one stderr line, `error: ...` containing `want`, and no stdout.
fn fails_with(args: &[&str], want: &str) {
    let a = tool().args(args).assert().failure().stdout("");
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: want '{want}' in {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one sentence, got {err}");
}

/// `NAME 0xREQUEST DIR NR SIZE LANE` of every row of a commands table.
fn listed(table: &str) -> Vec<String> {
    table
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!("{} {} {} {} {} {}", f[0], f[1], f[2], f[3], f[4], f[9])
        })
        .collect()
}

#[test]
fn ioctl_list_of_a_release_is_that_releases_table() {
    for (release, table, rows) in [
        (
            "2.24.7.0",
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/abi/2.24.7.0/ioctl-commands.tsv"
            )),
            94,
        ),
        (
            "2.30.2.0",
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/abi/2.30.2.0/ioctl-commands.tsv"
            )),
            111,
        ),
    ] {
        let out = stdout_of(&["ioctl", "list", "--driver", release]);
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got.len(), rows, "{release}: abi/README.md's command count");
        assert_eq!(got, listed(table), "{release}");
    }
    // Decoding against a release: 0x80384E17 is 2.30.2.0's MEM_COPY64, unknown to 2.26.5.0's
    // exact match but routed by nr 23 to its family.
    let out = stdout_of(&["ioctl", "decode", "0x80384E17", "--driver", "2.30.2.0"]);
    assert!(out.contains("name: NEURON_IOCTL_MEM_COPY64\n"), "{out}");
    let out = stdout_of(&["ioctl", "decode", "0x80384E17"]);
    assert!(out.contains("no command has exactly this number"), "{out}");
    fails_with(
        &["ioctl", "list", "--driver", "2.26"],
        "unknown driver release '2.26'",
    );
    fails_with(
        &["ioctl", "diff", "2.26.5.0", "9.9.9.9"],
        "unknown driver release '9.9.9.9'",
    );
}

/// `(min, max)` of `release` and `arch` in `abi/compat.tsv`.
fn window(release: &str, arch: &str) -> Option<(u32, u32)> {
    let t = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/abi/compat.tsv"
    ));
    t.lines().skip(1).find_map(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        (f[0] == release && f[1] == arch).then(|| (f[2].parse().unwrap(), f[3].parse().unwrap()))
    })
}

#[test]
fn compat_answers_from_the_release_window_in_one_sentence() {
    let (min, max) = window("2.26.5.0", "v3").unwrap();
    assert_eq!((min, max), (10, 11));
    let out = stdout_of(&[
        "compat",
        "--runtime-version",
        &min.to_string(),
        "--driver",
        "2.26.5.0",
    ]);
    assert_eq!(
        out,
        format!(
            "a runtime of compatibility version {min} can run on driver 2.26.5.0 with a cayman \
             (V3) device: the driver accepts versions {min}..{max}\n"
        )
    );
    let newer = (max + 1).to_string();
    fails_with(
        &[
            "compat",
            "--runtime-version",
            &newer,
            "--driver",
            "2.30.2.0",
        ],
        &format!(
            "cannot run on driver 2.30.2.0 with a cayman (V3) device: the driver accepts versions {min}..{max} and {newer} is newer than its newest, {max}"
        ),
    );
    let (min2, max2) = window("2.24.7.0", "v2").unwrap();
    fails_with(
        &[
            "compat",
            "--runtime-version",
            "4",
            "--driver",
            "2.24.7.0",
            "--arch",
            "sunda",
        ],
        &format!("accepts versions {min2}..{max2} and 4 is older than its oldest, {min2}"),
    );
    // V4 has a window only from 2.25.4.0 on.
    assert_eq!(window("2.24.7.0", "v4"), None);
    fails_with(
        &[
            "compat",
            "--runtime-version",
            "10",
            "--driver",
            "2.24.7.0",
            "--arch",
            "mariana",
        ],
        "driver 2.24.7.0 does not support V4 devices",
    );
    assert!(window("2.25.4.0", "v4").is_some());
    stdout_of(&[
        "compat",
        "--runtime-version",
        "10",
        "--driver",
        "2.25.4.0",
        "--arch",
        "mariana",
    ]);
    fails_with(
        &["compat", "--runtime-version", "ten"],
        "--runtime-version 'ten'",
    );
}

#[test]
fn compat_without_a_target_asks_the_built_in_model() {
    // The model's emulated kernel answers COMPATIBLE_VERSION as 2.26.5.0 does on V2.
    let (min, max) = window("2.26.5.0", "v2").unwrap();
    let out = stdout_of(&[
        "compat",
        "--runtime-version",
        &max.to_string(),
        "--arch",
        "sunda",
    ]);
    assert!(
        out.starts_with(&format!("a runtime of compatibility version {max} can run on the built-in device model (sunda, answering as driver 2.26.5.0): the driver accepts versions {min}..{max}")),
        "{out}"
    );
    fails_with(
        &[
            "compat",
            "--runtime-version",
            &(max + 1).to_string(),
            "--arch",
            "sunda",
        ],
        "cannot run on the built-in device model",
    );
}

#[test]
fn compat_on_a_node_that_is_no_neuron_device_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("neuron0"), b"").unwrap();
    let node = dir.path().join("neuron0");
    fails_with(
        &[
            "compat",
            "--runtime-version",
            "10",
            "--device",
            node.to_str().unwrap(),
        ],
        "asking for the compatible versions: NEURON_IOCTL_COMPATIBLE_VERSION failed",
    );
    let gone = dir.path().join("neuron7");
    fails_with(
        &[
            "compat",
            "--runtime-version",
            "10",
            "--device",
            gone.to_str().unwrap(),
        ],
        "no Neuron device at",
    );
}
